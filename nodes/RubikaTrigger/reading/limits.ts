/** The continuous trigger's settings and limits: how often it reads, how far it runs ahead, when it reports. */
import type { ITriggerFunctions } from 'n8n-workflow';

import type { ReadingSettings } from './pages';
import { readReadingSettings } from './pages';

export const DEFAULT_INTERVAL_SECONDS = 1;
export const DEFAULT_IDLE_INTERVAL_SECONDS = 3;
export const MIN_INTERVAL_SECONDS = 0.2;
export const MAX_INTERVAL_SECONDS = 3600;
/** Quiet time after which "Idle Interval" replaces "Interval". */
export const IDLE_AFTER_MS = 5 * 60_000;
export const MAX_ERROR_BACKOFF_MS = 60_000;
/** Executions handed to n8n and not finished: reading waits while this many run. */
export const MAX_UNCONFIRMED = 200;
/** Failed reads in a row after which the outage is recorded as a failed execution (once per outage). */
export const REPORT_AFTER_FAILURES = 3;
/**
 * When the loop resolves the credential anew (and, if it changed, asks Rubika which bot it reaches): it is not
 * resolved per request, because resolving costs n8n a database read, a decryption and an expression sandbox
 * (tens of milliseconds of CPU, BENCHMARKS.md B8).
 * - `intervalMs`: unprompted, while idle.
 * - `beforeHandingOverMs`: before updates are handed to n8n, when it was resolved longer ago than this: the
 *   executions they start use the credential as it is now, so a token just made wrong is noticed (one failed
 *   execution, the updates kept) before the workflow runs with it. At most one resolve per this interval while
 *   updates keep coming.
 * It is resolved too after a failed read, which is what a token revoked or corrected causes.
 * An object, so that a test can shorten the intervals.
 */
export const BOT_CHECK = { intervalMs: 60_000, beforeHandingOverMs: 5_000 };

export interface ContinuousSettings extends ReadingSettings {
	intervalMs: number;
	idleIntervalMs: number;
}

export function readContinuousSettings(ctx: ITriggerFunctions): ContinuousSettings {
	const { options, ...shared } = readReadingSettings(ctx);
	const seconds = (value: unknown, fallback: number) => {
		const number = Number(value);
		if (value === undefined || value === null || value === '' || !Number.isFinite(number)) return fallback * 1000;
		return Math.round(Math.min(MAX_INTERVAL_SECONDS, Math.max(MIN_INTERVAL_SECONDS, number)) * 1000);
	};
	const intervalMs = seconds(options.interval, DEFAULT_INTERVAL_SECONDS);
	return {
		...shared,
		intervalMs,
		idleIntervalMs: Math.max(intervalMs, seconds(options.idleInterval, DEFAULT_IDLE_INTERVAL_SECONDS)),
	};
}

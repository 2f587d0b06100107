/**
 * Waiting without leaving timers behind.
 *
 * n8n forbids timers in nodes; `sleep` from n8n-workflow is the way to wait, but it cannot be cancelled. A
 * long wait is therefore cut into short sleeps that check a stop signal in between: whoever stops the
 * waiter (the continuous trigger's close function) waits at most one slice, and when it returns no timer of
 * ours is left running.
 */
import { sleep } from 'n8n-workflow';

/** Longest single sleep: how late a stop can be noticed. */
export const PAUSE_SLICE_MS = 100;

/** Waits `ms` milliseconds, or less when `signal` fires; never throws. */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	const end = Date.now() + Math.max(0, ms);
	while (signal?.aborted !== true) {
		const left = end - Date.now();
		if (left <= 0) return;
		await sleep(signal ? Math.min(left, PAUSE_SLICE_MS) : left);
	}
}

/** Time and waiting, injectable so that the rate-limit gate and its pace can be tested with a fake clock. */
export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

export const SYSTEM_CLOCK: Clock = { now: () => Date.now(), sleep };

/**
 * The continuous trigger's read failures (./continuousReader.ts): it backs off up to a minute while requests fail,
 * and nothing fails silently: a start-up or read problem becomes one failed execution per outage, which runs
 * the Error Workflow.
 */
import type { ITriggerFunctions, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isRefusal } from '../shared/errors';
import { backoffDelay } from '../shared/transport/retryPolicy';
import { MAX_ERROR_BACKOFF_MS, REPORT_AFTER_FAILURES } from './continuousSettings';

/** Refusals that do not pass by waiting (a token Rubika refuses, a position it rejects): reported at once. */
const LASTING_REFUSALS = ['INVALID_ACCESS', 'INVALID_INPUT'];

export class ReadFailures {
	/** Failed reads in a row. */
	private count = 0;

	private reported = false;

	constructor(
		private readonly ctx: ITriggerFunctions,
		private readonly intervalMs: number,
	) {}

	/** The start-up check failed: reported, and the loop's tries go on from one failure. */
	startFailed(nodeError: NodeApiError | NodeOperationError): void {
		this.report(nodeError);
		this.count = 1;
	}

	/** A read failed; counted at once, before the caller checks whether the bot changed. */
	failed(): void {
		this.count++;
	}

	/** How long to wait before the next read after `nodeError`; reports the outage when it is due. */
	retryDelay(nodeError: NodeApiError | NodeOperationError): number {
		const delay = backoffDelay(this.intervalMs * 2, MAX_ERROR_BACKOFF_MS, this.count);
		this.ctx.logger.warn(
			`Rubika Trigger: reading updates failed (${nodeError.message}); nothing was skipped, trying again in ${Math.round(delay / 100) / 10} s`,
		);
		// A refusal will not pass by itself: reported at once. A fault (Rubika down, the network) only once it
		// has lasted through a few retries.
		if (this.count >= REPORT_AFTER_FAILURES || isRefusal(nodeError, ...LASTING_REFUSALS)) this.report(nodeError);
		return delay;
	}

	recovered(): void {
		if (this.count >= REPORT_AFTER_FAILURES) this.ctx.logger.info('Rubika Trigger: reading updates works again');
		this.count = 0;
		this.reported = false;
	}

	/**
	 * Tells the user, once per outage, that the trigger cannot read: a failed execution with the whole
	 * explanation, which also starts the workflow's Error Workflow (n8n 2.8.4 and 2.41 alike).
	 */
	private report(nodeError: NodeApiError | NodeOperationError): void {
		if (this.reported) return;
		this.reported = true;
		nodeError.description = `${nodeError.description ? `${nodeError.description} ` : ''}The trigger stays active, keeps its position and keeps trying; nothing is skipped.`;
		this.ctx.logger.error(`Rubika Trigger: ${nodeError.message}`);
		this.ctx.saveFailedExecution(nodeError);
	}
}

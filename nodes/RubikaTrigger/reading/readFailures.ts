/**
 * The reading trigger's read failures (./reader.ts): it backs off up to a minute while requests fail,
 * and nothing fails silently: a start-up or read problem becomes one failed execution per outage, which runs
 * the Error Workflow, and whose text says what the trigger does next.
 */
import type { ITriggerFunctions, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isRefusal } from '../../shared/errors';
import { LruMap } from '../../shared/lru';
import { backoffDelay } from '../../shared/transport/retryPolicy';
import { MAX_ERROR_BACKOFF_MS, REPORT_AFTER_FAILURES } from './limits';
import { isPositionRejected } from './pages';

/** Refusals that do not pass by waiting (a token Rubika refuses, a position it rejects): reported at once. */
const LASTING_REFUSALS = ['INVALID_ACCESS', 'INVALID_INPUT'];

/** Triggers remembered at most (the least recently used go first); one per published reading trigger. */
const MAX_TRIGGERS = 1000;

/**
 * Triggers (workflow and node) whose current outage has been reported, in this n8n process. Kept across
 * activations, because an outage outlives them: a person publishing again, or n8n activating the workflow
 * again, while Rubika still refuses is the same outage and raises no second alarm. Forgotten once reading works.
 */
const reportedOutages = new LruMap<string, true>(MAX_TRIGGERS);

export class ReadFailures {
	/** Failed reads in a row. */
	private count = 0;

	/** This trigger's key in reportedOutages. */
	private readonly trigger: string;

	constructor(
		private readonly ctx: ITriggerFunctions,
		private readonly intervalMs: number,
	) {
		this.trigger = `${ctx.getWorkflow().id ?? ''}/${ctx.getNode().id}`;
	}

	/** The start (finding the bot, checking the position) failed: reported at once, the loop tries again. */
	startFailed(nodeError: NodeApiError | NodeOperationError): void {
		this.count = 1;
		this.ctx.logger.warn(`Rubika Trigger: starting failed (${nodeError.message}); nothing was skipped, trying again in the background`);
		this.report(nodeError);
	}

	/** A read failed. */
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

	/** A read worked: the outage, if any, is over, also one reported by an earlier activation of this trigger. */
	recovered(): void {
		const reported = reportedOutages.has(this.trigger);
		if (this.count === 0 && !reported) return;
		if (this.count >= REPORT_AFTER_FAILURES || reported) this.ctx.logger.info('Rubika Trigger: reading updates works again');
		this.count = 0;
		reportedOutages.delete(this.trigger);
	}

	/**
	 * Tells the user, once per outage, that the trigger cannot read: a failed execution with the whole
	 * explanation and what happens next, which also starts the workflow's Error Workflow (n8n 2.8.4 and 2.41
	 * alike).
	 */
	private report(nodeError: NodeApiError | NodeOperationError): void {
		if (reportedOutages.has(this.trigger)) return;
		reportedOutages.set(this.trigger, true);
		nodeError.description = `${nodeError.description ? `${nodeError.description} ` : ''}${whatHappensNext(nodeError)}`;
		this.ctx.logger.error(`Rubika Trigger: ${nodeError.message}`);
		this.ctx.saveFailedExecution(nodeError);
	}
}

/** What the trigger does after `nodeError`, as the failed execution says it; true of ContinuousReader's loop. */
function whatHappensNext(nodeError: NodeApiError | NodeOperationError): string {
	if (isPositionRejected(nodeError)) {
		return 'The workflow stays published and the trigger checks again at most a minute apart, but it reads nothing (and skips nothing) until Rubika accepts the position or you choose another way in Options → If Rubika Rejects the Saved Position and publish the workflow again.';
	}
	return 'The workflow stays published: the trigger keeps its position and tries again at most a minute apart, using the credential as it is then. Once Rubika answers, it reads every update sent meanwhile; nothing is skipped.';
}

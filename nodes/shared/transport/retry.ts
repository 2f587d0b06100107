/**
 * The retry loop every request goes through: n8n's `httpRequestWithAuthentication` (the credential puts the
 * token into the path), a timeout per attempt, transient faults retried with backoff, and rate-limit refusals
 * waited out under the execution's rate-limit gate (../rateLimit.ts) when it has one. What a failure means is
 * decided in ./failures.ts and ./envelope.ts; the error that leaves here is scrubbed of the token (./redact.ts).
 */
import type { IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Admission, RateLimitSettings } from '../rateLimit';
import { RateLimitGate, backoffDelay } from '../rateLimit';
import { pause } from '../wait';
import type { ResolvedCredential, RubikaContext } from './credential';
import { CREDENTIAL_TYPE } from './credential';
import type { RawResponse } from './failures';
import { AttemptFailure, networkFailure, rateLimitBudgetSpent } from './failures';
import { toNodeApiError } from './redact';

interface RetryPolicy {
	/** Total attempts, the first included. */
	maxAttempts: number;
	/** Delay before the first retry; doubles each time, with full jitter. */
	baseDelayMs: number;
	maxDelayMs: number;
	/** Never sleep more than this in total for one call. */
	maxTotalDelayMs: number;
}

const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 4,
	baseDelayMs: 400,
	maxDelayMs: 8_000,
	maxTotalDelayMs: 30_000,
};

export interface CallOptions {
	itemIndex?: number;
	retry?: Partial<RetryPolicy>;
	/** Milliseconds before one attempt is abandoned (and retried as a transient fault). */
	timeoutMs?: number;
	/**
	 * Ends the call at once, in flight or between retries, with an error saying so (the continuous trigger's
	 * close function uses it so that no request outlives the workflow's deactivation).
	 */
	abortSignal?: AbortSignal;
	/**
	 * The execution's rate-limit gate (../rateLimit.ts): it paces every Bot API call under Max Requests per
	 * Second and makes them wait out a refusal together. Without one, as in the triggers, which send one request
	 * at a time within n8n's time budgets, every request backs off on its own and a rate limit uses up its
	 * attempts like any transient fault. Uploads and downloads ignore it.
	 */
	gate?: RateLimitGate;
	/**
	 * The credential, already resolved (./credential.ts `resolveCredential`): n8n then skips resolving it for
	 * this request. Without it n8n resolves the node's credential on every attempt.
	 */
	credential?: ResolvedCredential;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** The Rubika node's Request Options, for all requests of one execution. */
export interface ExecutionSettings extends Pick<CallOptions, 'retry' | 'timeoutMs'> {
	rateLimit: Pick<RateLimitSettings, 'maxPerSecond' | 'maxWaitMs'>;
}

/**
 * The options every request of one execution is sent with: its retries and timeout, and one rate-limit gate
 * that all of them share. The node creates them once per execution and hands them to every call.
 */
export function executionCallOptions({ rateLimit, retry, timeoutMs }: ExecutionSettings): CallOptions {
	const policy = { ...DEFAULT_RETRY_POLICY, ...retry };
	const gate = new RateLimitGate({ ...rateLimit, baseDelayMs: policy.baseDelayMs, maxDelayMs: policy.maxDelayMs });
	return { retry, timeoutMs, gate };
}

export async function sendWithRetries<T>(
	context: RubikaContext,
	label: string,
	request: IHttpRequestOptions | (() => IHttpRequestOptions),
	options: CallOptions,
	interpret: (response: RawResponse) => T | Promise<T>,
	{ gated = false } = {},
): Promise<T> {
	const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
	const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	const gate = gated ? options.gate : undefined;
	let slept = 0;
	let attempts = 0;
	// Failed attempts that count against policy.maxAttempts: all of them, except rate-limit refusals under a gate.
	let faults = 0;
	let refusedSince: number | undefined;
	let refusal: AttemptFailure | undefined;
	const signal = options.abortSignal;
	const abandoned = () => new NodeOperationError(context.getNode(), `Rubika ${label}: abandoned, the caller stopped`);
	const fail = async (failure: AttemptFailure) => await toNodeApiError(context, failure, options.itemIndex, attempts, options.credential);
	const resolved = options.credential ? { credentialsDecrypted: options.credential } : undefined;
	for (;;) {
		if (signal?.aborted) throw abandoned();
		let failure: AttemptFailure;
		const admission: Admission | undefined = gate
			? await gate.admit(refusedSince === undefined ? Infinity : refusedSince + gate.settings.maxWaitMs)
			: { startedAt: Date.now(), paced: false };
		if (!admission) {
			// Refused before, and the cool-down or the pace would start the next try past the wait budget.
			throw await fail(rateLimitBudgetSpent(refusal!, gate!.clock.now() - refusedSince!, gate!.settings.maxWaitMs));
		}
		attempts++;
		try {
			const base = typeof request === 'function' ? request() : request;
			const response = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				CREDENTIAL_TYPE,
				{
					...base,
					// We read status and body ourselves: Rubika errors can arrive with any HTTP code,
					// and we parse the text so that big ids keep their digits.
					json: false,
					encoding: base.encoding ?? 'text',
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					timeout,
					...(signal ? { abortSignal: signal } : {}),
				},
				resolved,
			)) as RawResponse;
			// Awaited here, so that a failure while a streamed body is consumed is retried too.
			const result = await interpret(response);
			gate?.succeeded(admission);
			return result;
		} catch (error) {
			if (signal?.aborted) throw abandoned();
			failure = error instanceof AttemptFailure ? error : networkFailure(label, error);
		}
		if (gate && failure.rateLimited) {
			// No sleep here: the gate holds this request, and every other one of the execution, until the
			// cool-down ends. What bounds the retries is how long this request has been refused.
			const now = gate.clock.now();
			refusedSince ??= now;
			refusal = failure;
			const resumeAt = Math.max(gate.refused(admission, failure.retryAfterMs), now + (failure.retryAfterMs ?? 0));
			if (resumeAt - refusedSince >= gate.settings.maxWaitMs) {
				throw await fail(rateLimitBudgetSpent(failure, now - refusedSince, gate.settings.maxWaitMs));
			}
			context.logger?.debug(`Rubika ${label}: ${failure.message}; all requests wait ${resumeAt - now} ms`);
			continue;
		}
		faults++;
		const delay =
			failure.retryAfterMs !== undefined
				? Math.min(failure.retryAfterMs, policy.maxDelayMs)
				: backoffDelay(policy.baseDelayMs, policy.maxDelayMs, faults);
		if (!failure.retryable || faults >= policy.maxAttempts || slept + delay > policy.maxTotalDelayMs) {
			throw await fail(failure);
		}
		context.logger?.debug(`Rubika ${label}: ${failure.message}; retry ${faults} in ${delay} ms`);
		slept += delay;
		await pause(delay, signal);
	}
}

/**
 * The retry loop every request goes through: n8n's `httpRequestWithAuthentication` (the credential puts the
 * token into the path) with a timeout per attempt, in one of two paths. Without a gate every failure is a
 * fault, retried with backoff; under the bot's rate-limit gate (./rateLimit.ts) every attempt waits for its
 * admission, and a rate-limit refusal is waited out together with the bot's other requests instead. What a
 * failure means is read in ./envelope.ts and ./failures.ts, what comes next is decided in ./retryPolicy.ts,
 * and the error that leaves here is scrubbed of the token (./redact.ts).
 */
import type { IHttpRequestOptions, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { pause } from '../pause';
import type { ResolvedCredential, RubikaContext } from './credential';
import { CREDENTIAL_TYPE, credentialFingerprint, resolveCredential } from './credential';
import type { RawResponse } from './failures';
import { AttemptFailure, networkFailure, rateLimitBudgetSpent } from './failures';
import { toNodeApiError } from './redact';
import type { RetryPolicy } from './retryPolicy';
import { FaultRetries, RefusalBudget, retryPolicy } from './retryPolicy';
import type { RateLimitSettings } from './rateLimit';
import { RateLimitGate, gateForBot } from './rateLimit';

export interface CallOptions {
	itemIndex?: number;
	retry?: Partial<RetryPolicy>;
	/** Milliseconds before one attempt is abandoned (and retried as a transient fault). */
	timeoutMs?: number;
	/**
	 * Ends the call at once, in flight or between retries, with an error saying so (the reading trigger's
	 * close function uses it so that no request outlives the workflow's deactivation).
	 */
	abortSignal?: AbortSignal;
	/**
	 * The bot's rate-limit gate (./rateLimit.ts) and this execution's settings for it: every Bot API call of every
	 * execution for the bot takes a start slot there, under the learned pace and the execution's Max Requests per
	 * Second, and waits out a refusal with the others. Without it, as in the triggers, which send one request at a
	 * time within n8n's time budgets, every request backs off on its own and a rate limit uses up its attempts like
	 * any transient fault. Uploads and downloads never pass it.
	 */
	pacing?: Pacing;
	/**
	 * The credential, already resolved (./credential.ts `resolveCredential`): n8n then skips resolving it for
	 * this request. Without it n8n resolves the node's credential on every attempt.
	 */
	credential?: ResolvedCredential;
}

/**
 * How one item's requests are sent. The node creates the execution's call options once (its Request Options:
 * retries, timeout, and the bot's rate-limit gate that paces every request of every execution for the bot and
 * makes them wait out a refusal together); the runner hands them, with the item's index, to
 * `execute`, which passes them on unchanged to every transport call of the item:
 * `callRubika(this, 'sendSticker', body, call)`, and to the helpers that upload or download (the action node's
 * operations: nodes/Rubika/actions/types.ts). Passed, not kept
 * beside the context, so a call that is not given them is visibly one without the node's settings.
 */
export type ItemCall = CallOptions & {
	itemIndex: number;
	/** Only for an item sent under a campaign (Skip Chats Already Sent): its messages sent by a run that failed. */
	sentParts?: SentParts;
};

/**
 * Skip Chats Already Sent for an item that sends several messages (a long text split up, a file and the rest
 * of its caption). Its chat is recorded only once every message went; when one fails, those sent before it
 * are recorded here, so that a re-run of the item sends only the rest. Each message is named by a label that
 * says what it holds: a changed text is a new message.
 */
export interface SentParts {
	/** Of these labels, those an earlier run recorded as sent. */
	sentBefore(labels: string[]): Promise<Set<string>>;
	/** Records these messages as sent; the record is written before the node returns or throws. */
	delivered(labels: string[]): void;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** The gate a Bot API call passes, with the settings of the execution it belongs to. */
interface Pacing {
	gate: RateLimitGate;
	settings: RateLimitSettings;
	/** The bot's credentialFingerprint, which names it to the reading trigger (../conversations.ts). */
	bot?: string;
}

/** The Rubika node's Request Options, for all requests of one execution. */
export interface ExecutionSettings extends Pick<CallOptions, 'retry' | 'timeoutMs'> {
	rateLimit: RateLimitSettings;
}

/**
 * The options every request of one execution is sent with: its retries and timeout, and the gate of its bot,
 * shared with every other execution for that bot in this process. The node creates them once per execution and
 * hands them to every call. A credential that cannot be read gets a gate of its own: its requests fail anyway,
 * each with the error that says why.
 */
export async function executionCallOptions(context: RubikaContext, { rateLimit, retry, timeoutMs }: ExecutionSettings): Promise<CallOptions> {
	try {
		const bot = credentialFingerprint(await resolveCredential(context));
		return { retry, timeoutMs, pacing: { gate: gateForBot(bot), settings: rateLimit, bot } };
	} catch {
		return { retry, timeoutMs, pacing: { gate: new RateLimitGate(), settings: rateLimit } };
	}
}

type RequestSource = IHttpRequestOptions | (() => IHttpRequestOptions);
type Interpret<T> = (response: RawResponse) => T | Promise<T>;

/**
 * Sends `request` until `interpret` accepts an answer or the retry policy gives up. `gated`: the request is a
 * Bot API call, paced and held by the bot's gate when the options carry one.
 */
export async function sendWithRetries<T>(
	context: RubikaContext,
	label: string,
	request: RequestSource,
	options: CallOptions,
	interpret: Interpret<T>,
	{ gated = false } = {},
): Promise<T> {
	const call = new Attempts(context, label, request, options, interpret);
	return gated && options.pacing ? await sendGated(call, options.pacing) : await sendUngated(call);
}

async function sendUngated<T>(call: Attempts<T>): Promise<T> {
	for (;;) {
		call.stopIfAborted();
		const outcome = await call.send();
		if (outcome.ok) return outcome.result;
		await call.backOff(outcome.failure);
	}
}

async function sendGated<T>(call: Attempts<T>, { gate, settings }: Pacing): Promise<T> {
	const refusals = new RefusalBudget(gate, settings.maxWaitMs);
	for (;;) {
		call.stopIfAborted();
		const admission = await gate.admit(settings, refusals.deadline());
		// Refused before, and the cool-down or the pace would start the next try past the wait budget.
		if (!admission) throw await call.fail(rateLimitBudgetSpent(refusals.spent()));
		const outcome = await call.send();
		if (outcome.ok) {
			gate.succeeded(admission);
			return outcome.result;
		}
		if (!outcome.failure.rateLimited) {
			await call.backOff(outcome.failure);
			continue;
		}
		// No sleep here: the gate holds this request, and every other one of the bot, until the cool-down
		// ends. What bounds the retries is how long this request has been refused.
		const wait = refusals.refused(admission, outcome.failure);
		if (typeof wait !== 'number') throw await call.fail(rateLimitBudgetSpent(wait));
		call.debug(`${outcome.failure.message}; all requests wait ${wait} ms`);
	}
}

/** One call's attempts: sending one, backing off after a fault, and the error the call ends with. */
class Attempts<T> {
	private count = 0;
	private readonly faults: FaultRetries;

	constructor(
		private readonly context: RubikaContext,
		private readonly label: string,
		private readonly request: RequestSource,
		private readonly options: CallOptions,
		private readonly interpret: Interpret<T>,
	) {
		this.faults = new FaultRetries(retryPolicy(options.retry));
	}

	stopIfAborted(): void {
		if (this.options.abortSignal?.aborted) {
			throw new NodeOperationError(this.context.getNode(), `Rubika ${this.label}: abandoned, the caller stopped`);
		}
	}

	/** One attempt: its result, or what went wrong. */
	async send(): Promise<{ ok: true; result: T } | { ok: false; failure: AttemptFailure }> {
		const { context, options } = this;
		this.count++;
		try {
			const base = typeof this.request === 'function' ? this.request() : this.request;
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
					timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
					...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
				},
				options.credential ? { credentialsDecrypted: options.credential } : undefined,
			)) as RawResponse;
			// Awaited here, so that a failure while a streamed body is consumed is retried too.
			return { ok: true, result: await this.interpret(response) };
		} catch (error) {
			this.stopIfAborted();
			return { ok: false, failure: error instanceof AttemptFailure ? error : networkFailure(this.label, error) };
		}
	}

	/** Waits before the next attempt after a fault, or ends the call with it when the policy gives up. */
	async backOff(failure: AttemptFailure): Promise<void> {
		const next = this.faults.next(failure);
		if (!next) throw await this.fail(failure);
		this.debug(`${failure.message}; retry ${next.retry} in ${next.delayMs} ms`);
		await pause(next.delayMs, this.options.abortSignal);
	}

	/** The error the call ends with: the failure, scrubbed of the token, with the attempts made. */
	async fail(failure: AttemptFailure): Promise<NodeApiError> {
		return await toNodeApiError(this.context, failure, this.options.itemIndex, this.count, this.options.credential);
	}

	debug(message: string): void {
		this.context.logger?.debug(`Rubika ${this.label}: ${message}`);
	}
}

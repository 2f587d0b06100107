/**
 * The retry policy, all of it in this file: which failures another attempt may cure, how many attempts a call
 * gets and how long it waits between them, how Retry-After is honoured, and how long a rate-limited request
 * may go on being refused while the bot's gate (./rateLimit.ts) holds it. ./envelope.ts and
 * ./failures.ts describe a failure and ask here whether it is retryable; ./retry.ts sends the attempts and asks
 * here what comes next.
 */
import type { Admission, RateLimitGate } from './rateLimit';
import type { AttemptFailure, BodyShape, NetworkProblem } from './failures';

export interface RetryPolicy {
	/** Total attempts, the first included. */
	maxAttempts: number;
	/** Delay before the first retry; doubles each time, with jitter. */
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

/** The policy with the node's Request Options laid over the defaults. */
export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
	return { ...DEFAULT_RETRY_POLICY, ...overrides };
}

/** Rubika statuses that will never succeed on retry. */
const FINAL_STATUSES = new Set(['INVALID_INPUT', 'INVALID_ACCESS']);
/** Both spellings of the rate-limit status. */
const RATE_LIMIT_STATUSES = new Set(['TOO_REQUESTS', 'TOO_REQUEST']);

const TRANSIENT_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'UND_ERR_SOCKET',
]);

export function isRateLimitStatus(status: string): boolean {
	return RATE_LIMIT_STATUSES.has(status);
}

/** Whether another attempt may cure a failure, for each kind of failure the transport describes. */
export const retryable = {
	/** Rubika refused with `status`: a rate limit, or a server fault that is not final. */
	refusal: (status: string, httpCode: number): boolean =>
		isRateLimitStatus(status) || (!FINAL_STATUSES.has(status) && httpCode >= 500),
	/**
	 * An answer that is not a Rubika envelope: a server fault or timeout, an empty body, or JSON cut off on the
	 * way; not a page from something that is not the Bot API (a wrong Base URL).
	 */
	badAnswer: (httpCode: number, body: BodyShape): boolean =>
		httpCode >= 500 || httpCode === 408 || httpCode === 425 || body === 'empty' || body === 'json',
	/** No answer: a timeout, a dropped or refused connection, a network that may come back; not a wrong host. */
	noAnswer: ({ code, timedOut, hungUp }: NetworkProblem): boolean =>
		timedOut || hungUp || TRANSIENT_NETWORK_CODES.has(code ?? ''),
	/** The method is unknown to Rubika: it will stay unknown. */
	unknownMethod: false,
	/** A download that ended before the bytes its Content-Length announced: a fresh GET may complete it. */
	cutShort: true,
	/** A rate limit that outlasted the wait budget (RefusalBudget below). */
	waitBudgetSpent: false,
};

/** Retry-After in milliseconds (Rubika sends seconds); undefined when absent or not a plain number. */
export function readRetryAfter(header: string | string[] | undefined): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (!value) return undefined;
	const seconds = Number(value);
	return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** Exponential backoff from `baseDelayMs`, doubled per attempt up to `maxDelayMs`, with equal jitter. */
export function backoffDelay(baseDelayMs: number, maxDelayMs: number, attempt: number): number {
	const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
	// "Equal jitter": at least half the exponential delay, so retries never hammer the server at once.
	return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/**
 * The retries one call gets for faults: every failure without a gate, and under one every failure but a rate
 * limit. At most `maxAttempts` failed attempts, each followed by a backoff (or Retry-After, up to
 * `maxDelayMs`), and no more than `maxTotalDelayMs` of waiting in all.
 */
export class FaultRetries {
	private faults = 0;
	private slept = 0;

	constructor(private readonly policy: RetryPolicy) {}

	/** After `failure`: the wait before the next attempt and its number as a retry; undefined: the call fails. */
	next(failure: AttemptFailure): { retry: number; delayMs: number } | undefined {
		const { maxAttempts, baseDelayMs, maxDelayMs, maxTotalDelayMs } = this.policy;
		this.faults++;
		const delayMs =
			failure.retryAfterMs !== undefined ? Math.min(failure.retryAfterMs, maxDelayMs) : backoffDelay(baseDelayMs, maxDelayMs, this.faults);
		if (!failure.retryable || this.faults >= maxAttempts || this.slept + delayMs > maxTotalDelayMs) return undefined;
		this.slept += delayMs;
		return { retry: this.faults, delayMs };
	}
}

/** A rate-limited request's refusals that ran past the wait budget: the latest one, how long they lasted. */
export interface WaitBudgetSpent {
	refusal: AttemptFailure;
	refusedMs: number;
	maxWaitMs: number;
}

/**
 * How long one request may go on being refused for a rate limit under the bot's gate: from its first refusal,
 * its execution's wait budget (Request Options → Rate Limit Wait), however many attempts that takes. The gate
 * holds every request of the bot through the cool-down; this request also waits out its own Retry-After, which
 * the shared cool-down may have been capped below.
 */
export class RefusalBudget {
	private since: number | undefined;
	private latest: AttemptFailure | undefined;

	constructor(
		private readonly gate: RateLimitGate,
		private readonly maxWaitMs: number,
	) {}

	/** The latest time the next attempt may start; no limit before the first refusal. */
	deadline(): number {
		return this.since === undefined ? Infinity : this.since + this.maxWaitMs;
	}

	/** Records the refusal of the attempt `admission` let through: the wait before the next one, or the budget spent. */
	refused(admission: Admission, failure: AttemptFailure): number | WaitBudgetSpent {
		const now = this.gate.clock.now();
		this.since ??= now;
		this.latest = failure;
		const resumeAt = Math.max(this.gate.refused(admission, failure.retryAfterMs, this.maxWaitMs), now + (failure.retryAfterMs ?? 0));
		return resumeAt - this.since >= this.maxWaitMs ? this.spentAt(now) : resumeAt - now;
	}

	/** The gate could not start the next attempt by the deadline. */
	spent(): WaitBudgetSpent {
		return this.spentAt(this.gate.clock.now());
	}

	private spentAt(now: number): WaitBudgetSpent {
		return { refusal: this.latest!, refusedMs: now - this.since!, maxWaitMs: this.maxWaitMs };
	}
}

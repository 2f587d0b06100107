/**
 * What one failed attempt means: its message and description for a person, and what kind of failure it is; the
 * retry policy (./retryPolicy.ts) says whether trying again can help. Rubika's own refusals are read in
 * ./envelope.ts; here are the failures around them (an answer that is not the Bot API's, a network fault, a
 * rate limit that outlasted its wait budget).
 */
import type { JsonObject } from 'n8n-workflow';

import { unknownMethodReport } from './unknownMethod';
import type { WaitBudgetSpent } from './retryPolicy';
import { retryable } from './retryPolicy';

/** An HTTP answer as the transport reads it: status, headers and the body not yet parsed. */
export interface RawResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
}

/** A failure of one attempt, already free of the token; `retryable` decides whether we try again. */
export class AttemptFailure {
	constructor(
		readonly retryable: boolean,
		readonly message: string,
		readonly description: string,
		readonly details: JsonObject,
		readonly httpCode?: number,
		readonly retryAfterMs?: number,
		/** TOO_REQUESTS or HTTP 429: waited out under the execution's rate-limit budget when it has one. */
		readonly rateLimited = false,
	) {}
}

/** What a body that is not a Rubika envelope looks like. */
export type BodyShape = 'empty' | 'html' | 'json' | 'other';

/** An answer that is not a Rubika envelope: an HTML error page, an empty or truncated body. */
export function httpFailure(method: string, response: RawResponse, text: string): AttemptFailure {
	const code = response.statusCode;
	const unknownMethod = unknownMethodReport(method, { httpCode: code });
	if (unknownMethod) {
		return new AttemptFailure(retryable.unknownMethod, unknownMethod.message, unknownMethod.description, {
			method,
			http_code: code,
			body_start: text.slice(0, 200),
		}, code);
	}
	const shape = bodyShape(text);
	const kind = {
		empty: 'an empty body',
		html: `an HTML page${titleOf(text)}`,
		json: 'JSON that is cut off or malformed',
		other: 'a body that is not JSON',
	}[shape];
	return new AttemptFailure(
		retryable.badAnswer(code, shape),
		`Rubika ${method} did not answer like the Bot API: HTTP ${code} with ${kind}`,
		code >= 500
			? 'The Rubika server (or a proxy in front of it) failed. This is usually temporary.'
			: 'Check the Base URL in the Rubika credential: it should point at the Bot API (https://botapi.rubika.ir).',
		{ method, http_code: code, body_start: text.slice(0, 200) },
		code,
	);
}

/** What went wrong when a request got no answer: in words, and its error code. */
export interface NetworkProblem {
	reason: string;
	code?: string;
	timedOut: boolean;
	/** The connection closed before an answer came. */
	hungUp: boolean;
}

export function networkProblem(error: unknown): NetworkProblem {
	const code = findErrorCode(error);
	const text = error instanceof Error ? error.message : String(error);
	// n8n 2.8 turns axios's timeout (ECONNABORTED) into "The connection was aborted, perhaps the server is offline".
	const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout|connection was aborted/i.test(text);
	const hungUp = /socket hang up/i.test(text);
	const reason = timedOut
		? 'the request timed out'
		: code === 'ECONNREFUSED'
			? 'the connection was refused'
			: code === 'ENOTFOUND'
				? 'the host name could not be resolved'
				: code === 'ECONNRESET' || hungUp
					? 'the connection was dropped before an answer came'
					: text;
	return { reason, code, timedOut, hungUp };
}

/** What every failure to reach Rubika tells a person: where Rubika answers from, and the two ways through. */
const REACHING_RUBIKA =
	'Rubika often answers only addresses in Iran: an n8n elsewhere reaches it through a proxy, set in the Rubika credential (Proxy) or for the whole instance (n8n\'s HTTPS_PROXY), or through a gateway in Iran as the Base URL. Also check the Base URL, that this n8n can reach that host (DNS, firewall) and, when a proxy is set, that it runs and reaches Rubika.';

/**
 * No answer at all: a refused or dropped connection, a timeout, a host that does not resolve. The message
 * names the host when the error tells it (never the path, which holds the token), and the proxy the request went
 * through, if any; a timeout, which is how a request from a country Rubika does not answer ends, says so.
 */
export function networkFailure(method: string, error: unknown): AttemptFailure {
	const problem = networkProblem(error);
	const { reason, code } = problem;
	const proxy = proxyOf(error);
	const host = unreachableHost(error) ?? requestHost(error);
	const where = proxy !== undefined && host === proxy ? `the proxy at ${proxy}` : `Rubika${host ? ` at ${host}` : ''}${proxy ? ` through the proxy at ${proxy}` : ''}`;
	const geo = problem.timedOut ? ` (Rubika often answers only addresses in Iran${proxy ? '' : ': from elsewhere, set a Proxy in the Rubika credential'})` : '';
	return new AttemptFailure(
		retryable.noAnswer(problem),
		`Could not reach ${where} for ${method}: ${reason}${geo}`,
		REACHING_RUBIKA,
		// Not under the key `code`: NodeApiError would replace our message with its generic one for it.
		{ method, ...(code ? { network_error: code } : {}), ...(proxy ? { proxy } : {}) },
	);
}

/** The refusal that used up the wait budget, saying how long it lasted and where the budget is set. */
export function rateLimitBudgetSpent({ refusal: failure, refusedMs, maxWaitMs }: WaitBudgetSpent): AttemptFailure {
	const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
	const why =
		maxWaitMs === 0
			? 'Request Options → Rate Limit Wait is 0, so a refused request fails at once.'
			: (failure.retryAfterMs !== undefined && failure.retryAfterMs >= maxWaitMs
					? `Rubika asked to wait ${seconds(failure.retryAfterMs)} (Retry-After), longer than Request Options → Rate Limit Wait allows (${seconds(maxWaitMs)}).`
					: `Rubika kept refusing this request (for ${seconds(refusedMs)}), and the next try would come later than Request Options → Rate Limit Wait allows (${seconds(maxWaitMs)}).`) +
				' Meanwhile every request for this bot paused and slowed down.';
	return new AttemptFailure(
		retryable.waitBudgetSpent,
		failure.message,
		`${failure.description}${/[.!?]$/.test(failure.description) ? '' : '.'} ${why}`,
		{
			...failure.details,
			rate_limited_ms: refusedMs,
			...(failure.retryAfterMs !== undefined ? { retry_after_ms: failure.retryAfterMs } : {}),
		},
		failure.httpCode,
		failure.retryAfterMs,
		true,
	);
}

function bodyShape(text: string): BodyShape {
	if (text.trim() === '') return 'empty';
	if (/^\s*</.test(text)) return 'html';
	return /^\s*[[{]/.test(text) ? 'json' : 'other';
}

function titleOf(html: string): string {
	const match = /<title>([^<]{1,120})<\/title>/i.exec(html);
	return match ? ` ("${match[1].trim()}")` : '';
}

/** The host (and port) a connection failed to, as Node's network errors tell it: `hostname`, or `address` and `port`. */
function unreachableHost(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const candidate = current as { hostname?: unknown; address?: unknown; port?: unknown; cause?: unknown };
		if (typeof candidate.hostname === 'string' && candidate.hostname !== '') return candidate.hostname;
		if (typeof candidate.address === 'string' && candidate.address !== '') {
			return typeof candidate.port === 'number' ? `${candidate.address}:${candidate.port}` : candidate.address;
		}
		current = candidate.cause;
	}
	return undefined;
}

/**
 * The host (and port) the request was for, from the request's address an HTTP client error carries (axios's
 * `config.url`): only the host, never the path, which holds the token.
 */
function requestHost(error: unknown): string | undefined {
	const url = clientConfig(error)?.url;
	if (typeof url !== 'string') return undefined;
	try {
		return new URL(url).host || undefined;
	} catch {
		return undefined;
	}
}

/**
 * `host:port` of the proxy the failed request went through, as n8n's client sets it up: a proxy agent (the
 * credential's Proxy, or n8n 2.8's HTTPS_PROXY) keeps it as `proxy`. Never its user name or password.
 */
function proxyOf(error: unknown): string | undefined {
	const config = clientConfig(error);
	if (config === undefined || typeof config.url !== 'string') return undefined;
	const agent = config.url.toLowerCase().startsWith('https:') ? config.httpsAgent : config.httpAgent;
	const proxy = (agent as { proxy?: unknown } | undefined)?.proxy;
	return proxy instanceof URL ? proxy.host : undefined;
}

/** The request an HTTP client error describes (axios's `config`), on the error or a cause of it (n8n wraps it). */
function clientConfig(error: unknown): { url?: unknown; httpAgent?: unknown; httpsAgent?: unknown } | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const candidate = current as { config?: unknown; cause?: unknown };
		if (candidate.config && typeof candidate.config === 'object') return candidate.config;
		current = candidate.cause;
	}
	return undefined;
}

function findErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const candidate = current as { code?: unknown; cause?: unknown };
		if (typeof candidate.code === 'string' && /^[A-Z_]+$/.test(candidate.code)) return candidate.code;
		current = candidate.cause;
	}
	return undefined;
}

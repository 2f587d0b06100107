/**
 * The one way this package talks to Rubika.
 *
 * Every call goes through n8n's `httpRequestWithAuthentication` (the credential puts the token into the
 * path), answers are parsed here without losing big integer ids, Rubika's error envelope becomes a
 * NodeApiError a person can act on, rate limits and transient faults are retried with backoff, and the
 * bot token is scrubbed from everything that leaves this module. An execution that sets a rate-limit budget
 * (setCallDefaults) shares one cool-down and an adaptive pace among all its requests (./rateLimit.ts).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { parseJsonKeepingBigIntegers } from './json';
import type { Admission, RateLimitSettings } from './rateLimit';
import { RateLimitGate, backoffDelay } from './rateLimit';
import type { MethodResults, UploadResult } from './types';
import { undocumentedMethodHint, unknownMethodReport } from './unknownMethod';
import { pause } from './wait';

export const CREDENTIAL_TYPE = 'rubikaApi';

export type RubikaContext =
	| IExecuteFunctions
	| IPollFunctions
	| ITriggerFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

export interface RetryPolicy {
	/** Total attempts, the first included. */
	maxAttempts: number;
	/** Delay before the first retry; doubles each time, with full jitter. */
	baseDelayMs: number;
	maxDelayMs: number;
	/** Never sleep more than this in total for one call. */
	maxTotalDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
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
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** What each known status means to someone building a workflow. */
const STATUS_EXPLANATIONS: Record<string, string> = {
	INVALID_INPUT:
		'Rubika rejected the request as invalid: a missing or malformed field, an unknown chat or message id, or a bad bot token.',
	INVALID_ACCESS:
		'The bot is not allowed to do this: it may need to be an admin of the chat, or the message is not its own.',
	TOO_REQUESTS: 'Rubika is rate limiting this bot. Slow down (see the node\'s pacing option) and try again.',
};

/** Rubika statuses that will never succeed on retry. */
const FINAL_STATUSES = new Set(['INVALID_INPUT', 'INVALID_ACCESS']);
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

interface RawResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
}

/** A failure of one attempt, already free of the token; `retryable` decides whether we try again. */
class AttemptFailure {
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

type Result<M extends string> = M extends keyof MethodResults ? MethodResults[M] : IDataObject;

/**
 * Calls a Bot API method and returns the envelope's `data`.
 * Throws NodeApiError (with Rubika's status, dev_message, method and HTTP code) when Rubika says no.
 */
export async function callRubika<M extends string>(
	context: RubikaContext,
	method: M,
	body: IDataObject = {},
	options: CallOptions = {},
): Promise<Result<M>> {
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: method,
		body,
		json: true,
		headers: { 'Content-Type': 'application/json' },
	};
	// Only Bot API calls pass the rate-limit gate: the limit belongs to the bot token, which the upload and
	// download addresses do not carry.
	const data = await sendWithRetries(context, method, request, options, (response) => readEnvelope(method, response), {
		gated: true,
	});
	return data as Result<M>;
}

/** Streams a file to an `upload_url` as multipart/form-data with one part named `file`. */
export async function uploadToRubika(
	context: RubikaContext,
	uploadUrl: string,
	file: { fileName: string; mimeType: string; size: number; content: () => AsyncIterable<Uint8Array> },
	options: CallOptions = {},
): Promise<UploadResult> {
	const boundary = `----n8nRubika${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
	const safeName = file.fileName.replace(/["\r\n]/g, '_');
	const head = Buffer.from(
		`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${safeName}"\r\n` +
			`Content-Type: ${file.mimeType || 'application/octet-stream'}\r\n\r\n`,
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
	// A Blob-shaped body: axios streams it chunk by chunk with a known Content-Length, so neither a
	// Buffer nor a disk-backed file is copied into one more whole-file buffer. A fresh one per attempt,
	// because a stream cannot be replayed.
	const makeBody = () => ({
		[Symbol.toStringTag]: 'Blob',
		size: head.length + file.size + tail.length,
		type: `multipart/form-data; boundary=${boundary}`,
		async *stream() {
			yield head;
			yield* file.content();
			yield tail;
		},
	});
	const label = 'upload';
	return (await sendWithRetries(
		context,
		label,
		() => ({
			method: 'POST',
			url: uploadUrl,
			body: makeBody() as unknown as IDataObject,
			// Following redirects makes n8n's HTTP client keep every chunk sent until the answer arrives (to be
			// able to replay the body), which holds a whole second copy of a file streamed from disk.
			disableFollowRedirect: true,
		}),
		{ ...options, timeoutMs: options.timeoutMs ?? 10 * 60_000 },
		(response) => readEnvelope(label, response),
	)) as UploadResult;
}

/** A response body n8n can store as binary data as it arrives (a Node stream; typed without importing one). */
export type DownloadStream = Exclude<Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0], Buffer>;

/**
 * Streams a `download_url` into `consume` (e.g. n8n's binary store), so a large file is never held whole in
 * memory here. `consume` runs inside the retry loop: a connection cut while the body streams, or fewer bytes
 * than Content-Length promised, is retried with a fresh GET like any transient fault. `consume` reports how
 * many bytes it stored (when it knows), to catch a body that ended early without an error.
 */
export async function streamFromRubika<T>(
	context: RubikaContext,
	downloadUrl: string,
	consume: (body: DownloadStream, headers: RawResponse['headers']) => Promise<{ result: T; bytes?: number }>,
	options: CallOptions = {},
): Promise<T> {
	const label = 'download';
	return await sendWithRetries(
		context,
		label,
		{ method: 'GET', url: downloadUrl, encoding: 'stream' },
		{ ...options, timeoutMs: options.timeoutMs ?? 10 * 60_000 },
		async (response) => {
			const body = response.body as DownloadStream;
			if (response.statusCode < 200 || response.statusCode >= 300) {
				throw httpFailure(label, response, await readSome(body, 64 * 1024));
			}
			const { result, bytes } = await consume(body, response.headers);
			const declared = firstHeader(response.headers['content-length']);
			const expected = declared !== undefined && /^\d+$/.test(declared.trim()) ? Number(declared) : undefined;
			if (expected !== undefined && bytes !== undefined && bytes !== expected) {
				throw new AttemptFailure(
					true,
					`Rubika ${label} was incomplete: ${bytes} bytes arrived where ${expected} were announced`,
					'The connection to the file server broke off. This is usually temporary.',
					{ method: label, received_bytes: bytes, expected_bytes: expected },
				);
			}
			return result;
		},
	);
}

/** The start of an error body, as text; the rest is thrown away so the connection is freed. */
async function readSome(body: DownloadStream, limit: number): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of body as AsyncIterable<Buffer | string>) {
			const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			if (size < limit) chunks.push(buffer.subarray(0, limit - size));
			size += buffer.length;
		}
	} catch {
		// A broken error body still tells enough through its status code.
	}
	return Buffer.concat(chunks).toString('utf8');
}

function firstHeader(value: string | string[] | undefined): string | undefined {
	return Array.isArray(value) ? value[0] : value;
}

export interface CallDefaults extends Pick<CallOptions, 'retry' | 'timeoutMs'> {
	/**
	 * Share rate limits among all requests of this execution (see ./rateLimit.ts). Without it, as in the
	 * triggers, which send one request at a time within n8n's time budgets, every request backs off on its
	 * own and a rate limit uses up its attempts like any transient fault.
	 */
	rateLimit?: Pick<RateLimitSettings, 'maxPerSecond' | 'maxWaitMs'>;
}

interface ExecutionDefaults extends Pick<CallOptions, 'retry' | 'timeoutMs'> {
	gate?: RateLimitGate;
}

/**
 * Per-execution defaults (the node's Request Options) and its rate-limit gate. Kept beside the context
 * object, which n8n creates once per node execution and hands to every item, rather than passed through
 * every operation, and dropped with the context when the execution ends.
 */
const callDefaults = new WeakMap<object, ExecutionDefaults>();

export function setCallDefaults(context: RubikaContext, defaults: CallDefaults): void {
	const { rateLimit, ...rest } = defaults;
	const policy = { ...DEFAULT_RETRY_POLICY, ...rest.retry };
	const gate = rateLimit
		? new RateLimitGate({ ...rateLimit, baseDelayMs: policy.baseDelayMs, maxDelayMs: policy.maxDelayMs })
		: undefined;
	callDefaults.set(context, { ...rest, gate });
}

async function sendWithRetries<T>(
	context: RubikaContext,
	label: string,
	request: IHttpRequestOptions | (() => IHttpRequestOptions),
	options: CallOptions,
	interpret: (response: RawResponse) => T | Promise<T>,
	{ gated = false } = {},
): Promise<T> {
	const defaults = callDefaults.get(context);
	const policy = { ...DEFAULT_RETRY_POLICY, ...defaults?.retry, ...options.retry };
	const timeout = options.timeoutMs ?? defaults?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	const gate = gated ? defaults?.gate : undefined;
	let slept = 0;
	let attempts = 0;
	// Failed attempts that count against policy.maxAttempts: all of them, except rate-limit refusals under a gate.
	let faults = 0;
	let refusedSince: number | undefined;
	let refusal: AttemptFailure | undefined;
	const signal = options.abortSignal;
	const abandoned = () => new NodeOperationError(context.getNode(), `Rubika ${label}: abandoned, the caller stopped`);
	for (;;) {
		if (signal?.aborted) throw abandoned();
		let failure: AttemptFailure;
		const admission: Admission | undefined = gate
			? await gate.admit(refusedSince === undefined ? Infinity : refusedSince + gate.settings.maxWaitMs)
			: { startedAt: Date.now(), paced: false };
		if (!admission) {
			// Refused before, and the cool-down or the pace would start the next try past the wait budget.
			const spent = rateLimitBudgetSpent(refusal!, Date.now() - refusedSince!, gate!.settings.maxWaitMs);
			throw toNodeApiError(context, spent, await tokenOf(context), options.itemIndex, attempts);
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
			const now = Date.now();
			refusedSince ??= now;
			refusal = failure;
			const resumeAt = Math.max(gate.refused(admission, failure.retryAfterMs), now + (failure.retryAfterMs ?? 0));
			if (resumeAt - refusedSince >= gate.settings.maxWaitMs) {
				const spent = rateLimitBudgetSpent(failure, now - refusedSince, gate.settings.maxWaitMs);
				throw toNodeApiError(context, spent, await tokenOf(context), options.itemIndex, attempts);
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
			// The token is only needed to scrub an error, so it is looked up here: resolving credentials is a
			// database read and a decryption in n8n, and n8n already does one per request for the call itself.
			throw toNodeApiError(context, failure, await tokenOf(context), options.itemIndex, attempts);
		}
		context.logger?.debug(`Rubika ${label}: ${failure.message}; retry ${faults} in ${delay} ms`);
		slept += delay;
		await pause(delay, signal);
	}
}

/** The refusal that used up the wait budget, saying how long it lasted and where the budget is set. */
function rateLimitBudgetSpent(failure: AttemptFailure, refusedMs: number, maxWaitMs: number): AttemptFailure {
	const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
	const why =
		maxWaitMs === 0
			? 'Request Options → Rate Limit Wait is 0, so a refused request fails at once.'
			: (failure.retryAfterMs !== undefined && failure.retryAfterMs >= maxWaitMs
					? `Rubika asked to wait ${seconds(failure.retryAfterMs)} (Retry-After), longer than Request Options → Rate Limit Wait allows (${seconds(maxWaitMs)}).`
					: `Rubika kept refusing this request (for ${seconds(refusedMs)}), and the next try would come later than Request Options → Rate Limit Wait allows (${seconds(maxWaitMs)}).`) +
				' Meanwhile every request of this node paused and slowed down.';
	return new AttemptFailure(
		false,
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

function readEnvelope(method: string, response: RawResponse): unknown {
	const text = bodyText(response.body);
	const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
	if (response.statusCode === 429) {
		// Named like a refusal that comes with HTTP 200, so that the status is in the message either way.
		const body = parseEnvelope(text);
		const status = isEnvelope(body) && RATE_LIMIT_STATUSES.has(String(body.status)) ? String(body.status) : 'TOO_REQUESTS';
		const devMessage = isEnvelope(body) && typeof body.dev_message === 'string' ? body.dev_message : undefined;
		throw new AttemptFailure(
			true,
			`Rubika ${method} failed: ${status} (HTTP 429)${devMessage ? ` – ${devMessage}` : ''}`,
			STATUS_EXPLANATIONS.TOO_REQUESTS + (devMessage ? ` Rubika says: ${devMessage}` : ''),
			{ method, http_code: 429, status, ...(devMessage ? { dev_message: devMessage } : {}) },
			429,
			retryAfterMs,
			true,
		);
	}
	const envelope = parseEnvelope(text);
	if (!isEnvelope(envelope)) {
		throw httpFailure(method, response, text);
	}
	if (envelope.status === 'OK') {
		return envelope.data ?? {};
	}
	const status = String(envelope.status);
	const devMessage = typeof envelope.dev_message === 'string' ? envelope.dev_message : undefined;
	const details = { method, status, ...(devMessage ? { dev_message: devMessage } : {}), http_code: response.statusCode };
	const unknownMethod = unknownMethodReport(method, { httpCode: response.statusCode, status, devMessage });
	if (unknownMethod) {
		throw new AttemptFailure(false, unknownMethod.message, unknownMethod.description, details, response.statusCode);
	}
	const rateLimited = RATE_LIMIT_STATUSES.has(status);
	const explanation = STATUS_EXPLANATIONS[rateLimited ? 'TOO_REQUESTS' : status] ??
		`Rubika answered with the status ${status}.`;
	throw new AttemptFailure(
		rateLimited || (!FINAL_STATUSES.has(status) && response.statusCode >= 500),
		`Rubika ${method} failed: ${status}${devMessage ? ` – ${devMessage}` : ''}`,
		explanation + (devMessage ? ` Rubika says: ${devMessage}` : '') + (rateLimited ? '' : undocumentedMethodHint(method)),
		details,
		response.statusCode,
		retryAfterMs,
		rateLimited,
	);
}

/** The body as JSON (big ids kept whole), or undefined when it is empty or not JSON. */
function parseEnvelope(text: string): unknown {
	try {
		return text.trim() === '' ? undefined : parseJsonKeepingBigIntegers(text);
	} catch {
		return undefined;
	}
}

/** An answer that is not a Rubika envelope: an HTML error page, an empty or truncated body. */
function httpFailure(method: string, response: RawResponse, text: string): AttemptFailure {
	const code = response.statusCode;
	const unknownMethod = unknownMethodReport(method, { httpCode: code });
	if (unknownMethod) {
		return new AttemptFailure(false, unknownMethod.message, unknownMethod.description, {
			method,
			http_code: code,
			body_start: text.slice(0, 200),
		}, code);
	}
	const kind =
		text.trim() === ''
			? 'an empty body'
			: /^\s*</.test(text)
				? `an HTML page${titleOf(text)}`
				: looksLikeJson(text)
					? 'JSON that is cut off or malformed'
					: 'a body that is not JSON';
	const transient = code >= 500 || code === 408 || code === 425 || text.trim() === '';
	return new AttemptFailure(
		transient || looksLikeJson(text),
		`Rubika ${method} did not answer like the Bot API: HTTP ${code} with ${kind}`,
		code >= 500
			? 'The Rubika server (or a proxy in front of it) failed. This is usually temporary.'
			: 'Check the Base URL in the Rubika credential: it should point at the Bot API (https://botapi.rubika.ir).',
		{ method, http_code: code, body_start: text.slice(0, 200) },
		code,
	);
}

function networkFailure(method: string, error: unknown): AttemptFailure {
	const code = findErrorCode(error);
	const text = error instanceof Error ? error.message : String(error);
	const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(text);
	const reason = timedOut
		? 'the request timed out'
		: code === 'ECONNREFUSED'
			? 'the connection was refused'
			: code === 'ENOTFOUND'
				? 'the host name could not be resolved'
				: code === 'ECONNRESET' || /socket hang up/i.test(text)
					? 'the connection was dropped before an answer came'
					: text;
	return new AttemptFailure(
		timedOut || TRANSIENT_NETWORK_CODES.has(code ?? '') || /socket hang up/i.test(text),
		`Could not reach Rubika for ${method}: ${reason}`,
		'Check the Base URL in the Rubika credential and that this n8n instance can reach it.',
		// Not under the key `code`: NodeApiError would replace our message with its generic one for it.
		{ method, ...(code ? { network_error: code } : {}) },
	);
}

function toNodeApiError(
	context: RubikaContext,
	failure: AttemptFailure,
	token: string | undefined,
	itemIndex: number | undefined,
	attempts: number,
): NodeApiError {
	const scrub = (text: string) => redactToken(text, token);
	const details = JSON.parse(scrub(JSON.stringify({ ...failure.details, attempts }))) as JsonObject;
	const error = new NodeApiError(context.getNode(), details, {
		message: scrub(failure.message),
		description: scrub(failure.description),
		httpCode: failure.httpCode !== undefined ? String(failure.httpCode) : undefined,
		itemIndex,
	});
	error.stack = scrub(error.stack ?? '');
	return error;
}

/** Removes the bot token (raw or URL-encoded) and any `/v3/<token>/` path segment from a text. */
export function redactToken(text: string, token: string | undefined): string {
	let out = text.replace(/\/v3\/[^/\s"'?#]+\//g, '/v3/***/');
	if (token && token.length >= 4) {
		for (const variant of new Set([token, encodeURIComponent(token)])) {
			out = out.split(variant).join('***');
		}
	}
	return out;
}

async function tokenOf(context: RubikaContext): Promise<string | undefined> {
	try {
		const credentials = await context.getCredentials(CREDENTIAL_TYPE);
		return typeof credentials?.accessToken === 'string' ? credentials.accessToken.trim() : undefined;
	} catch {
		return undefined;
	}
}

function isEnvelope(value: unknown): value is { status: unknown; data?: unknown; dev_message?: unknown } {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && 'status' in value;
}

function bodyText(body: unknown): string {
	if (typeof body === 'string') return body;
	if (body === undefined || body === null) return '';
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	return JSON.stringify(body);
}

function looksLikeJson(text: string): boolean {
	return /^\s*[[{]/.test(text);
}

function titleOf(html: string): string {
	const match = /<title>([^<]{1,120})<\/title>/i.exec(html);
	return match ? ` ("${match[1].trim()}")` : '';
}

function parseRetryAfter(header: string | string[] | undefined): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (!value) return undefined;
	const seconds = Number(value);
	return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
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

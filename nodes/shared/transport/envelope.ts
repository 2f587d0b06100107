/**
 * Reading Rubika's answer: the envelope's `data` (big integer ids kept whole), or the refusal it carries as an
 * AttemptFailure saying what the status means and whether a retry can help.
 */
import { isPlainObject, parseJsonKeepingBigIntegers } from '../json';
import { undocumentedMethodHint, unknownMethodReport } from '../unknownMethod';
import type { RawResponse } from './failures';
import { AttemptFailure, httpFailure } from './failures';

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

/** The envelope's `data` when Rubika says OK; throws the AttemptFailure for anything else. */
export function readEnvelope(method: string, response: RawResponse): unknown {
	const text = bodyText(response.body);
	const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
	const envelope = parseEnvelope(text);
	if (response.statusCode === 429) {
		// Named like a refusal that comes with HTTP 200, so that the status is in the message either way.
		const status = isEnvelope(envelope) && RATE_LIMIT_STATUSES.has(String(envelope.status)) ? String(envelope.status) : 'TOO_REQUESTS';
		throw refusal(method, status, devMessageOf(envelope), 429, retryAfterMs, ' (HTTP 429)');
	}
	if (!isEnvelope(envelope)) {
		throw httpFailure(method, response, text);
	}
	if (envelope.status === 'OK') {
		return envelope.data ?? {};
	}
	const status = String(envelope.status);
	const devMessage = devMessageOf(envelope);
	const unknownMethod = unknownMethodReport(method, { httpCode: response.statusCode, status, devMessage });
	if (unknownMethod) {
		const details = { method, status, ...(devMessage ? { dev_message: devMessage } : {}), http_code: response.statusCode };
		throw new AttemptFailure(false, unknownMethod.message, unknownMethod.description, details, response.statusCode);
	}
	throw refusal(method, status, devMessage, response.statusCode, retryAfterMs);
}

/**
 * Rubika's refusal with `status`: what it means, whether a retry can help (a rate limit, or a server fault
 * that is not final), and Rubika's own words. `httpNote` names an HTTP code that is part of the story (429).
 */
function refusal(
	method: string,
	status: string,
	devMessage: string | undefined,
	httpCode: number,
	retryAfterMs: number | undefined,
	httpNote = '',
): AttemptFailure {
	const rateLimited = RATE_LIMIT_STATUSES.has(status);
	const explanation = STATUS_EXPLANATIONS[rateLimited ? 'TOO_REQUESTS' : status] ?? `Rubika answered with the status ${status}.`;
	return new AttemptFailure(
		rateLimited || (!FINAL_STATUSES.has(status) && httpCode >= 500),
		`Rubika ${method} failed: ${status}${httpNote}${devMessage ? ` – ${devMessage}` : ''}`,
		explanation + (devMessage ? ` Rubika says: ${devMessage}` : '') + (rateLimited ? '' : undocumentedMethodHint(method)),
		{ method, status, ...(devMessage ? { dev_message: devMessage } : {}), http_code: httpCode },
		httpCode,
		retryAfterMs,
		rateLimited,
	);
}

function devMessageOf(envelope: unknown): string | undefined {
	return isEnvelope(envelope) && typeof envelope.dev_message === 'string' ? envelope.dev_message : undefined;
}

/** The body as JSON (big ids kept whole), or undefined when it is empty or not JSON. */
function parseEnvelope(text: string): unknown {
	try {
		return text.trim() === '' ? undefined : parseJsonKeepingBigIntegers(text);
	} catch {
		return undefined;
	}
}

function isEnvelope(value: unknown): value is { status: unknown; data?: unknown; dev_message?: unknown } {
	return isPlainObject(value) && 'status' in value;
}

function bodyText(body: unknown): string {
	if (typeof body === 'string') return body;
	if (body === undefined || body === null) return '';
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	return JSON.stringify(body);
}

function parseRetryAfter(header: string | string[] | undefined): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (!value) return undefined;
	const seconds = Number(value);
	return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

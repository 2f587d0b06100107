/**
 * Reading Rubika's answer: the envelope's `data` (big integer ids kept whole), or the refusal it carries as an
 * AttemptFailure saying what the status means; whether a retry can help is the retry policy's (./retryPolicy.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { chatIdHints } from './chatIdHints';
import { isPlainObject, parseJsonKeepingBigIntegers } from '../json';
import { undocumentedMethodHint, unknownMethodReport } from './unknownMethod';
import type { RawResponse } from './failures';
import { AttemptFailure, httpFailure } from './failures';
import { isRateLimitStatus, readRetryAfter, retryable } from './retryPolicy';

/** What each known status means to someone building a workflow. */
const STATUS_EXPLANATIONS: Record<string, string> = {
	INVALID_INPUT:
		'Rubika rejected the request as invalid: a missing or malformed field, an unknown chat or message id, or a bad bot token.',
	INVALID_ACCESS:
		'The bot is not allowed to do this: it may need to be an admin of the chat, or the message is not its own.',
	TOO_REQUESTS: 'Rubika is rate limiting this bot. Slow down (see the node\'s pacing option) and try again.',
};

/**
 * The envelope's `data` when Rubika says OK; throws the AttemptFailure for anything else. `body`, the request's,
 * adds what it shows about a refusal (../chatIdHints.ts).
 */
export function readEnvelope(method: string, response: RawResponse, body?: IDataObject): unknown {
	const text = bodyText(response.body);
	const retryAfterMs = readRetryAfter(response.headers['retry-after']);
	const envelope = parseEnvelope(text);
	if (response.statusCode === 429) {
		// Named like a refusal that comes with HTTP 200, so that the status is in the message either way.
		const status = isEnvelope(envelope) && isRateLimitStatus(String(envelope.status)) ? String(envelope.status) : 'TOO_REQUESTS';
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
		throw new AttemptFailure(retryable.unknownMethod, unknownMethod.message, unknownMethod.description, details, response.statusCode);
	}
	throw refusal(method, status, devMessage, response.statusCode, retryAfterMs, '', body);
}

/**
 * Rubika's refusal with `status`: what it means, whether a retry can help, and Rubika's own words. `httpNote` names an HTTP code that is part of the story (429).
 */
function refusal(
	method: string,
	status: string,
	devMessage: string | undefined,
	httpCode: number,
	retryAfterMs: number | undefined,
	httpNote = '',
	body?: IDataObject,
): AttemptFailure {
	const rateLimited = isRateLimitStatus(status);
	const explanation = STATUS_EXPLANATIONS[rateLimited ? 'TOO_REQUESTS' : status] ?? `Rubika answered with the status ${status}.`;
	return new AttemptFailure(
		retryable.refusal(status, httpCode),
		`Rubika ${method} failed: ${status}${httpNote}${devMessage ? ` – ${devMessage}` : ''}`,
		explanation +
			(devMessage ? ` Rubika says: ${devMessage}` : '') +
			(rateLimited ? '' : undocumentedMethodHint(method) + chatIdHints(body, status)),
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

/**
 * The API route, `POST /v3/{token}/{method}`: every request is logged (token redacted), then delayed by
 * the configured latency, then checked against the fault queue and the rate limit, and only then
 * answered normally: bad token, unknown method, malformed body, or the method's own answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { ErrorAnswer } from './config';
import { ApiError } from './errors';
import type { ActiveFault } from './faults';
import { BodyTooLargeError, readBody, send, sleep } from './http';
import type { MethodContext, MethodHandler } from './methods';
import { METHODS } from './methods';
import { toWireJson } from './serialize';
import type { RubikaSandbox } from './server';
import type { BotRecord } from './state';

export interface RequestLogEntry {
	seq: number;
	/** The API method from the path, or 'upload' / 'download' for the file addresses. */
	method: string;
	/** The request path with the token replaced by "<token>". */
	path: string;
	/** Parsed JSON; the raw text when it is not JSON; null for an empty body; a summary for uploads. */
	body: unknown;
	/** Whether the path held a known token (null for uploads and downloads, which carry none). */
	tokenValid: boolean | null;
	botId: string | null;
	/** null while unanswered, and for dropped connections. */
	httpStatus: number | null;
	/** The envelope status answered, or null when the answer was no envelope. */
	status: string | null;
	/** When it arrived (ms since the epoch). */
	at: number;
	durationMs: number | null;
	fault?: string;
}

export interface Answer {
	httpStatus: number;
	body: string;
	contentType: string;
	status: string | null;
	/** Extra response headers, e.g. Retry-After on a rate-limit answer. */
	headers?: Record<string, string>;
}

const MAX_API_BODY = 8 * 1024 * 1024;
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Faults that mimic an answer lost or garbled on the way back: the request takes effect first. */
export function faultNeedsEffect(fault: ActiveFault): boolean {
	return fault.kind === 'truncated' || (fault.kind === 'drop' && fault.afterEffect === true);
}

export function envelope(httpStatus: number, value: { status: string; [key: string]: unknown }, bareIds: boolean): Answer {
	return { httpStatus, body: toWireJson(value, bareIds), contentType: JSON_TYPE, status: value.status };
}

function errorAnswer(answer: ErrorAnswer, detail?: string): Answer {
	return envelope(
		answer.httpStatus,
		{ status: answer.status, dev_message: detail ? `${answer.devMessage}: ${detail}` : answer.devMessage },
		false,
	);
}

export async function handleApiRequest(
	sandbox: RubikaSandbox,
	req: IncomingMessage,
	res: ServerResponse,
	token: string,
	method: string,
): Promise<void> {
	const config = sandbox.config;
	const received = Date.now();
	let raw: Buffer;
	let tooLarge = false;
	try {
		raw = await readBody(req, MAX_API_BODY);
	} catch (error) {
		if (!(error instanceof BodyTooLargeError)) throw error;
		raw = Buffer.alloc(0);
		tooLarge = true;
	}
	const text = raw.toString('utf8');
	let body: unknown = null;
	let parsed = true;
	if (text.trim() !== '') {
		try {
			body = JSON.parse(text);
		} catch {
			body = text;
			parsed = false;
		}
	}
	const bot = sandbox.state.botByToken(token);
	const entry = sandbox.logRequest({
		method,
		path: `/v3/<token>/${method}`,
		body: tooLarge ? '<body too large>' : body,
		tokenValid: bot !== undefined,
		botId: bot?.bot_id ?? null,
		at: received,
	});
	const finish = (answer: Answer | null, fault?: string) => {
		entry.httpStatus = answer?.httpStatus ?? null;
		entry.status = answer?.status ?? null;
		entry.durationMs = Date.now() - received;
		if (fault) entry.fault = fault;
		if (answer) send(res, answer.httpStatus, answer.body, answer.contentType, answer.headers);
		else req.socket.destroy();
	};

	if (config.latencyMs > 0) await sleep(config.latencyMs);

	const fault = sandbox.faults.take({ kind: 'api', method });
	if (fault?.kind === 'delay') await sleep(fault.ms ?? 0);
	if (fault && fault.kind !== 'delay' && fault.kind !== 'duplicateUpdate') {
		const answered = answerWithFault(fault, () => {
			if (tooLarge) return bodyTooLarge(config.errorHttpStatus);
			return process(sandbox, bot, method, body, parsed, req.method, false);
		});
		finish(answered, fault.kind);
		return;
	}

	if (config.rateLimit && !sandbox.rateLimiter.allow(token, config.rateLimit.perSecond, Date.now())) {
		finish(
			withRetryAfter(
				envelope(
					config.rateLimit.httpStatus ?? 200,
					{ status: config.rateLimit.status ?? 'TOO_REQUESTS', dev_message: 'Too many requests' },
					false,
				),
				config.rateLimit.retryAfterSeconds,
			),
			'rateLimit',
		);
		return;
	}

	const answer = tooLarge
		? bodyTooLarge(config.errorHttpStatus)
		: process(sandbox, bot, method, body, parsed, req.method, fault?.kind === 'duplicateUpdate');
	finish(answer, fault?.kind);
}

function bodyTooLarge(httpStatus: number): Answer {
	return envelope(httpStatus, { status: 'INVALID_INPUT', dev_message: 'request body too large' }, false);
}

/**
 * The answer a fault produces; null means "drop the connection". Faults that mimic a lost or garbled
 * answer (truncated, drop with afterEffect) let the request take effect first, as on a real network.
 */
export function answerWithFault(fault: ActiveFault, normal: () => Answer): Answer | null {
	switch (fault.kind) {
		case 'httpStatus':
			return withRetryAfter(
				{
					httpStatus: fault.httpStatus ?? 500,
					body: fault.body ?? 'Internal Server Error',
					contentType: fault.contentType ?? 'text/plain; charset=utf-8',
					status: null,
				},
				fault.retryAfterSeconds,
			);
		case 'status':
			return withRetryAfter(
				envelope(
					fault.httpStatus ?? 200,
					{ status: fault.status ?? 'TOO_REQUESTS', dev_message: fault.devMessage ?? 'injected fault' },
					false,
				),
				fault.retryAfterSeconds,
			);
		case 'malformed':
			return { httpStatus: 200, body: '{"status": OK, "data": {message_id: 1}', contentType: JSON_TYPE, status: null };
		case 'truncated': {
			const full = normal();
			return { ...full, body: full.body.slice(0, Math.max(1, Math.floor(full.body.length / 2))), status: null };
		}
		case 'html':
			return {
				httpStatus: fault.httpStatus ?? 502,
				body: '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
				contentType: 'text/html',
				status: null,
			};
		case 'empty':
			return { httpStatus: fault.httpStatus ?? 200, body: '', contentType: JSON_TYPE, status: null };
		case 'drop':
			if (fault.afterEffect) normal();
			return null;
		default:
			return normal();
	}
}

/** Adds a Retry-After header (whole or fractional seconds, as configured) when one is asked for. */
function withRetryAfter(answer: Answer, seconds: number | undefined): Answer {
	return seconds === undefined ? answer : { ...answer, headers: { ...answer.headers, 'Retry-After': String(seconds) } };
}

function process(
	sandbox: RubikaSandbox,
	bot: BotRecord | undefined,
	method: string,
	body: unknown,
	parsed: boolean,
	httpMethod: string | undefined,
	duplicateUpdate: boolean,
): Answer {
	const config = sandbox.config;
	if (!bot) return errorAnswer(config.badToken);
	// A method listed in absentMethods is answered exactly as one the service has never heard of.
	if (!Object.hasOwn(METHODS, method) || config.absentMethods.includes(method)) return errorAnswer(config.unknownMethod, method);
	const fail = (devMessage: string) =>
		envelope(config.errorHttpStatus, { status: 'INVALID_INPUT', dev_message: devMessage }, false);
	if (httpMethod !== 'POST') return fail('methods are called with POST');
	if (!parsed) return fail('the body is not valid JSON');
	if (body === null) body = {};
	if (typeof body !== 'object' || Array.isArray(body)) return fail('the body must be a JSON object');
	const context: MethodContext = {
		state: sandbox.state,
		config,
		bot,
		uploadUrl: (slotId) => sandbox.uploadUrl(slotId),
		downloadUrl: (file) => sandbox.downloadUrl(file),
		duplicateUpdate,
	};
	try {
		const data = (METHODS as Record<string, MethodHandler>)[method](context, body as Record<string, unknown>);
		return envelope(200, { status: 'OK', data }, config.bareNumericIds);
	} catch (error) {
		if (error instanceof ApiError) {
			return envelope(
				error.httpStatus ?? config.errorHttpStatus,
				{ status: error.status, dev_message: error.devMessage },
				false,
			);
		}
		// A sandbox bug: make it loud rather than pretend the service said something.
		console.error('[rubika-sandbox] internal error in', method, error);
		return envelope(500, { status: 'SANDBOX_INTERNAL_ERROR', dev_message: String(error) }, false);
	}
}

/**
 * The answers the API and file routes send: an envelope, what an injected fault answers instead (faults.ts
 * queues them; the routes decide which request a fault hits), and what a real Rubika answered (a probe
 * report's recorded answers, config `recordedAnswers`).
 */
import { isPlainObject } from '../nodes/shared/json';
import type { RecordedAnswer } from './config';
import type { ActiveFault } from './faults';
import { toWireJson } from './serialize';

export interface Answer {
	httpStatus: number;
	body: string;
	contentType: string;
	status: string | null;
	/** Extra response headers, e.g. Retry-After on a rate-limit answer. */
	headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Faults that mimic an answer lost or garbled on the way back: the request takes effect first. */
export function faultNeedsEffect(fault: ActiveFault): boolean {
	return fault.kind === 'truncated' || (fault.kind === 'drop' && fault.afterEffect === true);
}

export function envelope(httpStatus: number, value: { status: string; [key: string]: unknown }, bareIds: boolean): Answer {
	return { httpStatus, body: toWireJson(value, bareIds), contentType: JSON_TYPE, status: value.status };
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
export function withRetryAfter(answer: Answer, seconds: number | undefined): Answer {
	return seconds === undefined ? answer : { ...answer, headers: { ...answer.headers, 'Retry-After': String(seconds) } };
}

/** A refusal a real Rubika gave (config `recordedAnswers`), sent back as it came: JSON as JSON, text as text. */
export function recordedRefusal(answer: RecordedAnswer): Answer {
	if (typeof answer.body === 'string') {
		return { httpStatus: answer.httpStatus, body: answer.body, contentType: 'text/plain; charset=utf-8', status: null };
	}
	const status = isPlainObject(answer.body) && typeof answer.body.status === 'string' ? answer.body.status : null;
	return { httpStatus: answer.httpStatus, body: toWireJson(answer.body, false), contentType: JSON_TYPE, status };
}

/** Whether a recorded answer is Rubika's success: HTTP 2xx with status OK. */
export function isRecordedSuccess(answer: RecordedAnswer): answer is RecordedAnswer & { body: { status: 'OK'; data?: unknown } } {
	return answer.httpStatus >= 200 && answer.httpStatus < 300 && isPlainObject(answer.body) && answer.body.status === 'OK';
}

/**
 * The sandbox's own `data` in the shape a real Rubika answered with: the recorded keys, in the recorded order,
 * each keeping the sandbox's value where it has one of the same kind (so ids and effects stay the sandbox's),
 * else the recorded value; keys the real answer did not have are dropped. A list takes the shape of the
 * recorded list's first element.
 */
export function reshapeLike(own: unknown, recorded: unknown): unknown {
	if (isPlainObject(recorded)) {
		if (!isPlainObject(own)) return recorded;
		return Object.fromEntries(Object.entries(recorded).map(([key, value]) => [key, key in own ? reshapeLike(own[key], value) : value]));
	}
	if (Array.isArray(recorded)) {
		if (!Array.isArray(own)) return recorded;
		return recorded.length === 0 ? own : own.map((item) => reshapeLike(item, recorded[0]));
	}
	return kindOf(own) === kindOf(recorded) ? own : recorded;
}

function kindOf(value: unknown): string {
	return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

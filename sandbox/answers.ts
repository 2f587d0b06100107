/**
 * The answers the API and file routes send: an envelope, and what an injected fault answers instead
 * (faults.ts queues them; the routes decide which request a fault hits).
 */
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

export const JSON_TYPE = 'application/json; charset=utf-8';

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

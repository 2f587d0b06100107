/**
 * Fault injection and rate limiting: the ways the real service (or what sits in front of it) misbehaves,
 * queued by tests and consumed in order, one fault per request.
 */
import { newOpaqueId } from './ids';

const FAULT_KINDS = [
	'httpStatus',
	'status',
	'delay',
	'malformed',
	'truncated',
	'html',
	'empty',
	'drop',
	'duplicateUpdate',
	'duplicateDelivery',
	'slow',
] as const;
type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
	kind: FaultKind;
	/**
	 * Which requests it hits: an API method name, or 'upload' / 'download' for the file addresses.
	 * Absent = any API method (never uploads or downloads). duplicateUpdate always means getUpdates and
	 * duplicateDelivery a webhook delivery.
	 */
	method?: string;
	/** How many requests it hits (default 1); Infinity or -1 = until cleared. */
	times?: number;
	/** Let this many matching requests through first. */
	skip?: number;
	/** httpStatus (default 500), status (default 200), html (default 502), empty (default 200). */
	httpStatus?: number;
	/** httpStatus kind: the raw body (default "Internal Server Error" as text/plain). */
	body?: string;
	contentType?: string;
	/** status kind: the envelope status (default TOO_REQUESTS). */
	status?: string;
	devMessage?: string;
	/** status and httpStatus kinds: send a Retry-After header with this many seconds. */
	retryAfterSeconds?: number;
	/** delay kind: milliseconds before the normal answer. */
	ms?: number;
	/** drop kind: process the request first (its effect happens), then drop the connection. */
	afterEffect?: boolean;
	/** slow kind (downloads only): the file's body goes out at this many bytes a second. */
	bytesPerSecond?: number;
}

export interface ActiveFault extends FaultSpec {
	id: string;
	/** Hits left; Infinity until cleared. */
	remaining: number;
	skipped: number;
}

export type FaultTarget =
	| { kind: 'api'; method: string }
	| { kind: 'upload' }
	| { kind: 'download' }
	| { kind: 'delivery' };

export class FaultQueue {
	private faults: ActiveFault[] = [];

	add(spec: FaultSpec): ActiveFault {
		if (!spec || !(FAULT_KINDS as readonly string[]).includes(spec.kind)) {
			throw new Error(`fault kind must be one of ${FAULT_KINDS.join(', ')}`);
		}
		const times = spec.times ?? 1;
		if (!(times === Infinity || times === -1 || (Number.isInteger(times) && times > 0))) {
			throw new Error('times must be a positive integer, Infinity or -1');
		}
		if (spec.kind === 'delay' && !(typeof spec.ms === 'number' && spec.ms >= 0)) throw new Error('delay needs ms >= 0');
		if (spec.kind === 'slow') {
			if (spec.method !== 'download') throw new Error('slow is a fault of downloads: give method "download"');
			if (!(typeof spec.bytesPerSecond === 'number' && spec.bytesPerSecond > 0)) throw new Error('slow needs bytesPerSecond > 0');
		}
		if (spec.retryAfterSeconds !== undefined && !(typeof spec.retryAfterSeconds === 'number' && spec.retryAfterSeconds >= 0)) {
			throw new Error('retryAfterSeconds must be a number >= 0');
		}
		if (spec.httpStatus !== undefined && !(Number.isInteger(spec.httpStatus) && spec.httpStatus >= 100 && spec.httpStatus <= 599)) {
			throw new Error('httpStatus must be an HTTP status');
		}
		const fault: ActiveFault = {
			...spec,
			id: newOpaqueId(6),
			remaining: times === -1 ? Infinity : times,
			skipped: 0,
		};
		this.faults.push(fault);
		return fault;
	}

	/** The first queued fault for this request, consumed by one hit; undefined when none applies. */
	take(target: FaultTarget): ActiveFault | undefined {
		for (const fault of this.faults) {
			if (!matches(fault, target)) continue;
			if (fault.skipped < (fault.skip ?? 0)) {
				fault.skipped++;
				continue;
			}
			fault.remaining--;
			if (fault.remaining <= 0) this.faults = this.faults.filter((candidate) => candidate !== fault);
			return fault;
		}
		return undefined;
	}

	list(): ActiveFault[] {
		return this.faults.map((fault) => ({ ...fault }));
	}

	clear(): void {
		this.faults = [];
	}
}

function matches(fault: ActiveFault, target: FaultTarget): boolean {
	if (fault.kind === 'duplicateDelivery') return target.kind === 'delivery';
	if (target.kind === 'delivery') return false;
	if (fault.kind === 'duplicateUpdate') return target.kind === 'api' && target.method === 'getUpdates';
	if (target.kind === 'api') return fault.method === undefined || fault.method === target.method;
	return fault.method === target.kind;
}

/** Sliding one-second window per key (the bot token): the real limits are unknown, benchmarks pick one. */
export class RateLimiter {
	private readonly hits = new Map<string, number[]>();

	allow(key: string, perSecond: number, now: number): boolean {
		const recent = (this.hits.get(key) ?? []).filter((time) => now - time < 1000);
		if (recent.length >= perSecond) {
			this.hits.set(key, recent);
			return false;
		}
		recent.push(now);
		this.hits.set(key, recent);
		return true;
	}

	clear(): void {
		this.hits.clear();
	}
}

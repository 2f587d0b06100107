/**
 * A bot's update log: append-only, bounded, read through opaque cursors.
 *
 * The real `next_offset_id` is an opaque string (facts §5), so clients must not do arithmetic on it. The
 * cursor here encodes a per-log random epoch plus a sequence number, base64url-encoded: it is not a plain
 * index, a cursor from another bot or from before a reset is recognised as foreign, and position lookups
 * stay O(1) because sequence numbers within one log are contiguous.
 */
import type { Update } from '../nodes/shared/types';
import { newOpaqueId } from './ids';

export interface UpdateReadResult {
	updates: Update[];
	/** Sequence number of the first update not returned (what the next cursor points at). */
	nextSeq: number;
}

/** A log as a state file keeps it (savedState.ts): enough to accept the cursors it issued before. */
export interface SavedUpdateLog {
	epoch: string;
	/** Sequence number of the first update in `updates`. */
	firstSeq: number;
	updates: Update[];
}

export class UpdateLog {
	private readonly epoch: string;
	private entries: Update[];
	/** Index in `entries` of the oldest retained update; trimmed entries are compacted away in batches. */
	private head = 0;
	/** Sequence number of `entries[head]`. */
	private firstSeq: number;

	/**
	 * `saved`: go on where a saved log stopped, with its epoch and sequence numbers, so every cursor it
	 * issued stays valid (a client's saved `next_offset_id` survives a sandbox restart).
	 */
	constructor(
		private readonly retention: () => number,
		saved?: SavedUpdateLog,
	) {
		this.epoch = saved?.epoch ?? newOpaqueId(6);
		this.entries = saved ? saved.updates.slice() : [];
		this.firstSeq = saved?.firstSeq ?? 0;
	}

	save(): SavedUpdateLog {
		return { epoch: this.epoch, firstSeq: this.firstSeq, updates: this.all() };
	}

	get size(): number {
		return this.entries.length - this.head;
	}

	/** Sequence number the next appended update will get. */
	get endSeq(): number {
		return this.firstSeq + this.size;
	}

	get oldestSeq(): number {
		return this.firstSeq;
	}

	append(update: Update): void {
		this.entries.push(update);
		const excess = this.size - Math.max(1, this.retention());
		if (excess > 0) {
			this.head += excess;
			this.firstSeq += excess;
		}
		// Compact lazily so trimming a long log one update at a time stays O(1) amortised.
		if (this.head > 1024 && this.head * 2 > this.entries.length) {
			this.entries = this.entries.slice(this.head);
			this.head = 0;
		}
	}

	cursor(seq: number): string {
		return Buffer.from(`${this.epoch}.${seq}`).toString('base64url');
	}

	/** The sequence number a cursor points at, or undefined when this log did not issue it. */
	parseCursor(cursor: string): number | undefined {
		const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
		const dot = decoded.lastIndexOf('.');
		if (dot < 0 || decoded.slice(0, dot) !== this.epoch) return undefined;
		const seqText = decoded.slice(dot + 1);
		if (!/^\d+$/.test(seqText)) return undefined;
		const seq = Number(seqText);
		// A cursor can point at most one past the newest update.
		if (!Number.isSafeInteger(seq) || seq > this.endSeq) return undefined;
		return seq;
	}

	/** Up to `limit` updates from `fromSeq` on, oldest first; positions that fell out of retention start at the oldest kept. */
	read(fromSeq: number, limit: number): UpdateReadResult {
		const start = Math.max(fromSeq, this.firstSeq);
		const startIndex = this.head + (start - this.firstSeq);
		const updates = this.entries.slice(startIndex, startIndex + limit);
		return { updates, nextSeq: start + updates.length };
	}

	/** The update at a sequence number, if still retained. */
	at(seq: number): Update | undefined {
		if (seq < this.firstSeq || seq >= this.endSeq) return undefined;
		return this.entries[this.head + (seq - this.firstSeq)];
	}

	all(): Update[] {
		return this.entries.slice(this.head);
	}
}

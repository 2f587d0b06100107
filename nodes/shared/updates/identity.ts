/**
 * Which updates are the same event, and the bounded memory of recently delivered ones that both triggers
 * use to drop repeats. Pure: no requests, no n8n context.
 */
import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../json';
import type { InlineMessage, Update } from '../types';
import { INLINE_MESSAGE_TYPE, isUpdate, objectOrUndefined } from './raw';

/**
 * A key that is the same every time Rubika sends the same event, and differs between events.
 *
 * Rubika gives updates no id of their own, so the event's subject identifies it: a message is created once
 * and removed once (its id is enough); an edit is the edited content plus, when present, `update_time`
 * (undocumented, in seconds, read by two libraries); a payment is its id and new status. Start/stop events
 * have only the chat and perhaps a time, which is not unique within a second: their key names the chat's new
 * state, and RecentKeys forgets the opposite state when one is delivered, so start → stop → start is three
 * events while a repeated start is one.
 */
export function updateKey(update: Update | InlineMessage): string {
	if (!isUpdate(update)) {
		const inline = (isPlainObject(update) ? update : {}) as Partial<InlineMessage>;
		return [
			INLINE_MESSAGE_TYPE,
			inline.chat_id,
			inline.message_id,
			inline.sender_id,
			inline.aux_data?.button_id ?? '',
			hashKey(inline.text ?? ''),
		].join(':');
	}
	const chat = String(update.chat_id ?? '');
	const time = hasValue(update.update_time) ? `t${String(update.update_time)}` : '';
	const message = objectOrUndefined(update.new_message ?? update.updated_message);
	const payment = objectOrUndefined(update.updated_payment);
	switch (update.type) {
		case 'NewMessage':
			return [update.type, chat, String(message?.message_id ?? '')].join(':');
		case 'RemovedMessage':
			return [update.type, chat, String(update.removed_message_id ?? '')].join(':');
		case 'UpdatedMessage':
			return [update.type, chat, String(message?.message_id ?? ''), time, hashKey(stableStringify(message ?? null))].join(':');
		case 'UpdatedPayment':
			return [update.type, chat, String(payment?.payment_id ?? ''), String(payment?.status ?? '')].join(':');
		case 'StartedBot':
		case 'StoppedBot':
			return [update.type, chat, time].join(':');
		default:
			// A type this package does not know yet: the whole update is its identity.
			return [String(update.type), chat, hashKey(stableStringify(update))].join(':');
	}
}

/**
 * Whether a key names one event only: all but a start or stop, whose key names the chat's new state and its
 * time, which may be missing or the same second for a start, a stop and a start again.
 */
export function isUniqueKey(key: string): boolean {
	return oppositeStateKey(key) === undefined;
}

/** For a start/stop event, the key of the opposite state in the same chat at the same time. */
function oppositeStateKey(key: string): string | undefined {
	if (key.startsWith('StartedBot:')) return `StoppedBot:${key.slice('StartedBot:'.length)}`;
	if (key.startsWith('StoppedBot:')) return `StartedBot:${key.slice('StoppedBot:'.length)}`;
	return undefined;
}

function hasValue(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '';
}

/**
 * A bounded, ordered set of recently delivered update keys, kept in a trigger's static data.
 *
 * Keys are stored hashed (about 14 characters each) so that even the largest set stays a few dozen KB in
 * the workflow's static data, which n8n writes to its database after every emitting poll. When full, the
 * oldest key is forgotten first.
 */
export class RecentKeys {
	static readonly DEFAULT_CAPACITY = 2000;

	private readonly order: string[];

	private readonly index: Set<string>;

	private constructor(
		keys: string[],
		readonly capacity: number,
	) {
		this.order = keys.slice(-capacity);
		this.index = new Set(this.order);
	}

	/** Reads the set from `store[field]` (an array of hashed keys); anything else there starts an empty set. */
	static load(store: IDataObject, field = 'recentKeys', capacity = RecentKeys.DEFAULT_CAPACITY): RecentKeys {
		const raw = store[field];
		const keys = Array.isArray(raw) ? raw.filter((key): key is string => typeof key === 'string') : [];
		return new RecentKeys(keys, Math.max(1, Math.floor(capacity)));
	}

	get size(): number {
		return this.index.size;
	}

	/** Whether an event with this key (an item's `update_key`) was delivered recently. */
	has(key: string): boolean {
		return this.index.has(hashKey(key));
	}

	/** Records a delivered event; a start/stop event also forgets the chat's opposite state. */
	remember(key: string): void {
		const opposite = oppositeStateKey(key);
		if (opposite !== undefined) this.forget(opposite);
		const hashed = hashKey(key);
		if (this.index.has(hashed)) {
			// Refresh its position so that a key seen again stays longer.
			this.order.splice(this.order.indexOf(hashed), 1);
		}
		this.order.push(hashed);
		this.index.add(hashed);
		while (this.order.length > this.capacity) {
			this.index.delete(this.order.shift() as string);
		}
	}

	/**
	 * Notes an event that was read but not delivered (filtered out). Only its effect on start/stop state
	 * matters: after a filtered "stopped", the next "started" of that chat is a new event, not a repeat.
	 */
	observe(key: string): void {
		const opposite = oppositeStateKey(key);
		if (opposite !== undefined) this.forget(opposite);
	}

	forget(key: string): void {
		const hashed = hashKey(key);
		if (!this.index.delete(hashed)) return;
		this.order.splice(this.order.indexOf(hashed), 1);
	}

	/** Writes the set back to `store[field]`. */
	save(store: IDataObject, field = 'recentKeys'): void {
		store[field] = [...this.order];
	}

	toArray(): string[] {
		return [...this.order];
	}
}

/**
 * 64 bits of FNV-1a (two 32-bit lanes with different offsets), base 36. Not cryptographic: it only has to
 * make two different keys collide with negligible probability among a few thousand.
 */
export function hashKey(text: string): string {
	let low = 0x811c9dc5;
	let high = 0x050c5d1f;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		low = Math.imul(low ^ code, 0x01000193) >>> 0;
		high = Math.imul(high ^ code ^ (index & 0xff), 0x01000193) >>> 0;
	}
	return high.toString(36).padStart(7, '0') + low.toString(36).padStart(7, '0');
}

/** JSON with object keys sorted, so that the same content always gives the same text. */
function stableStringify(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
	if (isPlainObject(value)) {
		return `{${Object.keys(value)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${stableStringify(value[key])}`)
			.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/**
 * Telling a repeated delivery of an inline keypad tap from a new tap.
 *
 * Updates can be de-duplicated for good (RecentKeys in ../shared/updates/identity.ts): a message is created once. A tap
 * cannot: Rubika's InlineMessage has no id and no time, so a user pressing "Next page" twice on the same
 * message produces two identical bodies, exactly like one tap delivered twice. The only thing that differs is
 * when they arrive, so identical taps count as one only within a short window. A redelivery after a lost
 * answer comes quickly, and collapsing an accidental double tap is what most bots want anyway.
 */
import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../../shared/json';
import { hashKey } from '../../shared/updates/identity';

/** Where the recent taps live in the node's static data. */
export const RECENT_TAPS_FIELD = 'recentTaps';
const FIELD = RECENT_TAPS_FIELD;

/** Taps remembered at most; more than this many distinct taps inside one window is not a repeat pattern. */
const MAX_TAPS = 500;

/**
 * Whether a tap with this key (an item's `update_key`) arrived less than `windowMs` ago. Records the tap
 * when it is new. The window runs from the first of the identical taps, so a stream of repeats cannot keep
 * a tap suppressed for ever.
 */
export function isRepeatedTap(store: IDataObject, key: string, windowMs: number, now: number): boolean {
	if (!(windowMs > 0)) {
		if (FIELD in store) delete store[FIELD];
		return false;
	}
	const raw = store[FIELD];
	const previous = isPlainObject(raw) ? (raw as IDataObject) : {};
	const kept: Array<[string, number]> = [];
	for (const [hashed, at] of Object.entries(previous)) {
		// A time in the future (a clock step back) is dropped rather than trusted.
		if (typeof at === 'number' && at <= now && now - at < windowMs) kept.push([hashed, at]);
	}
	const hashed = hashKey(key);
	const repeated = kept.some(([candidate]) => candidate === hashed);
	if (!repeated) kept.push([hashed, now]);
	kept.sort((a, b) => a[1] - b[1]);
	// Assigned as a new object: n8n notices changes to static data through its setters only.
	store[FIELD] = Object.fromEntries(kept.slice(-MAX_TAPS));
	return repeated;
}

/** Forgets a recorded tap, so that the same tap counts as new again. */
export function forgetTap(store: IDataObject, key: string): void {
	const raw = store[FIELD];
	if (!isPlainObject(raw)) return;
	const hashed = hashKey(key);
	if (!(hashed in raw)) return;
	store[FIELD] = Object.fromEntries(Object.entries(raw).filter(([candidate]) => candidate !== hashed));
}

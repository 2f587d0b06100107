/**
 * The node's de-duplication state (the recent update keys and taps it keeps in static data), mirrored in
 * this process's memory.
 *
 * Static data alone is not enough, for two reasons seen in real n8n:
 * - n8n 2.41 does not save the static data a webhook call changed when that call starts an execution: it
 *   builds the execution's workflow on the same static data object, which clears the object's "changed"
 *   flag before the webhook path looks at it. (2.8 saves it.) A repeated delivery would then find nothing.
 * - Two deliveries of one event that overlap (a retry while the first is still being handled) both read the
 *   static data before either has saved it.
 *
 * So each delivery works on the state this process last wrote for the node, falling back to the static data
 * when there is none (after a restart), and writes the result to both. The static data is brought up to
 * date on every delivery whose changes n8n does save (one that starts nothing), so that a restart loses at
 * most what happened since the last such delivery. Everything between reading and writing is synchronous,
 * so overlapping deliveries in one process see each other. Separate webhook processes (n8n's queue mode) do
 * not share this memory.
 */
import type { IDataObject } from 'n8n-workflow';

import { LruMap } from '../../shared/lru';

/** Nodes remembered at most (the least recently used go first); one per active Rubika webhook trigger. */
const MAX_NODES = 500;

/** Scope (workflow and node) → the fields as last written. */
const states = new LruMap<string, IDataObject>(MAX_NODES);

function copy(value: unknown): unknown {
	return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/**
 * Runs `use` on a working copy of the state's `fields` (from memory, or from the static data when memory
 * has none for this scope), then writes the copy to memory and, where it differs, to the static data.
 */
export function withDeliveryState<T>(
	scope: string,
	staticData: IDataObject,
	fields: readonly string[],
	use: (state: IDataObject) => T,
): T {
	const remembered = states.get(scope);
	const state: IDataObject = {};
	for (const field of fields) {
		const value = copy(remembered ? remembered[field] : staticData[field]);
		if (value !== undefined) state[field] = value as IDataObject[string];
	}
	const result = use(state);
	remember(scope, state);
	for (const field of fields) {
		if (JSON.stringify(state[field]) === JSON.stringify(staticData[field])) continue;
		// Assigned or deleted as a whole: n8n notices static data changes through its setters only.
		if (state[field] === undefined) delete staticData[field];
		else staticData[field] = copy(state[field]) as IDataObject[string];
	}
	return result;
}

/**
 * Changes the remembered state only (no static data), e.g. to take back an event whose delivery n8n then
 * failed to handle. Does nothing when nothing is remembered for the scope.
 */
export function changeRememberedState(scope: string, change: (state: IDataObject) => void): void {
	const remembered = states.get(scope);
	if (remembered === undefined) return;
	const state = copy(remembered) as IDataObject;
	change(state);
	remember(scope, state);
}

function remember(scope: string, state: IDataObject): void {
	states.set(scope, copy(state) as IDataObject);
}

/**
 * Telling a delivery Rubika sends again (a retry, a duplicate) from a new event: updates by key in the
 * bounded set reading uses, inline taps for a short window (taps.ts), all in the node's state
 * mirrored in memory (memory.ts).
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { RecentKeys } from '../../shared/updates/identity';
import type { UpdateItem } from '../../shared/updates/item';
import { INLINE_MESSAGE_TYPE } from '../../shared/updates/raw';
import { OTHER_DELIVERY_TYPE } from './deliveryItem';
import { changeRememberedState, withDeliveryState } from './memory';
import { webhookKey } from './keys';
import { RECENT_TAPS_FIELD, forgetTap, isRepeatedTap } from './taps';

/** Where the recently delivered event keys live in the node's static data. */
const RECENT_KEYS_FIELD = 'recentKeys';

/** The node's fields that de-duplication keeps. */
const DELIVERY_STATE_FIELDS = [RECENT_KEYS_FIELD, RECENT_TAPS_FIELD];

/**
 * Whether this delivery repeats one delivered before, recording it when it does not. A delivery the filters
 * drop (`wanted` false) is never a repeat, but still ends a chat's start/stop state (noteFiltered).
 */
export function isRepeatedDelivery(
	context: IWebhookFunctions,
	item: UpdateItem,
	wanted: boolean,
	tapWindowMs: number,
	now: number,
): boolean {
	return onDeliveryState(context, (state) => {
		if (!wanted) {
			noteFiltered(state, item);
			return false;
		}
		return isRepeat(state, item, tapWindowMs, now);
	});
}

/**
 * Runs a de-duplication step on the node's state. Live deliveries use the state mirrored in memory and
 * in static data (see memory.ts). A test event works on the static data alone, as n8n keeps nothing of a
 * test run, so that sending the same sample again starts the workflow again.
 */
function onDeliveryState<T>(context: IWebhookFunctions, use: (state: IDataObject) => T): T {
	const staticData = context.getWorkflowStaticData('node');
	if (context.getMode() === 'manual') return use(staticData);
	return withDeliveryState(deliveryScope(context), staticData, DELIVERY_STATE_FIELDS, use);
}

/** Which remembered state is this node's: the workflow and the node's webhook id. */
function deliveryScope(context: IWebhookFunctions): string {
	return `${context.getWorkflow().id ?? ''}/${webhookKey(context)}`;
}

/**
 * Whether this event was delivered before (a retry, a duplicate), recording it when it was not. Updates
 * are remembered by key in the bounded set reading uses; inline taps only for a short window
 * (see taps.ts); bodies of unknown format have no identity, so each of them counts.
 */
function isRepeat(state: IDataObject, item: UpdateItem, tapWindowMs: number, now: number): boolean {
	if (item.type === OTHER_DELIVERY_TYPE) return false;
	if (item.type === INLINE_MESSAGE_TYPE) return isRepeatedTap(state, item.update_key, tapWindowMs, now);
	const recent = RecentKeys.load(state, RECENT_KEYS_FIELD);
	if (recent.has(item.update_key)) return true;
	recent.remember(item.update_key);
	recent.save(state, RECENT_KEYS_FIELD);
	return false;
}

/**
 * A filtered-out update starts nothing, but a filtered "bot stopped" still ends the chat's "started" state,
 * so that the next start is not mistaken for a repeat (RecentKeys.observe).
 */
function noteFiltered(state: IDataObject, item: UpdateItem): void {
	if (item.type === OTHER_DELIVERY_TYPE || item.type === INLINE_MESSAGE_TYPE) return;
	const recent = RecentKeys.load(state, RECENT_KEYS_FIELD);
	const before = recent.size;
	recent.observe(item.update_key);
	if (recent.size !== before) recent.save(state, RECENT_KEYS_FIELD);
}

/**
 * If n8n then fails to start the execution (it answers with an error and saves nothing), the event is
 * forgotten again in memory, so that a redelivery of it goes through. A delivery the node answered itself
 * (before downloading its file) has had its 200 already: n8n can no longer tell the sender of a failure.
 */
export function takeBackIfNotHandled(context: IWebhookFunctions, item: UpdateItem): void {
	if (context.getMode() === 'manual' || item.type === OTHER_DELIVERY_TYPE) return;
	const scope = deliveryScope(context);
	const response = context.getResponseObject();
	response.once('finish', () => {
		if (response.statusCode < 400) return;
		changeRememberedState(scope, (state) => {
			if (item.type === INLINE_MESSAGE_TYPE) {
				forgetTap(state, item.update_key);
				return;
			}
			const recent = RecentKeys.load(state, RECENT_KEYS_FIELD);
			recent.forget(item.update_key);
			recent.save(state, RECENT_KEYS_FIELD);
		});
	});
}

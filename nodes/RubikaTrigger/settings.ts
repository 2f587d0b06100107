/**
 * The trigger's settings, read from its panel in one place for both ways of receiving: once per activation
 * when it reads getUpdates, once per registration and per delivery by webhook (n8n gives a webhook no other
 * moment). Every value is validated here, and a bad one fails with an error naming its field.
 *
 * A new option: its field in description.ts, its value read here, its use where it acts (reading/ or
 * webhook/), and its test (docs/ARCHITECTURE.md, "Add a trigger option").
 */
import type { IDataObject, IHookFunctions, ITriggerFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../shared/errors';
import type { UpdateEndpointType } from '../shared/types';
import { UPDATE_ENDPOINT_TYPES, UPDATE_TYPES } from '../shared/types';
import type { UpdateFilterParameters, UpdateFilters } from '../shared/updates/filters';
import { parseUpdateFilters } from '../shared/updates/filters';
import { INLINE_MESSAGE_TYPE } from '../shared/updates/raw';
import type { OnRejectedPosition, ReceiveUpdates } from './description';
import type { DownloadSettings } from './downloadFiles';
import { readDownloadSettings } from './downloadFiles';
import {
	DEFAULT_CONVERSATION_INTERVAL_SECONDS,
	DEFAULT_IDLE_AFTER_MINUTES,
	DEFAULT_IDLE_INTERVAL_SECONDS,
	DEFAULT_INTERVAL_SECONDS,
	DEFAULT_PAGE_SIZE,
	DEFAULT_TAP_WINDOW_SECONDS,
	MAX_IDLE_AFTER_MINUTES,
	MAX_INTERVAL_SECONDS,
	MIN_INTERVAL_SECONDS,
	ON_REJECTED_POSITION,
	RECEIVE_UPDATES_PARAMETER,
	SECRET_PARAMETER,
} from './description';
import { normaliseTypes } from './webhook/registration';
import type { SecretLocation } from './webhook/secret';
import { secretLocationOf } from './webhook/secret';

type TriggerContext = ITriggerFunctions | IHookFunctions | IWebhookFunctions;

/** What the trigger does with getUpdates (Receive Updates: By Reading). */
export interface ReadingSettings {
	firstActivation: 'startFromNow' | 'processBacklog';
	onRejectedPosition: OnRejectedPosition;
	pageSize: number;
	intervalMs: number;
	idleIntervalMs: number;
	/** Options → Idle After: the quiet time before Idle Interval replaces Interval. */
	idleAfterMs: number;
	/** Options → Interval During a Conversation: never longer than Interval. */
	conversationIntervalMs: number;
}

/** What the trigger registers and accepts (Receive Updates: By Webhook). */
export interface WebhookSettings {
	secretLocation: SecretLocation;
	endpoints: UpdateEndpointType[];
	/** Identical inline keypad taps within this many milliseconds start one execution. */
	tapRepeatWindowMs: number;
}

export interface TriggerSettings {
	filters: UpdateFilters;
	download: DownloadSettings;
	/** Options → Add Sender Details (../shared/updates/sender.ts). */
	addSenderDetails: boolean;
	/** Only one of the two, by Receive Updates. */
	receive: { by: 'reading'; reading: ReadingSettings } | { by: 'webhook'; webhook: WebhookSettings };
}

/** Receive Updates. */
function receiveUpdatesOf(context: TriggerContext): ReceiveUpdates {
	return context.getNodeParameter(RECEIVE_UPDATES_PARAMETER, 'reading') === 'webhook' ? 'webhook' : 'reading';
}

/** Every setting of the panel, validated. */
export function readTriggerSettings(context: TriggerContext): TriggerSettings {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const filters = readFilters(context);
	const shared = {
		filters,
		download: readDownloadSettings(context.getNode(), options),
		addSenderDetails: options.addSenderDetails === true,
	};
	if (receiveUpdatesOf(context) === 'reading') {
		return { ...shared, receive: { by: 'reading', reading: readingSettings(context, options) } };
	}
	const webhook = webhookSettings(context, options);
	checkTypesReachEndpoints(context, filters, webhook.endpoints);
	return { ...shared, receive: { by: 'webhook', webhook } };
}

/** The settings of the webhook, or an error when the trigger receives by reading (a caller's mistake). */
export function webhookOf(settings: TriggerSettings): WebhookSettings {
	if (settings.receive.by !== 'webhook') throw new Error('the trigger receives updates by reading, not by webhook');
	return settings.receive.webhook;
}

function readFilters(context: TriggerContext): UpdateFilters {
	const types = context.getNodeParameter('updateTypes', ['NewMessage']) as string[];
	const raw = context.getNodeParameter('filters', {}) as UpdateFilterParameters;
	try {
		return parseUpdateFilters(types, raw);
	} catch (error) {
		const nodeError = toNodeError(context.getNode(), error);
		nodeError.description = 'Fix the filter in the trigger\'s Filters section.';
		throw nodeError;
	}
}

function readingSettings(context: TriggerContext, options: IDataObject): ReadingSettings {
	const intervalMs = seconds(options.interval, DEFAULT_INTERVAL_SECONDS);
	return {
		firstActivation: context.getNodeParameter('firstActivation', 'startFromNow') === 'processBacklog' ? 'processBacklog' : 'startFromNow',
		onRejectedPosition: ON_REJECTED_POSITION.includes(options.onRejectedPosition as OnRejectedPosition)
			? (options.onRejectedPosition as OnRejectedPosition)
			: 'restartFromOldest',
		pageSize: clampInteger(options.pageSize, 1, 1000, DEFAULT_PAGE_SIZE),
		intervalMs,
		idleIntervalMs: Math.max(intervalMs, seconds(options.idleInterval, DEFAULT_IDLE_INTERVAL_SECONDS)),
		idleAfterMs: Math.round(bounded(options.idleAfter, 0, MAX_IDLE_AFTER_MINUTES, DEFAULT_IDLE_AFTER_MINUTES) * 60_000),
		conversationIntervalMs: Math.min(intervalMs, seconds(options.conversationInterval, DEFAULT_CONVERSATION_INTERVAL_SECONDS)),
	};
}

function webhookSettings(context: TriggerContext, options: IDataObject): WebhookSettings {
	const endpoints = normaliseTypes(context.getNodeParameter('endpoints', []) as string[]);
	if (endpoints.length === 0) {
		throw new NodeOperationError(context.getNode(), 'Endpoints: choose at least one endpoint to register', {
			description: `Known endpoints: ${UPDATE_ENDPOINT_TYPES.join(', ')}`,
		});
	}
	const tapSeconds = Number(options.tapRepeatWindow ?? DEFAULT_TAP_WINDOW_SECONDS);
	return {
		secretLocation: secretLocationOf(context.getNodeParameter(SECRET_PARAMETER, 'path')),
		endpoints,
		tapRepeatWindowMs: Number.isFinite(tapSeconds) ? tapSeconds * 1000 : 0,
	};
}

/** A tap filter without the inline endpoint would wait forever without a word: refused instead. */
function checkTypesReachEndpoints(context: TriggerContext, filters: UpdateFilters, endpoints: UpdateEndpointType[]): void {
	const wantsInline = filters.types.includes(INLINE_MESSAGE_TYPE);
	const wantsUpdates = filters.types.some((type) => (UPDATE_TYPES as readonly string[]).includes(type));
	if (wantsInline && !endpoints.includes('ReceiveInlineMessage')) {
		throw new NodeOperationError(context.getNode(), 'Update Types: Inline Keypad Tap needs the ReceiveInlineMessage endpoint', {
			description: 'Add "Inline Keypad Taps (ReceiveInlineMessage)" to Endpoints, or remove Inline Keypad Tap from Update Types.',
		});
	}
	if (wantsUpdates && !endpoints.includes('ReceiveUpdate')) {
		throw new NodeOperationError(context.getNode(), 'Update Types: messages and other updates need the ReceiveUpdate endpoint', {
			description: 'Add "Updates (ReceiveUpdate)" to Endpoints, or keep only Inline Keypad Tap in Update Types.',
		});
	}
}

/** A number of seconds from the panel, within the allowed range, in milliseconds. */
/** A number option within [min, max]; `fallback` when it is not set or not a number. */
function bounded(value: unknown, min: number, max: number, fallback: number): number {
	const number = Number(value);
	if (value === undefined || value === null || value === '' || !Number.isFinite(number)) return fallback;
	return Math.min(max, Math.max(min, number));
}

/** An interval option, in seconds, as milliseconds. */
function seconds(value: unknown, fallback: number): number {
	return Math.round(bounded(value, MIN_INTERVAL_SECONDS, MAX_INTERVAL_SECONDS, fallback) * 1000);
}

function clampInteger(value: unknown, min: number, max: number, fallback: number): number {
	return Math.round(bounded(value, min, max, fallback));
}

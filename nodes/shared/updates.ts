/**
 * Rubika updates as n8n items, the filters both triggers offer, and the de-duplication both need.
 *
 * The polling trigger (getUpdates) and the webhook trigger (deliveries) see the same Update objects, plus
 * inline keypad taps (InlineMessage) on the webhook side. Both shape them here so that a workflow can switch
 * triggers without rewriting a single expression, and both filter and de-duplicate the same way.
 *
 * Everything here is pure: no requests, no n8n context. Bad filter input throws InputError (field name as the
 * user sees it); the node turns it into a NodeOperationError.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { InputError } from './errors';
import type { InlineMessage, Message, RubikaFile, Update } from './types';
import { UPDATE_TYPES } from './types';

/** The `type` given to an inline keypad tap, which Rubika sends without a type of its own. */
export const INLINE_MESSAGE_TYPE = 'InlineMessage';

/** One update as an n8n item's `json`: what expressions need at the top, the raw update kept whole. */
export interface UpdateItem extends IDataObject {
	type: string;
	chat_id: string | null;
	/** The message concerned: the new or edited one, the removed one's id, or the message carrying the keypad. */
	message_id: string | null;
	text: string | null;
	sender_id: string | null;
	sender_type: string | null;
	button_id: string | null;
	start_id: string | null;
	file: IDataObject | null;
	/** `time` as an ISO 8601 date, when Rubika sent a usable time. */
	time_iso: string | null;
	/** Unix seconds exactly as Rubika sent them (a string in every sample, a number per the docs). */
	time: string | number | null;
	/** Identity of this event, the same each time Rubika sends it again. */
	update_key: string;
	/** `private`, `group` or `channel`, from the chat id's prefix (b0…, g0…, c0…); null when unknown. */
	chat_type: ChatKind | null;
	/** What the message holds: text, file, location, contact, poll or sticker; null without a message. */
	content_kind: ContentKind | null;
	/** The text again, under the name n8n's AI Agent and chat memory read without mapping. */
	chatInput: string | null;
	/** The chat id again, under the name n8n's chat memory keys a conversation by. */
	sessionId: string | null;
	/** The update (or inline message) exactly as received. */
	update: IDataObject;
}

export const CHAT_KINDS = ['private', 'group', 'channel'] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];
export const CONTENT_KINDS = ['text', 'file', 'location', 'contact', 'poll', 'sticker'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/** A chat's kind from its id: Rubika's ids carry it in their prefix (facts §2). */
export function chatKindOf(chatId: string | null): ChatKind | null {
	if (chatId === null) return null;
	if (/^b0/i.test(chatId)) return 'private';
	if (/^g0/i.test(chatId)) return 'group';
	if (/^c0/i.test(chatId)) return 'channel';
	return null;
}

function contentKindOf(message: Partial<Message> | undefined): ContentKind | null {
	if (!message) return null;
	if (isObject(message.file)) return 'file';
	if (isObject(message.location)) return 'location';
	if (isObject(message.contact_message)) return 'contact';
	if (isObject(message.poll)) return 'poll';
	if (isObject(message.sticker)) return 'sticker';
	return typeof message.text === 'string' ? 'text' : null;
}

export type BaseItem = Omit<UpdateItem, 'chat_type' | 'content_kind' | 'chatInput' | 'sessionId'>;

/** Fields every item has besides the raw update, filled from what the item says. */
export function derived(item: BaseItem, kind: ContentKind | null): UpdateItem {
	const chatId = item.chat_id as string | null;
	const text = item.text as string | null;
	return { ...item, chat_type: chatKindOf(chatId), content_kind: kind, chatInput: text, sessionId: chatId } as UpdateItem;
}

/**
 * Shapes an Update, or an InlineMessage (anything without a string `type`), into an item's json.
 * Tolerant of missing fields: what Rubika leaves out becomes null, never an exception.
 */
export function updateToItem(update: Update | InlineMessage): UpdateItem {
	if (isUpdate(update)) return fromUpdate(update);
	return fromInlineMessage(update);
}

/** Shapes a webhook body (`{update}` or `{inline_message}`); undefined when it holds neither. */
export function webhookBodyToItem(body: unknown): UpdateItem | undefined {
	if (!isObject(body)) return undefined;
	if (isObject(body.update)) return updateToItem(body.update as unknown as Update);
	if (isObject(body.inline_message)) return updateToItem(body.inline_message as unknown as InlineMessage);
	return undefined;
}

function isUpdate(value: Update | InlineMessage): value is Update {
	return typeof (value as Update).type === 'string';
}

function fromUpdate(update: Update): UpdateItem {
	const message: Partial<Message> | undefined = objectOrUndefined(update.new_message ?? update.updated_message);
	const time = timeOf(message?.time ?? update.update_time);
	const messageId =
		update.type === 'RemovedMessage' ? idOrNull(update.removed_message_id) : idOrNull(message?.message_id);
	return derived({
		type: update.type,
		chat_id: idOrNull(update.chat_id),
		message_id: messageId,
		text: stringOrNull(message?.text),
		sender_id: idOrNull(message?.sender_id),
		sender_type: stringOrNull(message?.sender_type),
		button_id: idOrNull(message?.aux_data?.button_id),
		start_id: idOrNull(message?.aux_data?.start_id),
		file: fileOrNull(message?.file),
		time_iso: time.iso,
		time: time.raw,
		update_key: updateKey(update),
		update: update as unknown as IDataObject,
	}, contentKindOf(message));
}

function fromInlineMessage(inline: InlineMessage): UpdateItem {
	const raw = (isObject(inline) ? inline : {}) as Partial<InlineMessage>;
	return derived({
		type: INLINE_MESSAGE_TYPE,
		chat_id: idOrNull(raw.chat_id),
		message_id: idOrNull(raw.message_id),
		text: stringOrNull(raw.text),
		sender_id: idOrNull(raw.sender_id),
		// Only people tap buttons; Rubika does not say so explicitly, so we do not invent a value.
		sender_type: null,
		button_id: idOrNull(raw.aux_data?.button_id),
		start_id: idOrNull(raw.aux_data?.start_id),
		file: fileOrNull(raw.file),
		time_iso: null,
		time: null,
		update_key: updateKey(inline),
		update: inline as unknown as IDataObject,
	}, contentKindOf(raw as Partial<Message>));
}

// ---------------------------------------------------------------------------------------------------------
// Identity

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
		const inline = (isObject(update) ? update : {}) as Partial<InlineMessage>;
		return [
			INLINE_MESSAGE_TYPE,
			inline.chat_id,
			inline.message_id,
			inline.sender_id,
			inline.aux_data?.button_id ?? '',
			fingerprint(inline.text ?? ''),
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
			return [update.type, chat, String(message?.message_id ?? ''), time, fingerprint(stableStringify(message ?? null))].join(':');
		case 'UpdatedPayment':
			return [update.type, chat, String(payment?.payment_id ?? ''), String(payment?.status ?? '')].join(':');
		case 'StartedBot':
		case 'StoppedBot':
			return [update.type, chat, time].join(':');
		default:
			// A type this package does not know yet: the whole update is its identity.
			return [String(update.type), chat, fingerprint(stableStringify(update))].join(':');
	}
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

function fingerprint(text: string): string {
	return hashKey(text);
}

/** JSON with object keys sorted, so that the same content always gives the same text. */
function stableStringify(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
	if (isObject(value)) {
		return `{${Object.keys(value)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${stableStringify(value[key])}`)
			.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

// ---------------------------------------------------------------------------------------------------------
// Filters

export interface UpdateFilters {
	/** Update types to keep; empty keeps every type. */
	types: string[];
	chatIds: string[];
	senderIds: string[];
	/** Keep only messages whose text is a command. */
	onlyCommands: boolean;
	/** Command names without the slash, lower case; empty means any command. */
	commands: string[];
	textPattern?: RegExp;
	ignoreBots: boolean;
	/** Button ids (chat keypad and inline taps); empty keeps every update. */
	buttonIds: string[];
	chatKinds: ChatKind[];
	contentKinds: ContentKind[];
	/** Drop updates whose time is older than this many seconds when they are read; 0 keeps every update. */
	maxAgeSeconds: number;
}

/** Raw values of the `filters` collection below, as n8n hands them over. */
export interface UpdateFilterParameters {
	chatIds?: string;
	senderIds?: string;
	onlyCommands?: boolean;
	commands?: string;
	textPattern?: string;
	ignoreBots?: boolean;
	buttonIds?: string;
	chatTypes?: string[];
	contentKinds?: string[];
	maxAgeSeconds?: number;
}

/** "Update Types": which kinds of update start the workflow. */
export const updateTypesProperty: INodeProperties = {
	displayName: 'Update Types',
	name: 'updateTypes',
	type: 'multiOptions',
	options: [
		{ name: 'Bot Started', value: 'StartedBot', description: 'A user started the bot (pressed Start)' },
		{ name: 'Bot Stopped', value: 'StoppedBot', description: 'A user stopped or blocked the bot' },
		{ name: 'Message Edited', value: 'UpdatedMessage', description: 'A message was edited' },
		{ name: 'Message Removed', value: 'RemovedMessage', description: 'A message was deleted' },
		{
			name: 'New Message',
			value: 'NewMessage',
			description: 'A message to the bot, including chat keypad (reply keyboard) taps',
		},
		{ name: 'Payment Updated', value: 'UpdatedPayment', description: 'The status of a payment changed' },
	],
	default: ['NewMessage'],
	description: 'Which updates start the workflow. Leave empty for every type.',
};

/** "Filters": applied to each update before anything else is done with it (downloads included). */
export const updateFiltersProperty: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add filter',
	default: {},
	description: 'Only updates that pass every filter set here start the workflow',
	options: [
		{
			displayName: 'Button IDs',
			name: 'buttonIds',
			type: 'string',
			default: '',
			placeholder: 'yes, no, r1b2',
			description:
				'Only taps on these buttons: chat keypad taps (New Message with the button\'s ID) and, for the webhook trigger, inline keypad taps. Separate IDs with commas.',
		},
		{
			displayName: 'Chat IDs',
			name: 'chatIds',
			type: 'string',
			default: '',
			placeholder: 'b0abc…, g0def…',
			description: 'Only updates from these chats. Separate IDs with commas.',
		},
		{
			displayName: 'Chat Types',
			name: 'chatTypes',
			type: 'multiOptions',
			options: [
				{ name: 'Channel', value: 'channel', description: 'Channels (IDs starting c0)' },
				{ name: 'Group', value: 'group', description: 'Groups (IDs starting g0)' },
				{ name: 'Private Chat', value: 'private', description: 'A person\'s chat with the bot (IDs starting b0)' },
			],
			default: [],
			description: 'Only updates from chats of these kinds',
		},
		{
			displayName: 'Command List',
			name: 'commands',
			type: 'string',
			default: '',
			placeholder: '/start, /help',
			description:
				'Only messages starting with one of these commands (case-insensitive, separated by commas). Implies Only Commands.',
		},
		{
			displayName: 'Content Types',
			name: 'contentKinds',
			type: 'multiOptions',
			options: [
				{ name: 'Contact', value: 'contact', description: 'A shared contact' },
				{ name: 'File', value: 'file', description: 'A file, photo, video, voice or music' },
				{ name: 'Location', value: 'location', description: 'A shared location' },
				{ name: 'Poll', value: 'poll', description: 'A poll' },
				{ name: 'Sticker', value: 'sticker', description: 'A sticker' },
				{ name: 'Text', value: 'text', description: 'Text only' },
			],
			default: [],
			description: 'Only messages that hold these kinds of content',
		},
		{
			displayName: 'Ignore Messages From Bots',
			name: 'ignoreBots',
			type: 'boolean',
			default: true,
			description: 'Whether to drop messages whose sender is a bot, so that bots cannot trigger each other in loops',
		},
		{
			displayName: 'Ignore Updates Older Than (Seconds)',
			name: 'maxAgeSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'Drop updates that are older than this when read, e.g. after the workflow was off for a long time. Updates without a time (inline taps) pass. 0 keeps every update.',
		},
		{
			displayName: 'Only Commands',
			name: 'onlyCommands',
			type: 'boolean',
			default: true,
			description: 'Whether to keep only messages whose text starts with a slash command such as /start',
		},
		{
			displayName: 'Sender IDs',
			name: 'senderIds',
			type: 'string',
			default: '',
			placeholder: 'u0abc…, u0def…',
			description:
				'Only messages from these users. Separate IDs with commas. Updates without a sender (bot started/stopped, removals, payments) do not pass.',
		},
		{
			displayName: 'Text Pattern',
			name: 'textPattern',
			type: 'string',
			default: '',
			placeholder: '^order\\s+\\d+',
			description:
				'Only messages whose text matches this regular expression. Write /pattern/flags for flags such as i (ignore case).',
		},
	],
};

/** Both properties, in the order a trigger shows them. */
export const updateFilters: INodeProperties[] = [updateTypesProperty, updateFiltersProperty];

/** Validates and normalises the filter parameters. Throws InputError naming the field on bad input. */
export function parseUpdateFilters(types: unknown, raw: UpdateFilterParameters = {}): UpdateFilters {
	const typeList = Array.isArray(types) ? types.map(String) : splitList(types);
	const commands = splitList(raw.commands).map((command) => {
		const name = command.replace(/^\/+/, '').toLowerCase();
		if (!/^[^\s/]+$/.test(name)) {
			throw new InputError('Command List', `"${command}" is not a command (expected something like /start)`);
		}
		return name;
	});
	return {
		types: typeList,
		chatIds: splitList(raw.chatIds),
		senderIds: splitList(raw.senderIds),
		onlyCommands: raw.onlyCommands === true || commands.length > 0,
		commands,
		textPattern: parsePattern(raw.textPattern),
		ignoreBots: raw.ignoreBots === true,
		buttonIds: splitList(raw.buttonIds),
		chatKinds: pickList(raw.chatTypes, CHAT_KINDS, 'Chat Types'),
		contentKinds: pickList(raw.contentKinds, CONTENT_KINDS, 'Content Types'),
		maxAgeSeconds: parseMaxAge(raw.maxAgeSeconds),
	};
}

function pickList<T extends string>(value: unknown, allowed: readonly T[], field: string): T[] {
	const list = splitList(value);
	for (const entry of list) {
		if (!(allowed as readonly string[]).includes(entry)) throw new InputError(field, `"${entry}" is not one of ${allowed.join(', ')}`);
	}
	return list as T[];
}

function parseMaxAge(value: unknown): number {
	if (value === undefined || value === null || value === '') return 0;
	const seconds = Number(value);
	if (!Number.isFinite(seconds) || seconds < 0) throw new InputError('Ignore Updates Older Than (Seconds)', 'must be 0 or more');
	return seconds;
}

/** Whether an item (from updateToItem) passes the filters. Pure and cheap: run it before any download. */
export function matchesFilters(item: UpdateItem, filters: UpdateFilters, now = Date.now()): boolean {
	if (filters.types.length > 0 && !filters.types.includes(item.type)) return false;
	if (filters.buttonIds.length > 0 && !filters.buttonIds.includes(item.button_id ?? '')) return false;
	if (filters.chatKinds.length > 0 && (item.chat_type === null || !filters.chatKinds.includes(item.chat_type))) return false;
	if (filters.contentKinds.length > 0 && (item.content_kind === null || !filters.contentKinds.includes(item.content_kind))) return false;
	if (filters.maxAgeSeconds > 0 && item.time_iso !== null && now - Date.parse(item.time_iso) > filters.maxAgeSeconds * 1000) return false;
	if (filters.chatIds.length > 0 && !filters.chatIds.includes(item.chat_id ?? '')) return false;
	if (filters.senderIds.length > 0 && !filters.senderIds.includes(item.sender_id ?? '')) return false;
	if (filters.ignoreBots && item.sender_type === 'Bot') return false;
	if (filters.onlyCommands) {
		const command = commandOf(item.text);
		if (command === undefined) return false;
		if (filters.commands.length > 0 && !filters.commands.includes(command)) return false;
	}
	if (filters.textPattern) {
		if (item.text === null) return false;
		// A fresh lastIndex each time: a /g or /y pattern would otherwise remember where it stopped.
		filters.textPattern.lastIndex = 0;
		if (!filters.textPattern.test(item.text)) return false;
	}
	return true;
}

/** `/Start@MyBot payload` → `start`; undefined when the text is not a command. */
export function commandOf(text: string | null | undefined): string | undefined {
	if (typeof text !== 'string') return undefined;
	const match = /^\/([^\s@/]+)(?:@\S*)?(?:\s|$)/.exec(text.trimStart());
	return match ? match[1].toLowerCase() : undefined;
}

function parsePattern(pattern: string | undefined): RegExp | undefined {
	if (typeof pattern !== 'string' || pattern.trim() === '') return undefined;
	const literal = /^\/(.+)\/([a-z]*)$/s.exec(pattern.trim());
	let problem: string | undefined;
	try {
		return literal ? new RegExp(literal[1], literal[2]) : new RegExp(pattern);
	} catch (error) {
		problem = (error as Error).message;
	}
	// Thrown outside the catch: this is the user's input, not a failed request.
	throw new InputError('Text Pattern', `is not a valid regular expression: ${problem}`);
}

/** Splits a comma/space/newline separated list, dropping empty entries. Arrays (from expressions) are accepted. */
export function splitList(value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap(splitList);
	if (value === undefined || value === null) return [];
	return String(value)
		.split(/[\s,;]+/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

/** The update types the polling trigger can receive (every type but inline taps, which are webhook-only). */
export const POLLABLE_UPDATE_TYPES: readonly string[] = UPDATE_TYPES;

// ---------------------------------------------------------------------------------------------------------
// Small readers

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectOrUndefined<T>(value: T | null | undefined): T | undefined {
	return isObject(value) ? value : undefined;
}

function idOrNull(value: unknown): string | null {
	if (typeof value === 'string') return value === '' ? null : value;
	if (typeof value === 'number' || typeof value === 'bigint') return String(value);
	return null;
}

function stringOrNull(value: unknown): string | null {
	return typeof value === 'string' ? value : null;
}

function fileOrNull(file: RubikaFile | null | undefined): IDataObject | null {
	return isObject(file) ? ({ ...file } as IDataObject) : null;
}

/** Rubika's time is Unix seconds as a string or a number; anything else has no ISO form. */
function timeOf(value: unknown): { raw: string | number | null; iso: string | null } {
	if (typeof value !== 'string' && typeof value !== 'number') return { raw: null, iso: null };
	const seconds = Number(value);
	if (!Number.isFinite(seconds) || String(value).trim() === '') return { raw: value, iso: null };
	// Milliseconds sneak in from some gateways; a value that large cannot be seconds of this era.
	const millis = seconds > 1e11 ? seconds : seconds * 1000;
	const date = new Date(millis);
	return { raw: value, iso: Number.isNaN(date.getTime()) ? null : date.toISOString() };
}

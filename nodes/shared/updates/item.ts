/**
 * Rubika updates as n8n items.
 *
 * The trigger sees the same Update objects by reading (getUpdates) and by webhook (deliveries), plus
 * inline keypad taps (InlineMessage) on the webhook side. Both shape them here so that a workflow can switch
 * triggers without rewriting a single expression. Pure: no requests, no n8n context.
 */
import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../json';
import type { InlineMessage, Message, Update } from '../types';
import { updateKey } from './identity';
import {
	INLINE_MESSAGE_TYPE,
	fileOrNull,
	idOrNull,
	isUpdate,
	objectOrUndefined,
	stringOrNull,
	timeOf,
} from './raw';

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
function chatKindOf(chatId: string | null): ChatKind | null {
	if (chatId === null) return null;
	if (/^b0/i.test(chatId)) return 'private';
	if (/^g0/i.test(chatId)) return 'group';
	if (/^c0/i.test(chatId)) return 'channel';
	return null;
}

function contentKindOf(message: Partial<Message> | undefined): ContentKind | null {
	if (!message) return null;
	if (isPlainObject(message.file)) return 'file';
	if (isPlainObject(message.location)) return 'location';
	if (isPlainObject(message.contact_message)) return 'contact';
	if (isPlainObject(message.poll)) return 'poll';
	if (isPlainObject(message.sticker)) return 'sticker';
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
	if (!isPlainObject(body)) return undefined;
	if (isPlainObject(body.update)) return updateToItem(body.update as unknown as Update);
	if (isPlainObject(body.inline_message)) return updateToItem(body.inline_message as unknown as InlineMessage);
	return undefined;
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
	const raw = (isPlainObject(inline) ? inline : {}) as Partial<InlineMessage>;
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

/**
 * What every API method shares: the context it runs in, looking up the chat and message a body names,
 * and the options of every send method (prepareSend checks them, commitSend stores the message). Used by
 * methods.ts (the documented methods) and undocumentedMethods.ts (the ones only client libraries call).
 */
import type { Keypad } from '../nodes/shared/types';
import { CHAT_KEYPAD_TYPES } from '../nodes/shared/types';
import type { SandboxConfig } from './config';
import { invalidAccess, invalidInput } from './errors';
import type { BotRecord, ChatRecord, FileRecord, SandboxState, StoredMessage } from './state';
import type { Body } from './validation';
import { optionalBoolean, optionalEnum, optionalId, present, requireId, validateKeypad } from './validation';

export interface MethodContext {
	state: SandboxState;
	config: SandboxConfig;
	bot: BotRecord;
	uploadUrl(slotId: string): string;
	downloadUrl(file: FileRecord): string;
	/** Set by the duplicateUpdate fault: this getUpdates answer repeats one already delivered update. */
	duplicateUpdate: boolean;
}

export type MethodHandler = (ctx: MethodContext, body: Body) => Record<string, unknown>;

/** A chat the bot can see; anything else is an unknown chat to it. */
export function botChat(ctx: MethodContext, body: Body, field = 'chat_id'): ChatRecord {
	const chatId = requireId(body, field);
	const chat = ctx.state.chatForBot(ctx.bot, chatId);
	if (!chat) throw invalidInput(`${field}: chat ${chatId} not found`);
	return chat;
}

export function chatMessage(chat: ChatRecord, body: Body, field = 'message_id'): StoredMessage {
	const messageId = requireId(body, field);
	const message = chat.messages.get(messageId);
	if (!message) throw invalidInput(`${field}: message ${messageId} not found in chat ${chat.chat_id}`);
	return message;
}

export function isOwnMessage(ctx: MethodContext, message: StoredMessage): boolean {
	return message.sender_type === 'Bot' && message.sender_id === ctx.bot.bot_id;
}

export function assertCanPost(ctx: MethodContext, chat: ChatRecord): void {
	if (chat.kind === 'Channel' && !ctx.state.isAdmin(chat, ctx.bot.bot_id)) {
		throw invalidAccess('the bot must be an admin of the channel to post in it');
	}
	if (chat.kind === 'Private' && chat.botStopped && ctx.config.rejectSendAfterStop) {
		throw invalidAccess('the user has stopped the bot');
	}
}

/** keypadsInGroups 'reject': a keypad sent to a group or channel is INVALID_INPUT (facts §7, one library). */
export function assertKeypadAllowed(ctx: MethodContext, chat: ChatRecord, body: Body): void {
	if (ctx.config.keypadsInGroups !== 'reject' || chat.kind === 'Private') return;
	const field = ['inline_keypad', 'chat_keypad'].find((name) => present(body, name));
	if (field) throw invalidInput(`${field}: keypads are not allowed in groups and channels`);
}

type ChatKeypadEffect = { kind: 'set'; keypad: Keypad } | { kind: 'remove' } | null;

export interface PreparedSend {
	chat: ChatRecord;
	disableNotification?: boolean;
	replyTo?: string;
	inlineKeypad?: Keypad;
	chatKeypadEffect: ChatKeypadEffect;
}

/**
 * The options every send method shares. Chat keypad rules: `New` + chat_keypad sets it, `Remove` clears
 * it, `None` leaves it; a chat_keypad without any type also sets it (nothing says otherwise, and a type-less keypad would else be lost).
 */
export function prepareSend(ctx: MethodContext, body: Body): PreparedSend {
	const chat = botChat(ctx, body);
	const disableNotification = optionalBoolean(body, 'disable_notification');
	const replyTo = optionalId(body, 'reply_to_message_id');
	const keypadType = optionalEnum(body, 'chat_keypad_type', CHAT_KEYPAD_TYPES);
	const inlineKeypad = present(body, 'inline_keypad') ? validateKeypad(body.inline_keypad, 'inline_keypad', 'inline', ctx.config) : undefined;
	const chatKeypad = present(body, 'chat_keypad') ? validateKeypad(body.chat_keypad, 'chat_keypad', 'chat', ctx.config) : undefined;
	if (keypadType === 'New' && !chatKeypad) throw invalidInput('chat_keypad is required when chat_keypad_type is New');
	assertKeypadAllowed(ctx, chat, body);
	assertCanPost(ctx, chat);
	if (replyTo !== undefined && !chat.messages.has(replyTo)) {
		throw invalidInput(`reply_to_message_id: message ${replyTo} not found in chat ${chat.chat_id}`);
	}
	let chatKeypadEffect: ChatKeypadEffect = null;
	if (keypadType === 'Remove') chatKeypadEffect = { kind: 'remove' };
	else if (chatKeypad && (keypadType === 'New' || keypadType === undefined)) chatKeypadEffect = { kind: 'set', keypad: chatKeypad };
	return { chat, disableNotification, replyTo, inlineKeypad, chatKeypadEffect };
}

export function commitSend(
	ctx: MethodContext,
	prepared: PreparedSend,
	content: Partial<Pick<StoredMessage, 'text' | 'metadata' | 'file' | 'poll' | 'location' | 'contact_message' | 'sticker' | 'forwarded_from'>>,
): StoredMessage {
	const message = ctx.state.addMessage(prepared.chat, {
		...content,
		sender_type: 'Bot',
		sender_id: ctx.bot.bot_id,
		reply_to_message_id: prepared.replyTo,
		inline_keypad: prepared.inlineKeypad,
		disable_notification: prepared.disableNotification,
	});
	const effect = prepared.chatKeypadEffect;
	if (effect?.kind === 'set') prepared.chat.chatKeypad = effect.keypad;
	else if (effect?.kind === 'remove') prepared.chat.chatKeypad = null;
	return message;
}

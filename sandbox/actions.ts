/**
 * What simulated people do: send, edit and delete messages, tap keypad buttons, start and stop a bot,
 * join a chat. Each action changes the state like the real app would and emits the updates the bots in
 * that chat would receive (facts §4, §5). Used in-process by tests and through the admin HTTP API.
 * Misuse (unknown ids, a banned user posting…) throws ActionError, never an API error.
 */
import type {
	AuxData,
	Button,
	PaymentStatusType,
	ContactMessage,
	InlineMessage,
	Location,
	Metadata,
	Update,
	UpdateType,
} from '../nodes/shared/types';
import { ActionError } from './errors';
import type { InputAnswerValues } from './inputAnswers';
import { inputAnswerContent } from './inputAnswers';
import type { BotRecord, ChatRecord, SandboxState, StoredMessage } from './state';
import { isOneTime } from './validation';
import { messageView } from './views';

export interface UserMessageInput {
	userId: string;
	/** Any chat the user can post in; omit to use the user's private chat with `botId`. */
	chatId?: string;
	/** For private chats when `chatId` is omitted; defaults to the first bot (the demo bot). */
	botId?: string;
	text?: string;
	replyToMessageId?: string;
	/** A file already in the sandbox (uploaded, or added with addFile). */
	fileId?: string;
	metadata?: Metadata;
	location?: Location;
	contact?: ContactMessage;
	/**
	 * A keypad tap's `aux_data.button_id` on a message typed by a client other than Rubika's app, which can
	 * send any button id, shown in the chat or not: the forgeries tests try (tapChatKeypadButton is the app).
	 */
	buttonId?: string;
}

export interface UserMessageRef {
	userId: string;
	chatId: string;
	messageId: string;
}

function resolveChat(state: SandboxState, input: { userId: string; chatId?: string; botId?: string }): ChatRecord {
	state.requireUser(input.userId);
	if (input.chatId) return state.requireChat(input.chatId);
	const bot = input.botId ? state.requireBot(input.botId) : state.defaultBot();
	const chat = state.findPrivateChat(bot.bot_id, input.userId);
	if (!chat) throw new ActionError(`user ${input.userId} has no chat with bot ${bot.bot_id}; start the bot first`, 404);
	return chat;
}

function assertCanPost(state: SandboxState, chat: ChatRecord, userId: string): void {
	if (chat.kind === 'Private') {
		if (chat.userId !== userId) throw new ActionError(`chat ${chat.chat_id} is not user ${userId}'s private chat`, 403);
		return;
	}
	if (chat.banned.has(userId)) throw new ActionError(`user ${userId} is banned from ${chat.chat_id}`, 403);
	if (!chat.roles.has(userId)) throw new ActionError(`user ${userId} is not a member of ${chat.chat_id}`, 403);
	if (chat.kind === 'Channel' && !state.isAdmin(chat, userId)) {
		throw new ActionError(`only the owner and admins post in channel ${chat.chat_id}`, 403);
	}
}

function assertCanSee(chat: ChatRecord, userId: string): void {
	if (chat.kind === 'Private' ? chat.userId !== userId : !chat.roles.has(userId)) {
		throw new ActionError(`user ${userId} cannot see chat ${chat.chat_id}`, 403);
	}
}

/**
 * With groupPrivacy on, a bot in a group or channel only hears messages that start with "/", mention it
 * by @username or MentionText, or reply to one of its messages (facts §5).
 */
function botHears(state: SandboxState, bot: BotRecord, chat: ChatRecord, message: StoredMessage): boolean {
	if (chat.kind === 'Private' || !state.config.groupPrivacy) return true;
	const text = message.text ?? '';
	if (text.trimStart().startsWith('/')) return true;
	if (text.toLowerCase().includes(`@${bot.username.toLowerCase()}`)) return true;
	if (message.metadata?.meta_data_parts.some((part) => part.type === 'MentionText' && part.mention_text_user_id === bot.bot_id)) {
		return true;
	}
	const repliedTo = message.reply_to_message_id ? chat.messages.get(message.reply_to_message_id) : undefined;
	return repliedTo?.sender_id === bot.bot_id;
}

function makeUpdate(state: SandboxState, type: UpdateType, chat: ChatRecord, fields: Partial<Update>): Update {
	const update: Update = { type, chat_id: chat.chat_id, ...fields, update_time: String(state.nowSeconds()) };
	if (state.config.explicitNulls) {
		for (const key of ['removed_message_id', 'new_message', 'updated_message', 'updated_payment'] as const) {
			if (!(key in update)) update[key] = null;
		}
	}
	return update;
}

function notifyBots(state: SandboxState, chat: ChatRecord, message: StoredMessage, type: UpdateType, fields: Partial<Update>): void {
	const update = makeUpdate(state, type, chat, fields);
	for (const bot of state.botsInChat(chat)) {
		if (botHears(state, bot, chat, message)) state.appendUpdate(bot, update);
	}
}

function userMessage(
	state: SandboxState,
	chat: ChatRecord,
	userId: string,
	content: Partial<StoredMessage>,
	auxData: AuxData = { start_id: null, button_id: null },
): StoredMessage {
	const message = state.addMessage(chat, { ...content, sender_type: 'User', sender_id: userId, aux_data: auxData });
	notifyBots(state, chat, message, 'NewMessage', { new_message: messageView(message, state.config.explicitNulls) });
	return message;
}

export function userSendMessage(state: SandboxState, input: UserMessageInput): StoredMessage {
	const chat = resolveChat(state, input);
	assertCanPost(state, chat, input.userId);
	if (input.text === undefined && !input.fileId && !input.location && !input.contact) {
		throw new ActionError('a message needs text, a file, a location or a contact');
	}
	if (input.replyToMessageId && !chat.messages.has(input.replyToMessageId)) {
		throw new ActionError(`message ${input.replyToMessageId} is not in chat ${chat.chat_id}`, 404);
	}
	let file: StoredMessage['file'];
	if (input.fileId) {
		const record = state.files.get(input.fileId);
		if (!record) throw new ActionError(`no file ${input.fileId}`, 404);
		file = { file_id: record.file_id, file_name: record.file_name, ...sizeOfSentFile(record.bytes.length, state.config.fileSizeInMessages) };
	}
	return userMessage(state, chat, input.userId, {
		text: input.text,
		reply_to_message_id: input.replyToMessageId,
		file,
		metadata: input.metadata && structuredClone(input.metadata),
		location: input.location && { ...input.location },
		contact_message: input.contact && { ...input.contact },
	}, { start_id: null, button_id: input.buttonId ?? null });
}

/** A sent file's `size`, as the knob `fileSizeInMessages` writes it (facts §2: documented as a string). */
function sizeOfSentFile(bytes: number, style: SandboxState['config']['fileSizeInMessages']): { size?: string } {
	if (style === 'absent') return {};
	// The wire type says string; a service that sends a number is what the knob plays.
	return { size: style === 'number' ? (bytes as unknown as string) : String(bytes) };
}

function ownMessage(state: SandboxState, ref: UserMessageRef): { chat: ChatRecord; message: StoredMessage } {
	state.requireUser(ref.userId);
	const chat = state.requireChat(ref.chatId);
	const message = chat.messages.get(ref.messageId);
	if (!message) throw new ActionError(`message ${ref.messageId} is not in chat ${ref.chatId}`, 404);
	return { chat, message };
}

/** A person edits their own message: the bots get UpdatedMessage. */
export function userEditMessage(state: SandboxState, input: UserMessageRef & { text: string }): StoredMessage {
	const { chat, message } = ownMessage(state, input);
	if (message.sender_type !== 'User' || message.sender_id !== input.userId) {
		throw new ActionError('users can only edit their own messages', 403);
	}
	if (typeof input.text !== 'string' || input.text === '') throw new ActionError('text is required');
	message.text = input.text;
	delete message.metadata;
	message.is_edited = true;
	notifyBots(state, chat, message, 'UpdatedMessage', { updated_message: messageView(message, state.config.explicitNulls) });
	return message;
}

/** A person deletes their own message, or an admin anyone's: the bots get RemovedMessage. */
export function userDeleteMessage(state: SandboxState, input: UserMessageRef): void {
	const { chat, message } = ownMessage(state, input);
	const own = message.sender_type === 'User' && message.sender_id === input.userId;
	if (!own && (chat.kind === 'Private' || !state.isAdmin(chat, input.userId))) {
		throw new ActionError('users can delete their own messages, admins anyone\'s', 403);
	}
	state.deleteMessage(chat, message.message_id);
	notifyBots(state, chat, message, 'RemovedMessage', { removed_message_id: message.message_id });
}

/**
 * A tap on an inline keypad button. It is delivered only to the ReceiveInlineMessage endpoint of the bot
 * that sent the message (facts §5: inline taps are webhook-only), never to getUpdates.
 */
export function userTapInlineButton(state: SandboxState, input: UserMessageRef & { buttonId: string }): InlineMessage {
	const { chat, message } = ownMessage(state, input);
	assertCanSee(chat, input.userId);
	if (message.sender_type !== 'Bot') throw new ActionError('only bot messages carry inline keypads');
	const button = message.inline_keypad?.rows.flatMap((row) => row.buttons).find((candidate) => candidate.id === input.buttonId);
	if (!button) throw new ActionError(`message ${message.message_id} has no inline button ${input.buttonId}`, 404);
	refuseLinkTap(button);
	const inline: InlineMessage = {
		sender_id: input.userId,
		text: button.button_text,
		location: null,
		aux_data: { start_id: null, button_id: button.id },
		message_id: message.message_id,
		chat_id: chat.chat_id,
	};
	state.emitInlineMessage(state.requireBot(message.sender_id), inline);
	return inline;
}

/** A tap on the chat keypad arrives as a NewMessage holding the button text and aux_data.button_id. */
export function userTapChatKeypadButton(
	state: SandboxState,
	input: { userId: string; chatId?: string; botId?: string; buttonId: string },
): StoredMessage {
	const chat = resolveChat(state, input);
	assertCanPost(state, chat, input.userId);
	const keypad = chat.chatKeypad;
	const button = keypad?.rows.flatMap((row) => row.buttons).find((candidate) => candidate.id === input.buttonId);
	if (!keypad || !button) throw new ActionError(`chat ${chat.chat_id} shows no chat keypad button ${input.buttonId}`, 404);
	refuseLinkTap(button);
	if (isOneTime(keypad, state.config.oneTimeKeyboardSpelling)) chat.chatKeypad = null;
	return userMessage(state, chat, input.userId, { text: button.button_text }, { start_id: null, button_id: button.id });
}

export interface ButtonAnswerInput extends InputAnswerValues {
	userId: string;
	/** The chat (or, omitted, the user's private chat with `botId`). */
	chatId?: string;
	botId?: string;
	/** The bot's message whose inline keypad holds the button; omit for a button of the chat keypad. */
	messageId?: string;
	buttonId: string;
}

/** Where an answer went: a NewMessage in the chat, or an inline_message for the ReceiveInlineMessage endpoint. */
export type ButtonAnswer = { delivery: 'message'; message: StoredMessage } | { delivery: 'inline'; inlineMessage: InlineMessage };

/**
 * A person answers an input button (Textbox, Calendar, NumberPicker, StringPicker, a phone or location button;
 * facts §11) with the one value its type asks for (inputAnswers.ts). On the chat keypad the answer is a
 * NewMessage whose aux_data.button_id is the button's id, as a tap is. On an inline keypad it is an
 * inline_message (ReceiveInlineMessage only) or, with `inlineInputAnswers: 'newMessage'`, a NewMessage.
 */
export function userAnswerButton(state: SandboxState, input: ButtonAnswerInput): ButtonAnswer {
	const chat = resolveChat(state, input);
	const user = state.requireUser(input.userId);
	const auxData = { start_id: null, button_id: input.buttonId };
	if (input.messageId === undefined) {
		assertCanPost(state, chat, input.userId);
		const keypad = chat.chatKeypad;
		const button = keypad?.rows.flatMap((row) => row.buttons).find((candidate) => candidate.id === input.buttonId);
		if (!keypad || !button) throw new ActionError(`chat ${chat.chat_id} shows no chat keypad button ${input.buttonId}`, 404);
		const content = inputAnswerContent(button, input, user, state.config);
		if (isOneTime(keypad, state.config.oneTimeKeyboardSpelling)) chat.chatKeypad = null;
		return { delivery: 'message', message: userMessage(state, chat, input.userId, content, auxData) };
	}
	const { message } = ownMessage(state, { userId: input.userId, chatId: chat.chat_id, messageId: input.messageId });
	assertCanSee(chat, input.userId);
	const button = message.inline_keypad?.rows.flatMap((row) => row.buttons).find((candidate) => candidate.id === input.buttonId);
	if (message.sender_type !== 'Bot' || !button) throw new ActionError(`message ${message.message_id} has no inline button ${input.buttonId}`, 404);
	const content = inputAnswerContent(button, input, user, state.config);
	if (state.config.inlineInputAnswers === 'newMessage') {
		assertCanPost(state, chat, input.userId);
		return { delivery: 'message', message: userMessage(state, chat, input.userId, content, auxData) };
	}
	const inlineMessage: InlineMessage = {
		sender_id: input.userId,
		...(content.text === undefined ? {} : { text: content.text }),
		location: content.location ?? null,
		...(content.contact_message ? { contact_message: content.contact_message } : {}),
		aux_data: auxData,
		message_id: message.message_id,
		chat_id: chat.chat_id,
	};
	state.emitInlineMessage(state.requireBot(message.sender_id), inlineMessage);
	return { delivery: 'inline', inlineMessage };
}

/**
 * A person opens the bot and presses start: the private chat is created if needed, the bot gets
 * StartedBot, then (by default) the "/start" message, whose aux_data.start_id carries a link's `st` value.
 */
export function userStartBot(
	state: SandboxState,
	input: { userId: string; botId?: string; startId?: string; sendStartMessage?: boolean },
): ChatRecord {
	const bot = input.botId ? state.requireBot(input.botId) : state.defaultBot();
	const chat = state.privateChat(bot.bot_id, input.userId);
	chat.botStopped = false;
	state.appendUpdate(bot, makeUpdate(state, 'StartedBot', chat, {}));
	if (input.sendStartMessage !== false) {
		userMessage(state, chat, input.userId, { text: '/start' }, { start_id: input.startId ?? null, button_id: null });
	}
	return chat;
}

export function userStopBot(state: SandboxState, input: { userId: string; botId?: string }): ChatRecord {
	const chat = resolveChat(state, input);
	if (chat.kind !== 'Private') throw new ActionError('only a private chat with a bot can be stopped');
	chat.botStopped = true;
	state.appendUpdate(state.requireBot(chat.botId as string), makeUpdate(state, 'StoppedBot', chat, {}));
	return chat;
}

/** A link button sends nothing to the bot, as in real messengers: its tap is userTapLinkButton. */
function refuseLinkTap(button: Button): void {
	if (button.type === 'Link') {
		throw new ActionError(`button ${button.id} is a link button: a tap opens its link and sends nothing to the bot (use tap-link-button)`);
	}
}

/**
 * Joining through an invite link or a channel's username (a joinchannel link button), which a ban
 * forbids (banChatMember's documentation, facts §7).
 */
export function userJoinChat(state: SandboxState, input: { userId: string; chatId?: string; username?: string }): ChatRecord {
	state.requireUser(input.userId);
	let chat: ChatRecord;
	if (input.chatId) chat = state.requireChat(input.chatId);
	else if (typeof input.username === 'string' && input.username) {
		const found = state.findChatByUsername(input.username);
		if (!found) throw new ActionError(`no group or channel has the username ${input.username}`, 404);
		chat = found;
	} else throw new ActionError('chatId or username is required');
	if (chat.kind === 'Private') throw new ActionError('nobody joins a private chat');
	if (chat.banned.has(input.userId)) throw new ActionError(`user ${input.userId} is banned from ${chat.chat_id}`, 403);
	if (!chat.roles.has(input.userId)) chat.roles.set(input.userId, 'member');
	return chat;
}

export type LinkTap =
	| { type: 'url'; url: string; buttonId: string }
	| { type: 'joinchannel'; username: string; askJoin: boolean; buttonId: string; chat: ChatRecord };

/**
 * A tap on a link button (type Link, `button_link`) of an inline keypad (`messageId` given) or of the chat
 * keypad: nothing reaches the bot. A `url` button answers the address the app would open (the caller
 * opens it: a test fetches it, the chat page opens a tab); a `joinchannel` button joins the channel with
 * that username and answers it.
 */
export function userTapLinkButton(
	state: SandboxState,
	input: { userId: string; chatId?: string; botId?: string; messageId?: string; buttonId: string },
): LinkTap {
	const chat = resolveChat(state, input);
	let button: Button | undefined;
	if (input.messageId) {
		const { message } = ownMessage(state, { userId: input.userId, chatId: chat.chat_id, messageId: input.messageId });
		assertCanSee(chat, input.userId);
		button = message.inline_keypad?.rows.flatMap((row) => row.buttons).find((candidate) => candidate.id === input.buttonId);
		if (!button) throw new ActionError(`message ${message.message_id} has no inline button ${input.buttonId}`, 404);
	} else {
		assertCanPost(state, chat, input.userId);
		button = chat.chatKeypad?.rows.flatMap((row) => row.buttons).find((candidate) => candidate.id === input.buttonId);
		if (!button) throw new ActionError(`chat ${chat.chat_id} shows no chat keypad button ${input.buttonId}`, 404);
	}
	const link = button.button_link as ButtonLink | undefined;
	if (button.type !== 'Link' || !link) throw new ActionError(`button ${button.id} is not a link button`);
	if (!input.messageId && chat.chatKeypad && isOneTime(chat.chatKeypad, state.config.oneTimeKeyboardSpelling)) chat.chatKeypad = null;
	if (link.type === 'url') return { type: 'url', url: String(link.link_url), buttonId: button.id };
	const username = String(link.joinchannel_data?.username ?? '');
	const joined = userJoinChat(state, { userId: input.userId, username });
	return { type: 'joinchannel', username, askJoin: link.joinchannel_data?.ask_join === true, buttonId: button.id, chat: joined };
}

/** `button_link` as the sandbox stores it after validation (see validateButtonLink). */
interface ButtonLink {
	type: 'url' | 'joinchannel';
	link_url?: string;
	joinchannel_data?: { username: string; ask_join?: boolean };
}

/**
 * A payment changes state (UpdatedPayment, documented in the 2022 documentation and read by every library, though no
 * method creates payments): the bot gets `updated_payment` in the user's private chat.
 */
export function paymentUpdate(
	state: SandboxState,
	input: { userId: string; botId?: string; paymentId: string; status: PaymentStatusType },
): Update {
	const chat = resolveChat(state, input);
	if (typeof input.paymentId !== 'string' || !input.paymentId) throw new ActionError('paymentId is required');
	if (input.status !== 'Paid' && input.status !== 'NotPaid') throw new ActionError('status must be Paid or NotPaid');
	const update = makeUpdate(state, 'UpdatedPayment', chat, { updated_payment: { payment_id: input.paymentId, status: input.status } });
	state.appendUpdate(state.requireBot(chat.botId as string), update);
	return update;
}

export interface SyntheticUpdatesInput {
	count: number;
	botId?: string;
	/** The private chat of this user with the bot (default: the first user that has one). */
	userId?: string;
	/** Unix seconds stamped on the messages (e.g. an hour ago, to test age filters). */
	time?: number;
	/** Also hand them to webhook delivery (off by default: the point is a fast getUpdates backlog). */
	deliver?: boolean;
}

/**
 * Appends `count` NewMessage updates ("synthetic 1", "synthetic 2", …) from a user to a bot, fast:
 * no per-update validation, and no webhook delivery unless asked. The messages are real, so a bot can
 * reply to them.
 */
export function appendSyntheticUpdates(state: SandboxState, input: SyntheticUpdatesInput): void {
	if (!Number.isInteger(input.count) || input.count < 0) throw new ActionError('count must be a non-negative integer');
	const bot = input.botId ? state.requireBot(input.botId) : state.defaultBot();
	let chat: ChatRecord | undefined;
	if (input.userId) chat = state.findPrivateChat(bot.bot_id, input.userId) ?? state.privateChat(bot.bot_id, input.userId);
	else chat = [...state.chats.values()].find((candidate) => candidate.kind === 'Private' && candidate.botId === bot.bot_id);
	if (!chat) throw new ActionError(`bot ${bot.bot_id} has no private chat; pass userId`, 404);
	const userId = chat.userId as string;
	const explicitNulls = state.config.explicitNulls;
	const updateTime = String(input.time ?? state.nowSeconds());
	for (let index = 1; index <= input.count; index++) {
		const message = state.addMessage(chat, {
			sender_type: 'User',
			sender_id: userId,
			text: `synthetic ${index}`,
			aux_data: { start_id: null, button_id: null },
			time: input.time,
		});
		const update: Update = {
			type: 'NewMessage',
			chat_id: chat.chat_id,
			new_message: messageView(message, explicitNulls),
			update_time: updateTime,
		};
		if (input.deliver) state.appendUpdate(bot, update);
		else bot.updates.append(update);
	}
}

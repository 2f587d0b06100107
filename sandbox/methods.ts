/**
 * The API methods: each validates its body completely, then applies its effect and returns `data`.
 * Nothing changes state until every check has passed, so a rejected request leaves no trace but its log
 * entry. Bot-made changes never produce updates (facts §5). The documented methods are here; the ones only
 * client libraries call are in undocumentedMethods.ts, what all share in methodHelpers.ts.
 */
import type { ForwardedFrom, RubikaFile, RubikaMethod } from '../nodes/shared/types';
import { CHAT_KEYPAD_TYPES, FILE_TYPES, UPDATE_ENDPOINT_TYPES } from '../nodes/shared/types';
import { invalidAccess, invalidInput } from './errors';
import type { MethodContext, MethodHandler } from './methodHelpers';
import { assertCanPost, assertKeypadAllowed, botChat, chatMessage, commitSend, isOwnMessage, prepareSend } from './methodHelpers';
import type { ChatRecord, FileRecord } from './state';
import type { Body } from './validation';
import {
	checkTextLength,
	isAcceptableEndpointUrl,
	optionalBoolean,
	optionalString,
	parseLimit,
	present,
	requireCoordinate,
	requireEnum,
	requireId,
	requireString,
	validateCommands,
	validateKeypad,
	validateMetadata,
} from './validation';
import { UNDOCUMENTED_HANDLERS, pollExtras } from './undocumentedMethods';
import { botView, chatView } from './views';

export type { MethodHandler } from './methodHelpers';

function fileView(file: FileRecord): RubikaFile {
	return { file_id: file.file_id, file_name: file.file_name, size: String(file.bytes.length) };
}

const getMe: MethodHandler = (ctx) => ({ bot: botView(ctx.bot, ctx.config.explicitNulls) });

const getChat: MethodHandler = (ctx, body) => ({
	chat: chatView(ctx.state, botChat(ctx, body), ctx.config.explicitNulls),
});

const getFile: MethodHandler = (ctx, body) => {
	const fileId = requireId(body, 'file_id');
	const file = ctx.state.files.get(fileId);
	if (!file) throw invalidInput(`file_id: file ${fileId} not found`);
	return { download_url: ctx.downloadUrl(file) };
};

const getUpdates: MethodHandler = (ctx, body) => {
	const limit = parseLimit(body, ctx.config.defaultUpdatesLimit, ctx.config.maxUpdatesLimit);
	const offset = optionalString(body, 'offset_id');
	const log = ctx.bot.updates;
	let from = log.oldestSeq;
	if (offset !== undefined && offset !== '') {
		const seq = log.parseCursor(offset);
		if (seq !== undefined) from = seq;
		else if (ctx.config.unknownOffset === 'error') throw invalidInput('offset_id is not a next_offset_id this bot was given');
	}
	const { updates, nextSeq } = log.read(from, limit);
	let answer = updates;
	if (ctx.duplicateUpdate) {
		// Repeat the last update the client has already seen, or else the first of this batch.
		const repeated = log.at(from - 1) ?? updates[0];
		if (repeated) answer = [repeated, ...updates];
	}
	return { updates: answer, next_offset_id: log.cursor(nextSeq) };
};

const sendMessage: MethodHandler = (ctx, body) => {
	const prepared = prepareSend(ctx, body);
	const text = requireString(body, 'text');
	checkTextLength(text, 'text', ctx.config);
	const metadata = present(body, 'metadata') ? validateMetadata(body.metadata, text, prepared.chat.kind, ctx.config) : undefined;
	return { message_id: commitSend(ctx, prepared, { text, metadata }).message_id };
};

const sendPoll: MethodHandler = (ctx, body) => {
	const prepared = prepareSend(ctx, body);
	const question = requireString(body, 'question');
	const options = body.options;
	if (!Array.isArray(options)) throw invalidInput('options must be an array of strings');
	if (options.length < 2) throw invalidInput('options must hold at least 2 answers');
	options.forEach((option, index) => {
		if (typeof option !== 'string' || option.trim() === '') throw invalidInput(`options[${index}] must be a non-empty string`);
	});
	const poll = {
		question,
		options: [...(options as string[])],
		...pollExtras(body, options.length, ctx.config.pollExtras),
		poll_status: {
			state: 'Open' as const,
			selection_index: -1,
			percent_vote_options: options.map(() => 0),
			total_vote: 0,
			show_total_votes: true,
		},
	};
	return { message_id: commitSend(ctx, prepared, { poll }).message_id };
};

const sendLocation: MethodHandler = (ctx, body) => {
	const prepared = prepareSend(ctx, body);
	const latitude = requireCoordinate(body, 'latitude');
	const longitude = requireCoordinate(body, 'longitude');
	return { message_id: commitSend(ctx, prepared, { location: { latitude, longitude } }).message_id };
};

const sendContact: MethodHandler = (ctx, body) => {
	const prepared = prepareSend(ctx, body);
	const first_name = requireString(body, 'first_name');
	const phone_number = requireString(body, 'phone_number');
	const last_name = optionalString(body, 'last_name');
	if (!/^\+?[0-9][0-9 ()-]*$/.test(phone_number.trim())) {
		throw invalidInput(`phone_number must be digits with an optional leading +; got "${phone_number}"`);
	}
	const contact_message = { phone_number, first_name, ...(last_name !== undefined ? { last_name } : {}) };
	return { message_id: commitSend(ctx, prepared, { contact_message }).message_id };
};

const sendFile: MethodHandler = (ctx, body) => {
	const prepared = prepareSend(ctx, body);
	const fileId = requireId(body, 'file_id');
	const file = ctx.state.files.get(fileId);
	if (!file) throw invalidInput(`file_id: file ${fileId} not found`);
	const text = optionalString(body, 'text');
	checkTextLength(text, 'text', ctx.config);
	const metadata = present(body, 'metadata') ? validateMetadata(body.metadata, text, prepared.chat.kind, ctx.config) : undefined;
	const content = { file: fileView(file), ...(text ? { text } : {}), metadata };
	return { message_id: commitSend(ctx, prepared, content).message_id };
};

/** Copies the content and records where it came from; a re-forward keeps the first origin. */
const forwardMessage: MethodHandler = (ctx, body) => {
	const from = botChat(ctx, body, 'from_chat_id');
	const original = chatMessage(from, body);
	const to = botChat(ctx, body, 'to_chat_id');
	const disableNotification = optionalBoolean(body, 'disable_notification');
	assertCanPost(ctx, to);
	const forwarded_from: ForwardedFrom = original.forwarded_from ?? {
		type_from: from.kind === 'Channel' ? 'Channel' : original.sender_type === 'Bot' ? 'Bot' : 'User',
		message_id: original.message_id,
		from_chat_id: from.chat_id,
		from_sender_id: original.sender_id,
	};
	const message = ctx.state.addMessage(to, {
		sender_type: 'Bot',
		sender_id: ctx.bot.bot_id,
		text: original.text,
		metadata: original.metadata && structuredClone(original.metadata),
		file: original.file && { ...original.file },
		poll: original.poll && structuredClone(original.poll),
		location: original.location && { ...original.location },
		contact_message: original.contact_message && { ...original.contact_message },
		sticker: original.sticker && structuredClone(original.sticker),
		forwarded_from: { ...forwarded_from },
		disable_notification: disableNotification,
	});
	return { new_message_id: message.message_id };
};

/** Only the bot's own messages (facts §7), and only messages that carry text (a caption counts). */
const editMessageText: MethodHandler = (ctx, body) => {
	const chat = botChat(ctx, body);
	const message = chatMessage(chat, body);
	const text = requireString(body, 'text');
	checkTextLength(text, 'text', ctx.config);
	if (!isOwnMessage(ctx, message)) throw invalidAccess('the bot can only edit its own messages');
	if (message.text === undefined && !message.file) throw invalidInput('this message has no text to edit');
	const metadata = present(body, 'metadata') ? validateMetadata(body.metadata, text, chat.kind, ctx.config) : undefined;
	message.text = text;
	// Old ranges would not fit the new text.
	if (metadata) message.metadata = metadata;
	else delete message.metadata;
	message.is_edited = true;
	return {};
};

const editMessageKeypad: MethodHandler = (ctx, body) => {
	const chat = botChat(ctx, body);
	const message = chatMessage(chat, body);
	if (!present(body, 'inline_keypad')) throw invalidInput('inline_keypad is required');
	const keypad = validateKeypad(body.inline_keypad, 'inline_keypad', 'inline', ctx.config);
	assertKeypadAllowed(ctx, chat, body);
	if (!isOwnMessage(ctx, message)) throw invalidAccess('the bot can only edit its own messages');
	message.inline_keypad = keypad;
	return {};
};

/** Own messages always; others' only where the bot is an admin (groups and channels). */
const deleteMessage: MethodHandler = (ctx, body) => {
	const chat = botChat(ctx, body);
	const message = chatMessage(chat, body);
	if (!isOwnMessage(ctx, message) && (chat.kind === 'Private' || !ctx.state.isAdmin(chat, ctx.bot.bot_id))) {
		throw invalidAccess('the bot can only delete others\' messages as an admin of a group or channel');
	}
	ctx.state.deleteMessage(chat, message.message_id);
	return {};
};

const editChatKeypad: MethodHandler = (ctx, body) => {
	const chat = botChat(ctx, body);
	const type = requireEnum(body, 'chat_keypad_type', CHAT_KEYPAD_TYPES);
	if (type === 'None') throw invalidInput('chat_keypad_type must be New or Remove');
	if (type === 'New') {
		if (!present(body, 'chat_keypad')) throw invalidInput('chat_keypad is required when chat_keypad_type is New');
		const keypad = validateKeypad(body.chat_keypad, 'chat_keypad', 'chat', ctx.config);
		assertKeypadAllowed(ctx, chat, body);
		chat.chatKeypad = keypad;
	} else {
		chat.chatKeypad = null;
	}
	return {};
};

const setCommands: MethodHandler = (ctx, body) => {
	ctx.bot.commands = validateCommands(body);
	return {};
};

/**
 * Registers the address for one endpoint type. Removing one is undocumented (facts §4): with `endpointRemoval`
 * 'emptyUrl' an empty url removes it, with 'nullUrl' a null or absent one; otherwise those are INVALID_INPUT.
 */
const updateBotEndpoints: MethodHandler = (ctx, body) => {
	const type = requireEnum(body, 'type', UPDATE_ENDPOINT_TYPES);
	const removal = ctx.config.endpointRemoval;
	if ((removal === 'emptyUrl' && body.url === '') || (removal === 'nullUrl' && !present(body, 'url'))) {
		ctx.bot.endpoints.delete(type);
		return { status: 'Done' };
	}
	const url = requireString(body, 'url');
	if (!isAcceptableEndpointUrl(url, ctx.config.requireHttpsEndpoints)) return { status: 'InvalidUrl' };
	ctx.bot.endpoints.set(type, { type, url, registeredAt: ctx.state.clock() });
	return { status: 'Done' };
};

const requestSendFile: MethodHandler = (ctx, body) => {
	const type = requireEnum(body, 'type', FILE_TYPES);
	return { upload_url: ctx.uploadUrl(ctx.state.createUploadSlot(ctx.bot, type).id) };
};

function moderation(ctx: MethodContext, body: Body): { chat: ChatRecord; userId: string } {
	const chat = botChat(ctx, body);
	const userId = requireId(body, 'user_id');
	if (chat.kind === 'Private') throw invalidInput('members can only be banned in groups and channels');
	if (!ctx.state.users.has(userId)) throw invalidInput(`user_id: user ${userId} not found`);
	if (!ctx.state.isAdmin(chat, ctx.bot.bot_id)) throw invalidAccess('the bot must be an admin of the chat');
	return { chat, userId };
}

/** Removes and bans; the owner and admins are untouched, and the answer is still OK: the documentation says the ban has no effect on them, not that it fails. */
const banChatMember: MethodHandler = (ctx, body) => {
	const { chat, userId } = moderation(ctx, body);
	if (ctx.state.isAdmin(chat, userId)) return {};
	chat.roles.delete(userId);
	chat.banned.add(userId);
	return {};
};

/** Lifts the ban only; the user is not added back. */
const unbanChatMember: MethodHandler = (ctx, body) => {
	const { chat, userId } = moderation(ctx, body);
	chat.banned.delete(userId);
	return {};
};

/** Every method of RUBIKA_METHODS must have a handler: a missing one does not compile. */
export const METHODS: Record<RubikaMethod, MethodHandler> & { editInlineKeypad: MethodHandler } = {
	getMe,
	getChat,
	getFile,
	getUpdates,
	sendMessage,
	sendPoll,
	sendLocation,
	sendContact,
	sendFile,
	forwardMessage,
	editMessageText,
	editMessageKeypad,
	// An official curl example posts here; every library uses editMessageKeypad (facts §8).
	editInlineKeypad: editMessageKeypad,
	deleteMessage,
	editChatKeypad,
	setCommands,
	updateBotEndpoints,
	requestSendFile,
	banChatMember,
	unbanChatMember,
	...UNDOCUMENTED_HANDLERS,
};

/** The methods that only read the state: after one of them there is nothing new to save (stateFile.ts). */
export const READ_ONLY_METHODS: ReadonlySet<string> = new Set<RubikaMethod>([
	'getMe',
	'getChat',
	'getFile',
	'getUpdates',
	'getChatMember',
	'getChatAdministrators',
	'getChatMemberCount',
]);

/**
 * Methods Rubika's client libraries (rubpy, rubka) call although the official documentation does
 * not list them (UNDOCUMENTED_METHODS), and sendPoll's undocumented fields. Their real answers are unknown:
 * the shapes played here are in README.md. `absentMethods` (api.ts) turns any of them into an unknown
 * method, and `pollExtras` switches how sendPoll treats its extra fields.
 */
import type { Poll, UndocumentedMethod } from '../nodes/shared/types';
import { POLL_TYPES } from '../nodes/shared/types';
import type { PollExtrasMode } from './config';
import { invalidAccess, invalidInput } from './errors';
import type { MethodContext, MethodHandler } from './methodHelpers';
import { botChat, chatMessage, commitSend, prepareSend } from './methodHelpers';
import type { ChatRecord } from './state';
import type { Body } from './validation';
import { optionalBoolean, optionalEnum, optionalId, optionalString, present, requireId } from './validation';
import { chatMemberView } from './views';

type PollExtras = Pick<Poll, 'type' | 'allows_multiple_answers' | 'is_anonymous' | 'correct_option_index' | 'explanation'>;

/** The extra fields in the order rubpy sends them. */
const POLL_EXTRA_FIELDS = ['type', 'allows_multiple_answers', 'is_anonymous', 'correct_option_index', 'explanation'] as const;

/**
 * sendPoll's undocumented fields, checked as far as the libraries tell: a Quiz names its correct answer and
 * allows one answer only; correct_option_index and explanation belong to quizzes. Returns what to store
 * (only the fields sent; JSON null counts as not sent, as rubpy sends every key on every poll).
 */
export function pollExtras(body: Body, optionCount: number, mode: PollExtrasMode): PollExtras {
	if (mode === 'ignore') return {};
	if (mode === 'reject') {
		const sent = POLL_EXTRA_FIELDS.find((field) => present(body, field));
		if (sent) throw invalidInput(`${sent}: polls take only question and options here; ${sent} is not supported`);
		return {};
	}
	const type = optionalEnum(body, 'type', POLL_TYPES);
	// JSON booleans only: unlike disable_notification, no library sends these as text.
	const allows_multiple_answers = optionalBoolean(body, 'allows_multiple_answers', { strict: true });
	const is_anonymous = optionalBoolean(body, 'is_anonymous', { strict: true });
	const explanation = optionalString(body, 'explanation');
	let correct_option_index: number | undefined;
	if (present(body, 'correct_option_index')) {
		const value = body.correct_option_index;
		if (!Number.isInteger(value) || (value as number) < 0 || (value as number) >= optionCount) {
			throw invalidInput(`correct_option_index must be a whole number from 0 to ${optionCount - 1} (0-based, one per option); got ${JSON.stringify(value)}`);
		}
		correct_option_index = value as number;
	}
	if (type === 'Quiz') {
		if (correct_option_index === undefined) throw invalidInput('correct_option_index is required when type is Quiz');
		if (allows_multiple_answers === true) throw invalidInput('allows_multiple_answers: a Quiz has one correct answer and cannot allow multiple answers');
	} else {
		if (correct_option_index !== undefined) throw invalidInput('correct_option_index is only for polls of type Quiz');
		if (explanation !== undefined) throw invalidInput('explanation is only for polls of type Quiz');
	}
	const extras: PollExtras = { type, allows_multiple_answers, is_anonymous, correct_option_index, explanation };
	for (const field of POLL_EXTRA_FIELDS) if (extras[field] === undefined) delete extras[field];
	return extras;
}

/** The bot needs admin rights to touch pins in groups and channels; in a private chat it may always. */
function assertMayPin(ctx: MethodContext, chat: ChatRecord): void {
	if (chat.kind !== 'Private' && !ctx.state.isAdmin(chat, ctx.bot.bot_id)) {
		throw invalidAccess('the bot must be an admin of the chat to pin or unpin messages');
	}
}

/** Members are read in groups and channels only… */
function membersChat(ctx: MethodContext, body: Body): ChatRecord {
	const chat = botChat(ctx, body);
	if (chat.kind === 'Private') throw invalidInput('chat_id: members can only be read in groups and channels');
	return chat;
}

/** …and only by an admin (rubpy's documentation says so). */
function assertMayReadMembers(ctx: MethodContext, chat: ChatRecord): ChatRecord {
	if (!ctx.state.isAdmin(chat, ctx.bot.bot_id)) throw invalidAccess('the bot must be an admin of the chat to read its members');
	return chat;
}

const sendSticker: MethodHandler = (ctx, body) => {
	const prepared = prepareSend(ctx, body);
	const stickerId = requireId(body, 'sticker_id');
	const sticker = ctx.state.stickers.get(stickerId);
	if (!sticker) throw invalidInput(`sticker_id: sticker ${stickerId} not found`);
	return { message_id: commitSend(ctx, prepared, { sticker: structuredClone(sticker) }).message_id };
};

const pinChatMessage: MethodHandler = (ctx, body) => {
	const chat = botChat(ctx, body);
	const message = chatMessage(chat, body);
	optionalBoolean(body, 'disable_notification');
	assertMayPin(ctx, chat);
	ctx.state.pin(chat, message.message_id);
	return {};
};

/** No message_id (rubka sends "" by default): the most recent pin goes. A message not pinned is no error. */
const unpinChatMessage: MethodHandler = (ctx, body) => {
	const chat = botChat(ctx, body);
	const messageId = optionalId(body, 'message_id') === undefined ? undefined : chatMessage(chat, body).message_id;
	assertMayPin(ctx, chat);
	const target = messageId ?? chat.pinned.at(-1);
	if (target !== undefined) ctx.state.unpin(chat, target);
	return {};
};

/** rubpy always sends a message_id here too; `unpinAllMessageId` says whether it is ignored or required. */
const unpinAllChatMessages: MethodHandler = (ctx, body) => {
	const chat = botChat(ctx, body);
	if (ctx.config.unpinAllMessageId === 'require') chatMessage(chat, body);
	assertMayPin(ctx, chat);
	chat.pinned = [];
	return {};
};

const getChatMember: MethodHandler = (ctx, body) => {
	const chat = membersChat(ctx, body);
	const userId = requireId(body, 'user_id');
	if (!ctx.state.users.has(userId) && !ctx.state.bots.has(userId)) throw invalidInput(`user_id: user ${userId} not found`);
	assertMayReadMembers(ctx, chat);
	const member = chatMemberView(ctx.state, chat, userId, ctx.config.explicitNulls);
	const absent = member.status === 'Left' || member.status === 'Banned';
	return { [ctx.config.memberAnswerKey]: absent && ctx.config.nonMemberAnswer === 'null' ? null : member };
};

/** The owner first, then the admins in the order they became admins. */
const getChatAdministrators: MethodHandler = (ctx, body) => {
	const chat = assertMayReadMembers(ctx, membersChat(ctx, body));
	const admins = [...chat.roles].filter(([, role]) => role === 'admin').map(([id]) => id);
	const ids = chat.ownerId ? [chat.ownerId, ...admins] : admins;
	return { administrators: ids.map((id) => chatMemberView(ctx.state, chat, id, ctx.config.explicitNulls)) };
};

/** Every member: users and bots, the owner and admins included; banned users are not members. */
const getChatMemberCount: MethodHandler = (ctx, body) => ({ member_count: assertMayReadMembers(ctx, membersChat(ctx, body)).roles.size });

export const UNDOCUMENTED_HANDLERS: Record<UndocumentedMethod, MethodHandler> = {
	sendSticker,
	pinChatMessage,
	unpinChatMessage,
	unpinAllChatMessages,
	getChatMember,
	getChatAdministrators,
	getChatMemberCount,
};

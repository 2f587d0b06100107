/**
 * How stored records look on the wire (facts §2). Documented fields that do not apply are left out, or
 * written as `null` when `explicitNulls` is on — samples of the real service show both.
 */
import type { Bot, Chat, ChatMember, ChatMemberStatus, Message } from '../nodes/shared/types';
import type { BotRecord, ChatRecord, Role, SandboxState, StoredMessage } from './state';

const MESSAGE_OPTIONAL_FIELDS = [
	'text',
	'aux_data',
	'file',
	'reply_to_message_id',
	'forwarded_from',
	'forwarded_no_link',
	'location',
	'sticker',
	'contact_message',
	'poll',
	'metadata',
] as const;

export function messageView(message: StoredMessage, explicitNulls: boolean): Message {
	const view: Message = {
		message_id: message.message_id,
		// Every sample shows time as a string of seconds, though the docs say int.
		time: String(message.time),
		is_edited: message.is_edited,
		sender_type: message.sender_type,
		sender_id: message.sender_id,
	};
	if (message.text !== undefined) view.text = message.text;
	if (message.aux_data) view.aux_data = { ...message.aux_data };
	if (message.file) view.file = { ...message.file };
	if (message.reply_to_message_id) view.reply_to_message_id = message.reply_to_message_id;
	if (message.forwarded_from) view.forwarded_from = { ...message.forwarded_from };
	if (message.location) view.location = { ...message.location };
	if (message.contact_message) view.contact_message = { ...message.contact_message };
	if (message.sticker) view.sticker = structuredClone(message.sticker);
	if (message.poll) view.poll = structuredClone(message.poll);
	if (message.metadata) view.metadata = structuredClone(message.metadata);
	if (message.inline_keypad) view.inline_keypad = structuredClone(message.inline_keypad);
	if (explicitNulls) {
		const loose = view as unknown as Record<string, unknown>;
		for (const field of MESSAGE_OPTIONAL_FIELDS) if (!(field in loose)) loose[field] = null;
	}
	return view;
}

export function chatView(state: SandboxState, chat: ChatRecord, explicitNulls: boolean): Chat {
	if (chat.kind === 'Private') {
		const user = state.requireUser(chat.userId as string);
		const view: Chat = {
			chat_id: chat.chat_id,
			chat_type: 'User',
			user_id: user.user_id,
			first_name: user.first_name,
		};
		if (user.last_name !== null || explicitNulls) view.last_name = user.last_name;
		if (user.username !== null || explicitNulls) view.username = user.username;
		if (explicitNulls) view.title = null;
		return view;
	}
	const view: Chat = { chat_id: chat.chat_id, chat_type: chat.kind, title: chat.title };
	if (chat.username !== null || explicitNulls) view.username = chat.username;
	if (explicitNulls) Object.assign(view, { user_id: null, first_name: null, last_name: null });
	return view;
}

export function botView(bot: BotRecord, explicitNulls: boolean): Bot {
	const view: Bot = {
		bot_id: bot.bot_id,
		bot_title: bot.bot_title,
		username: bot.username,
		share_url: bot.share_url,
	};
	if (bot.description !== null || explicitNulls) view.description = bot.description;
	if (bot.start_message !== null || explicitNulls) view.start_message = bot.start_message;
	if (explicitNulls) view.avatar = null;
	return view;
}

const MEMBER_STATUS: Record<Role, ChatMemberStatus> = { owner: 'Creator', admin: 'Administrator', member: 'Member' };

/**
 * A user or bot as getChatMember/getChatAdministrators answer it (the real shape is unknown; this is the one
 * the sandbox plays). A bot member shows its title as first_name. Anyone not in the chat is Left, or Banned.
 */
export function chatMemberView(state: SandboxState, chat: ChatRecord, memberId: string, explicitNulls: boolean): ChatMember {
	const role = chat.roles.get(memberId);
	const status: ChatMemberStatus = role ? MEMBER_STATUS[role] : chat.banned.has(memberId) ? 'Banned' : 'Left';
	const user = state.users.get(memberId);
	const bot = user ? undefined : state.bots.get(memberId);
	const names = {
		first_name: user?.first_name ?? bot?.bot_title ?? null,
		last_name: user?.last_name ?? null,
		username: user ? user.username : (bot?.username ?? null),
	};
	const view = { user_id: memberId } as ChatMember;
	for (const [field, value] of Object.entries(names) as Array<[keyof typeof names, string | null]>) {
		if (value !== null || explicitNulls) view[field] = value;
	}
	view.status = status;
	return view;
}

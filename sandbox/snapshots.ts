/** Read-only copies of the state for tests and the admin API: plain JSON, safe to keep or mutate. */
import type { Keypad, Message } from '../nodes/shared/types';
import type { ChatKind, ChatRecord, Role, SandboxState, StoredMessage } from './state';
import { isOneTime } from './validation';
import { messageView } from './views';

interface ChatMemberSnapshot {
	id: string;
	kind: 'user' | 'bot';
	role: Role;
}

export interface ChatSnapshot {
	chat_id: string;
	type: ChatKind;
	title: string | null;
	username: string | null;
	/** Private chats: the user and the bot, and whether the user stopped the bot. */
	user_id: string | null;
	bot_id: string | null;
	bot_stopped: boolean;
	owner_id: string | null;
	members: ChatMemberSnapshot[];
	banned: string[];
	chat_keypad: Keypad | null;
	/** Whether the current chat keypad hides after one tap, under the configured spelling. */
	chat_keypad_one_time: boolean;
	message_count: number;
	/** Pinned message ids, oldest first: the last one is what the chat shows on top. */
	pinned_message_ids: string[];
}

/** A message as stored, in the wire shape plus where it lives and what the bot asked for. */
export type SandboxMessage = Message & { chat_id: string; disable_notification?: boolean };

export function chatSnapshot(state: SandboxState, chat: ChatRecord): ChatSnapshot {
	return {
		chat_id: chat.chat_id,
		type: chat.kind,
		title: chat.title,
		username: chat.username,
		user_id: chat.userId,
		bot_id: chat.botId,
		bot_stopped: chat.botStopped,
		owner_id: chat.ownerId,
		members: [...chat.roles].map(([id, role]) => ({ id, role, kind: state.bots.has(id) ? 'bot' : 'user' })),
		banned: [...chat.banned],
		chat_keypad: chat.chatKeypad && structuredClone(chat.chatKeypad),
		chat_keypad_one_time: chat.chatKeypad ? isOneTime(chat.chatKeypad, state.config.oneTimeKeyboardSpelling) : false,
		message_count: chat.messages.size,
		pinned_message_ids: [...chat.pinned],
	};
}

export function messageSnapshot(message: StoredMessage): SandboxMessage {
	const snapshot: SandboxMessage = { ...messageView(message, false), chat_id: message.chat_id };
	if (message.disable_notification !== undefined) snapshot.disable_notification = message.disable_notification;
	return snapshot;
}

export function botSnapshot(state: SandboxState, botId: string) {
	const bot = state.requireBot(botId);
	return {
		bot_id: bot.bot_id,
		token: bot.token,
		bot_title: bot.bot_title,
		username: bot.username,
		description: bot.description,
		start_message: bot.start_message,
		share_url: bot.share_url,
		commands: bot.commands.map((command) => ({ ...command })),
		endpoints: [...bot.endpoints.values()].map((endpoint) => ({ ...endpoint })),
		update_count: bot.updates.size,
	};
}
export type BotSnapshot = ReturnType<typeof botSnapshot>;

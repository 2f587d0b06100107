/**
 * The open chat: loading the sandbox's state and a chat's messages, the header (title, Start/Stop bot), the pinned
 * bar and the empty-chat hint.
 */

import { admin } from './api.js';
import { renderComposer } from './composer.js';
import { avatar, el } from './dom.js';
import { act } from './feedback.js';
import { previewText } from './format.js';
import { jumpTo, messageItem, scrollToBottom } from './messages.js';
import { renderBotPanel, renderChatList, renderUsers } from './sidebar.js';
import { chatTitle, chatsOf, currentChat, saveLocation, savedChoice, view, known } from './state.js';

export async function loadSandboxState() {
	const state = await admin('GET', '/state');
	known.users = new Map(state.users.map((user) => [user.user_id, user]));
	known.bots = new Map(state.bots.map((bot) => [bot.bot_id, bot]));
	known.chats = new Map(state.chats.map((chat) => [chat.chat_id, chat]));
	const saved = savedChoice();
	if (!known.users.has(view.userId)) view.userId = known.users.has(saved.user) ? saved.user : (state.users[0] || {}).user_id || null;
	const visible = chatsOf(view.userId);
	if (!visible.some((chat) => chat.chat_id === view.chatId)) {
		const wanted = visible.find((chat) => chat.chat_id === saved.chat);
		view.chatId = (wanted || visible[0] || {}).chat_id || null;
	}
	renderUsers();
	renderChatList();
	await openChat(view.chatId, { keepDraft: true });
}

export async function openChat(chatId, options) {
	const changed = chatId !== view.chatId;
	view.chatId = chatId;
	view.unread.delete(chatId);
	if (changed || !(options && options.keepDraft)) {
		view.replyTo = null;
		view.editing = null;
		view.keypadSpent = null;
		view.keypadHidden = false;
		el.input.value = '';
	}
	saveLocation();
	renderChatList();
	renderChatHeader();
	renderBotPanel();
	renderComposer();
	view.messages = new Map();
	el.messages.replaceChildren();
	const seq = ++view.loadSeq;
	if (!chatId) return renderEmpty();
	const messages = await admin('GET', `/chats/${encodeURIComponent(chatId)}/messages`);
	// A newer openChat started meanwhile; its answer wins.
	if (seq !== view.loadSeq) return;
	for (const message of messages) view.messages.set(message.message_id, message);
	for (const message of view.messages.values()) el.messages.append(messageItem(message));
	renderPinned();
	renderEmpty();
	scrollToBottom(true);
}

export function renderChatHeader() {
	const chat = currentChat();
	if (!chat) {
		el.title.textContent = 'No chat';
		el.subtitle.textContent = 'This user is in no chat yet.';
		el.avatar.replaceChildren();
		el.startBot.hidden = el.stopBot.hidden = true;
		return;
	}
	const title = chatTitle(chat);
	el.title.textContent = title;
	el.title.dir = 'auto';
	el.avatar.replaceWith((el.avatar = avatar(chat.chat_id, title, 'large ' + (chat.type === 'Private' ? 'bot' : ''))));
	el.avatar.id = 'chat-avatar';
	if (chat.type === 'Private') {
		const bot = known.bots.get(chat.bot_id);
		el.subtitle.textContent = `${bot ? '@' + bot.username + ' · ' : ''}${chat.bot_stopped ? 'stopped' : 'bot'}`;
	} else {
		const people = chat.members.filter((member) => member.kind === 'user').length;
		el.subtitle.textContent = `${chat.type} · ${people} ${chat.type === 'Channel' ? 'subscribers' : 'members'}${chat.username ? ' · @' + chat.username : ''}`;
	}
	const isPrivate = chat.type === 'Private';
	el.startBot.hidden = !isPrivate || !(chat.bot_stopped || chat.message_count === 0);
	el.startBot.textContent = chat.bot_stopped ? 'Restart bot' : 'Start';
	el.stopBot.hidden = !isPrivate || chat.bot_stopped;
	renderPinned();
}

/** The bar on top of a chat: the most recent pinned message (pinChatMessage) and how many are pinned. */
export function renderPinned() {
	const chat = currentChat();
	const ids = (chat && chat.pinned_message_ids) || [];
	el.pinnedBar.hidden = ids.length === 0;
	if (ids.length === 0) return;
	const latestId = ids[ids.length - 1];
	const latest = view.messages.get(latestId);
	el.pinnedBar.dataset.messageId = latestId;
	el.pinnedCount.textContent = `· ${ids.length} pinned`;
	el.pinnedPreview.textContent = latest ? previewText(latest) || 'Message' : 'Loading…';
}

export function renderEmpty() {
	const chat = currentChat();
	const empty = view.messages.size === 0;
	el.empty.hidden = !empty;
	if (!empty || !chat) return;
	el.empty.textContent =
		chat.type === 'Private' ? 'No messages yet. Press Start, or send /start, to begin talking to the bot.' : 'No messages yet.';
}

el.pinnedBar.addEventListener('click', () => jumpTo(el.pinnedBar.dataset.messageId));

el.startBot.addEventListener('click', () => act('start-bot', { userId: view.userId, botId: currentChat().bot_id }));

el.stopBot.addEventListener('click', () => act('stop-bot', { userId: view.userId, botId: currentChat().bot_id }));

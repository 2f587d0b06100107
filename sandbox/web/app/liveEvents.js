/** The live stream (`/_sandbox/events`, see ../events.ts): each event updates what the page knows and what is on screen. */

import { loadSandboxState, renderChatHeader } from './chatView.js';
import { renderComposer } from './composer.js';
import { el } from './dom.js';
import { reportFailure, toast } from './feedback.js';
import { previewText } from './format.js';
import { clearPending } from './keypads.js';
import { addMessage, removeMessage, replaceMessage, updateMessage } from './messages.js';
import { renderBotPanel, renderChatList, renderUsers } from './sidebar.js';
import { chatsOf, view, known } from './state.js';

function setLive(state, text) {
	el.live.dataset.state = state;
	el.live.textContent = text;
}

function onChat(chat) {
	const before = known.chats.get(chat.chat_id);
	known.chats.set(chat.chat_id, chat);
	renderChatList();
	if (chat.chat_id !== view.chatId) return;
	if (before && JSON.stringify(before.chat_keypad) !== JSON.stringify(chat.chat_keypad)) view.keypadSpent = null;
	renderChatHeader();
	renderBotPanel();
	renderComposer();
	// Who may reply, edit or delete can change with a role or a ban.
	for (const message of view.messages.values()) replaceMessage(message);
}

function onDelivery(delivery) {
	const inline = delivery.body && delivery.body.inline_message;
	if (!inline || inline.sender_id !== view.userId || inline.chat_id !== view.chatId) return;
	const finished = delivery.url === null || delivery.durationMs !== undefined || delivery.error !== undefined;
	if (!finished) return;
	clearPending(inline.message_id, inline.aux_data && inline.aux_data.button_id);
	// A tap carries the button's text; an answer to an input button a text, a place or a contact.
	const what = `“${previewText(inline)}”`;
	if (delivery.delivered) toast(`${what} reached the bot (HTTP ${delivery.httpStatus}).`, 'ok');
	else if (delivery.url === null) toast(`${what} was not delivered: the bot has no ReceiveInlineMessage endpoint (a polling bot never sees inline taps or answers).`, 'warn');
	else toast(`${what} was not delivered: ${delivery.error || 'HTTP ' + delivery.httpStatus}.`, 'warn');
}

export function connect() {
	const source = new EventSource('/_sandbox/events');
	const on = (name, handler) =>
		source.addEventListener(name, (event) => {
			try {
				handler(JSON.parse(event.data));
			} catch (error) {
				console.warn('[chat page] could not apply', name, error);
			}
		});
	on('hello', () => {
		setLive('live', 'Live');
		// (Re)load after every (re)connect: whatever happened while away is in the state.
		loadSandboxState().catch(reportFailure);
	});
	on('reset', () => {
		view.unread.clear();
		loadSandboxState().catch(reportFailure);
	});
	on('user', ({ user }) => {
		known.users.set(user.user_id, user);
		renderUsers();
	});
	on('bot', ({ bot }) => {
		known.bots.set(bot.bot_id, { ...(known.bots.get(bot.bot_id) || {}), ...bot });
		renderBotPanel();
		renderComposer();
	});
	on('chat', ({ chat }) => onChat(chat));
	on('message', ({ chat_id, message }) => {
		const chat = known.chats.get(chat_id);
		if (chat) chat.message_count += 1;
		if (chat_id === view.chatId) {
			addMessage(message);
			if (chat && chat.type === 'Private') renderChatHeader();
			return;
		}
		if (chat && chatsOf(view.userId).includes(chat) && !(message.sender_type === 'User' && message.sender_id === view.userId)) {
			view.unread.set(chat_id, (view.unread.get(chat_id) || 0) + 1);
			renderChatList();
		}
	});
	on('message-edited', ({ chat_id, message }) => {
		if (chat_id === view.chatId && view.messages.has(message.message_id)) updateMessage(message);
	});
	on('message-deleted', ({ chat_id, message_id }) => {
		const chat = known.chats.get(chat_id);
		if (chat) chat.message_count = Math.max(0, chat.message_count - 1);
		if (chat_id === view.chatId) removeMessage(message_id);
	});
	on('delivery', ({ delivery }) => onDelivery(delivery));
	source.onerror = () => setLive('offline', 'Reconnecting…');
}

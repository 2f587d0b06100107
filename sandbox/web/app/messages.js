/**
 * The message list: one message's bubble (sender, reply quote, content, text, meta line, actions), adding,
 * replacing and removing messages as events arrive, scrolling, and revealing spoilers.
 */

import { renderEmpty, renderPinned } from './chatView.js';
import { deleteMessage, renderDraft, startEdit, startReply } from './composer.js';
import { avatar, el, h, hue, icon } from './dom.js';
import { compareIds, formatTime, previewText, renderText } from './format.js';
import { inlineKeypad } from './keypads.js';
import { contactCard, fileCard, locationCard, pollCard } from './messageCards.js';
import { canDelete, currentChat, isOwn, postingBlock, userName, view } from './state.js';

export function messageItem(message) {
	const chat = currentChat();
	const own = isOwn(message);
	const time = formatTime(message.time);
	const bubble = h('div', { class: 'bubble' });
	const showSender = !own && chat && chat.type !== 'Private';
	if (showSender) {
		const sender = h('span', { class: 'sender', dir: 'auto', text: userName(message.sender_id) + (message.sender_type === 'Bot' ? ' · bot' : '') });
		sender.style.setProperty('--hue', String(hue(message.sender_id)));
		bubble.append(sender);
	}
	if (message.forwarded_from) {
		const from = message.forwarded_from;
		bubble.append(h('p', { class: 'forwarded' }, icon('forward'), `Forwarded from ${userName(from.from_sender_id || from.from_chat_id)}`));
	}
	if (message.reply_to_message_id) bubble.append(replyQuote(message.reply_to_message_id));
	if (message.file) bubble.append(fileCard(message.file));
	if (message.poll) bubble.append(pollCard(message.poll));
	if (message.location) bubble.append(locationCard(message.location));
	if (message.contact_message) bubble.append(contactCard(message.contact_message));
	if (message.sticker) bubble.append(h('p', { class: 'sticker', text: message.sticker.emoji_character || 'Sticker' }));
	if (message.text) {
		const text = h('div', { class: 'text', dir: 'auto' });
		text.innerHTML = renderText(message.text, message.metadata ? message.metadata.meta_data_parts : []);
		bubble.append(text);
	}
	const aux = message.aux_data || {};
	bubble.append(
		h(
			'p',
			{ class: 'meta' },
			aux.button_id ? h('span', { class: 'aux', title: 'aux_data.button_id', text: `button: ${aux.button_id}` }) : null,
			aux.start_id ? h('span', { class: 'aux', title: 'aux_data.start_id', text: `start: ${aux.start_id}` }) : null,
			message.is_edited ? h('span', { class: 'edited', text: 'edited' }) : null,
			h('time', { datetime: time.iso, title: time.full, text: time.short }),
		),
	);

	const item = h(
		'li',
		{
			id: 'message-' + message.message_id,
			class: `message ${own ? 'outgoing' : 'incoming'} ${message.sender_type === 'Bot' ? 'from-bot' : 'from-user'}`,
			'data-message-id': message.message_id,
			'data-sender-type': message.sender_type,
		},
		own || !showSender ? null : avatar(message.sender_id, userName(message.sender_id), 'small'),
		h('div', { class: 'message-body' }, messageActions(message), bubble, message.inline_keypad ? inlineKeypad(message) : null),
	);
	return item;
}

/** Scrolls a message into view and flashes it (a reply quote or the pinned bar was clicked). */
export function jumpTo(messageId) {
	const target = document.getElementById('message-' + messageId);
	if (!target) return;
	target.scrollIntoView({ block: 'center', behavior: 'smooth' });
	target.classList.add('flash');
	setTimeout(() => target.classList.remove('flash'), 1200);
}

function replyQuote(messageId) {
	const original = view.messages.get(messageId);
	return h(
		'button',
		{ type: 'button', class: 'reply-quote', 'data-reply-to': messageId, onclick: () => jumpTo(messageId) },
		h('strong', { text: original ? userName(original.sender_id) : 'Reply' }),
		h('span', { dir: 'auto', text: original ? previewText(original) : 'Message no longer here' }),
	);
}

function messageActions(message) {
	const chat = currentChat();
	const canPost = chat && !postingBlock(chat, view.userId);
	const buttons = [];
	if (canPost) buttons.push(h('button', { type: 'button', class: 'link-button', onclick: () => startReply(message) }, 'Reply'));
	if (canPost && isOwn(message) && message.text !== undefined && message.text !== null) {
		buttons.push(h('button', { type: 'button', class: 'link-button', onclick: () => startEdit(message) }, 'Edit'));
	}
	if (canDelete(message)) buttons.push(h('button', { type: 'button', class: 'link-button danger', onclick: () => deleteMessage(message) }, 'Delete'));
	return buttons.length ? h('div', { class: 'message-actions', role: 'group', 'aria-label': 'Message actions' }, buttons) : null;
}

function nearBottom() {
	const list = el.messages;
	return list.scrollHeight - list.scrollTop - list.clientHeight < 120;
}

// Reading the newest messages stays so when the window or the composer changes size.
let atBottom = true;

el.messages.addEventListener('scroll', () => {
	atBottom = nearBottom();
});

new ResizeObserver(() => {
	if (atBottom) el.messages.scrollTop = el.messages.scrollHeight;
}).observe(el.messages);

export function scrollToBottom(force) {
	if (force || nearBottom()) el.messages.scrollTop = el.messages.scrollHeight;
}

/** Replaces a message's element, keeping keyboard focus on the same control if it was inside. */
export function replaceMessage(message) {
	const old = document.getElementById('message-' + message.message_id);
	const fresh = messageItem(message);
	if (!old) return;
	const focused = old.contains(document.activeElement) ? document.activeElement : null;
	const key = focused && (focused.dataset.buttonId || focused.textContent);
	old.replaceWith(fresh);
	if (focused) {
		const again = [...fresh.querySelectorAll('button, a')].find((node) => (node.dataset.buttonId || node.textContent) === key);
		if (again) again.focus();
	}
}

function refreshReplyQuotes(messageId) {
	for (const quote of el.messages.querySelectorAll(`[data-reply-to="${CSS.escape(messageId)}"]`)) quote.replaceWith(replyQuote(messageId));
}

export function addMessage(message) {
	if (view.messages.has(message.message_id)) return updateMessage(message);
	const stick = nearBottom();
	const last = [...view.messages.keys()].pop();
	view.messages.set(message.message_id, message);
	const item = messageItem(message);
	renderPinned();
	if (!last || compareIds(last, message.message_id) < 0) el.messages.append(item);
	else {
		// Rare: an event older than what is shown (a reload raced the stream). Put it in its place.
		const next = [...el.messages.children].find((node) => compareIds(node.dataset.messageId, message.message_id) > 0);
		el.messages.insertBefore(item, next || null);
	}
	renderEmpty();
	if (stick || isOwn(message)) scrollToBottom(true);
}

export function updateMessage(message) {
	view.messages.set(message.message_id, message);
	replaceMessage(message);
	refreshReplyQuotes(message.message_id);
	renderPinned();
	if (view.editing === message.message_id || view.replyTo === message.message_id) renderDraft();
}

export function removeMessage(messageId) {
	view.messages.delete(messageId);
	const node = document.getElementById('message-' + messageId);
	if (node) node.remove();
	refreshReplyQuotes(messageId);
	renderDraft();
	renderEmpty();
}

// Spoilers: a click or Enter reveals every hidden part of that message's text.
el.messages.addEventListener('click', (event) => {
	const spoiler = event.target.closest && event.target.closest('.spoiler');
	if (spoiler) spoiler.closest('.text').classList.add('spoilers-revealed');
});

el.messages.addEventListener('keydown', (event) => {
	if ((event.key === 'Enter' || event.key === ' ') && event.target.classList && event.target.classList.contains('spoiler')) {
		event.preventDefault();
		event.target.closest('.text').classList.add('spoilers-revealed');
	}
});

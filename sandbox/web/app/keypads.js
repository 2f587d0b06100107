/**
 * Keypads: the chat keypad under the composer (one-time, resize, the toggle), inline keypads under bot
 * messages (a tap is an InlineMessage to the bot), link buttons in both, which never reach the bot, and input
 * buttons in both, which open what a phone shows (inputButtons.js).
 */

import { openChat } from './chatView.js';
import { el, h } from './dom.js';
import { act, reportFailure, toast } from './feedback.js';
import { isSafeUrl } from './format.js';
import { inputButtonLook, openInputSheet } from './inputButtons.js';
import { addMessage } from './messages.js';
import { currentChat, postingBlock, view, known } from './state.js';

export function renderKeypad() {
	const chat = currentChat();
	const keypad = chat && !postingBlock(chat, view.userId) ? chat.chat_keypad : null;
	const spent = keypad && view.keypadSpent === JSON.stringify(keypad);
	const available = Boolean(keypad && !spent);
	el.keypadToggle.hidden = !available;
	el.keypadToggle.setAttribute('aria-expanded', String(available && !view.keypadHidden));
	el.keypad.hidden = !available || view.keypadHidden;
	if (!available) {
		el.keypad.replaceChildren();
		return;
	}
	el.keypad.classList.toggle('resized', keypad.resize_keyboard === true);
	el.keypad.replaceChildren(...keypad.rows.map((row) => h('div', { class: 'keypad-row' }, row.buttons.map((button) => keypadButton(button, 'keypad-button', null)))));
}

export function inlineKeypad(message) {
	return h(
		'div',
		{ class: 'inline-keypad', role: 'group', 'aria-label': 'Inline keypad' },
		message.inline_keypad.rows.map((row) => h('div', { class: 'keypad-row' }, row.buttons.map((button) => keypadButton(button, 'inline-button', message)))),
	);
}

/**
 * A button of the chat keypad (`message` null) or of a message's inline keypad: a link button opens its link,
 * an input button its sheet; any other is a tap.
 */
function keypadButton(button, kindClass, message) {
	if (button.type === 'Link') return linkButton(button, kindClass, message ? message.message_id : null);
	const input = inputButtonLook(button);
	return h(
		'button',
		{
			type: 'button',
			class: input ? `${kindClass} input-kind` : kindClass,
			dir: 'auto',
			'data-button-id': button.id,
			'data-button-type': button.type,
			'aria-haspopup': input ? 'dialog' : undefined,
			title: input ? input.title : undefined,
			'aria-busy': message && view.pendingTaps.has(pendingKey(message.message_id, button.id)) ? 'true' : undefined,
			onclick: () => {
				if (input) openInputSheet(button, message);
				else if (message) tapInline(message, button);
				else tapChatKeypad(currentChat(), button);
			},
		},
		button.button_text,
		input ? input.mark : null,
	);
}

/** Link buttons open web pages only: http(s), never javascript:, data: or an app scheme. */
function isWebUrl(url) {
	return isSafeUrl(url) && /^https?:\/\//i.test(url);
}

/**
 * A link button (type Link, `button_link`), in an inline keypad (`messageId`) or the chat keypad (null).
 * As in real messengers its tap sends nothing to the bot: a `url` button is a link that opens a new tab
 * (only for http(s) addresses), a `joinchannel` button joins the channel with that username and opens it.
 * Both carry a ↗ mark; anything else is shown but does nothing.
 */
function linkButton(button, kindClass, messageId) {
	const link = button.button_link || {};
	const mark = (text) => h('span', { class: 'link-mark', 'aria-hidden': 'true', text });
	const common = { class: `${kindClass} link-kind`, dir: 'auto', 'data-button-id': button.id, 'data-link-type': link.type || '' };
	if (link.type === 'url' && isWebUrl(link.link_url)) {
		const onclick = messageId === null ? () => tapChatLink(button) : undefined;
		return h('a', { ...common, href: link.link_url, target: '_blank', rel: 'noopener noreferrer', title: link.link_url, onclick }, button.button_text, mark('↗'));
	}
	const username = link.type === 'joinchannel' && link.joinchannel_data ? link.joinchannel_data.username : null;
	if (username) {
		return h(
			'button',
			{ ...common, type: 'button', title: `Join @${username}`, onclick: () => joinChannel(button, messageId, username, link.joinchannel_data.ask_join === true) },
			button.button_text,
			mark('↗'),
		);
	}
	const shown = link.link_url == null ? '' : String(link.link_url);
	return h(
		'button',
		{
			...common,
			type: 'button',
			class: `${common.class} link-unsafe`,
			'aria-disabled': 'true',
			title: shown ? `Not opened: ${shown}` : 'Not opened: no address',
			onclick: () => toast(`This link is not opened: only http(s) addresses are${shown ? ` (got ${shown.slice(0, 80)})` : ''}.`, 'warn'),
		},
		button.button_text,
		mark('⚠'),
	);
}

/** A url button of the chat keypad: the browser opens the link; the sandbox folds a one-time keypad. */
function tapChatLink(button) {
	const chat = currentChat();
	if (chat && chat.chat_keypad_one_time) {
		view.keypadSpent = JSON.stringify(chat.chat_keypad);
		setTimeout(renderKeypad, 0);
	}
	act('tap-link-button', { userId: view.userId, chatId: view.chatId, buttonId: button.id });
}

async function joinChannel(button, messageId, username, askJoin) {
	if (askJoin && !window.confirm(`Join @${username}?`)) return;
	const body = { userId: view.userId, chatId: view.chatId, buttonId: button.id };
	if (messageId) body.messageId = messageId;
	const tap = await act('tap-link-button', body);
	if (!tap || !tap.chat) return;
	known.chats.set(tap.chat.chat_id, tap.chat);
	toast(`You joined ${tap.chat.title || '@' + username}.`, 'ok');
	await openChat(tap.chat.chat_id).catch(reportFailure);
}

const pendingKey = (messageId, buttonId) => messageId + ' ' + buttonId;

function setBusy(messageId, buttonId, busy) {
	const node = document.querySelector(`#message-${CSS.escape(messageId)} [data-button-id="${CSS.escape(String(buttonId))}"]`);
	if (node && busy) node.setAttribute('aria-busy', 'true');
	else if (node) node.removeAttribute('aria-busy');
}

/** An inline button stays busy until its delivery event (clearPending, from liveEvents.js) or for 5 s at most. */
export function markPending(messageId, buttonId) {
	const key = pendingKey(messageId, buttonId);
	view.pendingTaps.add(key);
	setBusy(messageId, buttonId, true);
	setTimeout(() => {
		if (view.pendingTaps.delete(key)) setBusy(messageId, buttonId, false);
	}, 5000);
}

export function clearPending(messageId, buttonId) {
	view.pendingTaps.delete(pendingKey(messageId, buttonId));
	setBusy(messageId, buttonId, false);
}

async function tapInline(message, button) {
	markPending(message.message_id, button.id);
	const inline = await act('tap-inline-button', { userId: view.userId, chatId: view.chatId, messageId: message.message_id, buttonId: button.id });
	if (!inline) clearPending(message.message_id, button.id);
}

async function tapChatKeypad(chat, button) {
	if (chat.chat_keypad_one_time) {
		// Like the app: a one-time keypad folds away at once; the server clears it too.
		view.keypadSpent = JSON.stringify(chat.chat_keypad);
		renderKeypad();
		el.input.focus();
	}
	const sent = await act('tap-chat-keypad-button', { userId: view.userId, chatId: chat.chat_id, buttonId: button.id });
	if (sent && sent.chat_id === view.chatId) addMessage(sent);
	if (!sent) {
		view.keypadSpent = null;
		renderKeypad();
	}
}

el.keypadToggle.addEventListener('click', () => {
	view.keypadHidden = !view.keypadHidden;
	renderKeypad();
});

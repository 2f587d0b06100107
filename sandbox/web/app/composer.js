/**
 * The composer: the message box and its keys, reply and edit drafts, sending text and files, and the
 * notice shown instead when the user may not post (banned, not a member, channel subscriber, bot stopped).
 */

import { action, admin, uploadFile } from './api.js';
import { closeSuggestions, moveSuggestion, pickSuggestion, updateSuggestions } from './commands.js';
import { el, h } from './dom.js';
import { act, reportFailure, showError } from './feedback.js';
import { previewText } from './format.js';
import { renderKeypad } from './keypads.js';
import { addMessage } from './messages.js';
import { botsIn, currentChat, postingBlock, userName, view } from './state.js';

export function renderComposer() {
	const chat = currentChat();
	const block = postingBlock(chat, view.userId);
	el.composer.hidden = Boolean(block);
	el.notice.hidden = !block && !(chat && chat.type === 'Private' && chat.bot_stopped);
	if (block) renderNotice(chat, block);
	else if (!el.notice.hidden) {
		el.notice.dataset.kind = 'stopped';
		el.notice.replaceChildren(
			h('span', { text: 'You stopped this bot: it got StoppedBot. It may still write to you; restart it to get StartedBot and /start.' }),
		);
	}
	renderDraft();
	renderKeypad();
	const commands = botsIn(chat).flatMap((bot) => bot.commands);
	el.commandsButton.hidden = commands.length === 0;
	if (!el.suggestions.hidden) updateSuggestions();
}

function renderNotice(chat, block) {
	el.notice.dataset.kind = block.kind;
	if (block.kind === 'banned') {
		const reason = h('span', { class: 'ban-reason', text: 'Looking up who banned you…' });
		el.notice.replaceChildren(
			h('strong', { text: `You are banned from ${chat.title}.` }),
			' ',
			h('span', { text: 'A banned user is removed from the chat and cannot post or rejoin until an admin unbans them.' }),
			' ',
			reason,
		);
		banReason(chat.chat_id, view.userId)
			.then((text) => {
				reason.textContent = text;
			})
			.catch(() => {
				reason.textContent = '';
			});
		return;
	}
	const children = [h('span', { text: block.text })];
	if (block.kind === 'not-member') {
		children.push(' ', h('button', { type: 'button', class: 'button', onclick: () => act('join-chat', { userId: view.userId, chatId: chat.chat_id }) }, 'Join'));
	}
	el.notice.replaceChildren(...children);
}

/** The sandbox keeps no ban reason; the request log tells who banned the user and when. */
async function banReason(chatId, userId) {
	const requests = await admin('GET', '/requests?method=banChatMember');
	const ban = requests
		.filter((entry) => entry.status === 'OK' && entry.body && entry.body.chat_id === chatId && entry.body.user_id === userId)
		.pop();
	if (!ban) return 'Banned by an admin.';
	const when = new Date(ban.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
	return `Banned by ${userName(ban.botId)} (banChatMember) at ${when}.`;
}

export function renderDraft() {
	const target = view.editing || view.replyTo;
	const message = target && view.messages.get(target);
	if (!message) {
		view.replyTo = view.editing = null;
		el.draft.hidden = true;
		return;
	}
	el.draft.hidden = false;
	el.draftLabel.textContent = view.editing ? 'Editing' : `Reply to ${userName(message.sender_id)}`;
	el.draftPreview.textContent = previewText(message);
	el.draftCancel.setAttribute('aria-label', view.editing ? 'Cancel editing' : 'Cancel reply');
}

export function startReply(message) {
	view.editing = null;
	view.replyTo = message.message_id;
	renderDraft();
	el.input.focus();
}

export function startEdit(message) {
	view.replyTo = null;
	view.editing = message.message_id;
	el.input.value = message.text || '';
	renderDraft();
	autosize();
	el.input.focus();
}

function cancelDraft() {
	if (view.editing) el.input.value = '';
	view.replyTo = view.editing = null;
	renderDraft();
	autosize();
	el.input.focus();
}

export async function deleteMessage(message) {
	await act('delete-message', { userId: view.userId, chatId: view.chatId, messageId: message.message_id });
}

export async function submit() {
	const text = el.input.value;
	closeSuggestions();
	if (!text.trim()) return;
	const chatId = view.chatId;
	let done;
	if (view.editing) {
		done = await act('edit-message', { userId: view.userId, chatId, messageId: view.editing, text });
	} else {
		const body = { userId: view.userId, chatId, text };
		if (view.replyTo) body.replyToMessageId = view.replyTo;
		done = await act('send-message', body);
		// The page may have missed the stream's copy; adding twice is harmless.
		if (done && chatId === view.chatId) addMessage(done);
	}
	if (!done) return;
	el.input.value = '';
	view.replyTo = view.editing = null;
	renderDraft();
	autosize();
}

async function sendFile(file) {
	showError('');
	const type = file.type.startsWith('image/') ? 'Image' : file.type.startsWith('video/') ? 'Video' : file.type.startsWith('audio/') ? 'Music' : 'File';
	try {
		const stored = await uploadFile(file, type);
		const body = { userId: view.userId, chatId: view.chatId, fileId: stored.file_id };
		if (el.input.value.trim()) body.text = el.input.value;
		if (view.replyTo) body.replyToMessageId = view.replyTo;
		const sent = await action('send-message', body);
		addMessage(sent);
		el.input.value = '';
		view.replyTo = null;
		renderDraft();
	} catch (error) {
		reportFailure(error);
	}
}

export function insertCommand(command) {
	el.input.value = '/' + command;
	closeSuggestions();
	el.input.focus();
	autosize();
}

function autosize() {
	el.input.style.height = 'auto';
	el.input.style.height = `${Math.min(el.input.scrollHeight, 160)}px`;
}

el.composer.addEventListener('submit', (event) => {
	event.preventDefault();
	submit();
});

el.input.addEventListener('input', () => {
	autosize();
	showError('');
	updateSuggestions();
});

el.input.addEventListener('keydown', (event) => {
	const open = !el.suggestions.hidden;
	if (open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
		event.preventDefault();
		moveSuggestion(event.key === 'ArrowDown' ? 1 : -1);
	} else if (open && event.key === 'Tab') {
		event.preventDefault();
		pickSuggestion(view.suggestions.index, false);
	} else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
		event.preventDefault();
		if (open) pickSuggestion(view.suggestions.index, true);
		else submit();
	} else if (event.key === 'Escape') {
		if (open) closeSuggestions();
		else if (view.replyTo || view.editing) cancelDraft();
	}
});

el.draftCancel.addEventListener('click', cancelDraft);

el.fileInput.addEventListener('change', () => {
	const [file] = el.fileInput.files;
	el.fileInput.value = '';
	if (file) sendFile(file);
});

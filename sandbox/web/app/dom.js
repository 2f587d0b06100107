/**
 * The page's DOM toolkit: its fixed elements (`el`, looked up once from index.html), `h` to build new ones
 * without parsing HTML, and the avatars and icons the other modules draw with.
 */

const $ = (id) => document.getElementById(id);

export const el = {
	userSelect: $('user-select'),
	chatList: $('chat-list'),
	botPanel: $('bot-panel'),
	botPanelTitle: $('bot-panel-title'),
	botPanelBody: $('bot-panel-body'),
	live: $('live-status'),
	avatar: $('chat-avatar'),
	title: $('chat-title'),
	subtitle: $('chat-subtitle'),
	startBot: $('start-bot'),
	stopBot: $('stop-bot'),
	pinnedBar: $('pinned-bar'),
	pinnedCount: $('pinned-count'),
	pinnedPreview: $('pinned-preview'),
	messages: $('messages'),
	empty: $('empty-chat'),
	toast: $('toast'),
	notice: $('notice'),
	composer: $('composer'),
	draft: $('draft-context'),
	draftLabel: $('draft-label'),
	draftPreview: $('draft-preview'),
	draftCancel: $('draft-cancel'),
	commandsButton: $('commands-button'),
	fileInput: $('file-input'),
	suggestions: $('suggestions'),
	input: $('message-input'),
	keypadToggle: $('keypad-toggle'),
	send: $('send-button'),
	error: $('composer-error'),
	keypad: $('chat-keypad'),
	sheet: $('input-sheet'),
	sheetForm: $('input-sheet-form'),
	sheetTitle: $('input-sheet-title'),
	sheetNote: $('input-sheet-note'),
	sheetBody: $('input-sheet-body'),
	sheetError: $('input-sheet-error'),
	sheetCancel: $('input-sheet-cancel'),
	sheetSubmit: $('input-sheet-submit'),
};

/** createElement with attributes and children; strings become text nodes, so nothing is parsed as HTML. */
export function h(tag, attrs, ...children) {
	const node = document.createElement(tag);
	for (const [key, value] of Object.entries(attrs || {})) {
		if (value === undefined || value === null || value === false) continue;
		if (key === 'class') node.className = value;
		else if (key === 'text') node.textContent = value;
		else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
		else if (key in node && typeof value !== 'string') node[key] = value;
		else node.setAttribute(key, value === true ? '' : value);
	}
	for (const child of children.flat()) {
		if (child === null || child === undefined || child === false) continue;
		node.append(child instanceof Node ? child : document.createTextNode(String(child)));
	}
	return node;
}

function initials(name) {
	const letters = Array.from(name.trim()).filter((char) => /\p{L}|\p{N}/u.test(char));
	const words = name.trim().split(/\s+/);
	if (words.length > 1) return (Array.from(words[0])[0] + Array.from(words[1])[0]).toUpperCase();
	return (letters.slice(0, 2).join('') || '?').toUpperCase();
}

/** A stable colour per id, so people keep their colour across reloads. */
export function hue(id) {
	let value = 0;
	for (const char of String(id)) value = (value * 31 + char.charCodeAt(0)) % 360;
	return value;
}

export function avatar(id, name, extraClass) {
	const node = h('span', { class: 'avatar ' + (extraClass || ''), 'aria-hidden': 'true', text: initials(name) });
	node.style.setProperty('--hue', String(hue(id)));
	return node;
}

const ICONS = {
	file: ['M7 3h7l5 5v13H7z', 'M14 3v5h5'],
	pin: ['M12 21s-6.5-5.6-6.5-11a6.5 6.5 0 0 1 13 0c0 5.4-6.5 11-6.5 11z', 'M12 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z'],
	poll: ['M5 20V10', 'M12 20V4', 'M19 20v-7'],
	forward: ['M14 5l7 7-7 7', 'M21 12H9a6 6 0 0 0-6 6v1'],
};

/** A stroke icon drawn from the paths above; decorative, hidden from assistive technology. */
export function icon(name) {
	const ns = 'http://www.w3.org/2000/svg';
	const svg = document.createElementNS(ns, 'svg');
	svg.setAttribute('viewBox', '0 0 24 24');
	svg.setAttribute('class', 'icon');
	svg.setAttribute('aria-hidden', 'true');
	for (const d of ICONS[name]) {
		const path = document.createElementNS(ns, 'path');
		path.setAttribute('d', d);
		svg.append(path);
	}
	return svg;
}

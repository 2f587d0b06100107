/**
 * The sandbox chat page: plays the people of the sandbox against a bot. Reads the world through the
 * admin API (`/_sandbox/state`, `/_sandbox/chats/:id/messages`), acts through its user actions
 * (`/_sandbox/actions/…`, the same actions tests use in-process) and follows changes live on
 * `/_sandbox/events` (Server-Sent Events, see events.ts). No framework and no build step: the DOM is built
 * with createElement/textContent; the only HTML strings come from RubikaRender.renderText, which escapes.
 */
(function () {
	'use strict';

	const { renderText, previewText, isSafeUrl } = window.RubikaRender;

	// ----- state -----

	const world = {
		users: new Map(),
		bots: new Map(),
		chats: new Map(),
	};
	const view = {
		userId: null,
		chatId: null,
		/** Messages of the open chat, oldest first (Map keeps insertion order; new ones arrive last). */
		messages: new Map(),
		replyTo: null,
		editing: null,
		/** The user hid the chat keypad with the toggle. */
		keypadHidden: false,
		/** A one-time chat keypad that was just tapped stays hidden until the server's answer arrives. */
		keypadSpent: null,
		unread: new Map(),
		suggestions: { items: [], index: -1 },
		/** Inline taps waiting for their delivery event: message id + button id → true. */
		pendingTaps: new Set(),
		loadSeq: 0,
	};

	const $ = (id) => document.getElementById(id);
	const el = {
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
	};

	// ----- small helpers -----

	/** createElement with attributes and children; strings become text nodes, so nothing is parsed as HTML. */
	function h(tag, attrs, ...children) {
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

	async function admin(method, path, body) {
		const response = await fetch('/_sandbox' + path, {
			method,
			headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const data = await response.json().catch(() => ({}));
		if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
		return data;
	}

	const action = (name, body) => admin('POST', '/actions/' + name, body);

	function userName(id) {
		const user = world.users.get(id);
		if (user) return [user.first_name, user.last_name].filter(Boolean).join(' ');
		const bot = world.bots.get(id);
		if (bot) return bot.bot_title;
		const chat = world.chats.get(id);
		if (chat && chat.title) return chat.title;
		return id ? id.slice(0, 8) + '…' : 'Unknown';
	}

	function chatTitle(chat) {
		if (!chat) return '';
		if (chat.type === 'Private') return userName(view.userId === chat.user_id ? chat.bot_id : chat.user_id);
		return chat.title || chat.chat_id;
	}

	function initials(name) {
		const letters = Array.from(name.trim()).filter((char) => /\p{L}|\p{N}/u.test(char));
		const words = name.trim().split(/\s+/);
		if (words.length > 1) return (Array.from(words[0])[0] + Array.from(words[1])[0]).toUpperCase();
		return (letters.slice(0, 2).join('') || '?').toUpperCase();
	}

	/** A stable colour per id, so people keep their colour across reloads. */
	function hue(id) {
		let value = 0;
		for (const char of String(id)) value = (value * 31 + char.charCodeAt(0)) % 360;
		return value;
	}

	function avatar(id, name, extraClass) {
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
	function icon(name) {
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

	function formatTime(seconds) {
		const date = new Date(Number(seconds) * 1000);
		return {
			short: date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }),
			full: date.toLocaleString(),
			iso: date.toISOString(),
		};
	}

	function formatSize(bytes) {
		const size = Number(bytes);
		if (!Number.isFinite(size)) return '';
		if (size < 1024) return `${size} B`;
		if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
		return `${(size / 1024 / 1024).toFixed(1)} MB`;
	}

	function compareIds(a, b) {
		// Message ids are decimal strings longer than a double holds: compare as text, length first.
		return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
	}

	let toastTimer;
	function toast(message, kind) {
		el.toast.textContent = message;
		el.toast.dataset.kind = kind || 'info';
		el.toast.hidden = false;
		clearTimeout(toastTimer);
		toastTimer = setTimeout(() => {
			el.toast.hidden = true;
		}, 6000);
	}

	function showError(message) {
		el.error.textContent = message;
		el.error.hidden = !message;
	}

	// ----- who and where -----

	const currentChat = () => world.chats.get(view.chatId);

	function roleIn(chat, userId) {
		const member = chat.members.find((candidate) => candidate.id === userId);
		return member ? member.role : null;
	}

	/** Chats the chosen user takes part in: their private chats with bots, groups and channels they are in or banned from. */
	function chatsOf(userId) {
		return [...world.chats.values()].filter((chat) =>
			chat.type === 'Private' ? chat.user_id === userId : roleIn(chat, userId) !== null || chat.banned.includes(userId),
		);
	}

	function botsIn(chat) {
		if (!chat) return [];
		if (chat.type === 'Private') return world.bots.has(chat.bot_id) ? [world.bots.get(chat.bot_id)] : [];
		return chat.members.filter((member) => member.kind === 'bot' && world.bots.has(member.id)).map((member) => world.bots.get(member.id));
	}

	/** Why the user cannot post here, or null when they can. */
	function postingBlock(chat, userId) {
		if (!chat) return { kind: 'none', text: 'Pick a chat.' };
		if (chat.type === 'Private') return null;
		if (chat.banned.includes(userId)) return { kind: 'banned' };
		const role = roleIn(chat, userId);
		if (!role) return { kind: 'not-member', text: `You are not a member of ${chat.title}.` };
		if (chat.type === 'Channel' && role === 'member') {
			return { kind: 'channel', text: 'Only the owner and admins post in this channel; you are a subscriber.' };
		}
		return null;
	}

	function saveLocation() {
		const url = new URL(location.href);
		url.searchParams.set('user', view.userId || '');
		url.searchParams.set('chat', view.chatId || '');
		history.replaceState(null, '', url);
		try {
			localStorage.setItem('rubika-sandbox-chat', JSON.stringify({ user: view.userId, chat: view.chatId }));
		} catch {
			// Storage may be off (private windows); the address bar still keeps the choice.
		}
	}

	function savedChoice() {
		const params = new URLSearchParams(location.search);
		if (params.get('user')) return { user: params.get('user'), chat: params.get('chat') };
		try {
			return JSON.parse(localStorage.getItem('rubika-sandbox-chat') || '{}');
		} catch {
			return {};
		}
	}

	// ----- loading -----

	async function loadWorld() {
		const state = await admin('GET', '/state');
		world.users = new Map(state.users.map((user) => [user.user_id, user]));
		world.bots = new Map(state.bots.map((bot) => [bot.bot_id, bot]));
		world.chats = new Map(state.chats.map((chat) => [chat.chat_id, chat]));
		const saved = savedChoice();
		if (!world.users.has(view.userId)) view.userId = world.users.has(saved.user) ? saved.user : (state.users[0] || {}).user_id || null;
		const visible = chatsOf(view.userId);
		if (!visible.some((chat) => chat.chat_id === view.chatId)) {
			const wanted = visible.find((chat) => chat.chat_id === saved.chat);
			view.chatId = (wanted || visible[0] || {}).chat_id || null;
		}
		renderUsers();
		renderChatList();
		await openChat(view.chatId, { keepDraft: true });
	}

	async function openChat(chatId, options) {
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

	// ----- sidebar -----

	function renderUsers() {
		const options = [...world.users.values()].map((user) =>
			h('option', { value: user.user_id, selected: user.user_id === view.userId }, userName(user.user_id) + (user.username ? ` (@${user.username})` : '')),
		);
		el.userSelect.replaceChildren(...options);
		el.userSelect.value = view.userId || '';
	}

	function chatKindLabel(chat) {
		if (chat.type === 'Private') return chat.bot_stopped ? 'Bot · stopped' : 'Bot';
		if (chat.banned.includes(view.userId)) return `${chat.type} · banned`;
		const role = roleIn(chat, view.userId);
		return role ? `${chat.type} · ${role === 'member' && chat.type === 'Channel' ? 'subscriber' : role}` : `${chat.type} · not a member`;
	}

	function renderChatList() {
		const items = chatsOf(view.userId).map((chat) => {
			const title = chatTitle(chat);
			const unread = view.unread.get(chat.chat_id) || 0;
			const current = chat.chat_id === view.chatId;
			return h(
				'li',
				{},
				h(
					'button',
					{
						type: 'button',
						class: 'chat-item',
						'data-chat-id': chat.chat_id,
						'aria-current': current ? 'true' : undefined,
						onclick: () => openChat(chat.chat_id).catch(reportFailure),
					},
					avatar(chat.chat_id, title, chat.type === 'Private' ? 'bot' : ''),
					h('span', { class: 'chat-item-text' }, h('span', { class: 'chat-item-title', dir: 'auto', text: title }), h('span', { class: 'chat-item-kind', text: chatKindLabel(chat) })),
					unread ? h('span', { class: 'badge', text: String(unread), 'aria-label': `${unread} new` }) : null,
				),
			);
		});
		el.chatList.replaceChildren(...items);
	}

	function renderBotPanel() {
		const bots = botsIn(currentChat());
		el.botPanel.hidden = bots.length === 0;
		if (!bots.length) return;
		el.botPanelTitle.textContent = bots.length === 1 ? `Bot: ${bots[0].bot_title}` : `Bots (${bots.length})`;
		el.botPanelBody.replaceChildren(
			...bots.map((bot) => {
				const endpoints = new Map((bot.endpoints || []).map((endpoint) => [endpoint.type, endpoint.url]));
				const updates = endpoints.get('ReceiveUpdate');
				const inline = endpoints.get('ReceiveInlineMessage');
				return h(
					'section',
					{ class: 'bot-card', 'aria-label': bot.bot_title },
					h(
						'p',
						{ class: 'bot-name' },
						bots.length > 1 ? [h('strong', { text: bot.bot_title }), ' '] : null,
						h('span', { class: 'muted', text: '@' + bot.username }),
					),
					h(
						'dl',
						{ class: 'bot-facts' },
						h('dt', { text: 'Updates' }),
						h('dd', { text: updates ? `webhook → ${updates}` : 'polling (getUpdates)' }),
						h('dt', { text: 'Inline taps' }),
						h('dd', { class: inline ? '' : 'warn', text: inline ? `webhook → ${inline}` : 'no endpoint registered: taps are not delivered' }),
					),
					h('h3', { text: 'Commands' }),
					bot.commands.length
						? h(
								'ul',
								{ class: 'command-list' },
								bot.commands.map((command) =>
									h(
										'li',
										{},
										h('button', { type: 'button', class: 'link-button', onclick: () => insertCommand(command.command) }, '/' + command.command),
										h('span', { class: 'muted', dir: 'auto', text: command.description }),
									),
								),
							)
						: h('p', { class: 'muted', text: 'None set yet (setCommands).' }),
				);
			}),
		);
	}

	// ----- chat header, notices, composer -----

	function renderChatHeader() {
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
			const bot = world.bots.get(chat.bot_id);
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
	function renderPinned() {
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

	function renderComposer() {
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

	function renderDraft() {
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

	function renderKeypad() {
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
		el.keypad.replaceChildren(
			...keypad.rows.map((row) =>
				h(
					'div',
					{ class: 'keypad-row' },
					row.buttons.map((button) =>
						button.type === 'Link'
							? linkButton(button, 'keypad-button', null)
							: h('button', { type: 'button', class: 'keypad-button', dir: 'auto', 'data-button-id': button.id, onclick: () => tapChatKeypad(chat, button) }, button.button_text),
					),
				),
			),
		);
	}

	function renderEmpty() {
		const chat = currentChat();
		const empty = view.messages.size === 0;
		el.empty.hidden = !empty;
		if (!empty || !chat) return;
		el.empty.textContent =
			chat.type === 'Private' ? 'No messages yet. Press Start, or send /start, to begin talking to the bot.' : 'No messages yet.';
	}

	// ----- messages -----

	function isOwn(message) {
		return message.sender_type === 'User' && message.sender_id === view.userId;
	}

	function canDelete(message) {
		const chat = currentChat();
		if (isOwn(message)) return true;
		if (!chat || chat.type === 'Private') return false;
		const role = roleIn(chat, view.userId);
		return (role === 'owner' || role === 'admin') && !chat.banned.includes(view.userId);
	}

	function messageItem(message) {
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
	function jumpTo(messageId) {
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

	function fileCard(file) {
		const name = file.file_name || 'file';
		const href = `/files/${encodeURIComponent(file.file_id)}/${encodeURIComponent(name)}`;
		const isImage = /\.(png|jpe?g|gif|webp|svg)$/i.test(name);
		return h(
			'div',
			{ class: 'file-card' },
			isImage ? h('img', { src: href, alt: name, loading: 'lazy', class: 'file-preview' }) : null,
			h(
				'a',
				{ class: 'file-link', href, download: name },
				h('span', { class: 'file-icon' }, icon('file')),
				h('span', { class: 'file-text' }, h('span', { class: 'file-name', dir: 'auto', text: name }), h('span', { class: 'muted', text: `${formatSize(file.size)} · Download` })),
			),
		);
	}

	/**
	 * A poll, with what the client libraries add (undocumented): a quiz marks its correct answer and shows
	 * the explanation; "Multiple answers" and Anonymous/Public when the bot said so.
	 */
	function pollCard(poll) {
		const status = poll.poll_status || {};
		const percents = status.percent_vote_options || [];
		const quiz = poll.type === 'Quiz';
		const kind = `${status.state === 'Closed' ? 'Closed ' : ''}${quiz ? 'quiz' : 'poll'}`;
		const facts = [
			kind.charAt(0).toUpperCase() + kind.slice(1),
			poll.is_anonymous === true ? 'Anonymous' : poll.is_anonymous === false ? 'Public' : null,
			poll.allows_multiple_answers === true ? 'Multiple answers' : null,
			`${status.total_vote || 0} votes`,
		];
		return h(
			'figure',
			{ class: quiz ? 'poll quiz' : 'poll' },
			h('figcaption', {}, icon('poll'), quiz ? h('span', { class: 'poll-kind', text: 'Quiz' }) : null, h('span', { dir: 'auto', text: poll.question })),
			h(
				'ol',
				{ class: 'poll-options' },
				poll.options.map((option, index) => {
					const percent = Number(percents[index] || 0);
					const correct = quiz && poll.correct_option_index === index;
					const bar = h('span', { class: 'poll-bar', 'aria-hidden': 'true' });
					bar.style.setProperty('--percent', `${Math.max(0, Math.min(100, percent))}%`);
					const classes = [status.selection_index === index ? 'chosen' : '', correct ? 'correct' : ''].filter(Boolean).join(' ');
					return h(
						'li',
						{ class: classes },
						bar,
						h('span', { class: 'poll-option', dir: 'auto', text: option }),
						correct ? h('span', { class: 'poll-correct', title: 'Correct answer', text: '✓ Correct' }) : null,
						h('span', { class: 'poll-percent', text: `${percent}%` }),
					);
				}),
			),
			quiz && poll.explanation ? h('p', { class: 'poll-explanation', dir: 'auto' }, h('span', { 'aria-hidden': 'true', text: '💡 ' }), poll.explanation) : null,
			h('p', { class: 'muted poll-status', text: facts.filter(Boolean).join(' · ') }),
		);
	}

	function locationCard(place) {
		const lat = Number(place.latitude);
		const lon = Number(place.longitude);
		const href = `https://www.openstreetmap.org/?mlat=${encodeURIComponent(lat)}&mlon=${encodeURIComponent(lon)}#map=16/${lat}/${lon}`;
		return h(
			'a',
			{ class: 'location-card', href, target: '_blank', rel: 'noopener noreferrer' },
			h('span', { class: 'pin' }, icon('pin')),
			h('span', {}, h('strong', { text: 'Location' }), h('span', { class: 'muted', text: `${place.latitude}, ${place.longitude}` })),
		);
	}

	function contactCard(contact) {
		const name = [contact.first_name, contact.last_name].filter(Boolean).join(' ');
		return h(
			'div',
			{ class: 'contact-card' },
			avatar(contact.phone_number, name, 'small'),
			h('span', {}, h('strong', { dir: 'auto', text: name }), h('a', { href: `tel:${contact.phone_number.replace(/[^+0-9]/g, '')}`, text: contact.phone_number })),
		);
	}

	function inlineKeypad(message) {
		return h(
			'div',
			{ class: 'inline-keypad', role: 'group', 'aria-label': 'Inline keypad' },
			message.inline_keypad.rows.map((row) =>
				h(
					'div',
					{ class: 'keypad-row' },
					row.buttons.map((button) => {
						if (button.type === 'Link') return linkButton(button, 'inline-button', message.message_id);
						return h(
							'button',
							{
								type: 'button',
								class: 'inline-button',
								dir: 'auto',
								'data-button-id': button.id,
								'aria-busy': view.pendingTaps.has(message.message_id + ' ' + button.id) ? 'true' : undefined,
								onclick: (event) => tapInline(message, button, event.currentTarget),
							},
							button.button_text,
						);
					}),
				),
			),
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
		world.chats.set(tap.chat.chat_id, tap.chat);
		toast(`You joined ${tap.chat.title || '@' + username}.`, 'ok');
		await openChat(tap.chat.chat_id).catch(reportFailure);
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

	function scrollToBottom(force) {
		if (force || nearBottom()) el.messages.scrollTop = el.messages.scrollHeight;
	}

	/** Replaces a message's element, keeping keyboard focus on the same control if it was inside. */
	function replaceMessage(message) {
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

	function addMessage(message) {
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

	function updateMessage(message) {
		view.messages.set(message.message_id, message);
		replaceMessage(message);
		refreshReplyQuotes(message.message_id);
		renderPinned();
		if (view.editing === message.message_id || view.replyTo === message.message_id) renderDraft();
	}

	function removeMessage(messageId) {
		view.messages.delete(messageId);
		const node = document.getElementById('message-' + messageId);
		if (node) node.remove();
		refreshReplyQuotes(messageId);
		renderDraft();
		renderEmpty();
	}

	// ----- what the user does -----

	function reportFailure(error) {
		showError(error instanceof Error ? error.message : String(error));
	}

	async function act(name, body) {
		showError('');
		try {
			return await action(name, body);
		} catch (error) {
			reportFailure(error);
			return null;
		}
	}

	function startReply(message) {
		view.editing = null;
		view.replyTo = message.message_id;
		renderDraft();
		el.input.focus();
	}

	function startEdit(message) {
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

	async function deleteMessage(message) {
		await act('delete-message', { userId: view.userId, chatId: view.chatId, messageId: message.message_id });
	}

	async function submit() {
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
			const response = await fetch('/_sandbox/files', {
				method: 'POST',
				headers: { 'Content-Type': file.type || 'application/octet-stream', 'X-File-Name': encodeURIComponent(file.name), 'X-File-Type': type },
				body: file,
			});
			const stored = await response.json();
			if (!response.ok) throw new Error(stored.error || `HTTP ${response.status}`);
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

	async function tapInline(message, button, node) {
		const key = message.message_id + ' ' + button.id;
		view.pendingTaps.add(key);
		node.setAttribute('aria-busy', 'true');
		const inline = await act('tap-inline-button', { userId: view.userId, chatId: view.chatId, messageId: message.message_id, buttonId: button.id });
		if (!inline) {
			view.pendingTaps.delete(key);
			node.removeAttribute('aria-busy');
		}
		// The delivery event (or a timeout) clears the busy mark: see onDelivery.
		setTimeout(() => {
			if (!view.pendingTaps.delete(key)) return;
			const again = document.querySelector(`#message-${CSS.escape(message.message_id)} [data-button-id="${CSS.escape(button.id)}"]`);
			if (again) again.removeAttribute('aria-busy');
		}, 5000);
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

	function insertCommand(command) {
		el.input.value = '/' + command;
		closeSuggestions();
		el.input.focus();
		autosize();
	}

	// ----- command suggestions -----

	function commandsHere() {
		const seen = new Set();
		return botsIn(currentChat())
			.flatMap((bot) => bot.commands)
			.filter((command) => !seen.has(command.command) && seen.add(command.command));
	}

	function updateSuggestions(force) {
		const value = el.input.value;
		const typing = /^\/\S*$/.test(value);
		if (!typing && !force) return closeSuggestions();
		const prefix = typing ? value.slice(1).toLowerCase() : '';
		const items = commandsHere().filter((command) => command.command.toLowerCase().startsWith(prefix));
		if (!items.length) return closeSuggestions();
		view.suggestions = { items, index: Math.min(Math.max(view.suggestions.index, 0), items.length - 1) };
		el.suggestions.replaceChildren(
			...items.map((command, index) =>
				h(
					'li',
					{
						id: 'suggestion-' + index,
						role: 'option',
						class: 'suggestion',
						'aria-selected': String(index === view.suggestions.index),
						onmousedown: (event) => event.preventDefault(),
						onclick: () => pickSuggestion(index, true),
					},
					h('span', { class: 'suggestion-command', text: '/' + command.command }),
					h('span', { class: 'muted', dir: 'auto', text: command.description }),
				),
			),
		);
		el.suggestions.hidden = false;
		el.commandsButton.setAttribute('aria-expanded', 'true');
		el.input.setAttribute('aria-activedescendant', 'suggestion-' + view.suggestions.index);
	}

	function closeSuggestions() {
		el.suggestions.hidden = true;
		el.suggestions.replaceChildren();
		view.suggestions = { items: [], index: -1 };
		el.commandsButton.setAttribute('aria-expanded', 'false');
		el.input.removeAttribute('aria-activedescendant');
	}

	function moveSuggestion(step) {
		const count = view.suggestions.items.length;
		view.suggestions.index = (view.suggestions.index + step + count) % count;
		updateSuggestions(true);
	}

	/** Tab completes; Enter and a click send at once, as a command menu does in the app. */
	function pickSuggestion(index, sendNow) {
		const command = view.suggestions.items[index];
		if (!command) return;
		el.input.value = '/' + command.command;
		closeSuggestions();
		if (sendNow) submit();
		else el.input.focus();
	}

	function autosize() {
		el.input.style.height = 'auto';
		el.input.style.height = `${Math.min(el.input.scrollHeight, 160)}px`;
	}

	// ----- live events -----

	function setLive(state, text) {
		el.live.dataset.state = state;
		el.live.textContent = text;
	}

	function onChat(chat) {
		const before = world.chats.get(chat.chat_id);
		world.chats.set(chat.chat_id, chat);
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
		const key = inline.message_id + ' ' + (inline.aux_data && inline.aux_data.button_id);
		view.pendingTaps.delete(key);
		const node = document.querySelector(`#message-${CSS.escape(inline.message_id)} [data-button-id="${CSS.escape(String(inline.aux_data && inline.aux_data.button_id))}"]`);
		if (node) node.removeAttribute('aria-busy');
		if (delivery.delivered) toast(`“${inline.text}” reached the bot (HTTP ${delivery.httpStatus}).`, 'ok');
		else if (delivery.url === null) toast(`“${inline.text}” was not delivered: the bot has no ReceiveInlineMessage endpoint (a polling bot never sees inline taps).`, 'warn');
		else toast(`“${inline.text}” was not delivered: ${delivery.error || 'HTTP ' + delivery.httpStatus}.`, 'warn');
	}

	function connect() {
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
			loadWorld().catch(reportFailure);
		});
		on('reset', () => {
			view.unread.clear();
			loadWorld().catch(reportFailure);
		});
		on('user', ({ user }) => {
			world.users.set(user.user_id, user);
			renderUsers();
		});
		on('bot', ({ bot }) => {
			world.bots.set(bot.bot_id, { ...(world.bots.get(bot.bot_id) || {}), ...bot });
			renderBotPanel();
			renderComposer();
		});
		on('chat', ({ chat }) => onChat(chat));
		on('message', ({ chat_id, message }) => {
			const chat = world.chats.get(chat_id);
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
			const chat = world.chats.get(chat_id);
			if (chat) chat.message_count = Math.max(0, chat.message_count - 1);
			if (chat_id === view.chatId) removeMessage(message_id);
		});
		on('delivery', ({ delivery }) => onDelivery(delivery));
		source.onerror = () => setLive('offline', 'Reconnecting…');
	}

	// ----- wiring -----

	el.userSelect.addEventListener('change', () => {
		view.userId = el.userSelect.value;
		view.unread.clear();
		const visible = chatsOf(view.userId);
		const current = currentChat();
		// Stay in the same group when the new user is in it too; otherwise their first chat.
		const same = current && current.type !== 'Private' && visible.includes(current) ? current : visible[0];
		openChat(same ? same.chat_id : null).catch(reportFailure);
	});

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

	el.input.addEventListener('blur', () => setTimeout(closeSuggestions, 150));

	el.commandsButton.addEventListener('click', () => {
		if (!el.suggestions.hidden) return closeSuggestions();
		if (!el.input.value.startsWith('/')) el.input.value = '/';
		el.input.focus();
		updateSuggestions(true);
	});

	el.keypadToggle.addEventListener('click', () => {
		view.keypadHidden = !view.keypadHidden;
		renderKeypad();
	});

	el.draftCancel.addEventListener('click', cancelDraft);

	el.pinnedBar.addEventListener('click', () => jumpTo(el.pinnedBar.dataset.messageId));

	el.fileInput.addEventListener('change', () => {
		const [file] = el.fileInput.files;
		el.fileInput.value = '';
		if (file) sendFile(file);
	});

	el.startBot.addEventListener('click', () => act('start-bot', { userId: view.userId, botId: currentChat().bot_id }));
	el.stopBot.addEventListener('click', () => act('stop-bot', { userId: view.userId, botId: currentChat().bot_id }));

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

	connect();
})();

/** The left column: the "You are" picker, the chat list with unread badges, and the bot panel (endpoints, commands). */

import { openChat } from './chatView.js';
import { insertCommand } from './composer.js';
import { avatar, el, h } from './dom.js';
import { reportFailure } from './feedback.js';
import { botsIn, chatTitle, chatsOf, currentChat, roleIn, userName, view, known } from './state.js';

export function renderUsers() {
	const options = [...known.users.values()].map((user) =>
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

export function renderChatList() {
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

export function renderBotPanel() {
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

el.userSelect.addEventListener('change', () => {
	view.userId = el.userSelect.value;
	view.unread.clear();
	const visible = chatsOf(view.userId);
	const current = currentChat();
	// Stay in the same group when the new user is in it too; otherwise their first chat.
	const same = current && current.type !== 'Private' && visible.includes(current) ? current : visible[0];
	openChat(same ? same.chat_id : null).catch(reportFailure);
});

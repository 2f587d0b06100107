/** Bot command suggestions: typing `/` (or the / button) lists the chat's bots' commands; ↑/↓, Tab, Enter and clicks pick one. */

import { submit } from './composer.js';
import { el, h } from './dom.js';
import { botsIn, currentChat, view } from './state.js';

function commandsHere() {
	const seen = new Set();
	return botsIn(currentChat())
		.flatMap((bot) => bot.commands)
		.filter((command) => !seen.has(command.command) && seen.add(command.command));
}

export function updateSuggestions(force) {
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

export function closeSuggestions() {
	el.suggestions.hidden = true;
	el.suggestions.replaceChildren();
	view.suggestions = { items: [], index: -1 };
	el.commandsButton.setAttribute('aria-expanded', 'false');
	el.input.removeAttribute('aria-activedescendant');
}

export function moveSuggestion(step) {
	const count = view.suggestions.items.length;
	view.suggestions.index = (view.suggestions.index + step + count) % count;
	updateSuggestions(true);
}

/** Tab completes; Enter and a click send at once, as a command menu does in the app. */
export function pickSuggestion(index, sendNow) {
	const command = view.suggestions.items[index];
	if (!command) return;
	el.input.value = '/' + command.command;
	closeSuggestions();
	if (sendNow) submit();
	else el.input.focus();
}

el.input.addEventListener('blur', () => setTimeout(closeSuggestions, 150));

el.commandsButton.addEventListener('click', () => {
	if (!el.suggestions.hidden) return closeSuggestions();
	if (!el.input.value.startsWith('/')) el.input.value = '/';
	el.input.focus();
	updateSuggestions(true);
});

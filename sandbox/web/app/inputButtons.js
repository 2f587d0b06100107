/**
 * Input buttons (docs/api-facts.md §11): a tap on a Textbox, Calendar, NumberPicker, StringPicker, phone or
 * location button, on the chat keypad or an inline keypad, opens the sheet a phone would show (a modal
 * <dialog> from index.html, filled by datePicker.js or inputPickers.js). Send is the sandbox's answer-button
 * action with the value picked: on the chat keypad it comes back as the person's message; under a message it
 * goes to the bot's ReceiveInlineMessage endpoint (the page says whether it arrived) or, with the sandbox's
 * `inlineInputAnswers: 'newMessage'`, is a message too. The sandbox's refusals show in the sheet and the
 * composer's error line. Other buttons keep their taps (keypads.js).
 */

import { datePicker } from './datePicker.js';
import { el, h } from './dom.js';
import { act } from './feedback.js';
import { numberPicker, phoneShare, placePicker, stringPicker, textbox } from './inputPickers.js';
import { markPending, renderKeypad } from './keypads.js';
import { addMessage } from './messages.js';
import { botsIn, currentChat, known, userName, view } from './state.js';

/**
 * The button types that ask for a value (the sandbox's INPUT_BUTTON_TYPES): the settings object each reads,
 * the mark beside its label, what it opens.
 */
const PICKERS = {
	Textbox: { key: 'button_textbox', mark: '✎', opens: 'a text box', open: (settings) => textbox(settings) },
	Calendar: { key: 'button_calendar', mark: '📅', opens: 'a date picker', open: (settings) => datePicker(settings) },
	NumberPicker: { key: 'button_number_picker', mark: '🔢', opens: 'a number picker', open: (settings) => numberPicker(settings) },
	StringPicker: { key: 'button_string_picker', mark: '☰', opens: 'a list to pick from', open: (settings) => stringPicker(settings) },
	AskMyPhoneNumber: { key: null, mark: '📞', opens: 'sharing your phone number', open: (_settings, ask) => phoneShare(ask.user, ask.botName) },
	MyPhoneNumber: { key: null, mark: '📞', opens: 'sharing your phone number', open: (_settings, ask) => phoneShare(ask.user, ask.botName) },
	AskMyLocation: { key: 'button_location', mark: '📍', opens: 'sharing your location', open: (settings) => placePicker(settings, true) },
	MyLocation: { key: 'button_location', mark: '📍', opens: 'sharing your location', open: (settings) => placePicker(settings, true) },
	AskLocation: { key: 'button_location', mark: '📍', opens: 'a place picker', open: (settings) => placePicker(settings, false) },
	Location: { key: 'button_location', mark: '📍', opens: 'a place picker', open: (settings) => placePicker(settings, false) },
};

/** For keypads.js: how an input button is marked (`{mark, title}`), or null for any other button. */
export function inputButtonLook(button) {
	const picker = Object.hasOwn(PICKERS, button.type) ? PICKERS[button.type] : null;
	return picker && { mark: h('span', { class: 'input-mark', 'aria-hidden': 'true', text: picker.mark }), title: `Opens ${picker.opens}` };
}

/** The sheet now open: the button, the message under which it is (null: the chat keypad), the chat, the picker. */
let asking = null;

function settingsOf(button, key) {
	const value = key ? button[key] : null;
	return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

export function openInputSheet(button, message) {
	const picker = PICKERS[button.type];
	const settings = settingsOf(button, picker.key);
	const chat = currentChat();
	const bot = botsIn(chat)[0];
	const botName = message ? userName(message.sender_id) : bot ? bot.bot_title : 'The bot';
	const user = known.users.get(view.userId) || { user_id: view.userId, first_name: userName(view.userId) };
	const shown = picker.open(settings, { user, botName });
	asking = { button, messageId: message ? message.message_id : null, chatId: view.chatId, shown };
	el.sheet.dataset.inputType = button.type;
	el.sheetTitle.textContent = String(settings.title || button.button_text);
	el.sheetNote.textContent = shown.note;
	el.sheetBody.replaceChildren(shown.node);
	showSheetError('');
	el.sheetSubmit.hidden = Boolean(shown.readOnly);
	el.sheetSubmit.disabled = false;
	el.sheetSubmit.textContent = shown.submitLabel || 'Send';
	el.sheetCancel.textContent = shown.readOnly ? 'Close' : 'Cancel';
	el.sheet.showModal();
	const target = shown.focusTarget() || (shown.readOnly ? el.sheetCancel : el.sheetSubmit);
	target.focus();
}

function showSheetError(message) {
	el.sheetError.textContent = message;
	el.sheetError.hidden = !message;
}

async function sendAnswer() {
	if (!asking || asking.shown.readOnly || el.sheetSubmit.disabled) return;
	const { button, messageId, chatId, shown } = asking;
	const body = { userId: view.userId, chatId, buttonId: button.id, ...shown.value() };
	if (messageId) body.messageId = messageId;
	el.sheetSubmit.disabled = true;
	showSheetError('');
	const answer = await act('answer-button', body);
	el.sheetSubmit.disabled = false;
	if (!answer) {
		// act put the sandbox's words in the composer's error line; the sheet, on top of it, repeats them.
		showSheetError(el.error.textContent);
		return;
	}
	el.sheet.close();
	if (answer.delivery === 'message') {
		if (answer.message.chat_id === view.chatId) addMessage(answer.message);
	} else markPending(messageId, button.id);
	const chat = known.chats.get(chatId);
	if (!messageId && chat && chat.chat_keypad_one_time && chatId === view.chatId) {
		// Like a tap: a one-time keypad folds away at once; the sandbox has cleared it too.
		view.keypadSpent = JSON.stringify(chat.chat_keypad);
		renderKeypad();
	}
}

el.sheetForm.addEventListener('submit', (event) => {
	event.preventDefault();
	sendAnswer();
});
el.sheetCancel.addEventListener('click', () => el.sheet.close());
// The form fills the dialog, so a click on the dialog itself is a click on the backdrop around it.
el.sheet.addEventListener('click', (event) => {
	if (event.target === el.sheet) el.sheet.close();
});
el.sheet.addEventListener('close', () => {
	asking = null;
	el.sheetBody.replaceChildren();
});

/**
 * The inline and chat keypad fields of the send and edit operations (builder or JSON), and the readers
 * that turn them into request fields. One place, so every operation offers the same UI and validation.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { keypadFromBuilderRows, parseKeypad } from '../keypad';
import type { BuilderRow } from '../keypad';
import type { Keypad } from '../../shared/types';
import { inputModeProperties } from './inputMode';
import { keypadBuilderProperty } from './keypadRows';
import { parameter, withInputErrors } from './params';

/** Field names used in error messages; they match the display names of the fields below. */
export const INLINE_KEYPAD_FIELD = 'Inline Keypad';
const INLINE_KEYPAD_JSON_FIELD = 'Inline Keypad (JSON)';
const CHAT_KEYPAD_FIELD = 'Chat Keypad';
const CHAT_KEYPAD_JSON_FIELD = 'Chat Keypad (JSON)';

const KEYPAD_JSON_EXAMPLE = '{"rows": [{"buttons": [{"id": "yes", "button_text": "Yes"}, {"id": "no", "button_text": "No"}]}]}';

/**
 * Inline keypad (buttons under the message). Fields: `inlineKeypadMode` ('none' | 'builder' | 'json'),
 * `inlineKeypad` (builder rows), `inlineKeypadJson`. With `required` (editMessageKeypad) there is no 'none'
 * and the builder is the default.
 */
export function inlineKeypadProperties({ required = false } = {}): INodeProperties[] {
	return inputModeProperties(
		{
			displayName: 'Inline Keypad',
			name: 'inlineKeypadMode',
			default: required ? 'builder' : 'none',
			description:
				'Buttons shown under the message. Taps reach the bot as inline messages (Rubika Trigger, By Webhook), with the button ID.',
		},
		[
			{
				name: 'Builder',
				value: 'builder',
				description: 'Add rows and buttons one by one',
				fields: [keypadBuilderProperty('inlineKeypad', 'Inline Keypad Rows')],
			},
			{
				name: 'JSON',
				value: 'json',
				description: 'Give the keypad as JSON or from an expression, e.g. built by a Code node',
				fields: [
					{
						displayName: 'Inline Keypad (JSON)',
						name: 'inlineKeypadJson',
						type: 'json',
						default: '',
						placeholder: KEYPAD_JSON_EXAMPLE,
						description:
							'A keypad {"rows": [{"buttons": [...]}]}, a list of rows, or a list of button lists. Buttons need button_text (or text); ID and type are optional.',
					},
				],
			},
			...(required ? [] : [{ name: 'None', value: 'none', description: 'No buttons under the message' }]),
		],
	);
}

/**
 * Chat keypad (replaces the phone keyboard). Fields: `chatKeypadAction` ('leave' | 'set' | 'remove'),
 * `chatKeypadMode` ('builder' | 'json'), `chatKeypad` (builder rows), `chatKeypadJson`, `resizeKeyboard`,
 * `oneTimeKeyboard`.
 */
export function chatKeypadProperties(): INodeProperties[] {
	const setShow = { chatKeypadAction: ['set'] };
	return [
		{
			displayName: 'Chat Keypad',
			name: 'chatKeypadAction',
			type: 'options',
			options: [
				{ name: 'Leave Unchanged', value: 'leave', description: 'Send nothing about the chat keypad' },
				{ name: 'Remove', value: 'remove', description: 'Remove the chat keypad and show the normal keyboard again' },
				{ name: 'Set (New)', value: 'set', description: 'Show these buttons instead of the keyboard, replacing any earlier chat keypad' },
			],
			default: 'leave',
			description: 'Buttons that replace the keyboard in the chat. A tap sends the button text as a new message from the user.',
		},
		...inputModeProperties(
			{
				displayName: 'Chat Keypad Input',
				name: 'chatKeypadMode',
				default: 'builder',
				description: 'How the chat keypad is given: rows and buttons one by one, or JSON',
				displayOptions: { show: setShow },
			},
			[
				{
					name: 'Builder',
					value: 'builder',
					description: 'Add rows and buttons one by one',
					fields: [keypadBuilderProperty('chatKeypad', 'Chat Keypad Rows')],
				},
				{
					name: 'JSON',
					value: 'json',
					description: 'Give the keypad as JSON or from an expression',
					fields: [
						{
							displayName: 'Chat Keypad (JSON)',
							name: 'chatKeypadJson',
							type: 'json',
							default: '',
							placeholder: KEYPAD_JSON_EXAMPLE,
							description:
								'A keypad {"rows": [{"buttons": [...]}]}, a list of rows, or a list of button lists. resize_keyboard and one_time_keyboard given here win over the switches below.',
						},
					],
				},
			],
		),
		{
			displayName: 'Resize Keyboard',
			name: 'resizeKeyboard',
			type: 'boolean',
			default: true,
			description: 'Whether the keypad is shrunk to fit its buttons instead of taking the height of the keyboard',
			displayOptions: { show: setShow },
		},
		{
			displayName: 'One-Time Keyboard',
			name: 'oneTimeKeyboard',
			type: 'boolean',
			default: false,
			description: 'Whether the keypad hides after the user taps a button',
			displayOptions: { show: setShow },
		},
	];
}

/** Reads the inline keypad fields; undefined when the user chose None. */
export function readInlineKeypad(this: IExecuteFunctions, itemIndex: number): Keypad | undefined {
	const mode = parameter(this, 'inlineKeypadMode', itemIndex, 'none') as string;
	return withInputErrors(this, itemIndex, () => {
		if (mode === 'builder') {
			const value = parameter(this, 'inlineKeypad', itemIndex, {}) as { rows?: BuilderRow[] };
			return keypadFromBuilderRows(value.rows, INLINE_KEYPAD_FIELD, 'inline');
		}
		if (mode === 'json') {
			return parseKeypad(parameter(this, 'inlineKeypadJson', itemIndex, ''), INLINE_KEYPAD_JSON_FIELD, 'inline');
		}
		return undefined;
	});
}

/**
 * Reads the chat keypad fields into request fields: nothing for Leave Unchanged, `chat_keypad_type: 'Remove'`
 * for Remove, `chat_keypad` + `chat_keypad_type: 'New'` for Set. The one-time flag is sent under both of its
 * spellings (see syncOneTimeFlag in shared/keypad/common.ts).
 */
export function readChatKeypad(
	this: IExecuteFunctions,
	itemIndex: number,
): { chat_keypad?: Keypad; chat_keypad_type?: 'New' | 'Remove' } {
	const action = parameter(this, 'chatKeypadAction', itemIndex, 'leave') as string;
	if (action === 'remove') return { chat_keypad_type: 'Remove' };
	if (action !== 'set') return {};
	const mode = parameter(this, 'chatKeypadMode', itemIndex, 'builder') as string;
	const resizeKeyboard = parameter(this, 'resizeKeyboard', itemIndex, true) as boolean;
	const oneTimeKeyboard = parameter(this, 'oneTimeKeyboard', itemIndex, false) as boolean;
	const keypad = withInputErrors(this, itemIndex, () => {
		if (mode === 'json') {
			const parsed = parseKeypad(parameter(this, 'chatKeypadJson', itemIndex, ''), CHAT_KEYPAD_JSON_FIELD, 'chat');
			// Flags written in the JSON win; the switches fill in what it leaves out.
			parsed.resize_keyboard ??= resizeKeyboard;
			if (parsed.one_time_keyboard === undefined) {
				parsed.one_time_keyboard = oneTimeKeyboard;
				parsed.on_time_keyboard = oneTimeKeyboard;
			}
			return parsed;
		}
		const value = parameter(this, 'chatKeypad', itemIndex, {}) as { rows?: BuilderRow[] };
		return keypadFromBuilderRows(value.rows, CHAT_KEYPAD_FIELD, 'chat', { resizeKeyboard, oneTimeKeyboard });
	});
	return { chat_keypad: keypad, chat_keypad_type: 'New' };
}

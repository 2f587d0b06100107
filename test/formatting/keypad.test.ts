import { keypadFromBuilderRows, parseKeypad, validateKeypad } from '../../nodes/Rubika/keypad';
import type { Keypad } from '../../nodes/shared/types';

import { inputError } from '../support/inputError';

const YES_NO: Keypad = {
	rows: [
		{
			buttons: [
				{ id: 'yes', type: 'Simple', button_text: 'Yes' },
				{ id: 'no', type: 'Simple', button_text: 'No' },
			],
		},
	],
};

describe('parseKeypad: accepted shapes', () => {
	test('a Keypad object', () => {
		expect(parseKeypad(YES_NO, 'Inline Keypad', 'inline')).toEqual(YES_NO);
	});

	test('a JSON string of a Keypad', () => {
		expect(parseKeypad(JSON.stringify(YES_NO), 'Inline Keypad (JSON)', 'inline')).toEqual(YES_NO);
	});

	test('a bare rows array', () => {
		expect(parseKeypad(YES_NO.rows, 'Inline Keypad', 'inline')).toEqual(YES_NO);
	});

	test('an array of button arrays, with shorthand buttons', () => {
		const keypad = parseKeypad(
			[[{ id: 1, text: 'One' }, { id: 2, text: 'Two' }], [{ id: 3, button_text: 'Three', type: 'simple' }]],
			'Inline Keypad',
			'inline',
		);
		expect(keypad).toEqual({
			rows: [
				{
					buttons: [
						{ id: '1', type: 'Simple', button_text: 'One' },
						{ id: '2', type: 'Simple', button_text: 'Two' },
					],
				},
				{ buttons: [{ id: '3', type: 'Simple', button_text: 'Three' }] },
			],
		});
	});

	test('a JSON string of button arrays keeps big numeric ids exact', () => {
		const keypad = parseKeypad('[[{"id": 12345678901234567890, "text": "x"}]]', 'Inline Keypad (JSON)', 'inline');
		expect(keypad.rows[0].buttons[0].id).toBe('12345678901234567890');
	});

	test('missing ids are generated from row and column', () => {
		const keypad = parseKeypad([[{ text: 'a' }, { text: 'b', id: '' }], [{ text: 'c', id: null }]], 'Inline Keypad', 'inline');
		expect(keypad.rows.map((row) => row.buttons.map((button) => button.id))).toEqual([['r1b1', 'r1b2'], ['r2b1']]);
	});

	test('type-specific sub-objects and unknown keys pass through untouched', () => {
		const calendar = { type: 'DatePersian', min_year: '1400', max_year: '1410', title: 'Date' };
		const keypad = parseKeypad(
			[[{ id: 'd', type: 'Calendar', button_text: 'Pick', button_calendar: calendar, custom: { a: 1 } }]],
			'Inline Keypad',
			'inline',
		);
		expect(keypad.rows[0].buttons[0]).toEqual({
			id: 'd',
			type: 'Calendar',
			button_text: 'Pick',
			button_calendar: calendar,
			custom: { a: 1 },
		});
		expect(keypad.rows[0].buttons[0].button_calendar).toBe(calendar);
	});

	test('a copied request body {inline_keypad: …} is unwrapped', () => {
		expect(parseKeypad({ inline_keypad: YES_NO }, 'Inline Keypad', 'inline')).toEqual(YES_NO);
	});

	test('a copied request body {chat_keypad: …} is unwrapped for a chat keypad', () => {
		const keypad = parseKeypad({ chat_keypad_type: 'New', chat_keypad: { ...YES_NO, resize_keyboard: true } }, 'Chat Keypad', 'chat');
		expect(keypad).toEqual({ ...YES_NO, resize_keyboard: true });
	});

	test('chat keypad: the one-time flag is sent in both spellings', () => {
		const keypad = parseKeypad({ ...YES_NO, resize_keyboard: true, one_time_keyboard: true }, 'Chat Keypad', 'chat');
		expect(keypad).toEqual({ ...YES_NO, resize_keyboard: true, one_time_keyboard: true, on_time_keyboard: true });
	});

	test('chat keypad: the older spelling alone is accepted too', () => {
		const keypad = parseKeypad({ ...YES_NO, on_time_keyboard: false }, 'Chat Keypad', 'chat');
		expect(keypad).toEqual({ ...YES_NO, one_time_keyboard: false, on_time_keyboard: false });
	});

	test('chat keypad: "true"/"false" strings from expressions become booleans', () => {
		const keypad = parseKeypad({ ...YES_NO, resize_keyboard: 'true', one_time_keyboard: 'false' }, 'Chat Keypad', 'chat');
		expect(keypad.resize_keyboard).toBe(true);
		expect(keypad.one_time_keyboard).toBe(false);
	});
});

describe('parseKeypad: errors name the field, row and button', () => {
	test.each<[string, unknown, string]>([
		['invalid JSON', '{"rows": [', 'the keypad is not valid JSON'],
		['empty string', '  ', 'is empty'],
		['a number', 42, 'must be a keypad'],
		['an object without rows', { buttons: [] }, 'must be a keypad'],
		['rows that are not a list', { rows: 'x' }, '"rows" must be a list of rows'],
		['a row that is neither object nor list', [[{ text: 'a' }], 'b'], 'row 2 must be {"buttons": [...]} or a list of buttons'],
		['a row whose buttons are not a list', [{ buttons: {} }], 'row 1: "buttons" must be a list of buttons'],
		['a button that is not an object', [[{ text: 'a' }, 'b']], 'row 1, button 2 must be an object'],
		['no rows', { rows: [] }, 'must have at least one row with at least one button'],
		['an empty row', [[{ text: 'a' }], []], 'row 2 has no buttons'],
		['a missing button text', [[{ id: 'x' }]], 'row 1, button 1: button text is empty'],
		['a blank button text', [[{ id: 'x', text: '  ' }]], 'row 1, button 1: button text is empty'],
		[
			'an unknown type',
			[[{ text: 'a' }, { text: 'b', type: 'Bogus' }]],
			'row 1, button 2: button type "Bogus" is not valid; allowed: Simple, Selection, Calendar',
		],
		['a duplicate id', [[{ id: 7, text: 'a' }], [{ id: '7', text: 'b' }]], 'row 2, button 1: button id "7" is used twice (first at row 1, button 1)'],
		['a given id equal to a generated one', [[{ text: 'a' }, { id: 'r1b1', text: 'b' }]], 'row 1, button 2: button id "r1b1" is used twice'],
		['an id that is an object', [[{ id: { a: 1 }, text: 'a' }]], 'row 1, button 1: button id must be a non-empty text'],
	])('%s', (_name, input, message) => {
		const error = inputError(() => parseKeypad(input, 'Inline Keypad', 'inline'));
		expect(error.field).toBe('Inline Keypad');
		expect(error.message).toContain(message);
	});

	test.each(['resize_keyboard', 'one_time_keyboard', 'on_time_keyboard'])('%s on an inline keypad', (flag) => {
		const error = inputError(() => parseKeypad({ ...YES_NO, [flag]: true }, 'Inline Keypad', 'inline'));
		expect(error.message).toBe(`${flag} is only allowed on a chat keypad, not on an inline keypad`);
	});

	test('a flag that is not a boolean', () => {
		const error = inputError(() => parseKeypad({ ...YES_NO, resize_keyboard: 'yes' }, 'Chat Keypad', 'chat'));
		expect(error.message).toBe('resize_keyboard must be true or false, got "yes"');
	});

	test('both one-time spellings with different values', () => {
		const error = inputError(() =>
			parseKeypad({ ...YES_NO, one_time_keyboard: true, on_time_keyboard: false }, 'Chat Keypad', 'chat'),
		);
		expect(error.message).toContain('one_time_keyboard and on_time_keyboard disagree');
	});
});

describe('validateKeypad', () => {
	test('accepts a valid keypad', () => {
		expect(() => validateKeypad(YES_NO, 'Inline Keypad', 'inline')).not.toThrow();
	});

	test.each<[string, unknown, string]>([
		['not an object', 'x', 'must be a keypad with a "rows" list'],
		['an empty id', { rows: [{ buttons: [{ id: ' ', type: 'Simple', button_text: 'a' }] }] }, 'row 1, button 1: button id must be a non-empty text'],
		['a missing type', { rows: [{ buttons: [{ id: 'a', button_text: 'a' }] }] }, 'row 1, button 1: button type undefined is not valid'],
		['a row without buttons list', { rows: [{}] }, 'row 1 must have a "buttons" list'],
		['a non-boolean flag', { ...YES_NO, one_time_keyboard: 1 }, 'one_time_keyboard must be true or false, got 1'],
	])('%s', (_name, keypad, message) => {
		const error = inputError(() => validateKeypad(keypad, 'Chat Keypad', 'chat'));
		expect(error.field).toBe('Chat Keypad');
		expect(error.message).toContain(message);
	});

	test('without a kind, chat flags are not refused', () => {
		expect(() => validateKeypad({ ...YES_NO, resize_keyboard: true }, 'Keypad')).not.toThrow();
	});
});

describe('keypadFromBuilderRows (builder UI)', () => {
	test('reads n8n fixedCollection rows, generating empty ids and defaulting the type', () => {
		const keypad = keypadFromBuilderRows(
			[
				{ buttons: { button: [{ id: 'yes', type: 'Simple', text: 'Yes' }, { id: '', type: '', text: 'No' }] } },
				{ buttons: { button: [{ text: 'Help' }] } },
			],
			'Inline Keypad',
			'inline',
		);
		expect(keypad).toEqual({
			rows: [
				{
					buttons: [
						{ id: 'yes', type: 'Simple', button_text: 'Yes' },
						{ id: 'r1b2', type: 'Simple', button_text: 'No' },
					],
				},
				{ buttons: [{ id: 'r2b1', type: 'Simple', button_text: 'Help' }] },
			],
		});
	});

	test('accepts plain button arrays too', () => {
		expect(keypadFromBuilderRows([{ buttons: [{ id: 'a', text: 'A' }] }], 'Inline Keypad', 'inline')).toEqual({
			rows: [{ buttons: [{ id: 'a', type: 'Simple', button_text: 'A' }] }],
		});
	});

	test('merges extra fields (JSON string or object) into the button', () => {
		const keypad = keypadFromBuilderRows(
			[
				{
					buttons: {
						button: [
							{ id: 'n', type: 'NumberPicker', text: 'Count', options: { extra: '{"button_number_picker": {"min_value": "1", "max_value": "9"}}' } },
							{ id: 'l', type: 'Link', text: 'Site', options: { extra: { button_link: { type: 'url', link_url: 'https://x.io' } } } },
						],
					},
				},
			],
			'Inline Keypad',
			'inline',
		);
		expect(keypad.rows[0].buttons).toEqual([
			{ id: 'n', type: 'NumberPicker', button_text: 'Count', button_number_picker: { min_value: '1', max_value: '9' } },
			{ id: 'l', type: 'Link', button_text: 'Site', button_link: { type: 'url', link_url: 'https://x.io' } },
		]);
	});

	test('chat keypad flags, one-time flag in both spellings', () => {
		const keypad = keypadFromBuilderRows([{ buttons: { button: [{ text: 'A' }] } }], 'Chat Keypad', 'chat', {
			resizeKeyboard: true,
			oneTimeKeyboard: false,
		});
		expect(keypad).toEqual({
			rows: [{ buttons: [{ id: 'r1b1', type: 'Simple', button_text: 'A' }] }],
			resize_keyboard: true,
			one_time_keyboard: false,
			on_time_keyboard: false,
		});
	});

	test('flags are ignored for an inline keypad', () => {
		const keypad = keypadFromBuilderRows([{ buttons: { button: [{ text: 'A' }] } }], 'Inline Keypad', 'inline', {
			resizeKeyboard: true,
		});
		expect(keypad.resize_keyboard).toBeUndefined();
	});

	test.each<[string, Parameters<typeof keypadFromBuilderRows>[0], string]>([
		['no rows', [], 'must have at least one row'],
		['undefined rows', undefined, 'must have at least one row'],
		['a row without buttons', [{ buttons: { button: [{ text: 'A' }] } }, {}], 'row 2 has no buttons'],
		['an empty text', [{ buttons: { button: [{ text: '' }] } }], 'row 1, button 1: button text is empty'],
		['duplicate ids', [{ buttons: { button: [{ id: 'x', text: 'A' }, { id: 'x', text: 'B' }] } }], 'row 1, button 2: button id "x" is used twice'],
		['invalid extra JSON', [{ buttons: { button: [{ text: 'A', options: { extra: '{oops' } }] } }], 'row 1, button 1: extra fields is not valid JSON'],
		['extra that is not an object', [{ buttons: { button: [{ text: 'A', options: { extra: '[1]' } }] } }], 'row 1, button 1: extra fields must be a JSON object'],
		['extra setting the id', [{ buttons: { button: [{ text: 'A', options: { extra: '{"id": "z"}' } }] } }], 'row 1, button 1: extra fields may not set "id"'],
	])('error: %s', (_name, rows, message) => {
		const error = inputError(() => keypadFromBuilderRows(rows, 'Inline Keypad', 'inline'));
		expect(error.field).toBe('Inline Keypad');
		expect(error.message).toContain(message);
	});
});

describe('Link buttons', () => {
	const build = (button: Record<string, unknown>) =>
		keypadFromBuilderRows([{ buttons: { button: [{ text: 'Open', type: 'Link', ...button }] } }], 'Inline Keypad', 'inline');

	test('the builder makes a web-address or a join-channel Link button', () => {
		expect(build({ linkType: 'url', url: 'https://example.com/a?b=1' }).rows[0].buttons[0]).toEqual({
			id: 'r1b1',
			type: 'Link',
			button_text: 'Open',
			button_link: { type: 'url', link_url: 'https://example.com/a?b=1' },
		});
		expect(build({ linkType: 'joinchannel', channelUsername: '@sandbox_channel' }).rows[0].buttons[0].button_link).toEqual({
			type: 'joinchannel',
			joinchannel_data: { username: 'sandbox_channel' },
		});
	});

	test('Ask Before Joining sends ask_join: true; left off, nothing is sent for it', () => {
		expect(build({ linkType: 'joinchannel', channelUsername: 'sandbox_channel', askJoin: true }).rows[0].buttons[0].button_link).toEqual({
			type: 'joinchannel',
			joinchannel_data: { username: 'sandbox_channel', ask_join: true },
		});
		expect(build({ linkType: 'joinchannel', channelUsername: 'sandbox_channel', askJoin: false }).rows[0].buttons[0].button_link).toEqual({
			type: 'joinchannel',
			joinchannel_data: { username: 'sandbox_channel' },
		});
	});

	test('a rubika.ir invitation or post address becomes the app link, from the builder, its extra JSON and a JSON keypad', () => {
		const invitation = 'https://rubika.ir/joing/BHFBIFJE0HFRQUYDGNWNSAWFBMVBBPVW';
		const appLink = { type: 'url', link_url: 'rubika://g.rubika.ir/BHFBIFJE0HFRQUYDGNWNSAWFBMVBBPVW' };
		expect(build({ linkType: 'url', url: invitation }).rows[0].buttons[0].button_link).toEqual(appLink);
		const extra = JSON.stringify({ button_link: { type: 'url', link_url: invitation } });
		expect(build({ options: { extra } }).rows[0].buttons[0].button_link).toEqual(appLink);
		const input = [[{ id: 'join', text: 'Join', type: 'Link', button_link: { type: 'url', link_url: 'https://rubika.ir/post/news/42' } }]];
		expect(parseKeypad(input, 'Keypad', 'inline').rows[0].buttons[0].button_link).toEqual({ type: 'url', link_url: 'rubika://p.rubika.ir/news/42' });
		// The input itself is left as it was.
		expect(input[0][0].button_link.link_url).toBe('https://rubika.ir/post/news/42');
		expect(build({ linkType: 'url', url: 'rubika://l.rubika.ir/sandbox_channel' }).rows[0].buttons[0].button_link).toEqual({
			type: 'url',
			link_url: 'rubika://l.rubika.ir/sandbox_channel',
		});
	});

	test.each([
		[{ linkType: 'url', url: '' }, 'row 1, button 1: the URL "" is not a web address (http:// or https://) or a Rubika link (rubika://)'],
		[{ linkType: 'url', url: 'javascript:alert(1)' }, /the URL "javascript:alert\(1\)" is not a web address/],
		[{ linkType: 'joinchannel', channelUsername: 'x' }, /the channel username "x" is not valid/],
	])('refuses a Link button that opens nothing usable: %j', (button, message) => {
		expect(() => build(button)).toThrow(message);
	});

	test('JSON: button_link only on Link buttons, and a Link button needs one', () => {
		expect(() => parseKeypad([[{ id: 'a', text: 'A', button_link: { type: 'url', link_url: 'https://x.io' } }]], 'Keypad', 'inline')).toThrow(
			'row 1, button 1: button_link is only for Link buttons',
		);
		expect(() => parseKeypad([[{ id: 'a', text: 'A', type: 'Link' }]], 'Keypad', 'inline')).toThrow(/a Link button needs a web address/);
	});
});

test('the builder reads Extra Fields from Button Options', () => {
	const calendar = { button_calendar: { type: 'DatePersian', min_year: '1400', max_year: '1410', title: 'Date' } };
	const keypad = keypadFromBuilderRows(
		[{ buttons: { button: [{ text: 'When?', type: 'Calendar', options: { extra: JSON.stringify(calendar) } }] } }],
		'Inline Keypad',
		'inline',
	);
	expect(keypad.rows[0].buttons[0]).toEqual({ ...calendar, id: 'r1b1', type: 'Calendar', button_text: 'When?' });
});

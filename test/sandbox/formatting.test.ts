import type { RubikaSandbox } from '../../sandbox';
import { DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { useSandbox, withSandbox } from '../support/sandbox';
import { fails, ok, uploadFile } from './helpers';

const { sara, reza } = DEMO_USERS;
const t = useSandbox();

const part = (type: string, from_index: number, length: number, extra: Record<string, unknown> = {}) => ({ type, from_index, length, ...extra });
const send = (text: string, parts: unknown[], chat_id: string = sara.chat_id) =>
	({ chat_id, text, metadata: { meta_data_parts: parts } });

describe('metadata ranges count UTF-16 code units', () => {
	// "Hi 😀": H i space = 3 units, the emoji = 2 units, total 5.
	const text = 'Hi 😀';

	test('a range that ends exactly after the emoji is accepted and stored', async () => {
		expect(text.length).toBe(5);
		const { message_id } = await ok(t.sandbox, 'sendMessage', send(text, [part('Bold', 3, 2)]));
		expect(t.sandbox.message(sara.chat_id, message_id)?.metadata).toEqual({ meta_data_parts: [part('Bold', 3, 2)] });
	});

	test('one unit past the end is refused, and nothing is stored', async () => {
		expect(await fails(t.sandbox, 'sendMessage', send(text, [part('Bold', 3, 3)]))).toMatch(/beyond the text length of 5/);
		expect(await fails(t.sandbox, 'sendMessage', send(text, [part('Italic', 4, 2)]))).toMatch(/beyond/);
		expect(t.sandbox.messages(sara.chat_id)).toEqual([]);
	});

	test('a range counted in code points (emoji = 1) would be too short, the other way round is refused', async () => {
		// Persian text with an emoji: code points 7, UTF-16 units 8.
		const persian = 'سلام 🌹!';
		expect(persian.length).toBe(8);
		await ok(t.sandbox, 'sendMessage', send(persian, [part('Underline', 0, 8)]));
		await fails(t.sandbox, 'sendMessage', send(persian, [part('Underline', 0, 9)]));
	});
});

describe('metadata parts', () => {
	test('30 parts are fine, 31 are refused', async () => {
		const text = 'x'.repeat(40);
		const parts = (count: number) => Array.from({ length: count }, (_unused, index) => part('Bold', index, 1));
		await ok(t.sandbox, 'sendMessage', send(text, parts(30)));
		expect(await fails(t.sandbox, 'sendMessage', send(text, parts(31)))).toMatch(/31 parts; at most 30/);
	});

	test('type, from_index and length are checked', async () => {
		expect(await fails(t.sandbox, 'sendMessage', send('hello', [part('Blink', 0, 1)]))).toMatch(/type must be one of/);
		expect(await fails(t.sandbox, 'sendMessage', send('hello', [part('Bold', -1, 1)]))).toMatch(/from_index/);
		expect(await fails(t.sandbox, 'sendMessage', send('hello', [part('Bold', 0, 0)]))).toMatch(/length must be an integer > 0/);
		expect(await fails(t.sandbox, 'sendMessage', send('hello', [part('Bold', 0.5, 1)]))).toMatch(/from_index/);
		expect(await fails(t.sandbox, 'sendMessage', send('hello', [{ type: 'Bold', from_index: '0', length: 1 }]))).toMatch(/from_index/);
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'x', metadata: { parts: [] } })).toMatch(/meta_data_parts/);
	});

	test('one bad part rejects the whole request', async () => {
		expect(await fails(t.sandbox, 'sendMessage', send('hello', [part('Bold', 0, 2), part('Italic', 4, 5)]))).toMatch(/meta_data_parts\[1\]/);
		expect(t.sandbox.messages(sara.chat_id)).toEqual([]);
	});

	test('Link needs link_url, which no other type may carry', async () => {
		await ok(t.sandbox, 'sendMessage', send('docs', [part('Link', 0, 4, { link_url: 'https://rubika.ir' })]));
		expect(await fails(t.sandbox, 'sendMessage', send('docs', [part('Link', 0, 4)]))).toMatch(/link_url is required/);
		expect(await fails(t.sandbox, 'sendMessage', send('docs', [part('Bold', 0, 4, { link_url: 'https://x.y' })]))).toMatch(/only allowed for Link/);
	});

	test('MentionText needs mention_text_user_id and is only allowed in groups', async () => {
		const mention = part('MentionText', 0, 4, { mention_text_user_id: reza.user_id });
		await ok(t.sandbox, 'sendMessage', send('Reza, hi', [mention], DEMO_GROUP_ID));
		expect(await fails(t.sandbox, 'sendMessage', send('Reza, hi', [mention]))).toMatch(/only allowed in group/);
		expect(await fails(t.sandbox, 'sendMessage', send('Reza, hi', [part('MentionText', 0, 4)], DEMO_GROUP_ID))).toMatch(/mention_text_user_id is required/);
	});

	test('editMessageText validates metadata against the new text', async () => {
		const { message_id } = await ok(t.sandbox, 'sendMessage', send('hello world', [part('Bold', 0, 11)]));
		expect(await fails(t.sandbox, 'editMessageText', { chat_id: sara.chat_id, message_id, text: 'hi', metadata: { meta_data_parts: [part('Bold', 0, 3)] } })).toMatch(/beyond/);
		await ok(t.sandbox, 'editMessageText', { chat_id: sara.chat_id, message_id, text: 'hi', metadata: { meta_data_parts: [part('Bold', 0, 2)] } });
		expect(t.sandbox.message(sara.chat_id, message_id)?.metadata).toEqual({ meta_data_parts: [part('Bold', 0, 2)] });
		// Without metadata the old ranges are dropped rather than left pointing past the new text.
		await ok(t.sandbox, 'editMessageText', { chat_id: sara.chat_id, message_id, text: 'h' });
		expect(t.sandbox.message(sara.chat_id, message_id)?.metadata).toBeUndefined();
	});

	test('sendFile metadata formats the caption', async () => {
		const file_id = await uploadFile(t.sandbox, Buffer.from('abc'));
		await ok(t.sandbox, 'sendFile', { chat_id: sara.chat_id, file_id, text: 'caption', metadata: { meta_data_parts: [part('Mono', 0, 7)] } });
		expect(await fails(t.sandbox, 'sendFile', { chat_id: sara.chat_id, file_id, metadata: { meta_data_parts: [part('Mono', 0, 1)] } })).toMatch(/needs a text/);
	});
});

describe('keypads', () => {
	const button = (id: unknown, button_text: unknown = 'Label', type: unknown = 'Simple') => ({ id, type, button_text });
	const keypad = (...rows: unknown[][]) => ({ rows: rows.map((buttons) => ({ buttons })) });

	test('an inline keypad is stored with the message, sub-objects untouched', async () => {
		const inline = keypad(
			[button('1', 'One'), button('2', 'Two')],
			[{ id: 'pick', type: 'NumberPicker', button_text: 'Pick', button_number_picker: { min_value: '1', max_value: '9', title: 'n' } }],
		);
		const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'choose', inline_keypad: inline });
		expect(t.sandbox.message(sara.chat_id, message_id)?.inline_keypad).toEqual(inline);
	});

	test('button types from both official lists are accepted', async () => {
		for (const type of ['Payment', 'MyLocation', 'AskLocation', 'AskMyLocation', 'Barcode', 'Textbox']) {
			await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: type, inline_keypad: keypad([button('x', 'x', type)]) });
		}
	});

	test('malformed keypads are refused with the failing path', async () => {
		const cases: Array<[unknown, RegExp]> = [
			[{}, /inline_keypad\.rows must be an array/],
			[{ rows: {} }, /rows must be an array/],
			[{ rows: [{}] }, /rows\[0\]\.buttons must be an array/],
			[{ rows: [[button('1')]] }, /rows\[0\] must be an object/],
			[keypad([]), /rows\[0\]\.buttons must not be empty/],
			[keypad([button('')]), /buttons\[0\]\.id must be a non-empty string/],
			[keypad([button(7)]), /id must be a non-empty string/],
			[keypad([button('1', 'x', 'Bogus')]), /type must be one of/],
			[keypad([{ id: '1', button_text: 'x' }]), /type must be one of/],
			[keypad([button('1'), button('2', 5)]), /buttons\[1\]\.button_text must be a string/],
			['rows', /must be an object/],
		];
		for (const [inline, pattern] of cases) {
			expect(await fails(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'x', inline_keypad: inline })).toMatch(pattern);
		}
		expect(t.sandbox.messages(sara.chat_id)).toEqual([]);
	});

	test('chat keypad: New sets, None and absence leave, Remove clears, a bare chat_keypad sets', async () => {
		const first = { ...keypad([button('a', 'A')]), resize_keyboard: true };
		const second = keypad([button('b', 'B')]);
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: '1', chat_keypad_type: 'New', chat_keypad: first });
		expect(t.sandbox.chatKeypad(sara.chat_id)).toEqual(first);
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: '2' });
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: '3', chat_keypad_type: 'None', chat_keypad: second });
		expect(t.sandbox.chatKeypad(sara.chat_id)).toEqual(first);
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: '4', chat_keypad_type: 'Remove' });
		expect(t.sandbox.chatKeypad(sara.chat_id)).toBeNull();
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: '5', chat_keypad: second });
		expect(t.sandbox.chatKeypad(sara.chat_id)).toEqual(second);
		expect(t.sandbox.chatKeypad(reza.chat_id)).toBeNull();
	});

	test('chat_keypad_type New needs a chat_keypad; resize_keyboard must be boolean', async () => {
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'x', chat_keypad_type: 'New' })).toMatch(/chat_keypad is required/);
		expect(
			await fails(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'x', chat_keypad_type: 'New', chat_keypad: { ...keypad([button('a')]), resize_keyboard: 'yes' } }),
		).toMatch(/resize_keyboard must be a boolean/);
		expect(t.sandbox.chatKeypad(sara.chat_id)).toBeNull();
	});

	test('every send method applies the chat keypad', async () => {
		const chat = keypad([button('menu', 'Menu')]);
		await ok(t.sandbox, 'sendLocation', { chat_id: reza.chat_id, latitude: '1', longitude: '2', chat_keypad_type: 'New', chat_keypad: chat });
		expect(t.sandbox.chatKeypad(reza.chat_id)).toEqual(chat);
		await ok(t.sandbox, 'sendContact', { chat_id: reza.chat_id, first_name: 'a', phone_number: '1', chat_keypad_type: 'Remove' });
		expect(t.sandbox.chatKeypad(reza.chat_id)).toBeNull();
	});

	test('editChatKeypad: New (needs chat_keypad) and Remove; None is refused', async () => {
		const chat = keypad([button('a', 'A')]);
		expect(await ok(t.sandbox, 'editChatKeypad', { chat_id: sara.chat_id, chat_keypad_type: 'New', chat_keypad: chat })).toEqual({});
		expect(t.sandbox.chatKeypad(sara.chat_id)).toEqual(chat);
		expect(await fails(t.sandbox, 'editChatKeypad', { chat_id: sara.chat_id, chat_keypad_type: 'New' })).toMatch(/chat_keypad is required/);
		expect(await fails(t.sandbox, 'editChatKeypad', { chat_id: sara.chat_id, chat_keypad_type: 'None' })).toMatch(/New or Remove/);
		expect(await fails(t.sandbox, 'editChatKeypad', { chat_id: sara.chat_id })).toMatch(/chat_keypad_type is required/);
		expect(t.sandbox.chatKeypad(sara.chat_id)).toEqual(chat);
		await ok(t.sandbox, 'editChatKeypad', { chat_id: sara.chat_id, chat_keypad_type: 'Remove' });
		expect(t.sandbox.chatKeypad(sara.chat_id)).toBeNull();
	});
});

describe('one-time keypad spelling', () => {
	const base = { rows: [{ buttons: [{ id: 'yes', type: 'Simple', button_text: 'Yes' }] }] };

	async function tapsLeaveKeypad(target: RubikaSandbox, flags: Record<string, unknown>): Promise<boolean> {
		target.reset();
		await ok(target, 'editChatKeypad', { chat_id: sara.chat_id, chat_keypad_type: 'New', chat_keypad: { ...base, ...flags } });
		const tap = target.userTapChatKeypadButton({ userId: sara.user_id, buttonId: 'yes' });
		expect(tap).toMatchObject({ text: 'Yes', aux_data: { start_id: null, button_id: 'yes' } });
		return target.chatKeypad(sara.chat_id) !== null;
	}

	test("'both' (default) honours either spelling", async () => {
		expect(await tapsLeaveKeypad(t.sandbox, { one_time_keyboard: true })).toBe(false);
		expect(await tapsLeaveKeypad(t.sandbox, { on_time_keyboard: true })).toBe(false);
		expect(await tapsLeaveKeypad(t.sandbox, {})).toBe(true);
		expect(await tapsLeaveKeypad(t.sandbox, { one_time_keyboard: false })).toBe(true);
	});

	test("'one_time_keyboard' ignores the old spelling (without rejecting it)", async () => {
		await withSandbox({ oneTimeKeyboardSpelling: 'one_time_keyboard' }, async (other) => {
			expect(await tapsLeaveKeypad(other, { one_time_keyboard: true })).toBe(false);
			expect(await tapsLeaveKeypad(other, { on_time_keyboard: true })).toBe(true);
			expect(await tapsLeaveKeypad(other, { on_time_keyboard: 'whatever' })).toBe(true);
			expect(await fails(other, 'editChatKeypad', { chat_id: sara.chat_id, chat_keypad_type: 'New', chat_keypad: { ...base, one_time_keyboard: 'yes' } })).toMatch(/one_time_keyboard/);
		});
	});

	test("'on_time_keyboard' ignores the new spelling", async () => {
		await withSandbox({ oneTimeKeyboardSpelling: 'on_time_keyboard' }, async (other) => {
			expect(await tapsLeaveKeypad(other, { on_time_keyboard: true })).toBe(false);
			expect(await tapsLeaveKeypad(other, { one_time_keyboard: true })).toBe(true);
			expect(other.chat(sara.chat_id).chat_keypad_one_time).toBe(false);
		});
	});
});

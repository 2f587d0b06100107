/**
 * The sandbox's knobs for what the facts leave open about texts and keypads (facts §7): the text limit and
 * its unit (maxTextLength, textLengthUnit), and keypads refused in groups and channels (keypadsInGroups),
 * each played both ways.
 */
import { MAX_TEXT_LENGTH } from '../../nodes/shared/types';
import { DEMO_CHANNEL_ID, DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { useSandbox } from '../support/sandbox';
import { fails, ok } from './helpers';

const { sara } = DEMO_USERS;
const t = useSandbox();
afterEach(() => {
	t.sandbox.configure({ maxTextLength: MAX_TEXT_LENGTH, textLengthUnit: 'codePoints', keypadsInGroups: 'accept' });
});
const keypad = { rows: [{ buttons: [{ id: 'a', type: 'Simple', button_text: 'A' }] }] };

describe('maxTextLength and textLengthUnit', () => {
	test(`by default ${MAX_TEXT_LENGTH} characters counted as code points: an emoji counts 1`, async () => {
		expect(t.sandbox.config).toMatchObject({ maxTextLength: MAX_TEXT_LENGTH, textLengthUnit: 'codePoints' });
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: '😀'.repeat(MAX_TEXT_LENGTH) });
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'x'.repeat(MAX_TEXT_LENGTH + 1) })).toBe(
			`text is ${MAX_TEXT_LENGTH + 1} characters long; at most ${MAX_TEXT_LENGTH} are allowed`,
		);
		expect(t.sandbox.messages(sara.chat_id)).toHaveLength(1);
	});

	test('counted in UTF-16 units, the same emoji are twice too many', async () => {
		t.sandbox.configure({ textLengthUnit: 'utf16' });
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: '😀'.repeat(MAX_TEXT_LENGTH) })).toBe(
			`text is ${2 * MAX_TEXT_LENGTH} UTF-16 code units long; at most ${MAX_TEXT_LENGTH} are allowed`,
		);
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: '😀'.repeat(MAX_TEXT_LENGTH / 2) });
	});

	test('a caption and an edit are held to it too; null is no limit', async () => {
		t.sandbox.configure({ maxTextLength: 10 });
		const file = t.sandbox.addFile({ bytes: Buffer.from('x'), name: 'x.txt', mimeType: 'text/plain' });
		expect(await fails(t.sandbox, 'sendFile', { chat_id: sara.chat_id, file_id: file.file_id, text: 'x'.repeat(11) })).toMatch(/^text is 11 characters long/);
		const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'x'.repeat(10) });
		expect(await fails(t.sandbox, 'editMessageText', { chat_id: sara.chat_id, message_id, text: 'x'.repeat(11) })).toMatch(/^text is 11 characters long/);
		t.sandbox.configure({ maxTextLength: null });
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'x'.repeat(100_000) });
	});

	test('bad values are refused', () => {
		expect(() => t.sandbox.configure({ maxTextLength: 0 })).toThrow('maxTextLength must be null or a whole number >= 1');
		expect(() => t.sandbox.configure({ textLengthUnit: 'bytes' as never })).toThrow('textLengthUnit must be codePoints or utf16');
	});
});

describe('keypadsInGroups', () => {
	test('accept (the default): keypads go to groups and channels', async () => {
		await ok(t.sandbox, 'sendMessage', { chat_id: DEMO_GROUP_ID, text: 'x', inline_keypad: keypad });
		await ok(t.sandbox, 'sendMessage', { chat_id: DEMO_CHANNEL_ID, text: 'x', chat_keypad: keypad, chat_keypad_type: 'New' });
	});

	test('reject: a send, an inline keypad edit or a chat keypad carrying a keypad there is INVALID_INPUT; private chats and plain messages go', async () => {
		t.sandbox.configure({ keypadsInGroups: 'reject' });
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: DEMO_GROUP_ID, text: 'x', inline_keypad: keypad })).toBe(
			'inline_keypad: keypads are not allowed in groups and channels',
		);
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: DEMO_CHANNEL_ID, text: 'x', chat_keypad: keypad, chat_keypad_type: 'New' })).toBe(
			'chat_keypad: keypads are not allowed in groups and channels',
		);
		const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: DEMO_GROUP_ID, text: 'plain' });
		expect(await fails(t.sandbox, 'editMessageKeypad', { chat_id: DEMO_GROUP_ID, message_id, inline_keypad: keypad })).toMatch(/keypads are not allowed/);
		expect(await fails(t.sandbox, 'editChatKeypad', { chat_id: DEMO_GROUP_ID, chat_keypad_type: 'New', chat_keypad: keypad })).toMatch(/keypads are not allowed/);
		await ok(t.sandbox, 'editChatKeypad', { chat_id: DEMO_GROUP_ID, chat_keypad_type: 'Remove' });
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'x', inline_keypad: keypad });
		expect(t.sandbox.messages(DEMO_GROUP_ID).filter((message) => message.sender_type === 'Bot').map((message) => message.text)).toEqual(['plain']);
	});
});

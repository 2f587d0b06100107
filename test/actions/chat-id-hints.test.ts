/**
 * What a refusal gains when the request shows what it may be about (nodes/shared/chatIdHints.ts): a user ID
 * (u0…) where a chat ID goes, and a keypad sent to a group or channel, played with the sandbox's
 * keypadsInGroups both ways. Neither is refused before sending: the facts make neither certain.
 */
import type { NodeApiError } from 'n8n-workflow';

import { DEMO_CHANNEL_ID, DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { jsonOf, useActionSandbox } from './helpers';

const { sara } = DEMO_USERS;
const actions = useActionSandbox('message');
const { run, bodies } = actions;
const USER_ID_HINT = `Note: chat_id ${sara.user_id} is a user ID (u0…), not a chat ID.`;
const KEYPAD_HINT = "Note: one of Rubika's client libraries reports that Rubika refuses keypads in groups and channels with INVALID_INPUT (not confirmed)";
const inlineKeypad = { inlineKeypadMode: 'json', inlineKeypadJson: '[[{"id": "ok", "text": "OK"}]]' };

afterEach(() => {
	actions.sandbox.configure({ keypadsInGroups: 'accept' });
});

describe('a user ID in Chat ID', () => {
	test('is sent (nothing says Rubika never takes one); its refusal says what a chat ID is and where to find it', async () => {
		const result = await run({ operation: 'sendMessage', chatId: sara.user_id, text: 'Hi' });
		const error = result.error as NodeApiError;
		expect(bodies('sendMessage')).toEqual([{ chat_id: sara.user_id, text: 'Hi' }]);
		expect(error.message).toBe(`Rubika sendMessage failed: INVALID_INPUT – chat_id: chat ${sara.user_id} not found`);
		expect(error.description).toContain(USER_ID_HINT);
		expect(error.description).toContain("take chat_id from a message the person sent this bot (the Rubika Trigger's output), not sender_id");
	});

	test('Forward names the field that holds it; Continue On Fail keeps the hint in the item', async () => {
		const sent = await run({ operation: 'sendMessage', chatId: sara.chat_id, text: 'to forward' });
		const messageId = jsonOf(sent)[0].message_id as string;
		const result = await run({ operation: 'forwardMessage', fromChatId: sara.chat_id, messageId, toChatId: sara.user_id }, undefined, { continueOnFail: true });
		expect(jsonOf(result)[0].description).toContain(`Note: to_chat_id ${sara.user_id} is a user ID (u0…), not a chat ID.`);
	});

	test('a chat ID refused for another reason gets no such note', async () => {
		const result = await run({ operation: 'sendMessage', chatId: 'b0nope', text: 'Hi' });
		expect((result.error as NodeApiError).description).not.toContain('user ID');
	});
});

describe('a keypad in a group or channel', () => {
	test('accepted where Rubika takes it (keypadsInGroups accept)', async () => {
		const result = await run({ operation: 'sendMessage', chatId: DEMO_GROUP_ID, text: 'Vote', ...inlineKeypad });
		expect(result.error).toBeUndefined();
	});

	test.each([
		['group', DEMO_GROUP_ID],
		['channel', DEMO_CHANNEL_ID],
	])('refused (keypadsInGroups reject) in a %s: the error says what is known of it', async (kind, chatId) => {
		actions.sandbox.configure({ keypadsInGroups: 'reject' });
		const result = await run({ operation: 'sendMessage', chatId, text: 'Vote', ...inlineKeypad });
		const error = result.error as NodeApiError;
		expect(error.message).toBe('Rubika sendMessage failed: INVALID_INPUT – inline_keypad: keypads are not allowed in groups and channels');
		expect(error.description).toContain(`${KEYPAD_HINT}; this chat is one of its ${kind}s. Try the message without its keypad.`);
	});

	test('a refusal without a keypad, or in a private chat, gets no such note', async () => {
		actions.sandbox.configure({ keypadsInGroups: 'reject' });
		const group = await run({ operation: 'sendMessage', chatId: DEMO_GROUP_ID, text: 'Hi', sendOptions: { replyToMessageId: '1000000000000000001' } });
		expect((group.error as NodeApiError).description).not.toContain('keypads');
		const privateChat = await run({ operation: 'sendMessage', chatId: sara.chat_id, text: 'Hi', ...inlineKeypad, sendOptions: { replyToMessageId: '1000000000000000001' } });
		expect((privateChat.error as NodeApiError).description).not.toContain('keypads');
	});
});

/**
 * Message → Forward, Edit Text, Edit Inline Keypad and Delete against the sandbox: request bodies, output
 * items that the next node can use, the change in the chat, Rubika's refusals, and input refused before
 * anything is sent. The messages to work on are sent first with Send Text, as a workflow would.
 */
import type { INodeParameters, NodeApiError } from 'n8n-workflow';

import { DEMO_GROUP_ID, DEMO_QUIET_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { builderRows, button, expectNoToken, jsonOf, keypad, pairingOf, useActionSandbox } from './helpers';
import type { RefusalCase } from './helpers';

const { sara, reza, ali } = DEMO_USERS;
const CHAT = sara.chat_id;
const actions = useActionSandbox('message');
const { run, bodies, expectRefused, refusesEach } = actions;

const messageIn = (chatId: string, messageId: string) => actions.sandbox.message(chatId, messageId);

/** Sends a text as the bot through the node and returns its output item (message_id, chat_id). */
async function botSends(text: string, extra: INodeParameters = {}, chatId: string = CHAT): Promise<{ message_id: string; chat_id: string }> {
	const result = await run({ operation: 'sendMessage', chatId, text, ...extra });
	expect(result.error).toBeUndefined();
	actions.sandbox.clearRequests();
	return result.items[0].json as { message_id: string; chat_id: string };
}

function expectRubikaRefusal(error: unknown, method: string, status: string, devMessage: string): void {
	const apiError = error as NodeApiError;
	expect(apiError.name).toBe('NodeApiError');
	expect(apiError.message).toBe(`Rubika ${method} failed: ${status} – ${devMessage}`);
	expect(apiError.description).toContain(`Rubika says: ${devMessage}`);
	expect(apiError.context.itemIndex).toBe(0);
}

describe('Message → Forward', () => {
	test('a user\'s message into a group: the copy keeps its origin; output names the new message like a send does', async () => {
		const original = actions.sandbox.userSendMessage({ userId: sara.user_id, text: 'سلام به همه 👋' });
		const result = await run({ operation: 'forwardMessage', fromChatId: CHAT, messageId: original.message_id, toChatId: DEMO_GROUP_ID });
		expect(result.error).toBeUndefined();
		expect(bodies('forwardMessage')).toEqual([{ from_chat_id: CHAT, message_id: original.message_id, to_chat_id: DEMO_GROUP_ID }]);
		const copy = actions.sandbox.lastMessage(DEMO_GROUP_ID)!;
		expect(result.items).toEqual([
			{
				json: {
					new_message_id: copy.message_id,
					message_id: copy.message_id,
					chat_id: DEMO_GROUP_ID,
					from_chat_id: CHAT,
					forwarded_message_id: original.message_id,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(copy).toMatchObject({
			text: 'سلام به همه 👋',
			sender_type: 'Bot',
			forwarded_from: { type_from: 'User', message_id: original.message_id, from_chat_id: CHAT, from_sender_id: sara.user_id },
		});
		expect(messageIn(CHAT, original.message_id)).toBeDefined();
	});

	test('Disable Notification goes out as a boolean; the next node deletes the copy through $json', async () => {
		const original = actions.sandbox.userSendMessage({ userId: reza.user_id, text: 'report' });
		const forwarded = await run({
			operation: 'forwardMessage',
			fromChatId: reza.chat_id,
			messageId: original.message_id,
			toChatId: CHAT,
			sendOptions: { disableNotification: true },
		});
		expect(forwarded.error).toBeUndefined();
		expect(bodies('forwardMessage')).toEqual([
			{ from_chat_id: reza.chat_id, message_id: original.message_id, to_chat_id: CHAT, disable_notification: true },
		]);
		const copyId = String(forwarded.items[0].json.message_id);
		expect(messageIn(CHAT, copyId)?.disable_notification).toBe(true);

		const deleted = await run({ operation: 'deleteMessage', chatId: '={{ $json.chat_id }}', messageId: '={{ $json.message_id }}' }, [
			{ json: forwarded.items[0].json },
		]);
		expect(deleted.error).toBeUndefined();
		expect(bodies('deleteMessage')).toEqual([{ chat_id: CHAT, message_id: copyId }]);
		expect(messageIn(CHAT, copyId)).toBeUndefined();
	});

	test('a message that is not in the chat: Rubika\'s INVALID_INPUT with its dev_message', async () => {
		const result = await run({ operation: 'forwardMessage', fromChatId: CHAT, messageId: '1000000000000000001', toChatId: DEMO_GROUP_ID });
		expectRubikaRefusal(result.error, 'forwardMessage', 'INVALID_INPUT', `message_id: message 1000000000000000001 not found in chat ${CHAT}`);
		expect(actions.sandbox.messages(DEMO_GROUP_ID)).toEqual([]);
		expectNoToken(result);
	});

	refusesEach({ operation: 'forwardMessage', fromChatId: CHAT, messageId: '1000000000000000001', toChatId: DEMO_GROUP_ID }, [
		['a missing source chat', { fromChatId: '={{ $json.from }}' }, 'From Chat ID: is required [item 0]'],
		['a missing message id', { messageId: '={{ $json.id }}' }, 'Message ID: is required [item 0]'],
		['a missing target chat', { toChatId: '={{ $json.to }}' }, 'To Chat ID: is required [item 0]'],
		['a target chat with a space', { toChatId: 'g0 x' }, 'To Chat ID: must be a single ID without spaces, got "g0 x" [item 0]'],
	]);
});

describe('Message → Edit Text', () => {
	test('Markdown replaces the text and its formatting; the output names the edited message', async () => {
		const sent = await botSends('Draft');
		const result = await run({
			operation: 'editMessageText',
			chatId: CHAT,
			messageId: sent.message_id,
			text: '**Final** ✅ __done__',
			formatting: 'markdown',
		});
		expect(result.error).toBeUndefined();
		// "Final ✅ done": Final0-4 _5 ✅6 _7 done8-11 (✅ is one UTF-16 unit)
		const metadata = {
			meta_data_parts: [
				{ type: 'Bold', from_index: 0, length: 5 },
				{ type: 'Italic', from_index: 8, length: 4 },
			],
		};
		expect(bodies('editMessageText')).toEqual([{ chat_id: CHAT, message_id: sent.message_id, text: 'Final ✅ done', metadata }]);
		expect(result.items).toEqual([{ json: { chat_id: CHAT, message_id: sent.message_id }, pairedItem: { item: 0 } }]);
		expect(messageIn(CHAT, sent.message_id)).toMatchObject({ text: 'Final ✅ done', metadata, is_edited: true });
	});

	test('a plain edit sends only text and drops the earlier formatting', async () => {
		const sent = await botSends('**was bold**', { formatting: 'markdown' });
		expect(messageIn(CHAT, sent.message_id)?.metadata).toBeDefined();
		const result = await run({ operation: 'editMessageText', chatId: CHAT, messageId: sent.message_id, text: '**now literal**' });
		expect(result.error).toBeUndefined();
		expect(bodies('editMessageText')).toEqual([{ chat_id: CHAT, message_id: sent.message_id, text: '**now literal**' }]);
		expect(messageIn(CHAT, sent.message_id)).toMatchObject({ text: '**now literal**', is_edited: true });
		expect(messageIn(CHAT, sent.message_id)?.metadata).toBeUndefined();
	});

	test('the items of a Send step are edited one by one through expressions, builder formatting included', async () => {
		const first = await botSends('one', {}, CHAT);
		const second = await botSends('two', {}, DEMO_GROUP_ID);
		const result = await run(
			{
				operation: 'editMessageText',
				chatId: '={{ $json.chat_id }}',
				messageId: '={{ $json.message_id }}',
				text: 'Closed 🔒',
				formatting: 'builder',
				formattingParts: { part: [{ type: 'Bold', fromIndex: 7, length: 2 }] },
			},
			[{ json: first }, { json: second }],
		);
		expect(result.error).toBeUndefined();
		const metadata = { meta_data_parts: [{ type: 'Bold', from_index: 7, length: 2 }] };
		expect(bodies('editMessageText')).toEqual([
			{ chat_id: CHAT, message_id: first.message_id, text: 'Closed 🔒', metadata },
			{ chat_id: DEMO_GROUP_ID, message_id: second.message_id, text: 'Closed 🔒', metadata },
		]);
		// An edit outputs the edited message's ids (the sends' outputs also carried the text they sent).
		expect(jsonOf(result)).toEqual([first, second].map(({ chat_id, message_id }) => ({ chat_id, message_id })));
		expect(pairingOf(result)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(messageIn(DEMO_GROUP_ID, second.message_id)?.text).toBe('Closed 🔒');
	});

	test('someone else\'s message: Rubika\'s INVALID_ACCESS, and the message stays as it was', async () => {
		const theirs = actions.sandbox.userSendMessage({ userId: sara.user_id, text: 'mine' });
		const result = await run({ operation: 'editMessageText', chatId: CHAT, messageId: theirs.message_id, text: 'hijacked' });
		expectRubikaRefusal(result.error, 'editMessageText', 'INVALID_ACCESS', 'the bot can only edit its own messages');
		expect(messageIn(CHAT, theirs.message_id)).toMatchObject({ text: 'mine', is_edited: false });
	});

	test.each<RefusalCase>([
		['text of only spaces', { text: ' ' }, 'Text: is required [item 0]'],
		[
			'Markdown that leaves no text',
			{ text: '```\n```', formatting: 'markdown' },
			'Text: is empty once the Markdown markers are removed; write some text or choose Formatting "None" [item 0]',
		],
		[
			'a formatting part longer than the new text',
			{ text: 'ok', formatting: 'json', metadataJson: '[{"type": "Bold", "from_index": 0, "length": 3}]' },
			'Formatting (JSON): part 1: from_index 0 + length 3 = 3 goes past the end of the text, which is 2 UTF-16 code units long (emoji count 2) [item 0]',
		],
	])('refuses %s before sending', async (_case, parameters, message) => {
		const sent = await botSends('Draft');
		expectRefused(await run({ operation: 'editMessageText', chatId: CHAT, messageId: sent.message_id, text: 'x', ...parameters }), message);
		expect(messageIn(CHAT, sent.message_id)?.text).toBe('Draft');
	});
});

describe('Message → Edit Inline Keypad', () => {
	const voteKeypad = '[[{"id": "up", "text": "👍 0"}, {"id": "down", "text": "👎 0"}]]';

	test('builder: the buttons under the message change, the text stays', async () => {
		const sent = await botSends('Vote', { inlineKeypadMode: 'json', inlineKeypadJson: voteKeypad });
		const result = await run({
			operation: 'editMessageKeypad',
			chatId: CHAT,
			messageId: sent.message_id,
			inlineKeypad: builderRows(
				[
					{ id: 'up', text: '👍 1' },
					{ id: 'down', text: '👎 0' },
				],
				[{ text: 'Results', type: 'Link', linkType: 'url', url: 'https://example.com/r' }],
			),
		});
		expect(result.error).toBeUndefined();
		const counted = keypad(
			[button('up', '👍 1'), button('down', '👎 0')],
			[{ ...button('r2b1', 'Results', 'Link'), button_link: { type: 'url', link_url: 'https://example.com/r' } }],
		);
		expect(bodies('editMessageKeypad')).toEqual([{ chat_id: CHAT, message_id: sent.message_id, inline_keypad: counted }]);
		expect(result.items).toEqual([{ json: { chat_id: CHAT, message_id: sent.message_id }, pairedItem: { item: 0 } }]);
		expect(messageIn(CHAT, sent.message_id)).toMatchObject({ text: 'Vote', inline_keypad: counted });
	});

	test('JSON from an expression per item, also as a copied request body', async () => {
		const first = await botSends('A', { inlineKeypadMode: 'json', inlineKeypadJson: voteKeypad });
		const second = await botSends('B', { inlineKeypadMode: 'json', inlineKeypadJson: voteKeypad });
		const result = await run(
			{
				operation: 'editMessageKeypad',
				chatId: CHAT,
				messageId: '={{ $json.message_id }}',
				inlineKeypadMode: 'json',
				inlineKeypadJson: '={{ $json.keypad }}',
			},
			[
				{ json: { message_id: first.message_id, keypad: { rows: [{ buttons: [{ id: 'done', button_text: 'Done ✔' }] }] } } },
				{ json: { message_id: second.message_id, keypad: { inline_keypad: { rows: [[{ id: 'again', text: 'Again' }]] } } } },
			],
		);
		expect(result.error).toBeUndefined();
		expect(bodies('editMessageKeypad')).toEqual([
			{ chat_id: CHAT, message_id: first.message_id, inline_keypad: keypad([button('done', 'Done ✔')]) },
			{ chat_id: CHAT, message_id: second.message_id, inline_keypad: keypad([button('again', 'Again')]) },
		]);
		expect(pairingOf(result)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(messageIn(CHAT, second.message_id)?.inline_keypad?.rows[0].buttons[0].id).toBe('again');
	});

	test('buttons built by an expression from the item (the README\'s example)', async () => {
		const sent = await botSends('Vote', { inlineKeypadMode: 'json', inlineKeypadJson: voteKeypad });
		const result = await run(
			{
				operation: 'editMessageKeypad',
				chatId: '={{ $json.chat_id }}',
				messageId: '={{ $json.message_id }}',
				inlineKeypadMode: 'json',
				inlineKeypadJson: '={{ [[{ id: "up", text: "👍 " + $json.votes }]] }}',
			},
			[{ json: { ...sent, votes: 3 } }],
		);
		expect(result.error).toBeUndefined();
		expect(bodies('editMessageKeypad')).toEqual([{ chat_id: CHAT, message_id: sent.message_id, inline_keypad: keypad([button('up', '👍 3')]) }]);
	});

	test('someone else\'s message: Rubika\'s INVALID_ACCESS', async () => {
		const theirs = actions.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'hello' });
		const result = await run({
			operation: 'editMessageKeypad',
			chatId: DEMO_GROUP_ID,
			messageId: theirs.message_id,
			inlineKeypadMode: 'json',
			inlineKeypadJson: voteKeypad,
		});
		expectRubikaRefusal(result.error, 'editMessageKeypad', 'INVALID_ACCESS', 'the bot can only edit its own messages');
		expect(messageIn(DEMO_GROUP_ID, theirs.message_id)?.inline_keypad).toBeUndefined();
	});

	refusesEach({ operation: 'editMessageKeypad', chatId: CHAT, messageId: '1000000000000000001' }, [
		['no keypad (a workflow saved with None)', { inlineKeypadMode: 'none' }, 'Inline Keypad: is required: choose Builder or JSON and add buttons [item 0]'],
		['an empty builder', { inlineKeypad: {} }, 'Inline Keypad: must have at least one row with at least one button [item 0]'],
		['a button without text', { inlineKeypad: builderRows([{ id: 'a' }]) }, 'Inline Keypad: row 1, button 1: button text is empty [item 0]'],
		[
			'the same id twice',
			{ inlineKeypadMode: 'json', inlineKeypadJson: '[[{"id": "x", "text": "A"}, {"id": "x", "text": "B"}]]' },
			'Inline Keypad (JSON): row 1, button 2: button id "x" is used twice (first at row 1, button 1); ids must be unique in a keypad [item 0]',
		],
		['JSON that does not parse', { inlineKeypadMode: 'json', inlineKeypadJson: '[[{"id": ' }, /^Inline Keypad \(JSON\): the keypad is not valid JSON: .+ \[item 0\]$/],
		[
			'a chat keypad flag',
			{ inlineKeypadMode: 'json', inlineKeypadJson: '{"rows": [[{"text": "A"}]], "one_time_keyboard": true}' },
			'Inline Keypad (JSON): one_time_keyboard is only allowed on a chat keypad, not on an inline keypad [item 0]',
		],
	]);
});

describe('Message → Delete', () => {
	test('the bot\'s own message: gone from the chat; the output says what was deleted', async () => {
		const sent = await botSends('oops');
		const result = await run({ operation: 'deleteMessage', chatId: CHAT, messageId: sent.message_id });
		expect(result.error).toBeUndefined();
		expect(bodies('deleteMessage')).toEqual([{ chat_id: CHAT, message_id: sent.message_id }]);
		expect(result.items).toEqual([{ json: { chat_id: CHAT, message_id: sent.message_id, deleted: true }, pairedItem: { item: 0 } }]);
		expect(messageIn(CHAT, sent.message_id)).toBeUndefined();
	});

	test('a member\'s message in a group where the bot is an admin', async () => {
		const spam = actions.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'buy now!!!' });
		const result = await run({ operation: 'deleteMessage', chatId: DEMO_GROUP_ID, messageId: spam.message_id });
		expect(result.error).toBeUndefined();
		expect(messageIn(DEMO_GROUP_ID, spam.message_id)).toBeUndefined();
	});

	test('a member\'s message where the bot is not an admin: Rubika\'s INVALID_ACCESS, the message stays', async () => {
		const theirs = actions.sandbox.userSendMessage({ userId: sara.user_id, chatId: DEMO_QUIET_GROUP_ID, text: 'keep me' });
		const result = await run({ operation: 'deleteMessage', chatId: DEMO_QUIET_GROUP_ID, messageId: theirs.message_id });
		expectRubikaRefusal(
			result.error,
			'deleteMessage',
			'INVALID_ACCESS',
			'the bot can only delete others\' messages as an admin of a group or channel',
		);
		expect(messageIn(DEMO_QUIET_GROUP_ID, theirs.message_id)).toBeDefined();
	});

	test('Continue On Fail: one deleted, one with no message id, one already gone; readable errors, no token', async () => {
		const sent = await botSends('to delete');
		const result = await run(
			{ operation: 'deleteMessage', chatId: CHAT, messageId: '={{ $json.id }}' },
			[{ json: { id: sent.message_id } }, { json: {} }, { json: { id: sent.message_id } }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(bodies('deleteMessage')).toEqual([
			{ chat_id: CHAT, message_id: sent.message_id },
			{ chat_id: CHAT, message_id: sent.message_id },
		]);
		const notFound = `message_id: message ${sent.message_id} not found in chat ${CHAT}`;
		expect(result.items).toEqual([
			{ json: { chat_id: CHAT, message_id: sent.message_id, deleted: true }, pairedItem: { item: 0 } },
			{ json: { error: 'Message ID: is required [item 1]' }, pairedItem: { item: 1 } },
			{
				json: {
					error: `Rubika deleteMessage failed: INVALID_INPUT – ${notFound}`,
					description: expect.stringContaining(`Rubika says: ${notFound}`),
					status: 'INVALID_INPUT',
					dev_message: notFound,
					httpCode: '200',
				},
				pairedItem: { item: 2 },
			},
		]);
		expectNoToken(result);
	});
});

describe('Message → Edit Text / Edit Inline Keypad / Delete: the chat and message ids', () => {
	const OPERATIONS: Array<[string, INodeParameters]> = [
		['editMessageText', { text: 'new' }],
		['editMessageKeypad', { inlineKeypad: builderRows([{ text: 'A' }]) }],
		['deleteMessage', {}],
	];
	const CASES: RefusalCase[] = [
		['a missing chat id', { chatId: '={{ $json.chat }}' }, 'Chat ID: is required [item 0]'],
		['a missing message id', { messageId: '={{ $json.id }}' }, 'Message ID: is required [item 0]'],
		['a message id with a space', { messageId: '123 456' }, 'Message ID: must be a single ID without spaces, got "123 456" [item 0]'],
		[
			'a message id turned into a number that lost digits',
			{ messageId: '={{ 1795432849900000015 }}' },
			/^Message ID: 17954328499\d+ is a number too large to be exact; keep the ID as text \(as Rubika returns it\) instead of converting it to a number \[item 0\]$/,
		],
	];
	describe.each(OPERATIONS)('%s', (operation, parameters) => {
		refusesEach({ operation, chatId: CHAT, messageId: '1000000000000000001', ...parameters }, CASES);
	});

	test('a numeric message id that is still exact is sent as text', async () => {
		const result = await run({ operation: 'deleteMessage', chatId: CHAT, messageId: '={{ 12345 }}' });
		expect(bodies('deleteMessage')).toEqual([{ chat_id: CHAT, message_id: '12345' }]);
		expect(result.error?.message).toBe(`Rubika deleteMessage failed: INVALID_INPUT – message_id: message 12345 not found in chat ${CHAT}`);
	});
});

/**
 * Message → Send Text against the sandbox: the four formatting modes, both keypads, the send options,
 * expressions per item, Continue On Fail, Rubika's errors, and input refused before anything is sent.
 * The full Markdown conversion table is in test/formatting/markdown.test.ts; here it is end to end.
 */
import type { INodeParameters, NodeApiError } from 'n8n-workflow';

import { DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { builderRows, button, expectNoToken, jsonOf, keypad, pairingOf, useActionSandbox } from './helpers';
import type { RefusalCase } from './helpers';

const { sara, reza, ali } = DEMO_USERS;
const CHAT = sara.chat_id;
const actions = useActionSandbox('message');
const { run, bodies, expectRefused, refusesEach } = actions;

const sendText = (parameters: INodeParameters): INodeParameters => ({ operation: 'sendMessage', chatId: CHAT, ...parameters });
const lastMessage = (chatId: string = CHAT) => actions.sandbox.lastMessage(chatId)!;

describe('Message → Send Text: formatting', () => {
	test('None (the default): Markdown markers and stray symbols go out exactly as written', async () => {
		const text = '**not bold** my__var__name 2 * 3 [a](https://x.y)';
		const result = await run(sendText({ text }));
		expect(result.error).toBeUndefined();
		expect(bodies('sendMessage')).toEqual([{ chat_id: CHAT, text }]);
		const message = lastMessage();
		expect(result.items).toEqual([{ json: { message_id: message.message_id, message_ids: [message.message_id], chat_id: CHAT, text }, pairedItem: { item: 0 } }]);
		expect(message).toMatchObject({ text, sender_type: 'Bot' });
		expect(message.metadata).toBeUndefined();
	});

	test.each([
		[
			'bold and italic',
			'**Order** #42 is __ready__',
			'Order #42 is ready',
			[
				{ type: 'Bold', from_index: 0, length: 5 },
				{ type: 'Italic', from_index: 13, length: 5 },
			],
		],
		[
			'Persian text with a spoiler',
			'سلام **دنیا** ||راز||',
			'سلام دنیا راز',
			[
				{ type: 'Bold', from_index: 5, length: 4 },
				{ type: 'Spoiler', from_index: 10, length: 3 },
			],
		],
		[
			'an emoji before Persian text and a link (the emoji counts 2)',
			'🎉 **تبریک** [سایت](https://rubika.ir)',
			'🎉 تبریک سایت',
			[
				{ type: 'Bold', from_index: 3, length: 5 },
				{ type: 'Link', from_index: 9, length: 4, link_url: 'https://rubika.ir' },
			],
		],
		['escaped markers stay, mono after them', '\\*\\*kept\\*\\* and `code`', '**kept** and code', [{ type: 'Mono', from_index: 13, length: 4 }]],
	])('Markdown: %s', async (_case, markdown, text, parts) => {
		const result = await run(sendText({ text: markdown, formatting: 'markdown' }));
		expect(result.error).toBeUndefined();
		const metadata = { meta_data_parts: parts };
		expect(bodies('sendMessage')).toEqual([{ chat_id: CHAT, text, metadata }]);
		expect(lastMessage()).toMatchObject({ text, metadata });
	});

	test('Markdown without any marker sends no metadata', async () => {
		const result = await run(sendText({ text: 'just words', formatting: 'markdown' }));
		expect(result.error).toBeUndefined();
		expect(bodies('sendMessage')).toEqual([{ chat_id: CHAT, text: 'just words' }]);
	});

	test('Markdown mention in a group becomes MentionText with the user id', async () => {
		const result = await run(sendText({ chatId: DEMO_GROUP_ID, text: `Welcome [Ali](${ali.user_id})!`, formatting: 'markdown' }));
		expect(result.error).toBeUndefined();
		const metadata = { meta_data_parts: [{ type: 'MentionText', from_index: 8, length: 3, mention_text_user_id: ali.user_id }] };
		expect(bodies('sendMessage')).toEqual([{ chat_id: DEMO_GROUP_ID, text: 'Welcome Ali!', metadata }]);
		expect(lastMessage(DEMO_GROUP_ID).metadata).toEqual(metadata);
	});

	test('Builder: parts by position, emoji counted as 2; only the target field of the part\'s type is sent', async () => {
		// "Hi 🎉 docs @Reza": H0 i1 _2 🎉3-4 _5 docs6-9 _10 @Reza11-15
		const text = 'Hi 🎉 docs @Reza';
		const result = await run(
			sendText({
				chatId: DEMO_GROUP_ID,
				text,
				formatting: 'builder',
				formattingParts: {
					part: [
						{ type: 'Bold', fromIndex: 3, length: 2, linkUrl: 'https://ignored.example' },
						{ type: 'Link', fromIndex: 6, length: 4, linkUrl: ' https://docs.example/a?b=1 ', mentionUserId: reza.user_id },
						{ type: 'MentionText', fromIndex: 11, length: 5, mentionUserId: ` ${reza.user_id} ` },
						{ type: 'Underline', fromIndex: 0, length: 16 },
					],
				},
			}),
		);
		expect(result.error).toBeUndefined();
		const metadata = {
			meta_data_parts: [
				{ type: 'Bold', from_index: 3, length: 2 },
				{ type: 'Link', from_index: 6, length: 4, link_url: 'https://docs.example/a?b=1' },
				{ type: 'MentionText', from_index: 11, length: 5, mention_text_user_id: reza.user_id },
				{ type: 'Underline', from_index: 0, length: 16 },
			],
		};
		expect(bodies('sendMessage')).toEqual([{ chat_id: DEMO_GROUP_ID, text, metadata }]);
		expect(lastMessage(DEMO_GROUP_ID).metadata).toEqual(metadata);
	});

	test('JSON: Rubika metadata as typed, sent as given', async () => {
		const metadataJson = '{"meta_data_parts": [{"type": "Strike", "from_index": 6, "length": 5}, {"type": "Quote", "from_index": 0, "length": 11}]}';
		const result = await run(sendText({ text: 'Hello world', formatting: 'json', metadataJson }));
		expect(result.error).toBeUndefined();
		const parts = [
			{ type: 'Strike', from_index: 6, length: 5 },
			{ type: 'Quote', from_index: 0, length: 11 },
		];
		expect(bodies('sendMessage')).toEqual([{ chat_id: CHAT, text: 'Hello world', metadata: { meta_data_parts: parts } }]);
	});

	test('JSON: a user id typed as a bare number above 2^53 keeps its digits', async () => {
		const metadataJson = '[{"type": "MentionText", "from_index": 0, "length": 3, "mention_text_user_id": 12345678901234567891}]';
		const result = await run(sendText({ chatId: DEMO_GROUP_ID, text: 'Ali', formatting: 'json', metadataJson }));
		expect(result.error).toBeUndefined();
		const metadata = { meta_data_parts: [{ type: 'MentionText', from_index: 0, length: 3, mention_text_user_id: '12345678901234567891' }] };
		expect(bodies('sendMessage')).toEqual([{ chat_id: DEMO_GROUP_ID, text: 'Ali', metadata }]);
	});

	test('JSON from an expression: a parts list with loose spelling is normalised; 30 parts is the most allowed', async () => {
		const parts = Array.from({ length: 30 }, (_, index) => ({ type: 'bold', from_index: String(index), length: '1' }));
		const result = await run(sendText({ text: 'x'.repeat(30), formatting: 'json', metadataJson: '={{ $json.parts }}' }), [
			{ json: { parts } },
		]);
		expect(result.error).toBeUndefined();
		const sent = Array.from({ length: 30 }, (_, index) => ({ type: 'Bold', from_index: index, length: 1 }));
		expect(bodies('sendMessage')).toEqual([{ chat_id: CHAT, text: 'x'.repeat(30), metadata: { meta_data_parts: sent } }]);
	});
});

describe('Message → Send Text: keypads and send options', () => {
	const calendar = { type: 'DatePersian', min_year: '1400', max_year: '1410', title: 'Date' };
	const inlineBuilder = builderRows(
		[{ text: 'Yes', id: 'yes' }, { text: 'No' }],
		[{ text: 'Pick a date', id: 'date', type: 'Calendar', options: { extra: JSON.stringify({ button_calendar: calendar }) } }],
	);
	const inlineBuilt = keypad(
		[button('yes', 'Yes'), button('r1b2', 'No')],
		[{ ...button('date', 'Pick a date', 'Calendar'), button_calendar: calendar }],
	);

	test('inline builder, chat keypad set (not resized, one-time), silent reply: the whole body and what the chat shows', async () => {
		const earlier = actions.sandbox.userSendMessage({ userId: sara.user_id, text: 'menu please' });
		const result = await run(
			sendText({
				text: 'Choose',
				inlineKeypadMode: 'builder',
				inlineKeypad: inlineBuilder,
				chatKeypadAction: 'set',
				chatKeypad: builderRows([{ text: 'Help', id: 'help' }, { text: 'Share my location', type: 'AskMyLocation' }]),
				resizeKeyboard: false,
				oneTimeKeyboard: true,
				sendOptions: { disableNotification: true, replyToMessageId: ` ${earlier.message_id} ` },
			}),
		);
		expect(result.error).toBeUndefined();
		const chatKeypad = {
			...keypad([button('help', 'Help'), button('r1b2', 'Share my location', 'AskMyLocation')]),
			resize_keyboard: false,
			one_time_keyboard: true,
			on_time_keyboard: true,
		};
		expect(bodies('sendMessage')).toEqual([
			{
				chat_id: CHAT,
				text: 'Choose',
				inline_keypad: inlineBuilt,
				chat_keypad: chatKeypad,
				chat_keypad_type: 'New',
				disable_notification: true,
				reply_to_message_id: earlier.message_id,
			},
		]);
		const message = lastMessage();
		expect(jsonOf(result)).toEqual([{ message_id: message.message_id, message_ids: [message.message_id], chat_id: CHAT, text: 'Choose' }]);
		expect(message).toMatchObject({
			text: 'Choose',
			inline_keypad: inlineBuilt,
			reply_to_message_id: earlier.message_id,
			disable_notification: true,
		});
		expect(actions.sandbox.chatKeypad(CHAT)).toEqual(chatKeypad);
		expect(actions.sandbox.chat(CHAT).chat_keypad_one_time).toBe(true);
	});

	test('Disable Notification switched off is sent as false; options left out are not sent at all', async () => {
		await run(sendText({ text: 'loud', sendOptions: { disableNotification: false } }));
		await run(sendText({ text: 'default' }));
		expect(bodies('sendMessage')).toEqual([
			{ chat_id: CHAT, text: 'loud', disable_notification: false },
			{ chat_id: CHAT, text: 'default' },
		]);
	});

	test('inline keypad JSON as typed: a whole keypad', async () => {
		const result = await run(
			sendText({
				text: 'Rate us',
				inlineKeypadMode: 'json',
				inlineKeypadJson: '{"rows": [{"buttons": [{"id": "5", "button_text": "⭐⭐⭐⭐⭐"}, {"id": "1", "type": "simple", "text": "⭐"}]}]}',
			}),
		);
		expect(result.error).toBeUndefined();
		const stars = keypad([button('5', '⭐⭐⭐⭐⭐'), button('1', '⭐')]);
		expect(bodies('sendMessage')).toEqual([{ chat_id: CHAT, text: 'Rate us', inline_keypad: stars }]);
		expect(lastMessage().inline_keypad).toEqual(stars);
	});

	test('inline keypad JSON as typed: a button id written as a bare number above 2^53 keeps its digits', async () => {
		const result = await run(sendText({ text: 'Pick', inlineKeypadMode: 'json', inlineKeypadJson: '[[{"id": 98765432109876543210, "text": "Big"}]]' }));
		expect(result.error).toBeUndefined();
		expect(bodies('sendMessage')).toEqual([{ chat_id: CHAT, text: 'Pick', inline_keypad: keypad([button('98765432109876543210', 'Big')]) }]);
	});

	test('inline keypad JSON from an expression: a rows array per item, numeric ids as text', async () => {
		const result = await run(sendText({ chatId: '={{ $json.chat }}', text: 'Pick', inlineKeypadMode: 'json', inlineKeypadJson: '={{ $json.rows }}' }), [
			{ json: { chat: CHAT, rows: [{ buttons: [{ id: 1, text: 'One' }, { id: 2, text: 'Two' }] }] } },
			{ json: { chat: reza.chat_id, rows: [[{ text: 'A' }], [{ text: 'B' }]] } },
		]);
		expect(result.error).toBeUndefined();
		expect(bodies('sendMessage')).toEqual([
			{ chat_id: CHAT, text: 'Pick', inline_keypad: keypad([button('1', 'One'), button('2', 'Two')]) },
			{ chat_id: reza.chat_id, text: 'Pick', inline_keypad: keypad([button('r1b1', 'A')], [button('r2b1', 'B')]) },
		]);
		expect(pairingOf(result)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('chat keypad JSON with the builder\'s defaults (resized, not one-time), then Remove clears it', async () => {
		const set = await run(
			sendText({
				text: 'Menu below',
				chatKeypadAction: 'set',
				chatKeypadMode: 'json',
				chatKeypadJson: '[[{"id": "orders", "text": "My orders"}], [{"id": "help", "text": "Help"}]]',
			}),
		);
		expect(set.error).toBeUndefined();
		const menu = {
			...keypad([button('orders', 'My orders')], [button('help', 'Help')]),
			resize_keyboard: true,
			one_time_keyboard: false,
			on_time_keyboard: false,
		};
		expect(bodies('sendMessage')[0]).toEqual({ chat_id: CHAT, text: 'Menu below', chat_keypad: menu, chat_keypad_type: 'New' });
		expect(actions.sandbox.chatKeypad(CHAT)).toEqual(menu);
		expect(actions.sandbox.chat(CHAT).chat_keypad_one_time).toBe(false);

		const removed = await run(sendText({ text: 'Menu closed', chatKeypadAction: 'remove' }));
		expect(removed.error).toBeUndefined();
		expect(bodies('sendMessage')[1]).toEqual({ chat_id: CHAT, text: 'Menu closed', chat_keypad_type: 'Remove' });
		expect(actions.sandbox.chatKeypad(CHAT)).toBeNull();
	});

	test('Leave Unchanged sends nothing about the chat keypad and keeps the one the chat has', async () => {
		await run(sendText({ text: 'set', chatKeypadAction: 'set', chatKeypad: builderRows([{ text: 'Help' }]) }));
		const result = await run(sendText({ text: 'other news', chatKeypadAction: 'leave' }));
		expect(result.error).toBeUndefined();
		expect(bodies('sendMessage')[1]).toEqual({ chat_id: CHAT, text: 'other news' });
		expect(actions.sandbox.chatKeypad(CHAT)?.rows).toEqual(keypad([button('r1b1', 'Help')]).rows);
	});
});

describe('Message → Send Text: items, Continue On Fail and Rubika errors', () => {
	test('an expression per item: two chats, two requests, each output paired with its input', async () => {
		const result = await run(sendText({ chatId: '={{ $json.chat }}', text: '=Hello {{ $json.name }}' }), [
			{ json: { chat: sara.chat_id, name: 'Sara' } },
			{ json: { chat: ` ${reza.chat_id} `, name: 'رضا' } },
		]);
		expect(result.error).toBeUndefined();
		expect(bodies('sendMessage')).toEqual([
			{ chat_id: sara.chat_id, text: 'Hello Sara' },
			{ chat_id: reza.chat_id, text: 'Hello رضا' },
		]);
		expect(result.items).toEqual([
			{ json: { message_id: lastMessage(sara.chat_id).message_id, message_ids: [lastMessage(sara.chat_id).message_id], chat_id: sara.chat_id, text: 'Hello Sara' }, pairedItem: { item: 0 } },
			{ json: { message_id: lastMessage(reza.chat_id).message_id, message_ids: [lastMessage(reza.chat_id).message_id], chat_id: reza.chat_id, text: 'Hello رضا' }, pairedItem: { item: 1 } },
		]);
	});

	test('Continue On Fail: the good item is sent, bad input and an unknown chat become readable error items, no token anywhere', async () => {
		const result = await run(
			sendText({ chatId: '={{ $json.chat }}', text: 'Hi' }),
			[{ json: { chat: sara.chat_id } }, { json: { chat: '' } }, { json: { chat: 'b0UnknownChat' } }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		// The item with bad input never reached Rubika.
		expect(bodies('sendMessage')).toEqual([
			{ chat_id: sara.chat_id, text: 'Hi' },
			{ chat_id: 'b0UnknownChat', text: 'Hi' },
		]);
		expect(result.items).toEqual([
			{ json: { message_id: lastMessage(sara.chat_id).message_id, message_ids: [lastMessage(sara.chat_id).message_id], chat_id: sara.chat_id, text: 'Hi' }, pairedItem: { item: 0 } },
			{ json: { error: 'Chat ID: is required [item 1]' }, pairedItem: { item: 1 } },
			{
				json: {
					error: 'Rubika sendMessage failed: INVALID_INPUT – chat_id: chat b0UnknownChat not found',
					description: expect.stringContaining('Rubika says: chat_id: chat b0UnknownChat not found'),
					status: 'INVALID_INPUT',
					dev_message: 'chat_id: chat b0UnknownChat not found',
					httpCode: '200',
				},
				pairedItem: { item: 2 },
			},
		]);
		expectNoToken(result);
	});

	test('without Continue On Fail a bad second item stops the run after the first was sent, naming item 1', async () => {
		const result = await run(sendText({ text: '={{ $json.text }}' }), [{ json: { text: 'first' } }, { json: { text: '   ' } }]);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe('Text: is required [item 1]');
		expect(bodies('sendMessage')).toEqual([{ chat_id: CHAT, text: 'first' }]);
	});

	test('a reply to a message that is not in the chat: NodeApiError with Rubika\'s status and dev_message', async () => {
		const result = await run(sendText({ text: 'answer', sendOptions: { replyToMessageId: '1000000000000000001' } }));
		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe(
			`Rubika sendMessage failed: INVALID_INPUT – reply_to_message_id: message 1000000000000000001 not found in chat ${CHAT}`,
		);
		expect(error.description).toContain(`Rubika says: reply_to_message_id: message 1000000000000000001 not found in chat ${CHAT}`);
		expect(error.context.itemIndex).toBe(0);
		expect(bodies('sendMessage')).toHaveLength(1);
		expect(actions.sandbox.messages(CHAT)).toEqual([]);
		expectNoToken(result);
	});

	test('a MentionText in a private chat is Rubika\'s to refuse: its dev_message reaches the user', async () => {
		const result = await run(sendText({ text: `[Ali](${ali.user_id})`, formatting: 'markdown' }));
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(/^Rubika sendMessage failed: INVALID_INPUT – .*MentionText.*group/);
	});
});

describe('Message → Send Text: input refused before sending', () => {
	const TEXT = 'Hi 🎉'; // H0 i1 _2 🎉3-4: 5 UTF-16 units
	const parts = (...part: INodeParameters[]): INodeParameters => ({ text: TEXT, formatting: 'builder', formattingParts: { part } });

	const cases: RefusalCase[] = [
		['a chat id that resolves to nothing', { chatId: '={{ $json.nothing }}' }, 'Chat ID: is required [item 0]'],
		['a chat id with a space', { chatId: 'b0 abc' }, 'Chat ID: must be a single ID without spaces, got "b0 abc" [item 0]'],
		['text of only spaces', { text: '   ' }, 'Text: is required [item 0]'],
		[
			'Markdown that leaves no text',
			{ text: '> ', formatting: 'markdown' },
			'Text: is empty once the Markdown markers are removed; write some text or choose Formatting "None" [item 0]',
		],
		['empty text with Markdown', { text: ' ', formatting: 'markdown' }, 'Text: is required [item 0]'],
		[
			'a reply id with a space',
			{ sendOptions: { replyToMessageId: '12 34' } },
			'Reply To Message ID: must be a single ID without spaces, got "12 34" [item 0]',
		],
		[
			'a reply id from an expression as a number too large to be exact',
			{ sendOptions: { replyToMessageId: '={{ 1234567890123456789 }}' } },
			/^Reply To Message ID: 1234567890123456\d{3} is a number too large to be exact; keep the ID as text .* \[item 0\]$/,
		],
		[
			'inline keypad JSON that does not parse',
			{ inlineKeypadMode: 'json', inlineKeypadJson: '{"rows": [' },
			/^Inline Keypad \(JSON\): the keypad is not valid JSON: .+ \[item 0\]$/,
		],
		[
			'an empty inline keypad JSON',
			{ inlineKeypadMode: 'json', inlineKeypadJson: '' },
			/^Inline Keypad \(JSON\): is empty; enter a keypad such as .* \[item 0\]$/,
		],
		['an inline keypad builder with no rows', { inlineKeypadMode: 'builder', inlineKeypad: {} }, 'Inline Keypad: must have at least one row with at least one button [item 0]'],
		[
			'an inline keypad row without buttons',
			{ inlineKeypadMode: 'json', inlineKeypadJson: '{"rows": [{"buttons": [{"text": "A"}]}, {"buttons": []}]}' },
			'Inline Keypad (JSON): row 2 has no buttons; remove the row or add a button [item 0]',
		],
		[
			'a button without text',
			{ inlineKeypadMode: 'builder', inlineKeypad: builderRows([{ text: 'OK' }], [{ text: ' ', id: 'x' }]) },
			'Inline Keypad: row 2, button 1: button text is empty [item 0]',
		],
		[
			'the same button id twice',
			{ inlineKeypadMode: 'json', inlineKeypadJson: '[[{"id": "a", "text": "A"}], [{"id": "a", "text": "B"}]]' },
			'Inline Keypad (JSON): row 2, button 1: button id "a" is used twice (first at row 1, button 1); ids must be unique in a keypad [item 0]',
		],
		[
			'an id the builder would generate for another button',
			{ inlineKeypadMode: 'builder', inlineKeypad: builderRows([{ text: 'A', id: 'r1b2' }, { text: 'B' }]) },
			'Inline Keypad: row 1, button 2: button id "r1b2" is used twice (first at row 1, button 1); ids must be unique in a keypad [item 0]',
		],
		[
			'an unknown button type',
			{ inlineKeypadMode: 'json', inlineKeypadJson: '[[{"text": "A", "type": "Dance"}]]' },
			/^Inline Keypad \(JSON\): row 1, button 1: button type "Dance" is not valid; allowed: Simple, Selection, .* \[item 0\]$/,
		],
		[
			'a chat keypad flag on an inline keypad',
			{ inlineKeypadMode: 'json', inlineKeypadJson: '{"rows": [{"buttons": [{"text": "A"}]}], "resize_keyboard": true}' },
			'Inline Keypad (JSON): resize_keyboard is only allowed on a chat keypad, not on an inline keypad [item 0]',
		],
		[
			'extra fields that try to set the button text',
			{ inlineKeypadMode: 'builder', inlineKeypad: builderRows([{ text: 'A', type: 'Calendar', options: { extra: '{"button_text": "B"}' } }]) },
			'Inline Keypad: row 1, button 1: extra fields may not set "button_text"; use the button\'s own field for it [item 0]',
		],
		['a chat keypad builder with no rows', { chatKeypadAction: 'set', chatKeypad: {} }, 'Chat Keypad: must have at least one row with at least one button [item 0]'],
		[
			'chat keypad JSON that does not parse',
			{ chatKeypadAction: 'set', chatKeypadMode: 'json', chatKeypadJson: 'rows: yes' },
			/^Chat Keypad \(JSON\): the keypad is not valid JSON: .+ \[item 0\]$/,
		],
		[
			'chat keypad JSON whose one-time spellings disagree',
			{
				chatKeypadAction: 'set',
				chatKeypadMode: 'json',
				chatKeypadJson: '{"rows": [[{"text": "A"}]], "one_time_keyboard": true, "on_time_keyboard": false}',
			},
			'Chat Keypad (JSON): one_time_keyboard and on_time_keyboard disagree; set only one of them [item 0]',
		],
		[
			'a formatting part that goes past the end of the text',
			parts({ type: 'Bold', fromIndex: 3, length: 3 }),
			'Formatting Parts: part 1: from_index 3 + length 3 = 6 goes past the end of the text, which is 5 UTF-16 code units long (emoji count 2) [item 0]',
		],
		[
			'a formatting part that starts inside the emoji',
			parts({ type: 'Bold', fromIndex: 0, length: 2 }, { type: 'Italic', fromIndex: 4, length: 1 }),
			'Formatting Parts: part 2: from_index 4 falls inside an emoji or other character that takes 2 UTF-16 code units [item 0]',
		],
		[
			'a formatting part that ends inside the emoji',
			parts({ type: 'Bold', fromIndex: 3, length: 1 }),
			'Formatting Parts: part 1: the range ends at 4, inside an emoji or other character that takes 2 UTF-16 code units [item 0]',
		],
		[
			'a Link part without an address',
			parts({ type: 'Link', fromIndex: 0, length: 2, linkUrl: ' ' }),
			'Formatting Parts: part 1: a Link needs link_url with an address such as https://example.com, got "" [item 0]',
		],
		[
			'a MentionText part without a user',
			parts({ type: 'MentionText', fromIndex: 0, length: 2 }),
			'Formatting Parts: part 1: a MentionText needs mention_text_user_id (a user ID such as u0…) [item 0]',
		],
		[
			'formatting JSON that does not parse',
			{ formatting: 'json', metadataJson: '{"meta_data_parts": [' },
			/^Formatting \(JSON\): is not valid JSON: .+ \[item 0\]$/,
		],
		[
			'formatting JSON with an unknown type',
			{ formatting: 'json', metadataJson: '[{"type": "Blink", "from_index": 0, "length": 1}]' },
			/^Formatting \(JSON\): part 1: type "Blink" is not valid; allowed: Bold, .* \[item 0\]$/,
		],
		[
			'more than 30 Markdown parts with Long Text "Refuse"',
			{ formatting: 'markdown', text: Array.from({ length: 31 }, () => '**a**').join(' '), textOptions: { longText: 'refuse' } },
			'Formatting (Markdown): has 31 formatting parts; Rubika allows at most 30 per message [item 0]',
		],
	];
	refusesEach(sendText({ text: 'Hello' }), cases);

	test('more than 30 parts from an expression are refused with Long Text "Refuse"', async () => {
		const parts31 = Array.from({ length: 31 }, (_, index) => ({ type: 'Bold', from_index: index, length: 1 }));
		const result = await run(sendText({ text: 'x'.repeat(31), formatting: 'json', metadataJson: '={{ $json.parts }}', textOptions: { longText: 'refuse' } }), [
			{ json: { parts: parts31 } },
		]);
		expectRefused(result, 'Formatting (JSON): has 31 formatting parts; Rubika allows at most 30 per message [item 0]');
	});

	test('a range that ends right after the emoji is fine', async () => {
		const result = await run(sendText(parts({ type: 'Bold', fromIndex: 3, length: 2 })));
		expect(result.error).toBeUndefined();
		expect(bodies('sendMessage')).toEqual([{ chat_id: CHAT, text: TEXT, metadata: { meta_data_parts: [{ type: 'Bold', from_index: 3, length: 2 }] } }]);
	});
});

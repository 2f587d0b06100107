/**
 * Message → Send Poll, Send Location and Send Contact against the sandbox: request bodies with Rubika's
 * types, output items, the message the chat shows, the keypads and send options they share with Send Text,
 * Rubika's errors, and input refused before anything is sent.
 */
import type { INodeParameters, NodeApiError } from 'n8n-workflow';

import { Rubika } from '../../nodes/Rubika/Rubika.node';
import { DEMO_CHANNEL_ID, DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { builderRows, button, expectNoToken, jsonOf, keypad, pairingOf, useActionSandbox } from './helpers';

const { sara } = DEMO_USERS;
const CHAT = sara.chat_id;
const actions = useActionSandbox('message');
const { run, bodies, expectRefused, refusesEach } = actions;

const lastMessage = (chatId: string = CHAT) => actions.sandbox.lastMessage(chatId)!;
const withChat = (operation: string, parameters: INodeParameters): INodeParameters => ({ operation, chatId: CHAT, ...parameters });

/** The smallest valid input of each operation and the body it becomes, for what they all share. */
const SENDS: Array<[operation: string, parameters: INodeParameters, body: Record<string, unknown>]> = [
	[
		'sendPoll',
		{ question: 'Lunch?', pollOptions: { option: [{ text: 'Pizza' }, { text: 'Salad' }] } },
		{ question: 'Lunch?', options: ['Pizza', 'Salad'] },
	],
	['sendLocation', { latitude: '35.6892', longitude: '51.3890' }, { latitude: '35.6892', longitude: '51.3890' }],
	['sendContact', { firstName: 'Reza', phoneNumber: '+989121234567' }, { first_name: 'Reza', last_name: '', phone_number: '+989121234567' }],
];

test('switching Resource lands on a harmless, common operation, never on one that deletes or bans', () => {
	const defaults = Object.fromEntries(
		new Rubika().description.properties
			.filter((property) => property.name === 'operation')
			.map((property) => [property.displayOptions?.show?.resource?.[0], property.default]),
	);
	expect(defaults).toEqual({
		bot: 'getMe',
		chat: 'getChat',
		message: 'sendMessage',
		file: 'download',
		update: 'getUpdates',
		custom: 'callMethod',
	});
});

describe('Message → Send Poll / Location / Contact: what they share with Send Text', () => {
	test.each(SENDS)('%s: inline keypad, chat keypad and send options go into the body', async (operation, parameters, body) => {
		const earlier = actions.sandbox.userSendMessage({ userId: sara.user_id, text: 'where and when?' });
		const result = await run(
			withChat(operation, {
				...parameters,
				inlineKeypadMode: 'json',
				inlineKeypadJson: '[[{"id": "ok", "text": "OK"}]]',
				chatKeypadAction: 'remove',
				sendOptions: { disableNotification: true, replyToMessageId: earlier.message_id },
			}),
		);
		expect(result.error).toBeUndefined();
		const inlineKeypad = keypad([button('ok', 'OK')]);
		expect(bodies(operation)).toEqual([
			{
				chat_id: CHAT,
				...body,
				inline_keypad: inlineKeypad,
				chat_keypad_type: 'Remove',
				disable_notification: true,
				reply_to_message_id: earlier.message_id,
			},
		]);
		const message = lastMessage();
		// The output says what was sent (the content fields), not how (keypads and options stay out).
		expect(result.items).toEqual([{ json: { message_id: message.message_id, chat_id: CHAT, ...body }, pairedItem: { item: 0 } }]);
		expect(message).toMatchObject({ inline_keypad: inlineKeypad, reply_to_message_id: earlier.message_id, disable_notification: true });
	});

	test.each(SENDS)('%s: a chat keypad set with it is stored on the chat', async (operation, parameters) => {
		const result = await run(
			withChat(operation, { ...parameters, chatKeypadAction: 'set', chatKeypad: builderRows([{ text: 'Menu', id: 'menu' }]) }),
		);
		expect(result.error).toBeUndefined();
		const menu = { ...keypad([button('menu', 'Menu')]), resize_keyboard: true, one_time_keyboard: false, on_time_keyboard: false };
		expect(bodies(operation)[0]).toMatchObject({ chat_keypad_type: 'New', chat_keypad: menu });
		expect(actions.sandbox.chatKeypad(CHAT)).toEqual(menu);
	});

	test.each(SENDS)('%s: a missing chat id is refused before sending', async (operation, parameters) => {
		expectRefused(await run({ operation, chatId: '={{ $json.chat }}', ...parameters }), 'Chat ID: is required [item 0]');
	});

	test.each(SENDS)('%s: a bad keypad is refused before sending', async (operation, parameters) => {
		const duplicateIds = '[[{"id": "a", "text": "A"}, {"id": "a", "text": "B"}]]';
		const result = await run(withChat(operation, { ...parameters, inlineKeypadMode: 'json', inlineKeypadJson: duplicateIds }));
		expectRefused(
			result,
			'Inline Keypad (JSON): row 1, button 2: button id "a" is used twice (first at row 1, button 1); ids must be unique in a keypad [item 0]',
		);
	});

	test.each(SENDS)('%s: an unknown chat is Rubika\'s INVALID_INPUT, with its dev_message', async (operation, parameters, body) => {
		const result = await run({ operation, chatId: 'g0NoSuchGroup', ...parameters });
		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe(`Rubika ${operation} failed: INVALID_INPUT – chat_id: chat g0NoSuchGroup not found`);
		expect(error.description).toContain('Rubika says: chat_id: chat g0NoSuchGroup not found');
		expect(error.context.itemIndex).toBe(0);
		expect(bodies(operation)).toEqual([{ chat_id: 'g0NoSuchGroup', ...body }]);
		expectNoToken(result);
	});
});

describe('Message → Send Poll', () => {
	test('answers from the list: the poll is created open, with no votes', async () => {
		const result = await run(
			withChat('sendPoll', {
				question: 'ناهار چی بخوریم؟',
				pollOptions: { option: [{ text: 'پیتزا' }, { text: 'سالاد' }, { text: ' Kebab 🍢 ' }] },
			}),
		);
		expect(result.error).toBeUndefined();
		const options = ['پیتزا', 'سالاد', ' Kebab 🍢 '];
		expect(bodies('sendPoll')).toEqual([{ chat_id: CHAT, question: 'ناهار چی بخوریم؟', options }]);
		const message = lastMessage();
		expect(jsonOf(result)).toEqual([{ message_id: message.message_id, chat_id: CHAT, question: 'ناهار چی بخوریم؟', options }]);
		expect(message.poll).toEqual({
			question: 'ناهار چی بخوریم؟',
			options,
			poll_status: { state: 'Open', selection_index: -1, percent_vote_options: [0, 0, 0], total_vote: 0, show_total_votes: true },
		});
	});

	test('answers as JSON: typed, and from an expression per item (numbers become text)', async () => {
		const result = await run(
			{
				operation: 'sendPoll',
				chatId: '={{ $json.chat }}',
				question: '={{ $json.question }}',
				pollOptionsMode: 'json',
				pollOptionsJson: '={{ $json.answers }}',
			},
			[
				{ json: { chat: DEMO_GROUP_ID, question: 'Rate 1-3', answers: [1, 2, 3] } },
				{ json: { chat: DEMO_CHANNEL_ID, question: 'Coming?', answers: ['Yes', 'No'] } },
			],
		);
		expect(result.error).toBeUndefined();
		expect(bodies('sendPoll')).toEqual([
			{ chat_id: DEMO_GROUP_ID, question: 'Rate 1-3', options: ['1', '2', '3'] },
			{ chat_id: DEMO_CHANNEL_ID, question: 'Coming?', options: ['Yes', 'No'] },
		]);
		expect(pairingOf(result)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(jsonOf(result).map((json) => json.chat_id)).toEqual([DEMO_GROUP_ID, DEMO_CHANNEL_ID]);
		expect(lastMessage(DEMO_CHANNEL_ID).poll?.options).toEqual(['Yes', 'No']);

		const typed = await run(withChat('sendPoll', { question: 'Ok?', pollOptionsMode: 'json', pollOptionsJson: '["Yes", "No", 3]' }));
		expect(typed.error).toBeUndefined();
		expect(bodies('sendPoll')[2]).toEqual({ chat_id: CHAT, question: 'Ok?', options: ['Yes', 'No', '3'] });
	});

	refusesEach(withChat('sendPoll', { question: 'Q?', pollOptions: { option: [{ text: 'A' }, { text: 'B' }] } }), [
		['one answer', { pollOptions: { option: [{ text: 'Only' }] } }, 'Poll Options: a poll needs at least 2 answers, got 1 [item 0]'],
		['no answers', { pollOptions: {} }, 'Poll Options: a poll needs at least 2 answers, got 0 [item 0]'],
		['an empty answer', { pollOptions: { option: [{ text: 'A' }, { text: '  ' }] } }, 'Poll Options: answer 2 must be a non-empty text, got "  " [item 0]'],
		['one answer as JSON', { pollOptionsMode: 'json', pollOptionsJson: '["Only"]' }, 'Poll Options (JSON): a poll needs at least 2 answers, got 1 [item 0]'],
		['JSON that is not a list', { pollOptionsMode: 'json', pollOptionsJson: '{"a": 1}' }, 'Poll Options (JSON): must be a list of answers such as ["Yes", "No"] [item 0]'],
		['JSON that does not parse', { pollOptionsMode: 'json', pollOptionsJson: '["A", ' }, /^Poll Options \(JSON\): is not valid JSON: .+ \[item 0\]$/],
		['empty JSON', { pollOptionsMode: 'json', pollOptionsJson: '' }, 'Poll Options (JSON): is empty; enter a list such as ["Yes", "No"] [item 0]'],
		['an answer that is not text', { pollOptionsMode: 'json', pollOptionsJson: '["A", null]' }, 'Poll Options (JSON): answer 2 must be a non-empty text, got null [item 0]'],
		['a missing question', { question: '={{ $json.question }}' }, 'Question: is required [item 0]'],
	]);
});

describe('Message → Send Location', () => {
	test('coordinates go out as strings with the digits as written', async () => {
		const result = await run(withChat('sendLocation', { latitude: ' 35.6890 ', longitude: '51.3890' }));
		expect(result.error).toBeUndefined();
		expect(bodies('sendLocation')).toEqual([{ chat_id: CHAT, latitude: '35.6890', longitude: '51.3890' }]);
		const message = lastMessage();
		expect(jsonOf(result)).toEqual([{ message_id: message.message_id, chat_id: CHAT, latitude: '35.6890', longitude: '51.3890' }]);
		expect(message.location).toEqual({ latitude: '35.6890', longitude: '51.3890' });
	});

	test('numbers from expressions become plain decimal strings, edges of the ranges included', async () => {
		const result = await run(withChat('sendLocation', { latitude: '={{ $json.lat }}', longitude: '={{ $json.lon }}' }), [
			{ json: { lat: -33.8688, lon: 151.2093 } },
			{ json: { lat: 0.0000001, lon: -180 } },
			{ json: { lat: 90, lon: 0 } },
		]);
		expect(result.error).toBeUndefined();
		expect(bodies('sendLocation')).toEqual([
			{ chat_id: CHAT, latitude: '-33.8688', longitude: '151.2093' },
			{ chat_id: CHAT, latitude: '0.0000001', longitude: '-180' },
			{ chat_id: CHAT, latitude: '90', longitude: '0' },
		]);
		expect(pairingOf(result)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	refusesEach(withChat('sendLocation', { latitude: '35.6892', longitude: '51.3890' }), [
		['a latitude above 90', { latitude: '90.5' }, 'Latitude: must be between -90 and 90, got 90.5 [item 0]'],
		['a longitude below -180', { longitude: '-180.01' }, 'Longitude: must be between -180 and 180, got -180.01 [item 0]'],
		['a latitude that is not a number', { latitude: 'north' }, 'Latitude: must be a decimal number such as 35.6892 (with a dot), got "north" [item 0]'],
		['a decimal comma', { longitude: '51,3890' }, 'Longitude: must be a decimal number such as 35.6892 (with a dot), got "51,3890" [item 0]'],
		['a number too large from an expression', { latitude: '={{ 1e21 }}' }, 'Latitude: must be a decimal number such as 35.6892 (with a dot), got "1e+21" [item 0]'],
		['a latitude that is not a number from an expression', { latitude: '={{ Number("x") }}' }, 'Latitude: must be a number, got NaN [item 0]'],
		['a missing latitude', { latitude: '={{ $json.lat }}' }, 'Latitude: is required [item 0]'],
		['a missing longitude', { longitude: '={{ $json.lon }}' }, 'Longitude: is required [item 0]'],
	]);
});

describe('Message → Send Contact', () => {
	test('a contact card with first and last name: sent and shown as typed, names trimmed', async () => {
		const result = await run(withChat('sendContact', { firstName: ' سارا ', lastName: ' Karimi ', phoneNumber: '+98 (912) 123-4567' }));
		expect(result.error).toBeUndefined();
		expect(bodies('sendContact')).toEqual([{ chat_id: CHAT, first_name: 'سارا', last_name: 'Karimi', phone_number: '+98 (912) 123-4567' }]);
		const message = lastMessage();
		expect(jsonOf(result)).toEqual([{ message_id: message.message_id, chat_id: CHAT, first_name: 'سارا', last_name: 'Karimi', phone_number: '+98 (912) 123-4567' }]);
		expect(message.contact_message).toEqual({ first_name: 'سارا', last_name: 'Karimi', phone_number: '+98 (912) 123-4567' });
	});

	test('phone numbers and names from expressions per item', async () => {
		const result = await run(withChat('sendContact', { firstName: '={{ $json.name }}', phoneNumber: '={{ $json.phone }}' }), [
			{ json: { name: 'Ali', phone: 989121234567 } },
			{ json: { name: 'Reza', phone: '09121234567' } },
		]);
		expect(result.error).toBeUndefined();
		expect(bodies('sendContact')).toEqual([
			{ chat_id: CHAT, first_name: 'Ali', last_name: '', phone_number: '989121234567' },
			{ chat_id: CHAT, first_name: 'Reza', last_name: '', phone_number: '09121234567' },
		]);
	});

	refusesEach(withChat('sendContact', { firstName: 'Sara', phoneNumber: '+989121234567' }), [
		['a missing phone number', { phoneNumber: '={{ $json.phone }}' }, 'Phone Number: is required [item 0]'],
		['a phone number with letters', { phoneNumber: 'call me' }, 'Phone Number: must be digits with an optional leading +, got "call me" [item 0]'],
		['a plus sign inside the number', { phoneNumber: '98+912' }, 'Phone Number: must be digits with an optional leading +, got "98+912" [item 0]'],
		['a missing first name', { firstName: ' ' }, 'First Name: is required [item 0]'],
	]);
});

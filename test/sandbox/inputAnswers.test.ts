/**
 * A person answers the input buttons (facts §11): Textbox, Calendar, NumberPicker, StringPicker, a phone button
 * and a location button, each with the value its settings allow, on the chat keypad and on an inline keypad;
 * and the two knobs where the libraries disagree on the answer's shape: inlineInputAnswers and phoneAnswer.
 */
import { DEMO_USERS } from '../../sandbox';
import { useSandbox } from '../support/sandbox';
import { adminCall, ok, useReceiver } from './helpers';

const { sara } = DEMO_USERS;
const t = useSandbox();
const receiver = useReceiver();
beforeEach(() => {
	receiver.hits.length = 0;
	t.sandbox.configure({ inlineInputAnswers: 'inlineMessage', phoneAnswer: 'contactMessage' });
});

const BUTTONS = [
	{ id: 'name', type: 'Textbox', button_text: 'Name', button_textbox: { type_line: 'SingleLine', type_keypad: 'String', title: 'Your name' } },
	{ id: 'age', type: 'Textbox', button_text: 'Age', button_textbox: { type_line: 'SingleLine', type_keypad: 'Number' } },
	{ id: 'note', type: 'Textbox', button_text: 'Note', button_textbox: { type_line: 'MultiLine', type_keypad: 'String' } },
	{ id: 'day', type: 'Calendar', button_text: 'Day', button_calendar: { type: 'DatePersian', min_year: '1400', max_year: '1410', title: 'Day' } },
	{ id: 'count', type: 'NumberPicker', button_text: 'Count', button_number_picker: { min_value: '1', max_value: '10', title: 'Count' } },
	{ id: 'size', type: 'StringPicker', button_text: 'Size', button_string_picker: { items: ['S', 'M', 'L'], title: 'Size' } },
	{ id: 'phone', type: 'AskMyPhoneNumber', button_text: 'Phone' },
	{ id: 'here', type: 'AskMyLocation', button_text: 'Where' },
	{ id: 'map', type: 'Location', button_text: 'Map', button_location: { type: 'View', default_pointer_location: { latitude: '35.7', longitude: '51.4' } } },
	{ id: 'plain', type: 'Simple', button_text: 'Plain' },
];
const keypad = { rows: BUTTONS.map((button) => ({ buttons: [button] })) };

async function showChatKeypad(oneTime = false): Promise<void> {
	await ok(t.sandbox, 'editChatKeypad', { chat_id: sara.chat_id, chat_keypad_type: 'New', chat_keypad: { ...keypad, one_time_keyboard: oneTime } });
}

async function sendInlineKeypad(): Promise<string> {
	return (await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'Answer please', inline_keypad: keypad })).message_id;
}

async function newMessages(): Promise<any[]> {
	const { updates } = await ok(t.sandbox, 'getUpdates', { limit: 100 });
	return updates.filter((update: any) => update.type === 'NewMessage').map((update: any) => update.new_message);
}

const answer = (buttonId: string, values: Record<string, unknown>, messageId?: string) =>
	t.sandbox.userAnswerButton({ userId: sara.user_id, buttonId, ...(messageId ? { messageId } : {}), ...values });

test('on the chat keypad each answer is a NewMessage carrying the button id and the value in its field', async () => {
	await showChatKeypad();
	answer('name', { text: 'سارا' });
	answer('age', { text: '31' });
	answer('note', { text: 'line one\nline two' });
	answer('day', { date: '1403-05-12' });
	answer('count', { number: 7 });
	answer('size', { item: 'M' });
	answer('phone', { phoneNumber: '+989121234567' });
	answer('here', { location: { latitude: '35.6892', longitude: '51.3890' } });

	const messages = await newMessages();
	const aux = (button_id: string) => ({ start_id: null, button_id });
	expect(messages.map(({ text, location, contact_message, aux_data, sender_id }) => ({ text, location, contact_message, aux_data, sender_id }))).toEqual([
		{ text: 'سارا', aux_data: aux('name'), sender_id: sara.user_id },
		{ text: '31', aux_data: aux('age'), sender_id: sara.user_id },
		{ text: 'line one\nline two', aux_data: aux('note'), sender_id: sara.user_id },
		{ text: '1403-05-12', aux_data: aux('day'), sender_id: sara.user_id },
		{ text: '7', aux_data: aux('count'), sender_id: sara.user_id },
		{ text: 'M', aux_data: aux('size'), sender_id: sara.user_id },
		{ contact_message: { phone_number: '+989121234567', first_name: 'Sara', last_name: 'Karimi' }, aux_data: aux('phone'), sender_id: sara.user_id },
		{ location: { latitude: '35.6892', longitude: '51.3890' }, aux_data: aux('here'), sender_id: sara.user_id },
	]);
	// The keypad stays (it is not one-time), and each answer is in the chat as the person's message.
	expect(t.sandbox.chatKeypad(sara.chat_id)).not.toBeNull();
	expect(t.sandbox.messages(sara.chat_id).filter((message) => message.sender_type === 'User')).toHaveLength(8);
});

test('a one-time chat keypad closes after an answer', async () => {
	await showChatKeypad(true);
	answer('size', { item: 'L' });
	expect(t.sandbox.chatKeypad(sara.chat_id)).toBeNull();
	expect(() => answer('size', { item: 'S' })).toThrow('shows no chat keypad button size');
});

test('an answer the button would not let the person give is refused, and nothing reaches the bot', async () => {
	await showChatKeypad();
	expect(() => answer('name', { text: 'two\nlines' })).toThrow('SingleLine');
	expect(() => answer('age', { text: 'thirty' })).toThrow('Number keypad');
	expect(() => answer('day', { date: '1399-01-01' })).toThrow('years 1400 to 1410');
	expect(() => answer('day', { date: '12/05/1403' })).toThrow('YYYY-MM-DD or YYYY/MM/DD');
	expect(() => answer('count', { number: 11 })).toThrow('1 to 10');
	expect(() => answer('size', { item: 'XL' })).toThrow('["S","M","L"]');
	expect(() => answer('phone', { phoneNumber: 'call me' })).toThrow('digits');
	expect(() => answer('here', { location: { latitude: '95', longitude: '51' } })).toThrow('in range');
	expect(() => answer('map', { location: { latitude: '35', longitude: '51' } })).toThrow('only shows a place');
	expect(() => answer('plain', { text: 'hi' })).toThrow('not an input button');
	expect(() => answer('day', { text: '1403-05-12' })).toThrow('answered with date');
	expect(() => answer('count', { number: 3, text: '3' })).toThrow('and nothing else');
	expect(await newMessages()).toEqual([]);
});

test('phoneAnswer text: the shared number is the message text, not a contact', async () => {
	t.sandbox.configure({ phoneAnswer: 'text' });
	await showChatKeypad();
	answer('phone', { phoneNumber: '+989121234567' });
	const [message] = await newMessages();
	expect(message).toMatchObject({ text: '+989121234567', aux_data: { button_id: 'phone' } });
	expect(message.contact_message).toBeUndefined();
});

describe('on an inline keypad', () => {
	beforeEach(async () => {
		for (const type of ['ReceiveUpdate', 'ReceiveInlineMessage']) {
			expect(await ok(t.sandbox, 'updateBotEndpoints', { url: `${receiver.url}/${type}`, type })).toEqual({ status: 'Done' });
		}
	});

	test('inlineInputAnswers inlineMessage: the answer goes to ReceiveInlineMessage only, as an inline tap does', async () => {
		const messageId = await sendInlineKeypad();
		expect(answer('name', { text: 'Sara' }, messageId)).toEqual({ delivery: 'inline', inlineMessage: expect.objectContaining({ text: 'Sara' }) });
		answer('here', { location: { latitude: '35.6892', longitude: '51.3890' } }, messageId);
		answer('phone', { phoneNumber: '+989121234567' }, messageId);
		await t.sandbox.deliveriesSettled();

		const common = { sender_id: sara.user_id, message_id: messageId, chat_id: sara.chat_id };
		expect(receiver.hits.map((hit) => [hit.path, hit.body])).toEqual([
			['/ReceiveInlineMessage', { inline_message: { ...common, text: 'Sara', location: null, aux_data: { start_id: null, button_id: 'name' } } }],
			['/ReceiveInlineMessage', { inline_message: { ...common, location: { latitude: '35.6892', longitude: '51.3890' }, aux_data: { start_id: null, button_id: 'here' } } }],
			[
				'/ReceiveInlineMessage',
				{
					inline_message: {
						...common,
						location: null,
						contact_message: { phone_number: '+989121234567', first_name: 'Sara', last_name: 'Karimi' },
						aux_data: { start_id: null, button_id: 'phone' },
					},
				},
			],
		]);
		expect(await newMessages()).toEqual([]);
	});

	test('inlineInputAnswers newMessage: the answer is a NewMessage in the chat, in getUpdates and at ReceiveUpdate', async () => {
		t.sandbox.configure({ inlineInputAnswers: 'newMessage', phoneAnswer: 'text' });
		const messageId = await sendInlineKeypad();
		expect(answer('count', { number: '4' }, messageId)).toEqual({ delivery: 'message', message: expect.objectContaining({ text: '4' }) });
		answer('phone', { phoneNumber: '+989121234567' }, messageId);
		await t.sandbox.deliveriesSettled();
		expect((await newMessages()).map(({ text, aux_data }) => ({ text, aux_data }))).toEqual([
			{ text: '4', aux_data: { start_id: null, button_id: 'count' } },
			{ text: '+989121234567', aux_data: { start_id: null, button_id: 'phone' } },
		]);
		expect(receiver.hits.map((hit) => hit.path)).toEqual(['/ReceiveUpdate', '/ReceiveUpdate']);
	});
});

test('the admin API answers a button as the in-process one does', async () => {
	const messageId = await sendInlineKeypad();
	t.sandbox.configure({ inlineInputAnswers: 'newMessage' });
	const answered = await adminCall(t.sandbox, 'POST', '/actions/answer-button', { userId: sara.user_id, messageId, buttonId: 'day', date: '1404-01-01' });
	expect([answered.httpStatus, answered.json]).toEqual([200, { delivery: 'message', message: expect.objectContaining({ text: '1404-01-01' }) }]);
	const refused = await adminCall(t.sandbox, 'POST', '/actions/answer-button', { userId: sara.user_id, messageId, buttonId: 'day', date: '1390-01-01' });
	expect([refused.httpStatus, refused.json]).toEqual([400, { error: expect.stringContaining('years 1400 to 1410') }]);
});

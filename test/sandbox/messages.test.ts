import { DEMO_BOT_ID, DEMO_CHANNEL_ID, DEMO_GROUP_ID, DEMO_QUIET_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { useSandbox } from '../support/sandbox';
import { fails, ok } from './helpers';

const { sara, reza, ali } = DEMO_USERS;
const t = useSandbox();

describe('sendMessage', () => {
	test('stores a bot message in the chat and answers its id', async () => {
		const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'Hello Sara' });
		expect(t.sandbox.messages(sara.chat_id)).toEqual([
			{
				message_id,
				chat_id: sara.chat_id,
				text: 'Hello Sara',
				time: expect.stringMatching(/^\d{10}$/),
				is_edited: false,
				sender_type: 'Bot',
				sender_id: DEMO_BOT_ID,
			},
		]);
		// A bot's own message never becomes an update for itself.
		expect(t.sandbox.updates()).toEqual([]);
	});

	test('disable_notification takes a boolean or "true"/"false", nothing else', async () => {
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'a', disable_notification: 'true' });
		expect(t.sandbox.lastMessage(sara.chat_id)?.disable_notification).toBe(true);
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'b', disable_notification: false });
		expect(t.sandbox.lastMessage(sara.chat_id)?.disable_notification).toBe(false);
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'c', disable_notification: 'yes' })).toMatch(/disable_notification/);
		expect(t.sandbox.messages(sara.chat_id)).toHaveLength(2);
	});

	test('reply_to_message_id must name a message of the same chat', async () => {
		const user = t.sandbox.userSendMessage({ userId: sara.user_id, text: 'question' });
		const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'answer', reply_to_message_id: user.message_id });
		expect(t.sandbox.message(sara.chat_id, message_id)?.reply_to_message_id).toBe(user.message_id);
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: reza.chat_id, text: 'x', reply_to_message_id: user.message_id })).toMatch(/reply_to_message_id/);
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'x', reply_to_message_id: Number(user.message_id) })).toMatch(/string/);
	});

	test('required fields and types are checked before anything is stored', async () => {
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: sara.chat_id })).toMatch(/text is required/);
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: '' })).toMatch(/text/);
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 42 })).toMatch(/text must be a string/);
		expect(await fails(t.sandbox, 'sendMessage', { text: 'x' })).toMatch(/chat_id is required/);
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: 'b0nope', text: 'x' })).toMatch(/not found/);
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'x', chat_keypad_type: 'Replace' })).toMatch(/chat_keypad_type/);
		expect(t.sandbox.messages(sara.chat_id)).toEqual([]);
	});

	test('groups: any member bot may post; channels: only as admin', async () => {
		await ok(t.sandbox, 'sendMessage', { chat_id: DEMO_GROUP_ID, text: 'hi group' });
		await ok(t.sandbox, 'sendMessage', { chat_id: DEMO_QUIET_GROUP_ID, text: 'hi quiet' });
		await ok(t.sandbox, 'sendMessage', { chat_id: DEMO_CHANNEL_ID, text: 'news' });
		const channel = t.sandbox.addChannel({ title: 'Not mine', ownerId: sara.user_id, memberIds: [DEMO_BOT_ID] });
		await fails(t.sandbox, 'sendMessage', { chat_id: channel.chat_id, text: 'x' }, 'INVALID_ACCESS');
		const foreign = t.sandbox.addGroup({ title: 'Elsewhere', ownerId: sara.user_id });
		expect(await fails(t.sandbox, 'sendMessage', { chat_id: foreign.chat_id, text: 'x' })).toMatch(/not found/);
	});

	test('rejectSendAfterStop makes a stopped private chat refuse messages', async () => {
		t.sandbox.userStopBot({ userId: ali.user_id });
		await ok(t.sandbox, 'sendMessage', { chat_id: ali.chat_id, text: 'still allowed by default' });
		t.sandbox.configure({ rejectSendAfterStop: true });
		try {
			await fails(t.sandbox, 'sendMessage', { chat_id: ali.chat_id, text: 'refused' }, 'INVALID_ACCESS');
		} finally {
			t.sandbox.configure({ rejectSendAfterStop: false });
		}
	});
});

describe('sendPoll, sendLocation, sendContact', () => {
	test('sendPoll stores an open poll with no votes', async () => {
		const { message_id } = await ok(t.sandbox, 'sendPoll', { chat_id: DEMO_GROUP_ID, question: 'Tea or coffee?', options: ['Tea', 'Coffee'] });
		expect(t.sandbox.message(DEMO_GROUP_ID, message_id)?.poll).toEqual({
			question: 'Tea or coffee?',
			options: ['Tea', 'Coffee'],
			poll_status: { state: 'Open', selection_index: -1, percent_vote_options: [0, 0], total_vote: 0, show_total_votes: true },
		});
	});

	test('sendPoll needs a question and at least two string options', async () => {
		expect(await fails(t.sandbox, 'sendPoll', { chat_id: sara.chat_id, options: ['a', 'b'] })).toMatch(/question/);
		expect(await fails(t.sandbox, 'sendPoll', { chat_id: sara.chat_id, question: 'q', options: ['only'] })).toMatch(/at least 2/);
		expect(await fails(t.sandbox, 'sendPoll', { chat_id: sara.chat_id, question: 'q', options: ['a', 2] })).toMatch(/options\[1\]/);
		expect(await fails(t.sandbox, 'sendPoll', { chat_id: sara.chat_id, question: 'q', options: 'a,b' })).toMatch(/array/);
		expect(t.sandbox.messages(sara.chat_id)).toEqual([]);
	});

	test('sendLocation takes latitude and longitude as numeric strings in range', async () => {
		const { message_id } = await ok(t.sandbox, 'sendLocation', { chat_id: sara.chat_id, latitude: '35.6892', longitude: '51.3890' });
		expect(t.sandbox.message(sara.chat_id, message_id)?.location).toEqual({ latitude: '35.6892', longitude: '51.3890' });
		expect(await fails(t.sandbox, 'sendLocation', { chat_id: sara.chat_id, latitude: 35.6, longitude: '51.3' })).toMatch(/latitude must be a string/);
		expect(await fails(t.sandbox, 'sendLocation', { chat_id: sara.chat_id, latitude: '95', longitude: '51.3' })).toMatch(/latitude/);
		expect(await fails(t.sandbox, 'sendLocation', { chat_id: sara.chat_id, latitude: '35', longitude: 'east' })).toMatch(/longitude/);
		expect(await fails(t.sandbox, 'sendLocation', { chat_id: sara.chat_id, latitude: '35' })).toMatch(/longitude is required/);
	});

	test('sendContact needs first_name and phone_number', async () => {
		const { message_id } = await ok(t.sandbox, 'sendContact', { chat_id: sara.chat_id, first_name: 'Mina', last_name: 'M', phone_number: '+989121234567' });
		expect(t.sandbox.message(sara.chat_id, message_id)?.contact_message).toEqual({ first_name: 'Mina', last_name: 'M', phone_number: '+989121234567' });
		expect(await fails(t.sandbox, 'sendContact', { chat_id: sara.chat_id, first_name: 'Mina' })).toMatch(/phone_number/);
		expect(await fails(t.sandbox, 'sendContact', { chat_id: sara.chat_id, phone_number: '0912' })).toMatch(/first_name/);
		expect(await fails(t.sandbox, 'sendContact', { chat_id: sara.chat_id, first_name: 'Mina', phone_number: 'call me' })).toMatch(/phone_number/);
	});
});

describe('forwardMessage', () => {
	test('copies the content and records the origin', async () => {
		const original = t.sandbox.userSendMessage({ userId: sara.user_id, text: 'look at this' });
		const { new_message_id } = await ok(t.sandbox, 'forwardMessage', {
			from_chat_id: sara.chat_id,
			message_id: original.message_id,
			to_chat_id: DEMO_GROUP_ID,
		});
		expect(new_message_id).toMatch(/^\d{19}$/);
		expect(t.sandbox.message(DEMO_GROUP_ID, new_message_id)).toMatchObject({
			text: 'look at this',
			sender_type: 'Bot',
			sender_id: DEMO_BOT_ID,
			forwarded_from: { type_from: 'User', message_id: original.message_id, from_chat_id: sara.chat_id, from_sender_id: sara.user_id },
		});
	});

	test('from a channel the origin type is Channel; a re-forward keeps the first origin', async () => {
		const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: DEMO_CHANNEL_ID, text: 'news' });
		const first = await ok(t.sandbox, 'forwardMessage', { from_chat_id: DEMO_CHANNEL_ID, message_id, to_chat_id: reza.chat_id });
		const second = await ok(t.sandbox, 'forwardMessage', { from_chat_id: reza.chat_id, message_id: first.new_message_id, to_chat_id: ali.chat_id });
		const expected = { type_from: 'Channel', message_id, from_chat_id: DEMO_CHANNEL_ID, from_sender_id: DEMO_BOT_ID };
		expect(t.sandbox.message(reza.chat_id, first.new_message_id)?.forwarded_from).toEqual(expected);
		expect(t.sandbox.message(ali.chat_id, second.new_message_id)?.forwarded_from).toEqual(expected);
	});

	test('unknown message or chat is INVALID_INPUT', async () => {
		expect(await fails(t.sandbox, 'forwardMessage', { from_chat_id: sara.chat_id, message_id: '1234567890123456789', to_chat_id: reza.chat_id })).toMatch(/message_id/);
		const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'x' });
		expect(await fails(t.sandbox, 'forwardMessage', { from_chat_id: sara.chat_id, message_id, to_chat_id: 'g0unknown' })).toMatch(/to_chat_id/);
		expect(await fails(t.sandbox, 'forwardMessage', { message_id, to_chat_id: reza.chat_id })).toMatch(/from_chat_id/);
	});
});

describe('editMessageText, editMessageKeypad, deleteMessage', () => {
	const keypad = { rows: [{ buttons: [{ id: 'a', type: 'Simple', button_text: 'A' }] }] };

	test('editMessageText changes the bot\'s own message and marks it edited, without an update', async () => {
		const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'draft' });
		expect(await ok(t.sandbox, 'editMessageText', { chat_id: sara.chat_id, message_id, text: 'final' })).toEqual({});
		expect(t.sandbox.message(sara.chat_id, message_id)).toMatchObject({ text: 'final', is_edited: true });
		expect(t.sandbox.messages(sara.chat_id)).toHaveLength(1);
		expect(t.sandbox.updates()).toEqual([]);
	});

	test('editMessageText refuses someone else\'s message, and unknown ones', async () => {
		const user = t.sandbox.userSendMessage({ userId: sara.user_id, chatId: DEMO_GROUP_ID, text: 'mine' });
		await fails(t.sandbox, 'editMessageText', { chat_id: DEMO_GROUP_ID, message_id: user.message_id, text: 'hacked' }, 'INVALID_ACCESS');
		expect(t.sandbox.message(DEMO_GROUP_ID, user.message_id)?.text).toBe('mine');
		expect(await fails(t.sandbox, 'editMessageText', { chat_id: DEMO_GROUP_ID, message_id: '1111111111111111111', text: 'x' })).toMatch(/not found/);
		const other = t.sandbox.addBot();
		t.sandbox.setRole(DEMO_GROUP_ID, other.bot_id, 'member');
		const theirs = t.sandbox.state.addMessage(t.sandbox.state.requireChat(DEMO_GROUP_ID), { sender_type: 'Bot', sender_id: other.bot_id, text: 'other bot' });
		await fails(t.sandbox, 'editMessageText', { chat_id: DEMO_GROUP_ID, message_id: theirs.message_id, text: 'x' }, 'INVALID_ACCESS');
	});

	test('editMessageText of a location has no text to edit', async () => {
		const { message_id } = await ok(t.sandbox, 'sendLocation', { chat_id: sara.chat_id, latitude: '1', longitude: '2' });
		expect(await fails(t.sandbox, 'editMessageText', { chat_id: sara.chat_id, message_id, text: 'x' })).toMatch(/no text/);
	});

	test('editMessageKeypad (and its alias editInlineKeypad) replaces the inline keypad only', async () => {
		const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'pick', inline_keypad: keypad });
		const next = { rows: [{ buttons: [{ id: 'b', type: 'Simple', button_text: 'B' }] }] };
		expect(await ok(t.sandbox, 'editMessageKeypad', { chat_id: sara.chat_id, message_id, inline_keypad: next })).toEqual({});
		expect(t.sandbox.message(sara.chat_id, message_id)).toMatchObject({ text: 'pick', inline_keypad: next });
		const third = { rows: [{ buttons: [{ id: 'c', type: 'Simple', button_text: 'C' }] }] };
		await ok(t.sandbox, 'editInlineKeypad', { chat_id: sara.chat_id, message_id, inline_keypad: third });
		expect(t.sandbox.message(sara.chat_id, message_id)?.inline_keypad).toEqual(third);
		expect(await fails(t.sandbox, 'editMessageKeypad', { chat_id: sara.chat_id, message_id })).toMatch(/inline_keypad is required/);
		const user = t.sandbox.userSendMessage({ userId: sara.user_id, text: 'x' });
		await fails(t.sandbox, 'editMessageKeypad', { chat_id: sara.chat_id, message_id: user.message_id, inline_keypad: keypad }, 'INVALID_ACCESS');
	});

	test('deleteMessage removes the bot\'s own messages anywhere, without an update', async () => {
		const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'oops' });
		expect(await ok(t.sandbox, 'deleteMessage', { chat_id: sara.chat_id, message_id })).toEqual({});
		expect(t.sandbox.messages(sara.chat_id)).toEqual([]);
		expect(t.sandbox.updates()).toEqual([]);
		expect(await fails(t.sandbox, 'deleteMessage', { chat_id: sara.chat_id, message_id })).toMatch(/not found/);
	});

	test('deleteMessage of others\' messages needs admin rights in a group or channel', async () => {
		const inPrivate = t.sandbox.userSendMessage({ userId: sara.user_id, text: 'private' });
		await fails(t.sandbox, 'deleteMessage', { chat_id: sara.chat_id, message_id: inPrivate.message_id }, 'INVALID_ACCESS');
		const inQuiet = t.sandbox.userSendMessage({ userId: sara.user_id, chatId: DEMO_QUIET_GROUP_ID, text: 'quiet' });
		await fails(t.sandbox, 'deleteMessage', { chat_id: DEMO_QUIET_GROUP_ID, message_id: inQuiet.message_id }, 'INVALID_ACCESS');
		const inGroup = t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'spam' });
		await ok(t.sandbox, 'deleteMessage', { chat_id: DEMO_GROUP_ID, message_id: inGroup.message_id });
		expect(t.sandbox.message(DEMO_GROUP_ID, inGroup.message_id)).toBeUndefined();
		expect(t.sandbox.message(DEMO_QUIET_GROUP_ID, inQuiet.message_id)).toBeDefined();
	});
});

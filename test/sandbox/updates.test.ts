import { DEMO_BOT_ID, DEMO_BOT_USERNAME, DEMO_CHANNEL_ID, DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { useSandbox, withSandbox } from '../support/sandbox';
import { api, fails, ok } from './helpers';

const { sara, reza, ali } = DEMO_USERS;
const t = useSandbox();

const texts = (updates: any[]) => updates.map((update) => update.new_message?.text);

describe('updates made by people', () => {
	test('a user message becomes a NewMessage update with the documented shape', async () => {
		const message = t.sandbox.userSendMessage({ userId: sara.user_id, text: 'hi bot' });
		const data = await ok(t.sandbox, 'getUpdates', {});
		expect(data.updates).toEqual([
			{
				type: 'NewMessage',
				chat_id: sara.chat_id,
				new_message: {
					message_id: message.message_id,
					text: 'hi bot',
					time: expect.stringMatching(/^\d{10}$/),
					is_edited: false,
					sender_type: 'User',
					sender_id: sara.user_id,
					aux_data: { start_id: null, button_id: null },
				},
				update_time: expect.stringMatching(/^\d{10}$/),
			},
		]);
		expect(typeof data.next_offset_id).toBe('string');
	});

	test('edits, deletions, start and stop each produce their update', async () => {
		const message = t.sandbox.userSendMessage({ userId: reza.user_id, text: 'typo' });
		t.sandbox.userEditMessage({ userId: reza.user_id, chatId: reza.chat_id, messageId: message.message_id, text: 'fixed' });
		t.sandbox.userDeleteMessage({ userId: reza.user_id, chatId: reza.chat_id, messageId: message.message_id });
		t.sandbox.userStopBot({ userId: reza.user_id });
		t.sandbox.userStartBot({ userId: reza.user_id, startId: 'promo42' });
		const { updates } = await ok(t.sandbox, 'getUpdates', {});
		expect(updates.map((update: any) => update.type)).toEqual(['NewMessage', 'UpdatedMessage', 'RemovedMessage', 'StoppedBot', 'StartedBot', 'NewMessage']);
		expect(updates[1].updated_message).toMatchObject({ message_id: message.message_id, text: 'fixed', is_edited: true });
		expect(updates[2]).toEqual({ type: 'RemovedMessage', chat_id: reza.chat_id, removed_message_id: message.message_id, update_time: expect.any(String) });
		expect(updates[3]).toEqual({ type: 'StoppedBot', chat_id: reza.chat_id, update_time: expect.any(String) });
		expect(updates[4]).toEqual({ type: 'StartedBot', chat_id: reza.chat_id, update_time: expect.any(String) });
		expect(updates[5].new_message).toMatchObject({ text: '/start', aux_data: { start_id: 'promo42', button_id: null } });
		expect(t.sandbox.chat(reza.chat_id).bot_stopped).toBe(false);
	});

	test('a new user starting the bot gets a private chat', async () => {
		const user = t.sandbox.addUser({ first_name: 'Nima' });
		expect(() => t.sandbox.userSendMessage({ userId: user.user_id, text: 'hello?' })).toThrow(/start the bot first/);
		const chat = t.sandbox.userStartBot({ userId: user.user_id, sendStartMessage: false });
		expect(chat.chat_id).toMatch(/^b0[A-Za-z0-9]{30}$/);
		const { updates } = await ok(t.sandbox, 'getUpdates', {});
		expect(updates).toEqual([{ type: 'StartedBot', chat_id: chat.chat_id, update_time: expect.any(String) }]);
		expect((await ok(t.sandbox, 'getChat', { chat_id: chat.chat_id })).chat.first_name).toBe('Nima');
	});

	test('a chat keypad tap arrives as NewMessage with button text and aux_data.button_id', async () => {
		await ok(t.sandbox, 'editChatKeypad', {
			chat_id: ali.chat_id,
			chat_keypad_type: 'New',
			chat_keypad: { rows: [{ buttons: [{ id: 'order', type: 'Simple', button_text: 'Order 🍕' }] }] },
		});
		t.sandbox.userTapChatKeypadButton({ userId: ali.user_id, buttonId: 'order' });
		const [update] = (await ok(t.sandbox, 'getUpdates', {})).updates;
		expect(update.new_message).toMatchObject({ text: 'Order 🍕', sender_id: ali.user_id, aux_data: { start_id: null, button_id: 'order' } });
		expect(() => t.sandbox.userTapChatKeypadButton({ userId: ali.user_id, buttonId: 'missing' })).toThrow(/no chat keypad button/);
	});

	test('a client other than the app can send a keypad tap on any button id (the forgeries tests try)', async () => {
		t.sandbox.userSendMessage({ userId: ali.user_id, text: 'Decline', buttonId: 'sw1.5.dm.not-on-any-keypad' });
		const [update] = (await ok(t.sandbox, 'getUpdates', {})).updates;
		expect(update.new_message).toMatchObject({ text: 'Decline', aux_data: { start_id: null, button_id: 'sw1.5.dm.not-on-any-keypad' } });
	});

	test('a payment change becomes UpdatedPayment in the private chat', async () => {
		t.sandbox.paymentUpdate({ userId: ali.user_id, paymentId: 'pay-1', status: 'Paid' });
		expect((await ok(t.sandbox, 'getUpdates', {})).updates).toEqual([
			{ type: 'UpdatedPayment', chat_id: ali.chat_id, updated_payment: { payment_id: 'pay-1', status: 'Paid' }, update_time: expect.any(String) },
		]);
		expect(() => t.sandbox.paymentUpdate({ userId: ali.user_id, paymentId: 'pay-2', status: 'Maybe' as never })).toThrow(/status/);
	});

	test('inline keypad taps never appear in getUpdates', async () => {
		const { message_id } = await ok(t.sandbox, 'sendMessage', {
			chat_id: sara.chat_id,
			text: 'pick',
			inline_keypad: { rows: [{ buttons: [{ id: 'b1', type: 'Simple', button_text: 'One' }] }] },
		});
		const inline = t.sandbox.userTapInlineButton({ userId: sara.user_id, chatId: sara.chat_id, messageId: message_id, buttonId: 'b1' });
		expect(inline).toEqual({ sender_id: sara.user_id, text: 'One', location: null, aux_data: { start_id: null, button_id: 'b1' }, message_id, chat_id: sara.chat_id });
		expect((await ok(t.sandbox, 'getUpdates', {})).updates).toEqual([]);
	});

	test('group and channel messages reach every bot in the chat', async () => {
		const other = t.sandbox.addBot();
		t.sandbox.setRole(DEMO_GROUP_ID, other.bot_id, 'member');
		t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'hello group' });
		t.sandbox.userSendMessage({ userId: sara.user_id, chatId: DEMO_CHANNEL_ID, text: 'channel post' });
		expect(texts((await ok(t.sandbox, 'getUpdates', {})).updates)).toEqual(['hello group', 'channel post']);
		expect(texts(t.sandbox.updates(other.bot_id))).toEqual(['hello group']);
		expect(() => t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_CHANNEL_ID, text: 'x' })).toThrow(/only the owner and admins/);
	});

	test('groupPrivacy: only commands, mentions and replies to the bot are heard', async () => {
		t.sandbox.configure({ groupPrivacy: true });
		try {
			const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: DEMO_GROUP_ID, text: 'bot here' });
			t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'chatter' });
			t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: '/help' });
			t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: `hey @${DEMO_BOT_USERNAME}` });
			t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'reply', replyToMessageId: message_id });
			t.sandbox.userSendMessage({ userId: ali.user_id, text: 'private is always heard' });
			expect(texts((await ok(t.sandbox, 'getUpdates', {})).updates)).toEqual(['/help', `hey @${DEMO_BOT_USERNAME}`, 'reply', 'private is always heard']);
		} finally {
			t.sandbox.configure({ groupPrivacy: false });
		}
	});

	test('explicitNulls writes absent documented fields as null', async () => {
		t.sandbox.configure({ explicitNulls: true });
		try {
			t.sandbox.userSendMessage({ userId: sara.user_id, text: 'x' });
			const [update] = (await ok(t.sandbox, 'getUpdates', {})).updates;
			expect(update).toMatchObject({ removed_message_id: null, updated_message: null, updated_payment: null });
			expect(update.new_message).toMatchObject({ file: null, reply_to_message_id: null, forwarded_from: null, location: null, poll: null });
		} finally {
			t.sandbox.configure({ explicitNulls: false });
		}
	});
});

describe('getUpdates paging', () => {
	function sendMany(count: number): void {
		for (let index = 1; index <= count; index++) t.sandbox.userSendMessage({ userId: sara.user_id, text: `m${index}` });
	}

	test('without offset_id it starts at the oldest update; the cursor pages forward with limit', async () => {
		sendMany(5);
		const first = await ok(t.sandbox, 'getUpdates', { limit: 2 });
		expect(texts(first.updates)).toEqual(['m1', 'm2']);
		const second = await ok(t.sandbox, 'getUpdates', { offset_id: first.next_offset_id, limit: 2 });
		expect(texts(second.updates)).toEqual(['m3', 'm4']);
		const third = await ok(t.sandbox, 'getUpdates', { offset_id: second.next_offset_id, limit: 2 });
		expect(texts(third.updates)).toEqual(['m5']);
		const fourth = await ok(t.sandbox, 'getUpdates', { offset_id: third.next_offset_id, limit: 2 });
		expect(fourth).toEqual({ updates: [], next_offset_id: third.next_offset_id });
		sendMany(1);
		expect(texts((await ok(t.sandbox, 'getUpdates', { offset_id: third.next_offset_id })).updates)).toEqual(['m1']);
		// Again without a cursor: the whole backlog.
		expect((await ok(t.sandbox, 'getUpdates', {})).updates).toHaveLength(6);
	});

	test('the cursor is opaque, not an index', async () => {
		const empty = await ok(t.sandbox, 'getUpdates', {});
		expect(empty.updates).toEqual([]);
		sendMany(3);
		const { next_offset_id } = await ok(t.sandbox, 'getUpdates', {});
		expect(next_offset_id).not.toMatch(/^\d+$/);
		expect(next_offset_id).not.toBe(empty.next_offset_id);
		expect(await fails(t.sandbox, 'getUpdates', { offset_id: '3' })).toMatch(/offset_id/);
		expect(await fails(t.sandbox, 'getUpdates', { offset_id: 42 })).toMatch(/string/);
	});

	test('a cursor from before a reset or from another bot is refused, or restarts when configured', async () => {
		sendMany(2);
		const { next_offset_id } = await ok(t.sandbox, 'getUpdates', {});
		t.sandbox.reset();
		sendMany(1);
		expect(await fails(t.sandbox, 'getUpdates', { offset_id: next_offset_id })).toMatch(/offset_id/);
		t.sandbox.configure({ unknownOffset: 'restart' });
		try {
			expect(texts((await ok(t.sandbox, 'getUpdates', { offset_id: next_offset_id })).updates)).toEqual(['m1']);
		} finally {
			t.sandbox.configure({ unknownOffset: 'error' });
		}
	});

	test('limit: int or numeric string, at least 1, clamped to 100', async () => {
		sendMany(120);
		expect((await ok(t.sandbox, 'getUpdates', { limit: '3' })).updates).toHaveLength(3);
		expect((await ok(t.sandbox, 'getUpdates', { limit: 500 })).updates).toHaveLength(100);
		expect((await ok(t.sandbox, 'getUpdates', {})).updates).toHaveLength(100);
		for (const limit of [0, -1, 1.5, 'ten', true]) expect(await fails(t.sandbox, 'getUpdates', { limit })).toMatch(/limit/);
	});

	test('retention drops the oldest; a cursor behind it continues at the oldest kept', async () => {
		await withSandbox({ updateRetention: 5 }, async (other) => {
			other.userSendMessage({ userId: sara.user_id, text: 'm1' });
			const { next_offset_id } = await ok(other, 'getUpdates', { limit: 1 });
			for (let index = 2; index <= 9; index++) other.userSendMessage({ userId: sara.user_id, text: `m${index}` });
			expect(texts((await ok(other, 'getUpdates', {})).updates)).toEqual(['m5', 'm6', 'm7', 'm8', 'm9']);
			expect(texts((await ok(other, 'getUpdates', { offset_id: next_offset_id })).updates)).toEqual(['m5', 'm6', 'm7', 'm8', 'm9']);
		});
	});

	test('a 10,000-update backlog pages in order, complete and without repeats', async () => {
		t.sandbox.appendSyntheticUpdates({ count: 10_000 });
		expect(t.sandbox.updates()).toHaveLength(10_000);
		const seen: string[] = [];
		let offset: string | undefined;
		for (let page = 0; page < 101; page++) {
			const data = await ok(t.sandbox, 'getUpdates', offset ? { offset_id: offset, limit: 100 } : { limit: 100 });
			seen.push(...texts(data.updates));
			offset = data.next_offset_id;
			if (data.updates.length === 0) break;
		}
		expect(seen).toHaveLength(10_000);
		expect(seen[0]).toBe('synthetic 1');
		expect(seen[9_999]).toBe('synthetic 10000');
		expect(new Set(seen).size).toBe(10_000);
		const ids = (await ok(t.sandbox, 'getUpdates', { limit: 3 })).updates.map((update: any) => BigInt(update.new_message.message_id));
		expect(ids[0] < ids[1] && ids[1] < ids[2]).toBe(true);
	});

	test('synthetic updates can be stamped with an old time', async () => {
		t.sandbox.appendSyntheticUpdates({ count: 1, userId: reza.user_id, time: 1_600_000_000 });
		const [update] = (await ok(t.sandbox, 'getUpdates', {})).updates;
		expect(update).toMatchObject({ chat_id: reza.chat_id, update_time: '1600000000', new_message: { time: '1600000000', sender_id: reza.user_id } });
	});

	test('the duplicateUpdate fault repeats an already delivered update once', async () => {
		sendMany(3);
		const first = await ok(t.sandbox, 'getUpdates', { limit: 2 });
		t.sandbox.injectFault({ kind: 'duplicateUpdate' });
		const second = await ok(t.sandbox, 'getUpdates', { offset_id: first.next_offset_id });
		expect(texts(second.updates)).toEqual(['m2', 'm3']);
		expect(t.sandbox.requestsFor('getUpdates')[1].fault).toBe('duplicateUpdate');
		const third = await ok(t.sandbox, 'getUpdates', { offset_id: first.next_offset_id });
		expect(texts(third.updates)).toEqual(['m3']);
		expect(second.next_offset_id).toBe(third.next_offset_id);
	});

	test('bot-made messages, edits and deletions produce no updates', async () => {
		const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: DEMO_GROUP_ID, text: 'x' });
		await ok(t.sandbox, 'editMessageText', { chat_id: DEMO_GROUP_ID, message_id, text: 'y' });
		await ok(t.sandbox, 'deleteMessage', { chat_id: DEMO_GROUP_ID, message_id });
		expect(t.sandbox.updates(DEMO_BOT_ID)).toEqual([]);
		expect((await api(t.sandbox, 'getUpdates', {})).json.data.updates).toEqual([]);
	});
});

import { DEMO_BOT_ID, DEMO_USERS } from '../../sandbox';
import { useSandbox, withSandbox } from '../support/sandbox';
import { ok, useReceiver } from './helpers';

const { sara } = DEMO_USERS;
const t = useSandbox();
const receiver = useReceiver();

const inlineKeypad = { rows: [{ buttons: [{ id: 'yes', type: 'Simple', button_text: 'Yes' }] }] };

async function register(type: string, path: string) {
	expect(await ok(t.sandbox, 'updateBotEndpoints', { url: `${receiver.url}${path}`, type })).toEqual({ status: 'Done' });
}

test('updates are POSTed as {"update": …} to the registered address and stay in getUpdates', async () => {
	await register('ReceiveUpdate', '/hook');
	const message = t.sandbox.userSendMessage({ userId: sara.user_id, text: 'hello' });
	await t.sandbox.deliveriesSettled();
	expect(receiver.hits).toHaveLength(1);
	expect(receiver.hits[0].path).toBe('/hook');
	expect(receiver.hits[0].body).toEqual({
		update: {
			type: 'NewMessage',
			chat_id: sara.chat_id,
			new_message: expect.objectContaining({ message_id: message.message_id, text: 'hello', sender_id: sara.user_id }),
			update_time: expect.any(String),
		},
	});
	expect(t.sandbox.deliveries).toEqual([
		expect.objectContaining({ botId: DEMO_BOT_ID, kind: 'update', url: `${receiver.url}/hook`, delivered: true, httpStatus: 200, duplicate: false }),
	]);
	expect((await ok(t.sandbox, 'getUpdates', {})).updates).toHaveLength(1);
});

test('deliveries keep the order of events', async () => {
	await register('ReceiveUpdate', '/hook');
	for (let index = 0; index < 20; index++) t.sandbox.userSendMessage({ userId: sara.user_id, text: `n${index}` });
	await t.sandbox.deliveriesSettled();
	expect(receiver.hits.map((hit) => hit.body.update.new_message.text)).toEqual(Array.from({ length: 20 }, (_unused, index) => `n${index}`));
});

test('inline taps are POSTed as {"inline_message": …} to ReceiveInlineMessage only', async () => {
	await register('ReceiveUpdate', '/updates');
	await register('ReceiveInlineMessage', '/inline');
	const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'sure?', inline_keypad: inlineKeypad });
	t.sandbox.userTapInlineButton({ userId: sara.user_id, chatId: sara.chat_id, messageId: message_id, buttonId: 'yes' });
	await t.sandbox.deliveriesSettled();
	expect(receiver.hits).toEqual([
		{
			path: '/inline',
			raw: expect.any(String),
			body: {
				inline_message: { sender_id: sara.user_id, text: 'Yes', location: null, aux_data: { start_id: null, button_id: 'yes' }, message_id, chat_id: sara.chat_id },
			},
		},
	]);
});

test('with appendEndpointSuffix the path gets /receiveUpdate or /receiveInlineMessage', async () => {
	t.sandbox.configure({ appendEndpointSuffix: true });
	try {
		await register('ReceiveUpdate', '/base/');
		await register('ReceiveInlineMessage', '/base?secret=1');
		const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'q', inline_keypad: inlineKeypad });
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'hi' });
		t.sandbox.userTapInlineButton({ userId: sara.user_id, chatId: sara.chat_id, messageId: message_id, buttonId: 'yes' });
		await t.sandbox.deliveriesSettled();
		expect(receiver.hits.map((hit) => hit.path)).toEqual(['/base/receiveUpdate', '/base/receiveInlineMessage?secret=1']);
	} finally {
		t.sandbox.configure({ appendEndpointSuffix: false });
	}
});

test('an inline tap with no inline endpoint is logged as undelivered', async () => {
	await register('ReceiveUpdate', '/hook');
	const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'q', inline_keypad: inlineKeypad });
	t.sandbox.userTapInlineButton({ userId: sara.user_id, chatId: sara.chat_id, messageId: message_id, buttonId: 'yes' });
	await t.sandbox.deliveriesSettled();
	expect(receiver.hits).toEqual([]);
	expect(t.sandbox.deliveries).toEqual([expect.objectContaining({ kind: 'inline_message', url: null, delivered: false, error: expect.stringMatching(/no ReceiveInlineMessage/) })]);
});

test('updates with no webhook are not logged as deliveries', async () => {
	t.sandbox.userSendMessage({ userId: sara.user_id, text: 'polling only' });
	await t.sandbox.deliveriesSettled();
	expect(t.sandbox.deliveries).toEqual([]);
});

test('the receiver\'s HTTP status is logged; an unreachable receiver is an error', async () => {
	receiver.status = 500;
	await register('ReceiveUpdate', '/hook');
	t.sandbox.userSendMessage({ userId: sara.user_id, text: 'a' });
	await t.sandbox.deliveriesSettled();
	expect(t.sandbox.deliveries[0]).toMatchObject({ httpStatus: 500, delivered: false, responseBody: '{"status":"OK"}' });
	await ok(t.sandbox, 'updateBotEndpoints', { url: 'http://127.0.0.1:1/closed', type: 'ReceiveUpdate' });
	t.sandbox.userSendMessage({ userId: sara.user_id, text: 'b' });
	await t.sandbox.deliveriesSettled();
	expect(t.sandbox.deliveries[1]).toMatchObject({ httpStatus: null, delivered: false, error: expect.any(String) });
});

test('duplicateDeliveries sends every event twice; the duplicateDelivery fault once', async () => {
	await register('ReceiveUpdate', '/hook');
	t.sandbox.injectFault({ kind: 'duplicateDelivery' });
	t.sandbox.userSendMessage({ userId: sara.user_id, text: 'once twice' });
	t.sandbox.userSendMessage({ userId: sara.user_id, text: 'just once' });
	await t.sandbox.deliveriesSettled();
	expect(receiver.hits.map((hit) => hit.body.update.new_message.text)).toEqual(['once twice', 'once twice', 'just once']);
	expect(t.sandbox.deliveries.map((delivery) => delivery.duplicate)).toEqual([false, true, false]);

	receiver.hits.length = 0;
	t.sandbox.configure({ duplicateDeliveries: true });
	try {
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'always twice' });
		await t.sandbox.deliveriesSettled();
		expect(receiver.hits).toHaveLength(2);
		expect(receiver.hits[0].raw).toBe(receiver.hits[1].raw);
	} finally {
		t.sandbox.configure({ duplicateDeliveries: false });
	}
});

test('bareNumericIds applies to webhook bodies too', async () => {
	t.sandbox.configure({ bareNumericIds: true });
	try {
		await register('ReceiveUpdate', '/hook');
		const message = t.sandbox.userSendMessage({ userId: sara.user_id, text: 'big' });
		await t.sandbox.deliveriesSettled();
		expect(receiver.hits[0].raw).toContain(`"message_id":${message.message_id},`);
	} finally {
		t.sandbox.configure({ bareNumericIds: false });
	}
});

test('a slow receiver times out and is logged as such', async () => {
	const http = await import('node:http');
	const server = http.createServer(() => undefined); // never answers
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		const port = (server.address() as { port: number }).port;
		await withSandbox({ webhookTimeoutMs: 100 }, async (slow) => {
			await ok(slow, 'updateBotEndpoints', { url: `http://127.0.0.1:${port}/`, type: 'ReceiveUpdate' });
			slow.userSendMessage({ userId: sara.user_id, text: 'anyone?' });
			await slow.deliveriesSettled();
			expect(slow.deliveries[0]).toMatchObject({ delivered: false, httpStatus: null, error: expect.stringMatching(/100 ms/) });
		});
	} finally {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
});

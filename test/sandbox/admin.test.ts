import { DEMO_BOT_ID, DEMO_BOT_TOKEN, DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { useSandbox } from '../support/sandbox';
import type { Receiver } from './helpers';
import { adminCall, api, ok, startReceiver } from './helpers';

const { sara, ali } = DEMO_USERS;
const t = useSandbox();

const admin = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => adminCall(t.sandbox, method, path, body, headers);

test('health, state and CORS', async () => {
	const health = await admin('GET', '/health');
	expect(health.json).toEqual({ ok: true });
	expect(health.headers['access-control-allow-origin']).toBe('*');
	expect((await admin('OPTIONS', '/actions/send-message')).httpStatus).toBe(204);
	const state = (await admin('GET', '/state')).json;
	expect(state.bots.map((bot: any) => bot.bot_id)).toEqual([DEMO_BOT_ID]);
	expect(state.users.map((user: any) => user.first_name)).toEqual(['Sara', 'Reza', 'Ali']);
	expect(state.chats).toHaveLength(6);
});

test('a broadcast audience: new recipients with private chats, and the bot\'s messages counted per chat', async () => {
	const { chatIds } = (await admin('POST', '/recipients', { count: 3 })).json;
	expect(chatIds).toHaveLength(3);
	expect(new Set(chatIds).size).toBe(3);
	await ok(t.sandbox, 'sendMessage', { chat_id: chatIds[0], text: 'one' });
	await ok(t.sandbox, 'sendMessage', { chat_id: chatIds[2], text: 'two' });
	await ok(t.sandbox, 'sendMessage', { chat_id: chatIds[2], text: 'again' });
	expect((await admin('POST', '/bot-message-counts', { chatIds })).json).toEqual({ counts: [1, 0, 2] });
	expect((await admin('POST', '/recipients', { count: 0 })).httpStatus).toBe(400);
	expect((await admin('POST', '/bot-message-counts', { chatIds: [1] })).httpStatus).toBe(400);
});

test('a user message sent through the admin API reaches getUpdates', async () => {
	const sent = await admin('POST', '/actions/send-message', { userId: sara.user_id, text: 'from the browser' });
	expect(sent.httpStatus).toBe(200);
	expect(sent.json).toMatchObject({ chat_id: sara.chat_id, text: 'from the browser', sender_type: 'User' });
	const { updates } = await ok(t.sandbox, 'getUpdates', {});
	expect(updates[0].new_message.message_id).toBe(sent.json.message_id);
});

test('the bot\'s messages, keypads and members can be read back', async () => {
	await ok(t.sandbox, 'sendMessage', {
		chat_id: sara.chat_id,
		text: 'menu',
		chat_keypad_type: 'New',
		chat_keypad: { rows: [{ buttons: [{ id: 'm', type: 'Simple', button_text: 'Menu' }] }] },
	});
	const messages = (await admin('GET', `/chats/${sara.chat_id}/messages`)).json;
	expect(messages).toEqual([expect.objectContaining({ text: 'menu', sender_type: 'Bot' })]);
	const chat = (await admin('GET', `/chats/${sara.chat_id}`)).json;
	expect(chat.chat_keypad.rows[0].buttons[0].id).toBe('m');
	const tap = await admin('POST', '/actions/tap-chat-keypad-button', { userId: sara.user_id, buttonId: 'm' });
	expect(tap.json).toMatchObject({ text: 'Menu', aux_data: { button_id: 'm' } });
});

test('edit, delete, inline taps, start, stop and join', async () => {
	const sent = (await admin('POST', '/actions/send-message', { userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'tpyo' })).json;
	expect((await admin('POST', '/actions/edit-message', { userId: ali.user_id, chatId: DEMO_GROUP_ID, messageId: sent.message_id, text: 'typo' })).json.is_edited).toBe(true);
	expect((await admin('POST', '/actions/delete-message', { userId: ali.user_id, chatId: DEMO_GROUP_ID, messageId: sent.message_id })).json).toEqual({});
	const receiver: Receiver = await startReceiver();
	try {
		await ok(t.sandbox, 'updateBotEndpoints', { url: receiver.url, type: 'ReceiveInlineMessage' });
		const { message_id } = await ok(t.sandbox, 'sendMessage', {
			chat_id: sara.chat_id,
			text: 'vote',
			inline_keypad: { rows: [{ buttons: [{ id: 'up', type: 'Simple', button_text: '👍' }] }] },
		});
		const tap = await admin('POST', '/actions/tap-inline-button', { userId: sara.user_id, chatId: sara.chat_id, messageId: message_id, buttonId: 'up' });
		expect(tap.json).toMatchObject({ text: '👍', message_id });
		const deliveries = (await admin('POST', '/deliveries/settle')).json;
		expect(deliveries).toEqual([expect.objectContaining({ kind: 'inline_message', delivered: true })]);
		expect(receiver.hits[0].body.inline_message.aux_data.button_id).toBe('up');
	} finally {
		await receiver.close();
	}
	expect((await admin('POST', '/actions/stop-bot', { userId: sara.user_id })).json.bot_stopped).toBe(true);
	expect((await admin('POST', '/actions/start-bot', { userId: sara.user_id, startId: 'x' })).json.bot_stopped).toBe(false);
	const joined = await admin('POST', '/actions/join-chat', { userId: sara.user_id, chatId: DEMO_GROUP_ID });
	expect(joined.httpStatus).toBe(200);
	const types = (await ok(t.sandbox, 'getUpdates', {})).updates.map((update: any) => update.type);
	expect(types).toEqual(['NewMessage', 'UpdatedMessage', 'RemovedMessage', 'StoppedBot', 'StartedBot', 'NewMessage']);
});

test('misuse answers 4xx with an error, never a Rubika envelope', async () => {
	const banned = await admin('POST', '/actions/send-message', { userId: ali.user_id, chatId: 'g0' + 'x'.repeat(30), text: 'x' });
	expect(banned.httpStatus).toBe(404);
	expect(banned.json).toEqual({ error: expect.any(String) });
	expect((await admin('POST', '/actions/fly', {})).httpStatus).toBe(404);
	expect((await admin('GET', '/nowhere')).httpStatus).toBe(404);
	expect((await admin('DELETE', '/health')).httpStatus).toBe(405);
	expect((await admin('PATCH', '/config', { bogus: 1 })).json.error).toMatch(/bogus/);
	expect((await adminCall(t.sandbox, 'POST', '/actions/send-message', undefined)).httpStatus).toBe(400);
});

test('bots, users and chats can be created; a new bot\'s token works', async () => {
	const bot = (await admin('POST', '/bots', { bot_title: 'Second', username: 'second_bot' })).json;
	expect(bot.token).toMatch(/^[A-Za-z0-9]{64}$/);
	expect((await api(t.sandbox, 'getMe', undefined, bot.token)).json.data.bot).toMatchObject({ bot_id: bot.bot_id, bot_title: 'Second' });
	const user = (await admin('POST', '/users', { first_name: 'Nima', username: 'nima' })).json;
	expect(user.user_id).toMatch(/^u0[A-Za-z0-9]{30}$/);
	const group = (await admin('POST', '/chats', { type: 'Group', title: 'New', ownerId: user.user_id, adminIds: [bot.bot_id] })).json;
	expect(group.chat_id).toMatch(/^g0/);
	const updated = (await admin('PUT', `/chats/${group.chat_id}/members/${sara.user_id}`, { role: 'member' })).json;
	expect(updated.members.map((member: any) => member.role)).toEqual(['owner', 'admin', 'member']);
	await admin('POST', '/actions/start-bot', { userId: user.user_id, botId: bot.bot_id, sendStartMessage: false });
	expect((await admin('GET', `/bots/${bot.bot_id}/updates`)).json.updates).toEqual([expect.objectContaining({ type: 'StartedBot' })]);
});

test('files, requests, faults, config, synthetic updates and reset', async () => {
	const file = (await admin('POST', '/files', Buffer.from('hello file'), { 'Content-Type': 'text/plain', 'X-File-Name': encodeURIComponent('نامه.txt') })).json;
	expect(file).toEqual({ file_id: expect.any(String), download_url: expect.stringContaining('/files/') });
	await admin('POST', '/actions/send-message', { userId: sara.user_id, fileId: file.file_id });
	expect(t.sandbox.lastMessage(sara.chat_id)?.file).toEqual({ file_id: file.file_id, file_name: 'نامه.txt', size: '10' });

	await ok(t.sandbox, 'getMe');
	expect((await admin('GET', '/requests?method=getMe')).json).toEqual([expect.objectContaining({ method: 'getMe', tokenValid: true })]);
	await admin('DELETE', '/requests');
	expect((await admin('GET', '/requests')).json).toEqual([]);

	const fault = (await admin('POST', '/faults', { kind: 'status', status: 'TOO_REQUESTS', times: -1 })).json;
	expect(fault).toMatchObject({ kind: 'status', remaining: null }); // Infinity is null in JSON
	expect((await api(t.sandbox, 'getMe')).json.status).toBe('TOO_REQUESTS');
	expect((await admin('GET', '/faults')).json).toHaveLength(1);
	await admin('DELETE', '/faults');
	expect((await api(t.sandbox, 'getMe')).json.status).toBe('OK');

	expect((await admin('PATCH', '/config', { latencyMs: 5 })).json.latencyMs).toBe(5);
	expect((await admin('GET', '/config')).json.latencyMs).toBe(5);
	t.sandbox.configure({ latencyMs: 0 });

	await admin('POST', `/bots/${DEMO_BOT_ID}/synthetic-updates`, { count: 250 });
	expect(t.sandbox.updates()).toHaveLength(251);

	expect((await admin('POST', '/reset', { seed: 'empty' })).json).toEqual({ ok: true });
	expect(t.sandbox.snapshot().bots).toEqual([]);
	await admin('POST', '/reset', {});
	expect(t.sandbox.users()).toHaveLength(3);
});

test('a rotated token: the old one is refused, the new one reaches the same bot, its updates and cursor', async () => {
	await admin('POST', '/actions/send-message', { userId: sara.user_id, text: 'before the rotation' });
	const before = await ok(t.sandbox, 'getUpdates', {});
	const rotated = await admin('POST', `/bots/${DEMO_BOT_ID}/token`, {});
	expect(rotated.httpStatus).toBe(200);
	const token: string = rotated.json.token;
	expect(token).toMatch(/^[A-Za-z0-9]{64}$/);
	expect(token).not.toBe(DEMO_BOT_TOKEN);
	expect((await api(t.sandbox, 'getMe', {})).json.status).toBe('INVALID_INPUT');
	expect((await api(t.sandbox, 'getMe', {}, token)).json.data.bot.bot_id).toBe(DEMO_BOT_ID);
	await admin('POST', '/actions/send-message', { userId: sara.user_id, text: 'after the rotation' });
	const after = (await api(t.sandbox, 'getUpdates', { offset_id: before.next_offset_id }, token)).json.data;
	expect(after.updates.map((u: any) => u.new_message.text)).toEqual(['after the rotation']);
	expect((await admin('GET', `/bots/${DEMO_BOT_ID}`)).json.token).toBe(token);
	// A chosen token; one already in use, or not 64 letters and digits, is refused.
	expect((await admin('POST', `/bots/${DEMO_BOT_ID}/token`, { token: DEMO_BOT_TOKEN })).json).toEqual({ token: DEMO_BOT_TOKEN });
	expect((await admin('POST', `/bots/${DEMO_BOT_ID}/token`, { token: DEMO_BOT_TOKEN })).httpStatus).toBe(400);
	expect((await admin('POST', `/bots/${DEMO_BOT_ID}/token`, { token: 'short' })).httpStatus).toBe(400);
	expect((await admin('POST', '/bots/b0nobody/token', {})).httpStatus).toBe(404);
});

test('a second address (/via/<name>) reaches the same state, and the request log tells which was used', async () => {
	const viaUrl = (method: string) => `${t.sandbox.baseUrl}/via/gateway-2/v3/${DEMO_BOT_TOKEN}/${method}`;
	const post = async (url: string, body: unknown): Promise<any> => (await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
	await admin('POST', '/actions/send-message', { userId: sara.user_id, text: 'one' });
	const direct = await ok(t.sandbox, 'getUpdates', {});
	await admin('POST', '/actions/send-message', { userId: sara.user_id, text: 'two' });
	const via = await post(viaUrl('getUpdates'), { offset_id: direct.next_offset_id });
	expect(via.data.updates.map((u: any) => u.new_message.text)).toEqual(['two']);
	expect((await post(viaUrl('getMe'), {})).data.bot.bot_id).toBe(DEMO_BOT_ID);
	expect(t.sandbox.requestsFor('getUpdates').map((r) => r.path)).toEqual(['/v3/<token>/getUpdates', '/via/gateway-2/v3/<token>/getUpdates']);
	expect((await fetch(`${t.sandbox.baseUrl}/via/bad name/v3/${DEMO_BOT_TOKEN}/getMe`, { method: 'POST' })).status).toBe(404);
});

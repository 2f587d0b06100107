import axios from 'axios';
import http from 'node:http';
import type { Socket } from 'node:net';

import {
	DEMO_BOT_ID,
	DEMO_BOT_TITLE,
	DEMO_BOT_TOKEN,
	DEMO_BOT_USERNAME,
	DEMO_CHANNEL_ID,
	DEMO_GROUP_ID,
	DEMO_USERS,
	startSandbox,
} from '../../sandbox';
import { useSandbox, withSandbox } from '../support/sandbox';
import { api, fails, ok } from './helpers';

const { sara, ali } = DEMO_USERS;
const t = useSandbox();

describe('envelope and routing', () => {
	test('getMe with no body answers the bot in an OK envelope', async () => {
		const answer = await api(t.sandbox, 'getMe');
		expect(answer.httpStatus).toBe(200);
		expect(answer.headers['content-type']).toMatch(/^application\/json/);
		expect(answer.json).toEqual({
			status: 'OK',
			data: {
				bot: {
					bot_id: DEMO_BOT_ID,
					bot_title: DEMO_BOT_TITLE,
					username: DEMO_BOT_USERNAME,
					share_url: `https://rubika.ir/${DEMO_BOT_USERNAME}`,
					description: expect.any(String),
					start_message: expect.any(String),
				},
			},
		});
	});

	test('getMe with an empty JSON object works too', async () => {
		expect((await ok(t.sandbox, 'getMe', {})).bot.bot_id).toBe(DEMO_BOT_ID);
	});

	test('ids and token have the documented formats', () => {
		expect(DEMO_BOT_TOKEN).toMatch(/^[A-Za-z0-9]{64}$/);
		for (const user of Object.values(DEMO_USERS)) {
			expect(user.user_id).toMatch(/^u0[A-Za-z0-9]{30}$/);
			expect(user.chat_id).toMatch(/^b0[A-Za-z0-9]{30}$/);
		}
		expect(DEMO_GROUP_ID).toMatch(/^g0[A-Za-z0-9]{30}$/);
		expect(DEMO_CHANNEL_ID).toMatch(/^c0[A-Za-z0-9]{30}$/);
		const bot = t.sandbox.addBot();
		expect(bot.bot_id).toMatch(/^b0[A-Za-z0-9]{30}$/);
		expect(bot.token).toMatch(/^[A-Za-z0-9]{64}$/);
	});

	test('message ids are 19-digit strings that only grow', async () => {
		const ids: string[] = [];
		for (let index = 0; index < 5; index++) {
			ids.push((await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: `n${index}` })).message_id);
		}
		for (const id of ids) expect(id).toMatch(/^\d{19}$/);
		for (let index = 1; index < ids.length; index++) expect(BigInt(ids[index]) > BigInt(ids[index - 1])).toBe(true);
	});

	test('a wrong token answers HTTP 200 INVALID_INPUT by default, and the log keeps no token', async () => {
		const secret = 'X'.repeat(64);
		const answer = await api(t.sandbox, 'getMe', undefined, secret);
		expect(answer.httpStatus).toBe(200);
		expect(answer.json).toEqual({ status: 'INVALID_INPUT', dev_message: expect.any(String) });
		const [entry] = t.sandbox.requestsFor('getMe');
		expect(entry).toMatchObject({ method: 'getMe', tokenValid: false, botId: null, httpStatus: 200, status: 'INVALID_INPUT' });
		expect(entry.path).toBe('/v3/<token>/getMe');
		await ok(t.sandbox, 'getMe');
		expect(JSON.stringify(t.sandbox.requests)).not.toContain(secret);
		expect(JSON.stringify(t.sandbox.requests)).not.toContain(DEMO_BOT_TOKEN);
		expect(t.sandbox.requestsFor('getMe')[1].tokenValid).toBe(true);
	});

	test('the bad-token answer is configurable', async () => {
		await withSandbox({ badToken: { httpStatus: 401, status: 'INVALID_ACCESS' } }, async (other) => {
			const answer = await api(other, 'sendMessage', { chat_id: sara.chat_id, text: 'x' }, 'nope');
			expect(answer.httpStatus).toBe(401);
			expect(answer.json.status).toBe('INVALID_ACCESS');
		});
	});

	test('an unknown method is an error envelope, prototype names included', async () => {
		for (const method of ['setChatPhoto', 'sendDice', 'constructor', 'toString']) {
			const answer = await api(t.sandbox, method, {});
			expect(answer.httpStatus).toBe(200);
			expect(answer.json).toEqual({ status: 'INVALID_INPUT', dev_message: expect.stringContaining(method) });
		}
	});

	test('a body that is not JSON, or not an object, is INVALID_INPUT', async () => {
		expect(await fails(t.sandbox, 'getMe', '{"chat_id": ')).toMatch(/JSON/);
		expect(await fails(t.sandbox, 'getChat', '[1,2]')).toMatch(/object/);
		expect(t.sandbox.requestsFor('getMe')[0].body).toBe('{"chat_id": ');
	});

	test('methods must be POSTed', async () => {
		const response = await axios.get(t.sandbox.methodUrl('getMe', DEMO_BOT_TOKEN), { validateStatus: () => true });
		expect(response.data).toEqual({ status: 'INVALID_INPUT', dev_message: expect.stringMatching(/POST/) });
	});

	test('unknown paths are 404', async () => {
		const response = await axios.get(`${t.sandbox.baseUrl}/v2/${DEMO_BOT_TOKEN}/getMe`, { validateStatus: () => true });
		expect(response.status).toBe(404);
	});
});

describe('getChat', () => {
	test('a private chat is a User chat with the user fields', async () => {
		expect(await ok(t.sandbox, 'getChat', { chat_id: sara.chat_id })).toEqual({
			chat: { chat_id: sara.chat_id, chat_type: 'User', user_id: sara.user_id, first_name: 'Sara', last_name: 'Karimi', username: 'sara_k' },
		});
	});

	test('fields that do not apply are left out, or null with explicitNulls', async () => {
		expect((await ok(t.sandbox, 'getChat', { chat_id: ali.chat_id })).chat).toEqual({
			chat_id: ali.chat_id,
			chat_type: 'User',
			user_id: ali.user_id,
			first_name: 'Ali',
		});
		await withSandbox({ explicitNulls: true }, async (other) => {
			const chat = (await ok(other, 'getChat', { chat_id: ali.chat_id })).chat;
			expect(chat).toEqual({
				chat_id: ali.chat_id,
				chat_type: 'User',
				user_id: ali.user_id,
				first_name: 'Ali',
				last_name: null,
				username: null,
				title: null,
			});
		});
	});

	test('groups and channels carry a title', async () => {
		expect((await ok(t.sandbox, 'getChat', { chat_id: DEMO_GROUP_ID })).chat).toEqual({
			chat_id: DEMO_GROUP_ID,
			chat_type: 'Group',
			title: 'Sandbox Group',
		});
		expect((await ok(t.sandbox, 'getChat', { chat_id: DEMO_CHANNEL_ID })).chat).toEqual({
			chat_id: DEMO_CHANNEL_ID,
			chat_type: 'Channel',
			title: 'Sandbox Channel',
			username: 'sandbox_channel',
		});
	});

	test('unknown chats, chats of another bot, and non-string ids are INVALID_INPUT', async () => {
		expect(await fails(t.sandbox, 'getChat', { chat_id: 'b0' + 'z'.repeat(30) })).toMatch(/not found/);
		expect(await fails(t.sandbox, 'getChat', {})).toMatch(/chat_id is required/);
		expect(await fails(t.sandbox, 'getChat', { chat_id: 12345 })).toMatch(/string/);
		const bot = t.sandbox.addBot();
		const chat = t.sandbox.privateChat(bot.bot_id, sara.user_id);
		expect(await fails(t.sandbox, 'getChat', { chat_id: chat.chat_id })).toMatch(/not found/);
	});
});

describe('bot configuration', () => {
	test('setCommands stores the list and replaces it', async () => {
		const commands = [
			{ command: 'start', description: 'Start' },
			{ command: 'help', description: 'Help me' },
		];
		expect(await ok(t.sandbox, 'setCommands', { bot_commands: commands })).toEqual({});
		expect(t.sandbox.commands()).toEqual(commands);
		await ok(t.sandbox, 'setCommands', { bot_commands: [] });
		expect(t.sandbox.commands()).toEqual([]);
	});

	test('setCommands rejects a leading slash, a missing description, and a non-array', async () => {
		expect(await fails(t.sandbox, 'setCommands', { bot_commands: [{ command: '/start', description: 'x' }] })).toMatch(/\//);
		expect(await fails(t.sandbox, 'setCommands', { bot_commands: [{ command: 'start' }] })).toMatch(/description/);
		expect(await fails(t.sandbox, 'setCommands', { bot_commands: { command: 'start' } })).toMatch(/array/);
		expect(await fails(t.sandbox, 'setCommands', {})).toMatch(/bot_commands/);
		expect(t.sandbox.commands()).toEqual([]);
	});

	test('updateBotEndpoints answers Done and stores, InvalidUrl for non-http(s) addresses', async () => {
		expect(await ok(t.sandbox, 'updateBotEndpoints', { url: 'https://example.com/hook', type: 'ReceiveUpdate' })).toEqual({ status: 'Done' });
		expect(await ok(t.sandbox, 'updateBotEndpoints', { url: 'http://127.0.0.1:9/x', type: 'ReceiveInlineMessage' })).toEqual({ status: 'Done' });
		for (const url of ['not a url', 'ftp://example.com/x', 'example.com/hook']) {
			expect(await ok(t.sandbox, 'updateBotEndpoints', { url, type: 'ReceiveUpdate' })).toEqual({ status: 'InvalidUrl' });
		}
		expect(t.sandbox.endpoints().map(({ type, url }) => ({ type, url }))).toEqual([
			{ type: 'ReceiveUpdate', url: 'https://example.com/hook' },
			{ type: 'ReceiveInlineMessage', url: 'http://127.0.0.1:9/x' },
		]);
		expect(await fails(t.sandbox, 'updateBotEndpoints', { url: 'https://example.com', type: 'Webhook' })).toMatch(/type/);
		expect(await fails(t.sandbox, 'updateBotEndpoints', { type: 'ReceiveUpdate' })).toMatch(/url/);
	});

	test('requireHttpsEndpoints refuses plain http', async () => {
		t.sandbox.configure({ requireHttpsEndpoints: true });
		try {
			expect(await ok(t.sandbox, 'updateBotEndpoints', { url: 'http://example.com/hook', type: 'ReceiveUpdate' })).toEqual({ status: 'InvalidUrl' });
		} finally {
			t.sandbox.configure({ requireHttpsEndpoints: false });
		}
	});
});

describe('bareNumericIds', () => {
	test('message ids are written as bare JSON numbers above 2^53', async () => {
		await withSandbox({ bareNumericIds: true }, async (other) => {
			const answer = await api(other, 'sendMessage', { chat_id: sara.chat_id, text: 'big' });
			expect(answer.text).toMatch(/^\{"status":"OK","data":\{"message_id":\d{19}\}\}$/);
			const digits = /"message_id":(\d+)/.exec(answer.text)![1];
			expect(Number.isSafeInteger(Number(digits))).toBe(false);
			// The sandbox itself keeps the exact id.
			expect(other.lastMessage(sara.chat_id)?.message_id).toBe(digits);
			other.userSendMessage({ userId: sara.user_id, text: 'reply', replyToMessageId: digits });
			const updates = await api(other, 'getUpdates', {});
			expect(updates.text).toMatch(/"new_message":\{"message_id":\d{19},/);
			expect(updates.text).toContain(`"reply_to_message_id":${digits}`);
			// A text that looks like an id stays a string.
			other.userSendMessage({ userId: sara.user_id, text: '1234567890123456789' });
			expect((await api(other, 'getUpdates', {})).text).toContain('"text":"1234567890123456789"');
		});
	});
});

describe('lifecycle', () => {
	test('close() ends keep-alive connections and stops listening', async () => {
		const other = await startSandbox();
		const agent = new http.Agent({ keepAlive: true });
		const response = await axios.post(other.methodUrl('getMe', DEMO_BOT_TOKEN), {}, { httpAgent: agent });
		expect(response.data.status).toBe('OK');
		// The connection the agent keeps open for the next request.
		const kept: Socket = response.request.socket;
		expect(kept.destroyed).toBe(false);
		const ended = new Promise((resolve) => kept.once('close', resolve));
		await other.close();
		// The sandbox ended it: an idle keep-alive connection is not closed by the client on its own.
		await ended;
		expect(Object.values(agent.freeSockets).flat()).toEqual([]);
		await expect(axios.post(other.methodUrl('getMe', DEMO_BOT_TOKEN), {}, { httpAgent: agent })).rejects.toThrow(/ECONNREFUSED/);
		agent.destroy();
	});

	test('reset() restores the seed and clears logs', async () => {
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'x' });
		t.sandbox.addUser({ first_name: 'Extra' });
		t.sandbox.reset();
		expect(t.sandbox.messages(sara.chat_id)).toEqual([]);
		expect(t.sandbox.users()).toHaveLength(3);
		expect(t.sandbox.requests).toEqual([]);
		t.sandbox.reset('empty');
		expect(t.sandbox.snapshot()).toEqual({ bots: [], users: [], chats: [] });
		expect((await api(t.sandbox, 'getMe')).json.status).toBe('INVALID_INPUT');
	});

	test('configure() rejects unknown keys and bad values', () => {
		expect(() => t.sandbox.configure({ nope: true } as never)).toThrow(/nope/);
		expect(() => t.sandbox.configure({ latencyMs: -1 })).toThrow(/latencyMs/);
		expect(() => t.sandbox.configure({ oneTimeKeyboardSpelling: 'once' as never })).toThrow(/oneTimeKeyboardSpelling/);
	});
});

/**
 * The state file (`startSandbox({ stateFile })`, what `npm start` uses): a sandbox started on the file of an
 * earlier one goes on where that one stopped, over real HTTP, and a file it cannot use is set aside, never
 * trusted and never lost.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { RubikaSandbox } from '../../sandbox';
import { DEMO_BOT_ID, DEMO_GROUP_ID, DEMO_USERS, startSandbox } from '../../sandbox';
import { SAVE_DELAY_MS } from '../../sandbox/stateFile';
import type { Receiver } from './helpers';
import { adminCall, api, multipartBody, ok, postRaw, startReceiver, uploadFile } from './helpers';

const { sara, ali } = DEMO_USERS;

let dir: string;
let file: string;
const running: RubikaSandbox[] = [];
let warnings: jest.SpyInstance;
let errors: jest.SpyInstance;

beforeEach(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rubika-state-'));
	file = path.join(dir, 'sandbox-state.json');
	warnings = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
	errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(async () => {
	await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
	warnings.mockRestore();
	errors.mockRestore();
	fs.rmSync(dir, { recursive: true, force: true });
});

async function start(stateFile = file): Promise<RubikaSandbox> {
	const sandbox = await startSandbox({ stateFile });
	running.push(sandbox);
	return sandbox;
}

async function stop(sandbox: RubikaSandbox): Promise<void> {
	running.splice(running.indexOf(sandbox), 1);
	await sandbox.close();
}

async function userSends(sandbox: RubikaSandbox, text: string): Promise<{ message_id: string }> {
	const answer = await adminCall(sandbox, 'POST', '/actions/send-message', { userId: sara.user_id, text });
	expect(answer.httpStatus).toBe(200);
	return answer.json;
}

/** What a client sees of the world through the admin API: the part that must survive a restart. */
async function world(sandbox: RubikaSandbox) {
	const read = async (route: string) => (await adminCall(sandbox, 'GET', route)).json;
	return {
		state: await read('/state'),
		saraMessages: await read(`/chats/${sara.chat_id}/messages`),
		groupMessages: await read(`/chats/${DEMO_GROUP_ID}/messages`),
		updates: await read(`/bots/${DEMO_BOT_ID}/updates`),
	};
}

/** The saved JSON once it holds `text` (the save after a request comes within SAVE_DELAY_MS). */
async function savedFileHolding(text: string): Promise<string> {
	const deadline = Date.now() + SAVE_DELAY_MS + 2000;
	for (;;) {
		const saved = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
		if (saved.includes(text)) return saved;
		if (Date.now() > deadline) throw new Error(`${file} does not hold ${JSON.stringify(text)}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

describe('a sandbox started on the state file of an earlier one', () => {
	let receiver: Receiver;
	beforeEach(async () => {
		receiver = await startReceiver();
	});
	afterEach(async () => {
		await receiver.close();
	});

	test('has its world: chats, messages, members, keypads, pins, commands, endpoints, files, the update log', async () => {
		const first = await start();
		expect(first.stateFile).toEqual({ file, restored: false });
		const question = await userSends(first, 'hello');
		const { next_offset_id: cursor } = await ok(first, 'getUpdates', {});
		await ok(first, 'sendMessage', {
			chat_id: sara.chat_id,
			text: 'hi Sara',
			reply_to_message_id: question.message_id,
			inline_keypad: { rows: [{ buttons: [{ id: 'ok', type: 'Simple', button_text: 'OK' }] }] },
			chat_keypad_type: 'New',
			chat_keypad: { rows: [{ buttons: [{ id: 'menu', type: 'Simple', button_text: 'Menu' }] }] },
		});
		const announcement = await ok(first, 'sendMessage', { chat_id: DEMO_GROUP_ID, text: 'rules' });
		await ok(first, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: announcement.message_id });
		await ok(first, 'banChatMember', { chat_id: DEMO_GROUP_ID, user_id: ali.user_id });
		await ok(first, 'setCommands', { bot_commands: [{ command: 'start', description: 'Start' }] });
		await ok(first, 'updateBotEndpoints', { url: `${receiver.url}/hook`, type: 'ReceiveUpdate' });
		const bytes = Buffer.from([0, 1, 2, 250, 251, 252]);
		const fileId = await uploadFile(first, bytes, { filename: 'data.bin' });
		const { upload_url: unusedUpload } = await ok(first, 'requestSendFile', { type: 'File' });
		const before = await world(first);
		await stop(first);

		const second = await start();
		expect(second.stateFile).toEqual({ file, restored: true });
		expect(await world(second)).toEqual(before);
		expect(second.bot(DEMO_BOT_ID).endpoints).toEqual([expect.objectContaining({ type: 'ReceiveUpdate', url: `${receiver.url}/hook` })]);

		// The cursor a client saved before the restart is still accepted and reads only what is new.
		expect(await ok(second, 'getUpdates', { offset_id: cursor })).toEqual({ updates: [], next_offset_id: cursor });
		const later = await userSends(second, 'after the restart');
		const { updates } = await ok(second, 'getUpdates', { offset_id: cursor });
		expect(updates.map((update: any) => update.new_message.text)).toEqual(['after the restart']);
		expect(BigInt(later.message_id)).toBeGreaterThan(BigInt(before.saraMessages.at(-1).message_id));
		// The registered webhook gets it too.
		await second.deliveriesSettled();
		expect(receiver.hits.map((hit) => hit.body.update.new_message.text)).toEqual(['after the restart']);

		// Files: the bytes come back; an upload address handed out before the restart still takes its upload.
		const { download_url } = await ok(second, 'getFile', { file_id: fileId });
		expect(Buffer.from(await (await fetch(download_url)).arrayBuffer())).toEqual(bytes);
		const form = multipartBody([{ name: 'file', filename: 'late.txt', contentType: 'text/plain', data: 'late' }]);
		const upload = await postRaw(`${second.baseUrl}${new URL(unusedUpload).pathname}`, form.body, form.contentType);
		expect(upload.json).toEqual({ status: 'OK', data: { file_id: expect.any(String) } });
	});

	test('saves while running, so a sandbox that dies without closing loses at most the last moment', async () => {
		const first = await start();
		await userSends(first, 'before the crash');
		const saved = await savedFileHolding('before the crash');
		// The first sandbox never closes: a copy of its file is what a crash would leave.
		const copy = path.join(dir, 'copy.json');
		fs.writeFileSync(copy, saved);
		const second = await start(copy);
		expect(second.messages(sara.chat_id).map((message) => message.text)).toEqual(['before the crash']);
	});

	test('a rotated token is kept: after a restart the new token works and the old one is still refused', async () => {
		const first = await start();
		const { token } = first.rotateToken(DEMO_BOT_ID);
		await userSends(first, 'saved with the rotation');
		await savedFileHolding('saved with the rotation');
		await stop(first);
		const second = await start();
		expect((await api(second, 'getMe', {})).json.status).toBe('INVALID_INPUT');
		expect((await api(second, 'getMe', {}, token)).json.data.bot.bot_id).toBe(DEMO_BOT_ID);
	});

	test('a reset world is saved as such', async () => {
		const first = await start();
		await userSends(first, 'gone after the reset');
		await adminCall(first, 'POST', '/reset', { seed: 'empty' });
		await stop(first);
		const second = await start();
		expect(second.stateFile?.restored).toBe(true);
		expect(second.snapshot()).toEqual({ bots: [], users: [], chats: [] });
		expect(second.demo).toBeNull();
	});
});

describe('a state file the sandbox cannot use is set aside, reported, and the sandbox starts a new world', () => {
	async function startOn(content: string) {
		fs.writeFileSync(file, content);
		const sandbox = await start();
		const status = sandbox.stateFile;
		expect(status).toEqual({ file, restored: false, problem: expect.any(String), setAside: expect.stringMatching(/sandbox-state\.json\.bad-/) });
		// Kept as it was, beside the file, for a person to look at.
		expect(fs.readFileSync(status?.setAside as string, 'utf8')).toBe(content);
		expect(warnings).toHaveBeenCalledWith(expect.stringContaining(`could not use the state file ${file} (${status?.problem}); moved it to ${status?.setAside}`));
		// A new demo world, saved over the old place once something happens.
		expect(sandbox.messages(sara.chat_id)).toEqual([]);
		expect(sandbox.demo?.botId).toBe(DEMO_BOT_ID);
		await userSends(sandbox, 'new world');
		await savedFileHolding('new world');
		return status?.problem;
	}

	async function savedJson(): Promise<any> {
		const sandbox = await start();
		await userSends(sandbox, 'something');
		await stop(sandbox);
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	}

	test('cut short (not JSON)', async () => {
		const saved = JSON.stringify(await savedJson());
		expect(await startOn(saved.slice(0, saved.length / 2))).toMatch(/JSON/);
	});

	test.each([
		['another file', '{"hello": "world"}', 'not a sandbox state file (no "format": "rubika-sandbox-state")'],
		['a later version', '{"format": "rubika-sandbox-state", "version": 2}', 'state file version 2; this sandbox reads version 1'],
	])('%s', async (_name, content, problem) => {
		expect(await startOn(content)).toBe(problem);
	});

	test('a world that does not hold together, with the place named', async () => {
		const saved = await savedJson();
		saved.world.chats[0].userId = 'u0nobodyNobodyNobodyNobodyNobody';
		expect(await startOn(JSON.stringify(saved))).toBe('world.chats[0]: no user u0nobodyNobodyNobodyNobodyNobody');
	});
});

test('a save cut off halfway (a leftover temp file) leaves the last complete save, which is used', async () => {
	const first = await start();
	await userSends(first, 'complete');
	await stop(first);
	const temp = `${file}.tmp`;
	fs.writeFileSync(temp, '{"format": "rubika-sandbox-state", "version": 1, "world": {"bo');

	const second = await start();
	expect(second.stateFile).toEqual({ file, restored: true });
	expect(second.messages(sara.chat_id).map((message) => message.text)).toEqual(['complete']);
	expect(fs.existsSync(temp)).toBe(false);
	expect(warnings).toHaveBeenCalledWith(expect.stringContaining(`removed ${temp}, left by a save that did not finish`));
});

test('a save that fails leaves the file as it was and is reported once', async () => {
	const sandbox = await start();
	await userSends(sandbox, 'saved');
	const saved = await savedFileHolding('saved');
	// A directory where the temp file goes: the write fails before anything is renamed.
	fs.mkdirSync(`${file}.tmp`);
	for (const text of ['not saved', 'not saved either']) {
		await userSends(sandbox, text);
		await new Promise((resolve) => setTimeout(resolve, SAVE_DELAY_MS * 2));
	}
	expect(fs.readFileSync(file, 'utf8')).toBe(saved);
	expect(errors).toHaveBeenCalledTimes(1);
	expect(errors).toHaveBeenCalledWith(expect.stringContaining(`could not save the state to ${file}`));
	fs.rmdirSync(`${file}.tmp`);
});

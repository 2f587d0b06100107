/**
 * The probe of the real Rubika (probe/), run here against a sandbox as its base URL: it calls every method of
 * the node, undoes what it did, finds what differs (and nothing when nothing does), keeps the token out of its
 * report; and the sandbox, given a report, answers as that report says (sandbox/replay.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { RUBIKA_METHODS } from '../../nodes/shared/types';
import type { ProbeReport, ProbeSettings } from '../../sandbox/probeReport';
import { runProbe } from '../../probe/run';
import type { RubikaSandbox } from '../../sandbox';
import { DEMO_BOT_TOKEN, DEMO_GROUP_ID, DEMO_STICKERS, DEMO_USERS } from '../../sandbox';
import { replayOptions } from '../../sandbox/replay';
import { useSandbox, withSandbox } from '../support/sandbox';
import { api } from '../sandbox/helpers';

const REPO = path.resolve(__dirname, '..', '..');
const { sara, ali } = DEMO_USERS;
const t = useSandbox();

/** Every opt-in on, in the group where the bot is an admin: every method of the node gets called. */
function everything(sandbox: RubikaSandbox): ProbeSettings {
	return {
		baseUrl: sandbox.baseUrl,
		chatId: DEMO_GROUP_ID,
		stickerId: DEMO_STICKERS.like.sticker_id,
		banMemberId: ali.user_id,
		webhookUrl: 'https://probe.example/hook',
		unpinAll: true,
		getUpdates: true,
		setCommands: true,
		paceMs: 0,
	};
}

function expectNoToken(report: ProbeReport, token = DEMO_BOT_TOKEN): void {
	const text = JSON.stringify(report);
	expect(text).not.toContain(token);
	expect(text).not.toContain(encodeURIComponent(token));
	expect(text).toContain('/v3/***/getMe');
}

test('with every opt-in it calls every method of the node, undoes its messages, pins and keypad, and finds no difference', async () => {
	const sandbox = t.sandbox;
	const messageIds = () => sandbox.messages(DEMO_GROUP_ID).map((message) => message.message_id);
	const before = messageIds();
	const report = await runProbe(everything(sandbox), DEMO_BOT_TOKEN);

	expect(Object.keys(report.methods)).toEqual([...RUBIKA_METHODS]);
	for (const method of RUBIKA_METHODS) expect([method, report.methods[method]]).toEqual([method, expect.objectContaining({ answers: ['OK'] })]);
	expect(report.differences).toEqual([]);
	expect(report.notCompared).toBeUndefined();
	expect(report.stopped).toBeUndefined();
	expectNoToken(report);

	expect(sandbox.requestsFor('sendMessage').length).toBeGreaterThan(0);
	expect(messageIds()).toEqual(before);
	expect(sandbox.chat(DEMO_GROUP_ID).pinned_message_ids).toEqual([]);
	expect(sandbox.chatKeypad(DEMO_GROUP_ID)).toBeNull();
	expect(sandbox.bans(DEMO_GROUP_ID)).toEqual([]);
	expect(report.findings).toMatchObject({
		unknownMethod: { httpStatus: 200, status: 'INVALID_INPUT', packageSaysUnknownMethod: true },
		linkButtons: { accepted: true },
		buttonIdLength: { searched: [8, 256], longestAccepted: 256, shortestRefused: null },
		upload: { sameHostAsApi: true, answer: { status: 'OK' } },
		download: { sameHostAsApi: true, bytesMatch: true, again: { bytesMatch: true } },
		absentMethods: [],
	});
});

test('without opt-ins it leaves the bot\'s settings and other people alone, and tries sendSticker with a made-up id', async () => {
	const sandbox = t.sandbox;
	const report = await runProbe({ baseUrl: sandbox.baseUrl, chatId: sara.chat_id, unpinAll: false, getUpdates: false, setCommands: false, paceMs: 0 }, DEMO_BOT_TOKEN);

	for (const method of ['setCommands', 'updateBotEndpoints', 'getUpdates', 'unpinAllChatMessages', 'banChatMember', 'unbanChatMember'] as const) {
		expect(sandbox.requestsFor(method)).toHaveLength(0);
		expect(report.methods[method]).toEqual({ answers: [], skipped: expect.stringMatching(/^opt-in \(--/) });
	}
	expect(report.methods.sendSticker).toEqual({
		answers: [],
		experiments: ['sendSticker with a made-up sticker id: INVALID_INPUT'],
		skipped: expect.stringContaining('no --sticker'),
	});
	// A private chat: the sandbox refuses the member methods there, and the sandbox it compares with does the same.
	expect(report.methods.getChatMember.answers).toEqual(['INVALID_INPUT']);
	expect(report.differences).toEqual([]);
	expect(sandbox.messages(sara.chat_id).filter((message) => message.sender_type === 'Bot')).toEqual([]);
});

test('what a service answers otherwise becomes a difference, and the token in an answer is removed too', async () => {
	const sandbox = t.sandbox;
	sandbox.configure({ maxButtonIdLength: 40 });
	try {
		sandbox.injectFault({ kind: 'status', method: 'getChatMemberCount', status: 'INVALID_ACCESS', devMessage: `no access for ${DEMO_BOT_TOKEN}` });
		const report = await runProbe(everything(sandbox), DEMO_BOT_TOKEN);

		expect(report.findings.buttonIdLength).toMatchObject({ longestAccepted: 40, shortestRefused: 41, refusal: { status: 'INVALID_INPUT' } });
		expect(report.differences).toEqual([
			{ step: 'getChatMemberCount', method: 'getChatMemberCount', path: 'data', real: '(absent)', sandbox: 'object' },
			{ step: 'getChatMemberCount', method: 'getChatMemberCount', path: 'status', real: '"INVALID_ACCESS"', sandbox: '"OK"' },
			{ step: 'getChatMemberCount', method: 'getChatMemberCount', path: 'dev_message', real: 'string', sandbox: '(absent)' },
			{ step: 'findings', method: '', path: 'buttonIdLength.longestAccepted', real: '40', sandbox: '256' },
			{ step: 'findings', method: '', path: 'buttonIdLength.shortestRefused', real: '41', sandbox: 'null' },
		]);
		expectNoToken(report);
		const count = report.exchanges.find((exchange) => exchange.step === 'getChatMemberCount');
		expect(count?.response?.body).toEqual({ status: 'INVALID_ACCESS', dev_message: 'no access for ***' });
	} finally {
		sandbox.configure({ maxButtonIdLength: null });
	}
});

test('a token too short to be removed safely stops the report from being made', async () => {
	t.sandbox.injectFault({ kind: 'status', method: 'getMe', status: 'INVALID_INPUT', devMessage: 'token xyz is unknown' });
	await expect(runProbe({ ...everything(t.sandbox), chatId: sara.chat_id }, 'xyz')).rejects.toThrow('the report would still hold the bot token');
});

test('the sandbox loaded with a report answers as the report says', async () => {
	const report = await runProbe(everything(t.sandbox), DEMO_BOT_TOKEN);
	// As if the real Rubika had answered so.
	report.findings.buttonIdLength = { searched: [8, 256], longestAccepted: 20, shortestRefused: 21 };
	report.findings.unknownMethod = { httpStatus: 404, status: 'METHOD_NOT_FOUND', devMessage: 'no method n8nProbeNoSuchMethod', packageSaysUnknownMethod: true };
	report.findings.linkButtons = { accepted: false, answer: { httpStatus: 200, status: 'INVALID_INPUT' } };
	const answer = (step: string, httpStatus: number, body: unknown) => {
		const exchange = report.exchanges.find((candidate) => candidate.step === step)!;
		exchange.response = { ...exchange.response!, httpStatus, body };
		report.differences.push({ step, method: step, path: 'data', real: 'changed', sandbox: 'by this test' });
	};
	answer('getChatMemberCount', 200, { status: 'OK', data: { count: 3 } });
	answer('pinChatMessage', 403, { status: 'INVALID_ACCESS', dev_message: 'bot is not an admin' });
	answer('getChat', 200, { status: 'OK', data: { chat: { chat_id: 'g0real', chat_type: 'Group', title: 'Real', last_name: null } } });

	await withSandbox(replayOptions(report).options, async (replaying) => {
		const withButtonId = (length: number) =>
			api(replaying, 'sendMessage', { chat_id: sara.chat_id, text: 'hi', inline_keypad: { rows: [{ buttons: [{ id: 'x'.repeat(length), type: 'Simple', button_text: 'X' }] }] } });
		expect((await withButtonId(20)).json.status).toBe('OK');
		expect((await withButtonId(21)).json).toEqual({ status: 'INVALID_INPUT', dev_message: expect.stringContaining('at most 20') });
		const unknown = await api(replaying, 'setChatPhoto', {});
		expect([unknown.httpStatus, unknown.json]).toEqual([404, { status: 'METHOD_NOT_FOUND', dev_message: 'no method setChatPhoto' }]);
		expect((await api(replaying, 'getChatMemberCount', { chat_id: DEMO_GROUP_ID })).json).toEqual({ status: 'OK', data: { count: 3 } });
		const pin = await api(replaying, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: '1' });
		expect([pin.httpStatus, pin.json]).toEqual([403, { status: 'INVALID_ACCESS', dev_message: 'bot is not an admin' }]);
		// The shape is the recorded one, the values the sandbox's own.
		expect((await api(replaying, 'getChat', { chat_id: DEMO_GROUP_ID })).json.data).toEqual({
			chat: { chat_id: DEMO_GROUP_ID, chat_type: 'Group', title: 'Sandbox Group', last_name: null },
		});
		const link = await api(replaying, 'sendMessage', {
			chat_id: sara.chat_id,
			text: 'hi',
			inline_keypad: { rows: [{ buttons: [{ id: 'l', type: 'Link', button_text: 'L', button_link: { type: 'url', link_url: 'https://n8n.io' } }] }] },
		});
		expect(link.json.status).toBe('INVALID_INPUT');

		// And a probe of the replaying sandbox finds what the report said.
		const again = await runProbe(everything(replaying), DEMO_BOT_TOKEN);
		expect(again.findings.buttonIdLength).toMatchObject({ longestAccepted: 20, shortestRefused: 21 });
		expect(again.findings.linkButtons?.accepted).toBe(false);
		expect(again.differences).toEqual(
			expect.arrayContaining([
				{ step: 'getChatMemberCount', method: 'getChatMemberCount', path: 'data.count', real: 'number', sandbox: '(absent)' },
				{ step: 'findings', method: '', path: 'buttonIdLength.longestAccepted', real: '20', sandbox: '256' },
			]),
		);
	});
});

test('replayOptions refuses what is not a probe report', () => {
	expect(() => replayOptions({ format: 2, exchanges: [], findings: {} })).toThrow('not a probe report of format 1');
	expect(() => replayOptions([])).toThrow('not a probe report');
});

/** Runs a TypeScript entry point of the repository as `npm run …` does; resolves with its exit code and output. */
function runScript(script: string, args: string[], env: Record<string, string>, until?: (stdout: string) => boolean) {
	const child = spawn(process.execPath, [path.join(REPO, 'node_modules', '.bin', 'ts-node'), '--transpile-only', script, ...args], {
		cwd: REPO,
		env: { ...process.env, ...env },
	});
	let [stdout, stderr] = ['', ''];
	return new Promise<{ code: number | null; stdout: string; stderr: string; stop: () => void }>((resolve) => {
		const done = () => resolve({ code: child.exitCode, stdout, stderr, stop: () => child.kill() });
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			if (until?.(stdout)) done();
		});
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('close', done);
	});
}

test('npm run probe takes the token from RUBIKA_BOT_TOKEN and writes a report without it', async () => {
	const dir = mkdtempSync(path.join(tmpdir(), 'rubika-probe-'));
	try {
		const out = path.join(dir, 'report.json');
		const run = await runScript('probe/cli.ts', ['--base-url', t.sandbox.baseUrl, '--chat', sara.chat_id, '--pace-ms', '0', '--out', out], {
			RUBIKA_BOT_TOKEN: DEMO_BOT_TOKEN,
		});
		expect(run.stderr).not.toContain(DEMO_BOT_TOKEN);
		expect(run.stdout).toContain(`Report: ${out}`);
		expect(run.stdout).toContain('0 differences from the sandbox');
		expect(run.code).toBe(0);
		const text = readFileSync(out, 'utf8');
		expect(text).not.toContain(DEMO_BOT_TOKEN);
		expect((JSON.parse(text) as ProbeReport).settings.chatId).toBe(sara.chat_id);

		// npm run sandbox -- --replay: the report's answers, here the unknown method's, over HTTP.
		const report = JSON.parse(text) as ProbeReport;
		report.findings.unknownMethod = { httpStatus: 404, status: 'NOT_FOUND', devMessage: 'no method n8nProbeNoSuchMethod here', packageSaysUnknownMethod: true };
		const replayFile = path.join(dir, 'replay.json');
		writeFileSync(replayFile, JSON.stringify(report));
		const sandbox = await runScript('sandbox/cli.ts', ['--replay', replayFile], { RUBIKA_SANDBOX_PORT: '0' }, (stdout) => stdout.includes('Ctrl+C'));
		try {
			expect(sandbox.stdout).toContain(`Replaying ${replayFile}`);
			const baseUrl = /Base URL[^:]*: (http:\/\/\S+)/.exec(sandbox.stdout)?.[1];
			const answer = await fetch(`${baseUrl}/v3/${DEMO_BOT_TOKEN}/setChatPhoto`, { method: 'POST', body: '{}' });
			expect([answer.status, await answer.json()]).toEqual([404, { status: 'NOT_FOUND', dev_message: 'no method setChatPhoto here' }]);
		} finally {
			sandbox.stop();
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

test('npm run probe -- --interactive without a terminal and without --yes says what it would do and sends nothing; flags of the other run are refused', async () => {
	const dir = mkdtempSync(path.join(tmpdir(), 'rubika-probe-'));
	try {
		const out = path.join(dir, 'interactive.json');
		const run = await runScript('probe/cli.ts', ['--interactive', '--base-url', t.sandbox.baseUrl, '--chat', sara.chat_id, '--pace-ms', '0', '--out', out], {
			RUBIKA_BOT_TOKEN: DEMO_BOT_TOKEN,
		});
		expect(run.stdout).toContain('stop every workflow');
		expect(run.stdout).toContain('Stopped: no terminal to agree at');
		expect(run.code).toBe(1);
		expect((JSON.parse(readFileSync(out, 'utf8')) as ProbeReport).stopped).toContain('run it again with --yes');
		for (const method of ['getUpdates', 'sendMessage']) expect(t.sandbox.requestsFor(method)).toHaveLength(0);

		const misplaced = await runScript('probe/cli.ts', ['--interactive', '--get-updates', '--chat', sara.chat_id, '--yes'], { RUBIKA_BOT_TOKEN: DEMO_BOT_TOKEN });
		expect([misplaced.code, misplaced.stderr]).toEqual([2, expect.stringContaining('--get-updates belong to the method run, not to --interactive')]);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

#!/usr/bin/env node
// `npm start` twice keeps the demo alive, and `npm start` stops everything it started when only npm gets the
// signal, as a process manager or `kill -INT <npm pid>` sends it (Ctrl-C in a terminal signals the whole
// process group instead).
//
// Three runs of `npm start -- --no-build` on one temporary n8n user folder and one set of free ports, each in a
// process group of its own:
//   1. a fresh start; two bots are published through n8n's public API, as a user publishes them: an echo bot
//      on a Rubika Trigger receiving by reading and one on a Rubika Trigger receiving by webhook, both replying
//      with Send Text. A message from Sara gets both replies. Then SIGINT goes to the npm process alone.
//   2. `npm start` again: the sandbox says it restored its world, the first conversation is still there, and
//      a new message gets both replies, with nothing published again (the trigger by webhook registers its
//      own address again at n8n's start, what repairs a bot taken over while n8n was down). Then SIGTERM.
//   3. a workflow from before one version per node and one trigger (a Rubika Webhook Trigger, Rubika Trigger
//      2.1, Rubika 1.1) imported into the folder with n8n's CLI, then `npm start`: it fails loudly, naming that
//      workflow and its nodes and saying what to do (--fresh), and exits 1 by itself.
// After each signal (or the failure) npm must exit, and every process it started (the start script, the
// sandbox, n8n and its task runner) must be gone, their ports free.
//
//   node e2e/start.mjs        (after a build: dist/ must exist, as `npm test` leaves it)
import { spawn, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXAMPLE_CREDENTIAL } from '../tooling/examples.mjs';
import { ensureN8n } from '../tooling/install-n8n.mjs';
import { createReporter, eventually, isMain } from './lib/reporter.mjs';
import { REPO_ROOT, createApiKey, createContext, freePort, importWorkflows, isPortFree, publicApi, setupOwner, waitForWebhook } from '../tooling/n8n.mjs';
import { sandboxAdmin } from '../tooling/sandbox.mjs';
import { linearWorkflow, node, readingTrigger, rubika, webhookTrigger } from '../tooling/workflow-builder.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const READY_LINE = 'Ctrl-C stops n8n and the sandbox';
/** A reply that has not arrived by then is not coming. Not a performance bound. */
const REPLY_DEADLINE_MS = 30_000;

/** Every process below `pid`, from /proc (Linux). */
function descendants(pid) {
	const children = new Map();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (!children.has(ppid)) children.set(ppid, []);
			children.get(ppid).push(Number(entry));
		} catch {
			/* gone meanwhile */
		}
	}
	const out = [];
	const walk = (p) => {
		for (const child of children.get(p) ?? []) {
			out.push(child);
			walk(child);
		}
	};
	walk(pid);
	return out;
}

const alive = (pid) => {
	try {
		process.kill(pid, 0);
		// A zombie is gone for every purpose here.
		return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
	} catch {
		return false;
	}
};

function procName(pid) {
	try {
		return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim().slice(0, 120);
	} catch {
		return '?';
	}
}

/** The two bots of run 1: each replies to a message with its own prefix, so either reply can be told apart. */
function echoBots() {
	const reply = (prefix) =>
		rubika('Reply', {
			resource: 'message',
			operation: 'sendMessage',
			chatId: '={{ $json.chat_id }}',
			text: `=${prefix}: {{ $json.text }}`,
			sendOptions: { replyToMessageId: '={{ $json.message_id }}' },
		});
	return [
		linearWorkflow(undefined, 'Echo bot (trigger by reading)', [readingTrigger('Rubika Trigger', {}), reply('echo')]),
		linearWorkflow(undefined, 'Echo bot (trigger by webhook)', [
			webhookTrigger('Rubika Trigger', { endpoints: ['ReceiveUpdate'], updateTypes: ['NewMessage'] }),
			reply('webhook'),
		]),
	];
}

const OLD_WORKFLOW_ID = 'e2eStartOldWflw1';
const OLD_WORKFLOW_NAME = 'Echo bot from before one trigger';

/** A workflow as a user folder from before issue 31 holds it: the removed webhook trigger, Rubika Trigger 2.1, Rubika 1.1. */
function oldWorkflow() {
	const reply = rubika('Reply', { resource: 'message', operation: 'sendMessage', chatId: '={{ $json.chat_id }}', text: '=old: {{ $json.text }}' }, { typeVersion: 1.1 });
	return linearWorkflow(OLD_WORKFLOW_ID, OLD_WORKFLOW_NAME, [
		node('Rubika Webhook Trigger', 'n8n-nodes-rubika.rubikaWebhookTrigger', {}, { typeVersion: 2, credential: EXAMPLE_CREDENTIAL, webhookId: randomUUID() }),
		node('Rubika Trigger', 'n8n-nodes-rubika.rubikaTrigger', {}, { typeVersion: 2.1, credential: EXAMPLE_CREDENTIAL }),
		reply,
	]);
}

/** `npm start -- --no-build` that must fail: resolves once npm has exited (by itself), with every process it started. */
async function failingStart(t, label, env) {
	const t0 = Date.now();
	const npm = spawn('npm', ['start', '--', '--no-build'], { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	const run = { npm, output: '', started: [] };
	npm.stdout.on('data', (d) => (run.output += d));
	npm.stderr.on('data', (d) => (run.output += d));
	const exited = new Promise((resolve) => npm.once('exit', (code, signal) => resolve({ code, signal })));
	// What it starts, seen while it runs (it is gone by the end).
	const watch = setInterval(() => (run.started = [...new Set([...run.started, ...descendants(npm.pid)])]), 200);
	const result = await Promise.race([exited, sleep(240_000).then(() => 'timeout')]);
	clearInterval(watch);
	if (result === 'timeout') killGroup(run);
	t.check(`${label}: npm start fails by itself (exit 1)`, result !== 'timeout' && result.code === 1, `${JSON.stringify(result)} after ${seconds(t0)}, ${run.started.length} processes seen`);
	return run;
}

/** `npm start -- --no-build` in a process group of its own; resolves once it printed its summary. */
async function startNpm(t, label, env) {
	const t0 = Date.now();
	const npm = spawn('npm', ['start', '--', '--no-build'], { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	const run = { npm, output: '', exited: new Promise((resolve) => npm.once('exit', (code, sig) => resolve({ code, signal: sig }))) };
	npm.stdout.on('data', (d) => (run.output += d));
	npm.stderr.on('data', (d) => (run.output += d));
	const deadline = Date.now() + 240_000;
	while (!run.output.includes(READY_LINE) && Date.now() < deadline && npm.exitCode === null) await sleep(200);
	const ready = run.output.includes(READY_LINE);
	run.ready = t.check(`${label}: npm start gets n8n and the sandbox running`, ready, ready ? seconds(t0) : run.output.slice(-3000));
	if (run.ready) {
		run.started = descendants(npm.pid);
		t.check(`${label}: n8n and the sandbox run below npm`, run.started.length >= 3, `${run.started.length} processes`);
	}
	return run;
}

/** `signal` to npm alone: npm exits, and every process it started is gone with its port. */
async function stopNpm(t, run, signal, ports) {
	const t0 = Date.now();
	process.kill(run.npm.pid, signal); // npm alone, not its process group
	const result = await Promise.race([run.exited, sleep(60_000).then(() => 'timeout')]);
	t.check(`${signal} to npm alone: npm exits`, result !== 'timeout', `${JSON.stringify(result)} after ${seconds(t0)}`);
	let left = run.started.filter(alive);
	for (let i = 0; i < 100 && left.length; i++) {
		await sleep(100);
		left = run.started.filter(alive);
	}
	t.eq(`${signal}: every process npm start started is gone`, left.map((pid) => `${pid} ${procName(pid)}`), []);
	const busy = [];
	for (const [name, port] of Object.entries(ports)) if (!(await isPortFree(port))) busy.push(`${name} ${port}`);
	t.eq(`${signal}: their ports are free again`, busy, []);
}

function killGroup(run) {
	if (run?.npm.exitCode !== null) return;
	try {
		process.kill(-run.npm.pid, 'SIGKILL');
	} catch {
		/* gone */
	}
}

async function threeRuns(t) {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'rubika-start-'));
	const ports = { n8n: await freePort(), broker: await freePort(), sandbox: await freePort() };
	const env = { ...process.env, N8N_PORT: String(ports.n8n), N8N_RUNNERS_BROKER_PORT: String(ports.broker), RUBIKA_SANDBOX_PORT: String(ports.sandbox), RUBIKA_N8N_USER_FOLDER: userFolder };
	for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];
	const n8n = { baseUrl: `http://127.0.0.1:${ports.n8n}` };
	const admin = sandboxAdmin(`http://127.0.0.1:${ports.sandbox}`);
	let run;
	try {
		// --- run 1: publish, a message gets its replies, SIGINT ---------------------------------------
		run = await startNpm(t, 'first start', env);
		if (!run.ready) return;
		const world = await admin.state();
		const bot = world.bots[0];
		const sara = world.users.find((user) => user.first_name === 'Sara');
		const saraChat = world.chats.find((chat) => chat.user_id === sara.user_id).chat_id;
		/** Sara writes; both bots must answer with a reply to her message. */
		const converse = async (label, text) => {
			const sent = Date.now();
			const question = await admin.act('send-message', { userId: sara.user_id, chatId: saraChat, text });
			const replies = await eventually(
				async () => {
					const found = (await admin.messages(saraChat)).filter((m) => m.sender_type === 'Bot' && m.reply_to_message_id === question.message_id);
					return found.length >= 2 ? found : undefined;
				},
				{ timeoutMs: REPLY_DEADLINE_MS },
			);
			const texts = (replies ?? []).map((m) => m.text).sort();
			const expected = [`echo: ${text}`, `webhook: ${text}`];
			if (t.eq(`${label}: both bots reply to "${text}"`, texts, expected)) t.note(`both replies within ${seconds(sent)}`);
		};

		const publishing = Date.now();
		const s = await setupOwner(n8n);
		const apiKey = await createApiKey(n8n, s, { label: 'e2e start' });
		for (const workflow of echoBots()) {
			const { name, nodes, connections, settings } = workflow;
			const created = await publicApi(n8n, apiKey, '/workflows', { method: 'POST', body: { name, nodes, connections, settings } });
			await publicApi(n8n, apiKey, `/workflows/${created.id}/activate`, { method: 'POST' });
		}
		// n8n activates after the API call returns: wait for the webhook's registration with the sandbox and
		// n8n's route for it, and for the trigger by reading's first reading (Start From Now marks "now" there).
		const endpoint = await eventually(async () => (await admin.bot(bot.bot_id)).endpoints.find((e) => e.type === 'ReceiveUpdate'), { timeoutMs: 30_000 });
		const hookPath = new URL(endpoint.url).pathname.replace(/^\/webhook\//, '');
		await waitForWebhook(n8n, hookPath);
		await eventually(async () => (await admin.requests('getUpdates')).length >= 2, { timeoutMs: 30_000 });
		t.note(`both bots published and listening within ${seconds(publishing)}`);
		await converse('first start', 'hello before the restart');
		const firstConversation = await admin.messages(saraChat);
		await stopNpm(t, run, 'SIGINT', ports);

		// --- run 2: the same folder and ports, nothing published again, SIGTERM --------------------------
		run = await startNpm(t, 'second start', env);
		if (!run.ready) return;
		t.check('second start: the sandbox restored its world from the user folder', run.output.includes(`world restored from ${path.join(userFolder, 'sandbox-state.json')}`), run.output.match(/ {3}world .*/)?.[0]);
		t.eq('second start: the first conversation is still there', await admin.messages(saraChat), firstConversation);
		// The endpoint is the sandbox's from run 1; n8n must have its route again before a delivery can land.
		await waitForWebhook(n8n, hookPath);
		await converse('second start', 'hello after the restart');
		const refusedReads = (await admin.requests('getUpdates')).filter((r) => r.status !== 'OK');
		t.eq('second start: the trigger by reading read on from its saved position (no getUpdates refused)', refusedReads.map((r) => r.status), []);
		const again = await admin.requests('updateBotEndpoints');
		t.check(
			'second start: nothing published again; the trigger by webhook registered its own address again, once per endpoint type it has',
			again.map((r) => r.body.type).sort().join() === (await admin.bot(bot.bot_id)).endpoints.map((e) => e.type).sort().join() && again.every((r) => r.body.url === endpoint.url),
			again.map((r) => r.body.type),
		);
		await stopNpm(t, run, 'SIGTERM', ports);

		// --- run 3: a workflow with node types and versions the package no longer has: npm start fails loudly ---
		const paths = await ensureN8n({ version: process.env.RUBIKA_N8N_VERSION });
		await importWorkflows(createContext({ paths, userFolder, port: ports.n8n, brokerPort: ports.broker }), [oldWorkflow()]);
		run = await failingStart(t, 'an old workflow in the folder', env);
		const message = run.output.slice(run.output.indexOf('[start] FAILED'));
		t.check(
			'… saying that the folder holds workflows with Rubika nodes the package no longer has, naming it and each such node',
			message.includes('holds workflows with Rubika nodes the package no longer has') &&
				message.includes(`"${OLD_WORKFLOW_NAME}" (ID ${OLD_WORKFLOW_ID}): Rubika Webhook Trigger (n8n-nodes-rubika.rubikaWebhookTrigger v2), Rubika Trigger (n8n-nodes-rubika.rubikaTrigger v2.1), Reply (n8n-nodes-rubika.rubika v1.1)`),
			message.slice(0, 1500) || run.output.slice(-2000),
		);
		t.check('… and what to do: npm start -- --fresh, or another RUBIKA_N8N_USER_FOLDER', message.includes('npm start -- --fresh') && message.includes('RUBIKA_N8N_USER_FOLDER'), message.slice(0, 1500));
		let left = run.started.filter(alive);
		for (let i = 0; i < 100 && left.length; i++) {
			await sleep(100);
			left = run.started.filter(alive);
		}
		t.eq('… every process it started is gone', left.map((pid) => `${pid} ${procName(pid)}`), []);
		const busy = [];
		for (const [name, port] of Object.entries(ports)) if (!(await isPortFree(port))) busy.push(`${name} ${port}`);
		t.eq('… their ports are free again', busy, []);
	} finally {
		killGroup(run);
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

export async function main() {
	const t = createReporter('start');
	process.stdout.write('\n=== npm start three times: the demo goes on; stopping on a signal to npm alone; an old folder refused ===\n');
	const started = Date.now();
	await t.step('npm start three times', () => threeRuns(t));
	process.stdout.write(`${t.passed} passed, ${t.failed} failed (start, ${seconds(started)})\n`);
	return t.failed ? 1 : 0;
}

if (isMain(import.meta.url)) process.exit(await main());

#!/usr/bin/env node
// `npm start`: a real n8n with this package loaded, talking to the Rubika sandbox (or to Rubika).
//
//   npm start                       build, pack, install into n8n, start sandbox + n8n, print the login
//   npm start -- --fresh            start over: an empty n8n (new database, owner, credential) and a new sandbox world
//   npm start -- --no-build         use dist/ as it is
//   RUBIKA_BOT_TOKEN=… npm start    use the real Bot API (https://botapi.rubika.ir or RUBIKA_BASE_URL)
//
// Environment (all optional):
//   N8N_PORT (5678)  N8N_RUNNERS_BROKER_PORT (N8N_PORT+1)  RUBIKA_SANDBOX_PORT (8765)
//   RUBIKA_N8N_HOME (~/.cache/n8n-nodes-rubika)  RUBIKA_N8N_VERSION (2.41.1; 2.8.4 runs on Node 20)
//   RUBIKA_N8N_USER_FOLDER (RUBIKA_N8N_HOME/user-<version>)   where n8n keeps its database and settings
//   RUBIKA_BOT_TOKEN, RUBIKA_BASE_URL      real API instead of the sandbox
//   RUBIKA_N8N_OWNER_EMAIL / RUBIKA_N8N_OWNER_PASSWORD   the login to create (first run)
//   N8N_LISTEN_ADDRESS (127.0.0.1)         use 0.0.0.0 to reach the editor from another machine
//   RUBIKA_EXAMPLES_DIR (examples/)        workflows to import (each file one workflow JSON)
//
// Ctrl-C stops n8n and the sandbox. The n8n install and the user folder are reused, so a second
// start takes seconds plus n8n's own boot (about 10 s). The sandbox keeps its world (chats, messages,
// update log, registered webhooks, files) in the user folder too, beside n8n's database: what n8n saved
// about the bot (a trigger's position, a registered webhook) holds in the next run, and --fresh drops both.
//
// A user folder from before the package had one version per node and one trigger (issue 31) may hold
// workflows with node types or versions it no longer has (the Rubika Webhook Trigger, Rubika Trigger 2 or
// 2.1, Rubika 1.1). The examples are imported again in their new form; any other such workflow makes npm
// start stop with an error that names it (n8n cannot run it): start over with --fresh, or point
// RUBIKA_N8N_USER_FOLDER at a new folder.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureN8n } from '../tooling/install-n8n.mjs';
import { EXAMPLE_CREDENTIAL, readExamples } from '../tooling/examples.mjs';
import * as n8n from '../tooling/n8n.mjs';
import { startSandboxProcess } from '../tooling/sandbox.mjs';

const REPO = n8n.REPO_ROOT;
const args = new Set(process.argv.slice(2));
const t0 = Date.now();
const say = (s) => process.stdout.write(`[start] ${s}\n`);
const warn = (s) => process.stdout.write(`[start] WARNING: ${s}\n`);
const secs = (t) => `${((Date.now() - t) / 1000).toFixed(1)} s`;

// The example workflows name this credential; tooling/examples.mjs keeps both in step.
const CREDENTIAL_ID = EXAMPLE_CREDENTIAL.id;
const CREDENTIAL_NAME = EXAMPLE_CREDENTIAL.name;

const children = [];
let stopping = false;
async function stopAll(code = 0) {
	if (stopping) return;
	stopping = true;
	say('stopping…');
	for (const c of children.reverse()) {
		try {
			await c.stop();
		} catch {
			/* already gone */
		}
	}
	process.exit(code);
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
process.on('SIGHUP', () => stopAll(0));
// `npm start` execs this process, so a SIGINT or SIGTERM npm forwards arrives here. When npm itself is
// killed outright (SIGKILL) nothing arrives and this process is re-parented: notice that and stop
// everything, as Ctrl-C would.
const startedUnder = process.ppid;
setInterval(() => {
	if (process.ppid !== startedUnder) void stopAll(0);
}, 500).unref();

function hash(...parts) {
	const h = createHash('sha256');
	for (const p of parts) h.update(typeof p === 'string' ? p : JSON.stringify(p)).update('\0');
	return h.digest('hex').slice(0, 16);
}

function readState(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return {};
	}
}

function packageEntries() {
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
	return [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
}

async function prepareUserFolder(paths) {
	const userFolder = process.env.RUBIKA_N8N_USER_FOLDER
		? path.resolve(process.env.RUBIKA_N8N_USER_FOLDER)
		: path.join(paths.home, `user-${paths.version}`);
	if (args.has('--fresh')) {
		say(`--fresh: removing ${userFolder}`);
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
	fs.mkdirSync(userFolder, { recursive: true });
	return userFolder;
}

/** Build, pack and install the package; returns whether n8n will have it. */
async function installPackage(ctx, stateFile) {
	if (!args.has('--no-build')) {
		const t = Date.now();
		say('building the package (npm run build)…');
		const b = await n8n.buildPackage();
		if (b.ok) say(`built in ${secs(t)}`);
		else warn(`npm run build failed; using dist/ as it is.\n${b.output.trim().split('\n').slice(-15).join('\n')}`);
	}
	const missing = packageEntries().filter((f) => !fs.existsSync(path.join(REPO, f)));
	if (missing.length === packageEntries().length) {
		warn('dist/ has none of the files package.json lists for n8n: n8n starts WITHOUT the Rubika nodes.');
		return false;
	}
	if (missing.length) warn(`dist/ lacks ${missing.join(', ')}: n8n will not know those.`);

	const t = Date.now();
	const packDir = path.join(ctx.paths.home, 'packs');
	fs.rmSync(packDir, { recursive: true, force: true });
	const { tgz } = await n8n.packPackage({ destDir: packDir });
	const tgzHash = hash(fs.readFileSync(tgz));
	const state = readState(stateFile);
	const installedDir = path.join(ctx.n8nFolder, 'nodes', 'node_modules', n8n.PACKAGE_NAME);
	if (state.packageHash === tgzHash && fs.existsSync(installedDir)) {
		say(`package unchanged since the last start (${path.basename(tgz)}); kept the installed copy`);
	} else {
		await n8n.installPackageTarball(ctx, tgz);
		fs.writeFileSync(stateFile, JSON.stringify({ ...state, packageHash: tgzHash }, null, 2));
		say(`packed and installed ${path.basename(tgz)} into ${path.relative(ctx.paths.home, installedDir)} in ${secs(t)}`);
	}
	return true;
}

/** Copies examples/*.json into a temp dir, their Rubika nodes on our credential, each with a stable id. */
function prepareExamples() {
	const dir = process.env.RUBIKA_EXAMPLES_DIR ? path.resolve(process.env.RUBIKA_EXAMPLES_DIR) : undefined;
	const found = readExamples(dir ? { dir } : {});
	if (!found.length) return undefined;
	const out = fs.mkdtempSync(path.join(process.env.TMPDIR || '/tmp', 'rubika-examples-'));
	const list = [];
	for (const { file, workflow, error } of found) {
		if (error) {
			warn(`examples/${file}: ${error}; skipped`);
			continue;
		}
		fs.writeFileSync(path.join(out, file), JSON.stringify(workflow, null, 2));
		list.push({ file, id: workflow.id, name: workflow.name });
	}
	return { dir: out, list };
}

const TRIGGER = `${n8n.PACKAGE_NAME}.rubikaTrigger`;
/** A Rubika Trigger that receives by webhook (Receive Updates: By Webhook) and is not disabled. */
const receivesByWebhook = (node) => node.type === TRIGGER && node.parameters?.receiveUpdates === 'webhook' && !node.disabled;

/** A public API key of this n8n, kept in the state file (created once, again when it stops working). */
async function apiKeyFor(ctx, s, stateFile) {
	const { apiKey } = readState(stateFile);
	if (apiKey) {
		try {
			await n8n.publicApi(ctx, apiKey, '/workflows?limit=1');
			return apiKey;
		} catch {
			// Not this database's key (the folder was started over): make a new one.
		}
	}
	const created = await n8n.createApiKey(ctx, s, { label: 'npm start' });
	fs.writeFileSync(stateFile, JSON.stringify({ ...readState(stateFile), apiKey: created }, null, 2), { mode: 0o600 });
	return created;
}

/** Every workflow of this n8n (all pages of the public API), with its nodes. */
async function allWorkflows(ctx, apiKey, query = '') {
	const all = [];
	let cursor;
	do {
		const page = await n8n.publicApi(ctx, apiKey, `/workflows?limit=250${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
		all.push(...(page.data ?? []));
		cursor = page.nextCursor;
	} while (cursor);
	return all;
}

/**
 * The workflows with a node of this package whose type or version n8n does not know, as the installed package
 * offers none (a user folder from before one version per node and one trigger): [`"name" (ID id): node (type
 * vN), …`]. n8n cannot run or publish those.
 */
async function workflowsWithRemovedNodes(ctx, apiKey, s) {
	const known = new Map();
	for (const type of await s.get('/types/nodes.json')) {
		for (const version of Array.isArray(type.version) ? type.version : [type.version]) known.set(`${type.name}@${version}`, true);
	}
	const found = [];
	for (const wf of await allWorkflows(ctx, apiKey)) {
		const removed = (wf.nodes ?? []).filter((node) => String(node.type).startsWith(`${n8n.PACKAGE_NAME}.`) && !known.has(`${node.type}@${node.typeVersion}`));
		if (removed.length) found.push(`"${wf.name}" (ID ${wf.id}): ${removed.map((node) => `${node.name} (${node.type} v${node.typeVersion})`).join(', ')}`);
	}
	return found;
}

/**
 * For a sandbox that started a new state while n8n's folder is older (its state file was missing or
 * unusable): the endpoints an active Rubika Trigger by webhook registered in an earlier run are gone, while
 * the node still remembers having registered them (and would not do it again). Deactivating and
 * activating such workflows makes them register with this sandbox. Returns their names.
 */
async function reRegisterWebhooks(ctx, apiKey) {
	const names = [];
	for (const wf of await allWorkflows(ctx, apiKey, '&active=true')) {
		if (!wf.nodes?.some(receivesByWebhook)) continue;
		await n8n.publicApi(ctx, apiKey, `/workflows/${wf.id}/deactivate`, { method: 'POST' });
		await n8n.publicApi(ctx, apiKey, `/workflows/${wf.id}/activate`, { method: 'POST' });
		names.push(`"${wf.name}"`);
	}
	return names;
}

async function main() {
	// The project's own dependencies first (what `npm test` does too). Run from here, not chained in the npm
	// script, so that npm's child is this process and a signal npm forwards reaches it.
	execFileSync(process.execPath, [path.join(path.dirname(new URL(import.meta.url).pathname), 'ensure-deps.mjs')], { stdio: 'inherit' });
	const port = Number(process.env.N8N_PORT || 5678);
	const brokerPort = Number(process.env.N8N_RUNNERS_BROKER_PORT || port + 1);
	const sandboxPort = Number(process.env.RUBIKA_SANDBOX_PORT || 8765);
	const listenAddress = process.env.N8N_LISTEN_ADDRESS || '127.0.0.1';
	const owner = {
		...n8n.DEFAULT_OWNER,
		...(process.env.RUBIKA_N8N_OWNER_EMAIL ? { email: process.env.RUBIKA_N8N_OWNER_EMAIL } : {}),
		...(process.env.RUBIKA_N8N_OWNER_PASSWORD ? { password: process.env.RUBIKA_N8N_OWNER_PASSWORD } : {}),
	};

	// Fail early on busy ports, before minutes of work.
	for (const [p, what, env] of [
		[port, 'n8n', 'N8N_PORT'],
		[brokerPort, "n8n's task broker", 'N8N_RUNNERS_BROKER_PORT'],
		...(process.env.RUBIKA_BOT_TOKEN ? [] : [[sandboxPort, 'the sandbox', 'RUBIKA_SANDBOX_PORT']]),
	]) {
		if (!(await n8n.isPortFree(p))) throw new Error(`Port ${p} (${what}) is in use. Stop what uses it or set ${env}.`);
	}

	const paths = await ensureN8n({ log: (s) => say(`install: ${s}`) });
	say(`n8n ${paths.version} ready (${paths.dir})`);
	const userFolder = await prepareUserFolder(paths);
	const ctx = n8n.createContext({ paths, userFolder, port, brokerPort, host: '127.0.0.1', listenAddress });
	if (listenAddress !== '127.0.0.1') ctx.env.N8N_HOST = 'localhost';
	const stateFile = path.join(userFolder, 'start-state.json');
	// Beside n8n's database, so the two stay in step: removed together by --fresh.
	const sandboxStateFile = path.join(userFolder, 'sandbox-state.json');

	const hasPackage = await installPackage(ctx, stateFile);

	// The Rubika API: the sandbox, or the real one.
	let api;
	if (process.env.RUBIKA_BOT_TOKEN) {
		api = {
			kind: 'real',
			baseUrl: process.env.RUBIKA_BASE_URL || 'https://botapi.rubika.ir',
			token: process.env.RUBIKA_BOT_TOKEN,
		};
		say(`using the real Rubika Bot API at ${api.baseUrl} (RUBIKA_BOT_TOKEN is set)`);
	} else {
		const t = Date.now();
		try {
			const sb = await startSandboxProcess({
				port: sandboxPort,
				stateFile: sandboxStateFile,
				onLine: (l) => process.stdout.write(`[sandbox] ${l}\n`),
			});
			children.push({ stop: sb.stop });
			sb.child.on('exit', (code) => {
				if (!stopping) warn(`the sandbox exited (${code}); n8n keeps running without it`);
			});
			api = { kind: 'sandbox', baseUrl: sb.url, token: sb.demo.token, sandbox: sb };
			say(`sandbox listening at ${sb.url} (${secs(t)})`);
			if (!sb.demo.token) warn('could not find a demo bot token in what startSandbox() returned');
		} catch (e) {
			warn(`the sandbox did not start (${String(e.message).split('\n')[0]}); n8n starts without it.`);
			api = { kind: 'none', baseUrl: `http://127.0.0.1:${sandboxPort}`, token: '' };
		}
	}

	// Credential and example workflows (CLI imports: n8n must not be running on this folder).
	const state = readState(stateFile);
	const credData = { accessToken: api.token || 'set-me', baseUrl: api.baseUrl };
	const credHash = hash(credData);
	if (state.credentialHash !== credHash) {
		const t = Date.now();
		await n8n.importCredentials(ctx, [{ id: CREDENTIAL_ID, name: CREDENTIAL_NAME, type: 'rubikaApi', data: credData }]);
		say(`credential "${CREDENTIAL_NAME}" (${api.baseUrl}) imported in ${secs(t)}`);
		state.credentialHash = credHash;
		fs.writeFileSync(stateFile, JSON.stringify({ ...readState(stateFile), credentialHash: credHash }, null, 2));
	}
	const examples = prepareExamples();
	if (examples) {
		const exHash = hash(
			examples.list,
			...examples.list.map((e) => fs.readFileSync(path.join(examples.dir, e.file), 'utf8')),
		);
		if (state.examplesHash !== exHash) {
			const t = Date.now();
			try {
				await n8n.importWorkflows(ctx, examples.dir);
				fs.writeFileSync(stateFile, JSON.stringify({ ...readState(stateFile), examplesHash: exHash }, null, 2));
				say(`imported ${examples.list.length} example workflow(s) in ${secs(t)}`);
			} catch (e) {
				warn(`importing examples/ failed: ${String(e.message).split('\n').slice(0, 8).join('\n')}`);
			}
		}
		fs.rmSync(examples.dir, { recursive: true, force: true });
	}

	// n8n itself.
	const logFile = path.join(userFolder, 'n8n.log');
	fs.writeFileSync(logFile, '');
	say(`starting n8n on ${ctx.baseUrl} (log: ${logFile})…`);
	const server = await n8n.startN8n(ctx, { logFile, timeoutMs: 180_000 });
	children.push({ stop: () => server.stop() });
	server.child.on('exit', (code, signal) => {
		if (stopping) return;
		warn(`n8n exited (${code ?? signal}); last log lines:\n${server.log().split('\n').slice(-20).join('\n')}`);
		stopAll(code || 1);
	});
	say(`n8n ready in ${(server.readyMs / 1000).toFixed(1)} s`);

	let s;
	try {
		s = await n8n.setupOwner(ctx, owner);
	} catch (e) {
		warn(`owner setup / login failed (${e.message}). If you changed the password in the UI, log in with yours; --fresh starts over.`);
	}
	let types;
	if (s && hasPackage) {
		try {
			types = await n8n.knownTypes(ctx, s);
		} catch {
			types = undefined;
		}
	}
	// A user folder from before one version per node and one trigger: stop, naming what n8n cannot run.
	let apiKey;
	if (s && types?.nodes.includes(TRIGGER)) {
		apiKey = await apiKeyFor(ctx, s, stateFile);
		const removed = await workflowsWithRemovedNodes(ctx, apiKey, s);
		if (removed.length) {
			process.stderr.write(
				[
					'',
					'[start] FAILED: this n8n user folder holds workflows with Rubika nodes the package no longer has',
					'[start] (one version per node and one Rubika Trigger since issue 31: the Rubika Webhook Trigger is a Rubika',
					'[start] Trigger with Receive Updates By Webhook, Rubika Trigger 2/2.1 one By Reading, Rubika 1.1 is Rubika 1):',
					...removed.map((line) => `[start]   ${line}`),
					`[start] n8n cannot run or publish them. Start over with  npm start -- --fresh  (removes ${userFolder}),`,
					'[start] or keep this folder and point RUBIKA_N8N_USER_FOLDER at a new one.',
					'',
				].join('\n'),
			);
			await stopAll(1);
			return;
		}
	}
	let credTest;
	if (s && types?.credentials.includes('rubikaApi') && api.kind !== 'none') {
		try {
			credTest = await n8n.testCredential(ctx, s, { id: CREDENTIAL_ID, name: CREDENTIAL_NAME, type: 'rubikaApi', data: credData });
		} catch (e) {
			credTest = { status: 'Error', message: e.message };
		}
	}
	const sandboxWorld = api.sandbox?.info.stateFile;
	let reRegistered = [];
	if (apiKey && api.kind === 'sandbox' && !sandboxWorld?.restored) {
		try {
			reRegistered = await reRegisterWebhooks(ctx, apiKey);
		} catch (e) {
			warn(`could not re-register active webhook workflows with the fresh sandbox (${e.message}); deactivate and activate them by hand`);
		}
	}
	const problems = n8n.packageLoadProblems(server.log());

	const demoUserId = api.sandbox?.demo.ids.find((i) => /user_?id$/i.test(i.path));
	const demoUser = demoUserId?.value;
	// That user's private chat with the bot: the chat page opens on it.
	const demoChat = demoUserId && api.sandbox.demo.ids.find((i) => i.path === demoUserId.path.replace(/user_?id$/i, 'chat_id'))?.value;
	const chatPage = `${api.baseUrl}/${demoChat ? `?user=${demoUser}&chat=${demoChat}` : ''}`;
	const editorHost = listenAddress === '127.0.0.1' ? '127.0.0.1' : 'localhost';
	const lines = [
		'',
		'================================================================',
		` n8n ${paths.version} with ${n8n.PACKAGE_NAME} is running (up in ${secs(t0)})`,
		'================================================================',
		` Editor:    http://${editorHost}:${port}/`,
		` Login:     ${owner.email}`,
		` Password:  ${owner.password}`,
		` Credential "${CREDENTIAL_NAME}" -> ${api.baseUrl}${api.kind === 'real' ? ' (REAL Rubika API)' : ''}`,
	];
	if (credTest) lines.push(`   credential test (getMe): ${credTest.status}${credTest.message ? ` — ${credTest.message}` : ''}`);
	if (api.kind === 'sandbox') {
		lines.push(` Sandbox:   ${api.baseUrl}   (admin API: ${api.baseUrl}/_sandbox/)`);
		lines.push(`   world ${sandboxWorld?.restored ? 'restored from' : 'new, kept in'} ${sandboxStateFile}`);
		if (sandboxWorld?.problem) {
			lines.push(
				`   WARNING: the saved world could not be used (${sandboxWorld.problem}); it was moved to ${sandboxWorld.setAside}.`,
				'   A published Rubika Trigger may now fail to activate (its saved position belongs to the old world):',
				'   choose another "If Rubika Rejects the Saved Position" in it, or start over with npm start -- --fresh.',
			);
		}
		lines.push(` Chat page: ${chatPage}`);
		lines.push('   (write to the bot as a demo user and tap its keypads, in a browser)');
		if (api.sandbox.demo.token) lines.push(`   demo bot token: ${api.sandbox.demo.token}`);
		for (const id of api.sandbox.demo.ids.slice(0, 12)) lines.push(`   ${id.path}: ${id.value}`);
	} else if (api.kind === 'none') {
		lines.push(' Sandbox:   NOT running (see the warning above)');
	}
	if (types) {
		const ours = [...new Set(types.nodes.filter((n) => n.startsWith(`${n8n.PACKAGE_NAME}.`)))]; // a versioned node is listed per version
		const cred = types.credentials.includes('rubikaApi');
		lines.push(` Loaded:    nodes ${ours.join(', ') || '(none!)'}; credential rubikaApi ${cred ? 'yes' : 'NO'}`);
	} else if (!hasPackage) {
		lines.push(' Loaded:    the package is NOT installed (build it first)');
	}
	if (reRegistered.length) lines.push(` Webhooks:  re-registered with the fresh sandbox: ${reRegistered.join(', ')}`);
	if (problems.length) lines.push(' Load problems in the n8n log:', ...problems.slice(0, 10).map((l) => `   ${l}`));
	lines.push(
		'',
		' Try:',
		'   1. Open the editor and log in with the email and password above.',
		'   2. New workflow -> add the "Rubika" node -> pick the credential above -> e.g. Message: Send',
		`      to a chat id listed above; run it and look at the answer${api.kind === 'sandbox' ? ', and at the chat page' : ''}.`,
		'   3. Add a "Rubika Trigger" in another workflow and activate it; then let a demo user write to',
		'      the bot through the sandbox admin API (sandbox/README.md lists its routes):',
		`        curl -s -X POST ${api.kind === 'sandbox' ? api.baseUrl : 'http://127.0.0.1:8765'}/_sandbox/actions/send-message \\`,
		`          -H 'content-type: application/json' -d '{"userId":"${demoUser ?? '<user id>'}","text":"hello bot"}'`,
		...(examples
			? [
					`   4. Open the imported examples (Overview page): ${examples.list.map((e) => `"${e.name}"`).join(', ')}.`,
					...(api.kind === 'sandbox'
						? ['      The echo bot: activate it, then open the chat page, send "/start" and tap the menu:', `        ${chatPage}`]
						: ['      The echo bot: activate it, then send "/start" to the bot and tap the buttons of the menu.']),
					'      Each example carries a note explaining it.',
				]
			: []),
		'',
		' Ctrl-C stops n8n and the sandbox. Data stays in:',
		`   ${userFolder}`,
		'================================================================',
		'',
	);
	process.stdout.write(lines.join('\n'));
	if (args.has('--exit-when-ready')) await stopAll(0);
}

main().catch(async (e) => {
	process.stderr.write(`[start] FAILED: ${e.stack || e}\n`);
	await stopAll(1);
});

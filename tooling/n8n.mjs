// A small library to drive a REAL n8n (installed by tooling/install-n8n.mjs) from e2e tests, scripts and benchmarks.
//
//   import { ensureN8n } from '../tooling/install-n8n.mjs';
//   import * as n8n from '../tooling/n8n.mjs';
//   const paths = await ensureN8n();
//   const ctx = n8n.createContext({ paths, userFolder: '/tmp/x', port: 5690, brokerPort: 5691 });
//   await n8n.installPackageTarball(ctx, tgz);
//   await n8n.importCredentials(ctx, [{ id: 'rubika1', name: 'Rubika', type: 'rubikaApi', data: {...} }]);
//   await n8n.importWorkflows(ctx, [workflowJson]);
//   const result = await n8n.executeWorkflow(ctx, 'wf1');       // `n8n execute --id --rawOutput`
//   const server = await n8n.startN8n(ctx);                       // `n8n start`, waits for readiness
//   const session = await n8n.setupOwner(ctx);                    // owner + login cookie
//   const apiKey = await n8n.createApiKey(ctx, session);
//   const executions = await n8n.publicApi(ctx, apiKey, '/executions?workflowId=wf1');
//   await server.stop();
//
// Everything here is plain Node (no build step) so it also serves `npm start`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PACKAGE_NAME = 'n8n-nodes-rubika';
/** Preloaded into every n8n started here; exported for a caller that sets NODE_OPTIONS itself (bench/profile-idle.mjs). */
export const WATCHDOG = path.join(path.dirname(fileURLToPath(import.meta.url)), 'parent-watchdog.cjs');

export const DEFAULT_OWNER = {
	email: 'owner@rubika.local',
	password: 'Rubika-n8n-1',
	firstName: 'Rubika',
	lastName: 'Tester',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Child processes started through this library: killed when this process exits, so a failed test
// (an uncaught exception before stop()) does not leave an n8n running.
const liveChildren = new Set();
let exitHookInstalled = false;
export function trackChild(child) {
	liveChildren.add(child);
	child.once('exit', () => liveChildren.delete(child));
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.once('exit', () => {
		for (const c of liveChildren) c.kill('SIGKILL');
	});
	// Only when the program did not install its own handlers (scripts/start.mjs does).
	for (const sig of ['SIGINT', 'SIGTERM']) {
		if (process.listenerCount(sig) === 0) {
			process.once(sig, () => {
				for (const c of liveChildren) c.kill('SIGTERM');
				setTimeout(() => process.exit(sig === 'SIGINT' ? 130 : 143), 3000).unref();
				Promise.all([...liveChildren].map((c) => new Promise((r) => c.once('exit', r)))).then(() =>
					process.exit(sig === 'SIGINT' ? 130 : 143),
				);
			});
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Context and environment
// ---------------------------------------------------------------------------------------------

/**
 * The n8n folder is `<userFolder>/.n8n` (database, config with the encryption key, `nodes/`).
 * The encryption key is read from an existing `.n8n/config`, or from `<userFolder>/encryption-key`,
 * or made once and stored there, so imports and later runs of the same folder always agree.
 */
export function createContext({ paths, userFolder, port = 5678, brokerPort, host = '127.0.0.1', listenAddress, env = {}, logLevel }) {
	if (!paths?.n8nBin) throw new Error('createContext: pass `paths` from ensureN8n()');
	userFolder = path.resolve(userFolder);
	fs.mkdirSync(path.join(userFolder, '.n8n'), { recursive: true });
	return {
		paths,
		userFolder,
		n8nFolder: path.join(userFolder, '.n8n'),
		port,
		brokerPort: brokerPort ?? port + 1,
		host,
		listenAddress: listenAddress ?? host,
		baseUrl: `http://${host}:${port}`,
		encryptionKey: encryptionKeyFor(userFolder),
		env,
		logLevel,
	};
}

function encryptionKeyFor(userFolder) {
	const config = path.join(userFolder, '.n8n', 'config');
	try {
		const key = JSON.parse(fs.readFileSync(config, 'utf8')).encryptionKey;
		if (key) return key;
	} catch {
		/* no config yet */
	}
	const file = path.join(userFolder, 'encryption-key');
	try {
		const key = fs.readFileSync(file, 'utf8').trim();
		if (key) return key;
	} catch {
		/* first use */
	}
	const key = randomBytes(24).toString('base64url');
	fs.mkdirSync(userFolder, { recursive: true });
	fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
	return key;
}

/** Environment for any n8n command: local only, no calls to n8n's (or anyone's) servers. */
function n8nEnv(ctx, extra = {}) {
	const env = { ...process.env };
	// An outer `npm run` leaks npm_* variables (and NODE_OPTIONS from tools) that mean nothing to n8n.
	for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
	// Only our watchdog: n8n ends itself when the process that started it is gone.
	env.NODE_OPTIONS = `--require ${JSON.stringify(WATCHDOG)}`;
	Object.assign(env, {
		PATH: `${path.dirname(ctx.paths.nodeBin)}${path.delimiter}${process.env.PATH || ''}`,
		N8N_USER_FOLDER: ctx.userFolder,
		N8N_ENCRYPTION_KEY: ctx.encryptionKey,
		N8N_PORT: String(ctx.port),
		N8N_HOST: ctx.host,
		N8N_LISTEN_ADDRESS: ctx.listenAddress,
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: ctx.baseUrl,
		N8N_RUNNERS_BROKER_PORT: String(ctx.brokerPort),
		// No outbound calls.
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_DISABLED_MODULES: ctx.paths.disabledModules ?? '',
		// Quiet, local, predictable.
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_LOG_OUTPUT: 'console',
		N8N_LOG_LEVEL: ctx.logLevel || 'info',
		N8N_NO_COLOR: 'true',
		NO_COLOR: '1',
		GENERIC_TIMEZONE: process.env.GENERIC_TIMEZONE || 'UTC',
	});
	return Object.assign(env, ctx.env, extra);
}

/** A TCP port nobody listens on now (ask the OS). */
export function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

export function isPortFree(port, host = '127.0.0.1') {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, host, () => srv.close(() => resolve(true)));
	});
}

// ---------------------------------------------------------------------------------------------
// CLI commands (each one boots n8n: about 3-4 s)
// ---------------------------------------------------------------------------------------------

/** Runs `n8n <args>`; resolves with { code, stdout, stderr, ms } whatever the exit code. */
function runN8nCli(ctx, args, { env, timeoutMs = 120_000, input } = {}) {
	return new Promise((resolve, reject) => {
		const t = Date.now();
		const child = spawn(ctx.paths.nodeBin, [ctx.paths.n8nBin, ...args], {
			cwd: ctx.userFolder,
			env: n8nEnv(ctx, env),
			stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		if (input !== undefined) child.stdin.end(input);
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`n8n ${args.join(' ')} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`));
		}, timeoutMs);
		child.on('error', (e) => {
			clearTimeout(timer);
			reject(e);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, stdout, stderr, ms: Date.now() - t });
		});
	});
}

async function runChecked(ctx, args, opts) {
	const r = await runN8nCli(ctx, args, opts);
	if (r.code !== 0) throw new Error(`n8n ${args.join(' ')} exited with ${r.code}\n${r.stdout}\n${r.stderr}`);
	return r;
}

function tmpDir(prefix) {
	return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Imports credentials: [{ id, name, type, data: { ...plain fields } }]. Plain `data` is encrypted by
 * n8n with the context's key. Without an owner yet they go to the instance owner's project.
 */
export async function importCredentials(ctx, credentials) {
	const dir = tmpDir('n8n-creds-');
	try {
		const file = path.join(dir, 'credentials.json');
		const now = new Date().toISOString();
		const list = credentials.map((c) => ({ createdAt: now, updatedAt: now, ...c }));
		fs.writeFileSync(file, JSON.stringify(list, null, 2));
		return await runChecked(ctx, ['import:credentials', `--input=${file}`]);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * Imports workflows: an array of workflow objects (each needs `id`, `name`, `nodes`, `connections`),
 * or a path to a directory of `*.json` workflow files. Imported workflows are inactive: activate one through
 * the REST API once n8n runs (activate() in e2e/lib/world.mjs).
 */
export async function importWorkflows(ctx, workflows) {
	if (typeof workflows === 'string') {
		return await runChecked(ctx, ['import:workflow', '--separate', `--input=${path.resolve(workflows)}`]);
	}
	const dir = tmpDir('n8n-wf-');
	try {
		workflows.forEach((wf, i) => {
			const full = { active: false, settings: {}, pinData: {}, ...wf };
			fs.writeFileSync(path.join(dir, `${String(i).padStart(3, '0')}.json`), JSON.stringify(full, null, 2));
		});
		return await runChecked(ctx, ['import:workflow', '--separate', `--input=${dir}`]);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * Finds the first top-level JSON object in mixed log/console output: a line that is exactly `{`
 * up to the matching line that is exactly `}` (n8n prints executions with JSON.stringify(x, null, 2)).
 */
function extractJson(text) {
	const lines = text.split(/\r?\n/);
	for (let i = 0; i < lines.length; i++) {
		if (lines[i].replace(/^.*?(?=\{$)/, '') !== '{') continue;
		const first = lines[i].slice(lines[i].lastIndexOf('{'));
		for (let j = i + 1; j < lines.length; j++) {
			if (lines[j] !== '}') continue;
			try {
				return JSON.parse([first, ...lines.slice(i + 1, j + 1)].join('\n'));
			} catch {
				break;
			}
		}
	}
	return undefined;
}

/**
 * `n8n execute --id=<id> --rawOutput`. Resolves with
 * { ok, code, run, error, lastNodeExecuted, runData, output(nodeName) -> json[] , stdout, stderr, ms }.
 * On failure n8n exits 1 and logs the run at info level; it is parsed from there when present.
 */
export async function executeWorkflow(ctx, id, { timeoutMs = 180_000, env } = {}) {
	const cli = () => runN8nCli(ctx, ['execute', `--id=${id}`, '--rawOutput'], { timeoutMs, env: { N8N_LOG_LEVEL: 'info', ...env } });
	let r = await cli();
	let retried = false;
	// Seen once under heavy load: the CLI ended by a signal before printing anything. That is the
	// machine, not the workflow: run it once more.
	if (r.code === null && !extractJson(r.stdout)) {
		retried = { signal: r.signal, stdout: r.stdout.slice(-2000), stderr: r.stderr.slice(-2000) };
		r = await cli();
	}
	const run = extractJson(r.stdout) ?? extractJson(r.stderr);
	const runData = run?.data?.resultData?.runData ?? {};
	const error = run?.data?.resultData?.error;
	return {
		ok: r.code === 0 && !!run && !error,
		code: r.code,
		signal: r.signal,
		retried,
		run,
		error,
		lastNodeExecuted: run?.data?.resultData?.lastNodeExecuted,
		runData,
		/** JSON of every item the node emitted on an output (default: first run, output 0). */
		output(nodeName, { runIndex = 0, outputIndex = 0 } = {}) {
			const items = runData[nodeName]?.[runIndex]?.data?.main?.[outputIndex] ?? [];
			return items.map((it) => it.json);
		},
		stdout: r.stdout,
		stderr: r.stderr,
		ms: r.ms,
	};
}

// ---------------------------------------------------------------------------------------------
// The server: `n8n start`
// ---------------------------------------------------------------------------------------------

/**
 * Starts `n8n start` (or, with `command`, a queue-mode `worker` or `webhook` process) and waits until it
 * answers GET /healthz/readiness on ctx.port (a worker's health server: pass QUEUE_HEALTH_CHECK_ACTIVE and
 * QUEUE_HEALTH_CHECK_PORT=ctx.port in `env`). Returns { child, pid, baseUrl, log(), stop(), readyMs }. The
 * log (stdout + stderr) is kept in memory and, if `logFile` is given, written there too. `onLine` sees every
 * line.
 */
export async function startN8n(ctx, { timeoutMs = 120_000, logFile, onLine, env, args = [], command = 'start' } = {}) {
	if (!(await isPortFree(ctx.port, ctx.listenAddress === '0.0.0.0' || ctx.listenAddress === '::' ? '0.0.0.0' : ctx.listenAddress))) {
		throw new Error(`Port ${ctx.port} is in use: another n8n? Set another port (N8N_PORT).`);
	}
	if (!(await isPortFree(ctx.brokerPort))) {
		throw new Error(`Task-broker port ${ctx.brokerPort} is in use: set N8N_RUNNERS_BROKER_PORT to a free one.`);
	}
	const t = Date.now();
	const child = spawn(ctx.paths.nodeBin, [ctx.paths.n8nBin, command, ...args], {
		cwd: ctx.userFolder,
		env: n8nEnv(ctx, env),
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	trackChild(child);
	const out = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : undefined;
	let log = '';
	let partial = '';
	const onData = (d) => {
		const s = d.toString();
		log += s;
		if (log.length > 4_000_000) log = log.slice(-2_000_000);
		out?.write(s);
		if (onLine) {
			partial += s;
			const lines = partial.split('\n');
			partial = lines.pop();
			for (const l of lines) onLine(l);
		}
	};
	child.stdout.on('data', onData);
	child.stderr.on('data', onData);
	let exited = null;
	const exitPromise = new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			exited = { code, signal };
			out?.end();
			resolve(exited);
		}),
	);

	const server = {
		child,
		pid: child.pid,
		baseUrl: ctx.baseUrl,
		readyMs: undefined,
		log: () => log,
		exited: () => exited,
		/** SIGTERM, then SIGKILL after `graceMs`. n8n shuts down cleanly in 1-3 s. */
		async stop({ graceMs = 15_000 } = {}) {
			if (exited) return exited;
			child.kill('SIGTERM');
			const timer = setTimeout(() => !exited && child.kill('SIGKILL'), graceMs);
			const r = await exitPromise;
			clearTimeout(timer);
			return r;
		},
	};

	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (exited) throw new Error(`n8n exited during startup (${JSON.stringify(exited)}):\n${log.slice(-6000)}`);
		try {
			// Readiness comes when the database is up; older n8n (2.8) registers /rest a little later.
			const res = await fetch(`${ctx.baseUrl}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
			// Only the main process has the REST API (workers and webhook processes are ready at readiness).
			const rest = res.ok && (command !== 'start' || (await fetch(`${ctx.baseUrl}/rest/settings`, { signal: AbortSignal.timeout(2000) })));
			if (rest === true || rest?.ok) {
				server.readyMs = Date.now() - t;
				return server;
			}
		} catch {
			/* not listening yet */
		}
		await sleep(250);
	}
	await server.stop();
	throw new Error(`n8n was not ready after ${timeoutMs} ms:\n${log.slice(-6000)}`);
}

// ---------------------------------------------------------------------------------------------
// REST (internal /rest for the session, public /api/v1 with an API key)
// ---------------------------------------------------------------------------------------------

const BROWSER_ID = 'rubika-e2e-browser';

/** A minimal cookie-carrying client for n8n's internal REST API. */
function session(ctx) {
	let cookie = '';
	const s = {
		get cookie() {
			return cookie;
		},
		async request(method, urlPath, body, { raw = false, headers = {} } = {}) {
			const res = await fetch(`${ctx.baseUrl}${urlPath}`, {
				method,
				headers: {
					'content-type': 'application/json',
					'browser-id': BROWSER_ID,
					...(cookie ? { cookie } : {}),
					...headers,
				},
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const set = res.headers.getSetCookie?.() ?? [];
			for (const c of set) {
				const [pair] = c.split(';');
				if (pair.startsWith('n8n-auth=')) cookie = pair;
			}
			if (raw) return res;
			const text = await res.text();
			let json;
			try {
				json = text ? JSON.parse(text) : undefined;
			} catch {
				json = undefined;
			}
			if (!res.ok) {
				const err = new Error(`${method} ${urlPath} -> ${res.status}: ${text.slice(0, 500)}`);
				err.status = res.status;
				err.body = json ?? text;
				throw err;
			}
			// Internal endpoints wrap answers in { data }.
			return json && typeof json === 'object' && 'data' in json ? json.data : json;
		},
		get: (p, o) => s.request('GET', p, undefined, o),
		post: (p, b, o) => s.request('POST', p, b ?? {}, o),
	};
	return s;
}

/** Whether the instance still waits for its owner (GET /rest/settings, public part). */
async function needsOwnerSetup(ctx) {
	const settings = await session(ctx).get('/rest/settings');
	return !!settings?.userManagement?.showSetupOnFirstLoad;
}

/**
 * Creates the owner (first run) or logs in (later runs). Returns a logged-in session.
 * n8n's password rule: 8-64 characters, one digit, one capital letter.
 */
export async function setupOwner(ctx, owner = DEFAULT_OWNER) {
	const s = session(ctx);
	if (await needsOwnerSetup(ctx)) {
		await s.post('/rest/owner/setup', {
			email: owner.email,
			password: owner.password,
			firstName: owner.firstName,
			lastName: owner.lastName,
		});
		return s;
	}
	return await login(ctx, owner);
}

export async function login(ctx, { email, password } = DEFAULT_OWNER) {
	const s = session(ctx);
	await s.post('/rest/login', { emailOrLdapLoginId: email, password });
	return s;
}

/** Creates a public-API key with every scope the user may have; returns the raw key. */
export async function createApiKey(ctx, s, { label = `e2e ${new Date().toISOString()}` } = {}) {
	let scopes;
	try {
		scopes = await s.get('/rest/api-keys/scopes');
	} catch {
		scopes = undefined;
	}
	const body = { label, expiresAt: null, ...(scopes ? { scopes } : {}) };
	const key = await s.post('/rest/api-keys', body);
	return key.rawApiKey ?? key.apiKey;
}

/**
 * Waits until a production webhook is registered. With n8n 2.41's publication service, published
 * workflows are activated just AFTER readiness, so a call right after startN8n() can get a 404.
 * Uses a CORS preflight (OPTIONS), which answers 204 only for a registered path + method and runs nothing.
 */
export async function waitForWebhook(ctx, webhookPath, { method = 'POST', prefix = 'webhook', timeoutMs = 60_000 } = {}) {
	const url = `${ctx.baseUrl}/${prefix}/${webhookPath.replace(/^\/+/, '')}`;
	const deadline = Date.now() + timeoutMs;
	let last;
	while (Date.now() < deadline) {
		const res = await fetch(url, {
			method: 'OPTIONS',
			headers: { origin: ctx.baseUrl, 'access-control-request-method': method },
		});
		last = res.status;
		await res.arrayBuffer();
		if (res.status === 204) return;
		await sleep(250);
	}
	throw new Error(`Webhook ${method} ${url} not registered after ${timeoutMs} ms (last status ${last})`);
}

/** GET on the public REST API (`/api/v1/...`). */
export async function publicApi(ctx, apiKey, urlPath, { method = 'GET', body } = {}) {
	const res = await fetch(`${ctx.baseUrl}/api/v1${urlPath}`, {
		method,
		headers: { 'X-N8N-API-KEY': apiKey, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
		body: body ? JSON.stringify(body) : undefined,
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`${method} /api/v1${urlPath} -> ${res.status}: ${text.slice(0, 500)}`);
	return text ? JSON.parse(text) : undefined;
}

/**
 * Runs n8n's credential test (the editor's "Test" button) for { id, name, type, data }.
 * Resolves { status: 'OK' | 'Error', message }.
 */
export async function testCredential(ctx, s, credential) {
	return await s.post('/rest/credentials/test', { credentials: credential });
}

/**
 * n8n's webhook table (its production routes, which a webhook process serves too) of a regular-mode instance:
 * [{ workflowId, webhookPath, method, node, webhookId, pathLength }], read from its SQLite database with n8n's own
 * sqlite3 module under n8n's Node (no other SQLite client needed), read-only, while n8n runs.
 */
export async function webhookRows(ctx) {
	const script = `
		const [sqlite3Dir, file] = process.argv.slice(1);
		const sqlite3 = require(sqlite3Dir);
		const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => error && fail(error));
		function fail(error) { process.stderr.write(String(error.message)); process.exit(1); }
		db.all('SELECT "workflowId", "webhookPath", "method", "node", "webhookId", "pathLength" FROM webhook_entity', (error, rows) => {
			if (error) fail(error);
			process.stdout.write(JSON.stringify(rows));
			db.close();
		});`;
	const sqlite3Dir = path.join(ctx.paths.dir, 'node_modules', 'sqlite3');
	const output = await runCmd(ctx.paths.nodeBin, ['-e', script, sqlite3Dir, path.join(ctx.n8nFolder, 'database.sqlite')]);
	return JSON.parse(output);
}

/** Node and credential types n8n knows (needs a logged-in session). */
export async function knownTypes(ctx, s) {
	const nodes = await s.get('/types/nodes.json');
	const credentials = await s.get('/types/credentials.json');
	return {
		nodes: (Array.isArray(nodes) ? nodes : []).map((n) => n.name),
		credentials: (Array.isArray(credentials) ? credentials : []).map((c) => c.name),
	};
}

// ---------------------------------------------------------------------------------------------
// Our package: build, pack, install into a user folder
// ---------------------------------------------------------------------------------------------

function runCmd(cmd, args, { cwd, env = process.env, quiet = true } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let outText = '';
		const keep = (d) => {
			outText += d;
			if (!quiet) process.stderr.write(d);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		child.on('error', reject);
		child.on('close', (code) => (code === 0 ? resolve(outText) : reject(Object.assign(new Error(`${cmd} ${args.join(' ')} exited with ${code}\n${outText.slice(-4000)}`), { output: outText }))));
	});
}

/** Env for npm commands run from here: drop what an outer `npm run` set. */
function cleanNpmEnv() {
	const env = { ...process.env };
	for (const k of Object.keys(env)) if (/^npm_(package|lifecycle|config_(prefix|global|local))/i.test(k)) delete env[k];
	return env;
}

/** `npm run build` in the repo. Resolves { ok, ms, output }; never throws. */
export async function buildPackage({ repo = REPO_ROOT } = {}) {
	const t = Date.now();
	try {
		const output = await runCmd('npm', ['run', 'build', '--silent'], { cwd: repo, env: cleanNpmEnv() });
		return { ok: true, ms: Date.now() - t, output };
	} catch (e) {
		return { ok: false, ms: Date.now() - t, output: e.output ?? String(e) };
	}
}

/** `npm pack` into `destDir`; returns the tarball path. */
export async function packPackage({ repo = REPO_ROOT, destDir } = {}) {
	destDir = destDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'rubika-pack-'));
	fs.mkdirSync(destDir, { recursive: true });
	const out = await runCmd('npm', ['pack', '--json', '--ignore-scripts', `--pack-destination=${destDir}`], { cwd: repo, env: cleanNpmEnv() });
	const info = JSON.parse(out.slice(out.indexOf('[')));
	return { tgz: path.join(destDir, info[0].filename), files: info[0].files.map((f) => f.path), info: info[0] };
}

/**
 * Installs a packed tarball the way n8n's community-package installer lays it out:
 * `<userFolder>/.n8n/nodes/node_modules/<name>` (peer n8n-workflow comes from n8n itself).
 */
export async function installPackageTarball(ctx, tgz) {
	const nodesDir = path.join(ctx.n8nFolder, 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	const pj = path.join(nodesDir, 'package.json');
	if (!fs.existsSync(pj)) fs.writeFileSync(pj, JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
	// A reinstall of the same version must take the new tarball, not a cached copy.
	fs.rmSync(path.join(nodesDir, 'node_modules', PACKAGE_NAME), { recursive: true, force: true });
	const env = cleanNpmEnv();
	await runCmd('npm', ['install', '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--prefer-offline', '--loglevel=error', tgz], { cwd: nodesDir, env });
	return path.join(nodesDir, 'node_modules', PACKAGE_NAME);
}

/** Lines of an n8n log that mention problems loading our package. */
export function packageLoadProblems(log, name = PACKAGE_NAME) {
	const lines = log.split('\n');
	const out = [];
	for (let i = 0; i < lines.length; i++) {
		const l = lines[i];
		const mentions = l.includes(name) || /rubika/i.test(l);
		const bad = /\b(error|failed|cannot|could not|couldn't|unrecognized|not installed|problem)\b/i.test(l);
		if (mentions && bad) out.push(l);
	}
	return out;
}

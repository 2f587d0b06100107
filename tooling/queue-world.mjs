// n8n in queue mode, set up as a scaled-out user runs it: PostgreSQL as the database, Redis as the queue, one
// main process (`n8n start`: editor, API, triggers), worker processes (`n8n worker`: run the executions) and
// a webhook process (`n8n webhook`: serves /webhook/… and /webhook-waiting/…), all sharing one encryption key,
// one database, each with its own user folder holding the packed package as a community package. WEBHOOK_URL
// points at the webhook process, as it would point at the load balancer in front of webhook processes.
//
//   const world = await createQueueWorld({ pack, workflows: (demo) => [...] });
//   await world.start();                         // main (owner, API key), workers, webhook process
//   await world.stop('main'); await world.startProcess('main');
//   world.workerRunning(executionId)             // which worker's log says it started that execution
//   await world.close();
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureN8n } from './install-n8n.mjs';
import { EXAMPLE_CREDENTIAL } from './examples.mjs';
import * as n8n from './n8n.mjs';
import { sandboxAdmin, startSandboxProcess } from './sandbox.mjs';
import { linearWorkflow, node, rubika } from './workflow-builder.mjs';
import { ensureServerPackages, startPostgres, startRedis } from './services.mjs';
import { listExecutions, waitForExecutionList } from './world.mjs';

/** n8n's Webhook node, answering at once: how the tests start a production execution on a worker. */
export const startWebhook = (webhookPath) =>
	node('Start', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} }, { typeVersion: 2, webhookId: randomUUID() });

/**
 * A broadcast as users build one: POST {recipients: [{chat_id}], perSecond, campaign} to the webhook path →
 * Split Out → Rubika Send Text to each, paced by Max Requests per Second, skipping chats already sent in the
 * campaign (when one is given).
 */
export function broadcastWorkflow(id, webhookPath) {
	return linearWorkflow(id, `Broadcast (${webhookPath})`, [
		startWebhook(webhookPath),
		node('Recipients', 'n8n-nodes-base.splitOut', { fieldToSplitOut: 'body.recipients', options: {} }),
		rubika('Send', {
			resource: 'message',
			operation: 'sendMessage',
			chatId: '={{ $json.chat_id }}',
			text: '=Broadcast to {{ $json.chat_id }}',
			sendOptions: { campaignId: '={{ $("Start").first().json.body.campaign }}' },
			requestOptions: { maxPerSecond: '={{ $("Start").first().json.body.perSecond }}' },
		}),
	]);
}
/** The n8n version queue mode is tested on by default (the current one). */
const QUEUE_VERSION = '2.41.1';

/**
 * @param {object} o
 * @param {{tgz: string}} o.pack                  the packed package (world.mjs packOnce)
 * @param {string} [o.version]                    the n8n variant (scripts/install-n8n.mjs; default QUEUE_VERSION)
 * @param {(demo: object) => object[]} [o.workflows]  workflows to import (get the sandbox's demo ids)
 * @param {number} [o.workers]                    how many `n8n worker` processes (default 2)
 * @param {number} [o.workerConcurrency]          executions per worker at once (n8n's --concurrency)
 * @param {boolean} [o.regular]                  the same set-up in n8n's regular mode instead: main alone runs
 *                                                everything (the single-process baseline of benchmark B7)
 * @param {(s: string) => void} [o.log]
 */
export async function createQueueWorld({ pack, version = QUEUE_VERSION, workflows = () => [], workers = 2, workerConcurrency = 1, regular = false, log = () => {} } = {}) {
	const t0 = Date.now();
	const paths = await ensureN8n({ version, log: (s) => log(`install: ${s}`) });
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `rubika-queue-${paths.version}-`));
	ensureServerPackages({ log });
	const [redis, postgres, sandbox] = await Promise.all([
		startRedis({ dir: path.join(workDir, 'redis') }),
		startPostgres({ dir: path.join(workDir, 'postgres') }),
		startSandboxProcess({ port: await n8n.freePort() }),
	]);
	const ports = new Set();
	const port = async () => {
		for (;;) {
			const p = await n8n.freePort();
			if (!ports.has(p)) return ports.add(p), p;
		}
	};
	const mainPort = await port();
	const webhookPort = await port();
	const webhookBase = regular ? `http://127.0.0.1:${mainPort}` : `http://127.0.0.1:${webhookPort}`;
	const shared = {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
		EXECUTIONS_MODE: regular ? 'regular' : 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		// Where n8n tells the outside world to send webhooks: the webhook process (a load balancer in production).
		WEBHOOK_URL: `${webhookBase}/`,
		N8N_WEBHOOK_URL: `${webhookBase}/`,
	};
	// One user folder per process, as separate machines or containers have. Sharing one is not an option:
	// n8n keeps its event log there, and a process that starts reads it for executions left unfinished and
	// marks them crashed, including executions another process is running at that moment (seen: a worker
	// restarted during a broadcast on the other worker made that broadcast stop).
	const contextFor = async (role, listenPort) =>
		n8n.createContext({ paths, userFolder: path.join(workDir, role), port: listenPort ?? (await port()), brokerPort: await port(), env: shared });
	const mainCtx = await contextFor('main', mainPort);
	shared.N8N_ENCRYPTION_KEY = mainCtx.encryptionKey;
	await n8n.installPackageTarball(mainCtx, pack.tgz);
	/** The package as n8n's installer left it in main's folder, copied into another process's folder. */
	const installInto = (ctx) => fs.cpSync(path.join(mainCtx.n8nFolder, 'nodes'), path.join(ctx.n8nFolder, 'nodes'), { recursive: true });

	const demo = sandbox.info.demo;
	const admin = sandboxAdmin(sandbox.url);
	const credential = { ...EXAMPLE_CREDENTIAL, type: 'rubikaApi', data: { accessToken: demo.token, baseUrl: sandbox.url } };
	await n8n.importCredentials(mainCtx, [credential]);
	await n8n.importWorkflows(mainCtx, workflows({ ...demo, sandboxUrl: sandbox.url }));
	log(`queue world prepared in ${((Date.now() - t0) / 1000).toFixed(1)} s (${workDir})`);

	/** name → { command, ctx, args, env, server } */
	const processes = new Map();
	processes.set('main', { command: 'start', ctx: mainCtx, args: [], env: {} });
	if (!regular) {
		processes.set('webhook', { command: 'webhook', ctx: await contextFor('webhook', webhookPort), args: [], env: {} });
		installInto(processes.get('webhook').ctx);
	}
	for (let i = 1; i <= (regular ? 0 : workers); i++) {
		const ctx = await contextFor(`worker${i}`);
		installInto(ctx);
		processes.set(`worker${i}`, {
			command: 'worker',
			ctx,
			args: [`--concurrency=${workerConcurrency}`],
			env: { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(ctx.port) },
		});
	}
	let apiKey;
	let session;
	const logFile = (name) => path.join(workDir, `${name}.log`);

	const world = {
		version: paths.version,
		workDir,
		sandbox,
		admin,
		demo,
		credential,
		webhookBase,
		mainBase: mainCtx.baseUrl,
		processNames: () => [...processes.keys()],
		running(name) {
			const p = processes.get(name);
			return !!p?.server && !p.server.exited();
		},
		/** Starts a process unless it runs; `env` adds or overrides variables for this start only. */
		async startProcess(name, { env = {} } = {}) {
			const p = processes.get(name);
			if (world.running(name)) return p.server;
			const t = Date.now();
			p.server = await n8n.startN8n(p.ctx, { command: p.command, args: p.args, env: { ...p.env, ...env }, logFile: logFile(name), timeoutMs: 180_000 });
			if (name === 'main') {
				session = await n8n.setupOwner(p.ctx);
				apiKey ??= await n8n.createApiKey(p.ctx, session);
			}
			log(`${name} (n8n ${p.command}) ready in ${((Date.now() - t) / 1000).toFixed(1)} s`);
			return p.server;
		},
		/** Main first (it migrates the database and owns the API), then the others side by side. */
		async start() {
			await world.startProcess('main');
			await Promise.all([...processes.keys()].filter((n) => n !== 'main').map((n) => world.startProcess(n)));
		},
		/** SIGTERM (n8n's graceful shutdown), or SIGKILL with `kill`. */
		async stop(name, { kill = false } = {}) {
			const p = processes.get(name);
			if (!world.running(name)) return;
			if (kill) {
				p.server.child.kill('SIGKILL');
				await new Promise((r) => (p.server.exited() ? r() : p.server.child.once('exit', r)));
			} else {
				await p.server.stop({ graceMs: 60_000 });
			}
		},
		/** The log of a process (all its starts). */
		log(name) {
			try {
				return fs.readFileSync(logFile(name), 'utf8');
			} catch {
				return '';
			}
		},
		/** The worker of each start of this execution (a resumed execution starts again), from their logs. */
		workerStarts(executionId) {
			const pattern = new RegExp(`started execution ${executionId}\\b`);
			return [...processes.keys()].filter((n) => n.startsWith('worker')).flatMap((n) => world.log(n).split('\n').filter((line) => pattern.test(line)).map(() => n));
		},
		/** The workers whose logs say they started this execution. */
		workersThatRan: (executionId) => [...new Set(world.workerStarts(executionId))],
		/** Every process's log, one after the other. */
		logs: () => world.processNames().map((n) => world.log(n)).join('\n'),
		/** A logged-in session of n8n's internal REST API on main (from main's last start). */
		session: async () => session,
		async publicApi(urlPath, opts) {
			return n8n.publicApi(mainCtx, apiKey, urlPath, opts);
		},
		activate: (id) => world.publicApi(`/workflows/${id}/activate`, { method: 'POST' }),
		deactivate: (id) => world.publicApi(`/workflows/${id}/deactivate`, { method: 'POST' }),
		/** The ids of the workflow's executions stored in PostgreSQL (see listExecutions: what main's list leaves out). */
		storedExecutionIds: async (workflowId) =>
			(await postgres.rows(`SELECT id FROM execution_entity WHERE "workflowId" = '${workflowId.replace(/'/g, "''")}'`)).map((row) => String(row.id)),
		/** Every execution of the workflow (all pages), with data unless `includeData` is false, oldest first. */
		executions: (workflowId, { includeData = true } = {}) => listExecutions(world.publicApi, workflowId, { includeData, storedIds: world.storedExecutionIds }),
		/** Waits until `predicate(executions)` holds (default 60 s); returns the executions (the last read on timeout). */
		waitForExecutions: (workflowId, predicate, { timeoutMs = 60_000, includeData = true } = {}) =>
			waitForExecutionList(world.publicApi, workflowId, predicate, { timeoutMs, includeData, storedIds: world.storedExecutionIds }),
		/** n8n's webhook table (the production routes main and the webhook process serve), of one workflow. */
		webhookRows: (workflowId) =>
			postgres.rows(`SELECT "workflowId", "webhookPath", method, node, "webhookId", "pathLength" FROM webhook_entity WHERE "workflowId" = '${workflowId.replace(/'/g, "''")}'`),
		/** Waits until a production webhook path answers on a process (registered after activation). */
		async waitForWebhook(name, webhookPath, opts) {
			return n8n.waitForWebhook(processes.get(name).ctx, webhookPath, opts);
		},
		async close({ keep = false } = {}) {
			await Promise.all([...processes.keys()].map((n) => world.stop(n).catch(() => {})));
			await Promise.all([sandbox.stop(), redis.stop(), postgres.stop()].map((p) => p.catch(() => {})));
			if (!keep) fs.rmSync(workDir, { recursive: true, force: true });
		},
	};
	return world;
}

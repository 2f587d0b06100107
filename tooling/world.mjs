// One end-to-end "world": a fresh n8n user folder with the packed package installed, the Rubika sandbox,
// the credentials and every workflow the suite uses imported, and (on demand) one `n8n start` shared by
// all tests of a run. Tests and other suites (browser tests) build on it:
//
//   const world = await createWorld({ version: '2.41.1', tgz });
//   await world.server();                              // n8n start + owner + API key (once)
//   await world.activate(world.exampleId('echo-bot.json'));
//   await world.admin.act('send-message', { userId, text: '/start' });
//   const [execution] = await world.waitForExecutions(id, { count: 1 });
//   const resumed = await world.finished(executionId);  // one execution, once it has ended
//   await world.close();
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureN8n } from './install-n8n.mjs';
import { EXAMPLE_CREDENTIAL, N8N_API_EXAMPLE_CREDENTIAL, OPENAI_EXAMPLE_CREDENTIAL, readExamples, withApiUrl } from './examples.mjs';
import * as n8n from './n8n.mjs';
import { sandboxAdmin, startSandboxProcess } from './sandbox.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A credential whose token the sandbox does not know, for failure tests. */
export const BAD_TOKEN_CREDENTIAL = Object.freeze({ id: 'rubikaBadToken01', name: 'Rubika (bad token)' });

/**
 * Builds and packs the package once; several worlds (versions) install the same tarball. `tgz` (or
 * RUBIKA_E2E_TGZ) tests a tarball made elsewhere instead, e.g. the one about to be published.
 */
export async function packOnce({ build = true, destDir, tgz = process.env.RUBIKA_E2E_TGZ, log = () => {} } = {}) {
	if (tgz) {
		tgz = path.resolve(tgz);
		const listing = spawnSync('tar', ['-tzf', tgz], { encoding: 'utf8' });
		if (listing.status !== 0) throw new Error(`cannot read ${tgz}: ${listing.stderr}`);
		const files = listing.stdout.split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
		log(`using ${tgz}`);
		return { tgz, files, cleanup: () => {} };
	}
	if (build) {
		const t = Date.now();
		const b = await n8n.buildPackage();
		if (!b.ok) throw new Error(`npm run build failed:\n${b.output.trim().split('\n').slice(-30).join('\n')}`);
		log(`built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
	}
	const own = !destDir;
	destDir = destDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'rubika-e2e-pack-'));
	const pack = await n8n.packPackage({ destDir });
	/** Removes the tarball's temp folder (only one packOnce made itself). */
	pack.cleanup = () => own && fs.rmSync(destDir, { recursive: true, force: true });
	return pack;
}

/**
 * @param {object} o
 * @param {string} [o.version]       n8n variant (tooling/install-n8n.mjs)
 * @param {{tgz: string, files?: string[]}} o.pack  the packed package (packOnce)
 * @param {Array<object> | ((demo: object) => Array<object>)} [o.workflows]  extra workflows to import (the
 *        tests' own), each with an id; a function gets the sandbox's demo ids
 * @param {string} [o.workDir]       where the user folder and logs go (default: a new temp dir)
 * @param {(s: string) => void} [o.log]
 */
export async function createWorld({ version, pack, workflows = [], workDir, log = () => {} } = {}) {
	const tgz = pack?.tgz;
	if (!tgz) throw new Error('createWorld: pass `pack` (from packOnce)');
	const t0 = Date.now();
	const paths = await ensureN8n({ version, log: (s) => log(`install: ${s}`) });
	workDir = workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `rubika-e2e-${paths.version}-`));
	const port = await n8n.freePort();
	const brokerPort = await distinctPort([port]);
	// `n8n execute` boots its own task broker: give it a port of its own so it can run beside `n8n start`.
	const cliBrokerPort = await distinctPort([port, brokerPort]);
	// Where the AI assistant test's fake model server will listen; its credential is imported with the others.
	const fakeModelPort = await distinctPort([port, brokerPort, cliBrokerPort]);
	const ctx = n8n.createContext({ paths, userFolder: path.join(workDir, 'user'), port, brokerPort });

	// The sandbox boots (ts-node) while npm installs the package.
	const [sandbox, installedDir] = await Promise.all([
		startSandboxProcess({ port: await n8n.freePort() }),
		n8n.installPackageTarball(ctx, tgz),
	]);
	const demo = sandbox.info.demo;
	if (!demo?.token) throw new Error('the sandbox did not report its demo bot');
	const admin = sandboxAdmin(sandbox.url);

	const credentialData = { accessToken: demo.token, baseUrl: sandbox.url };
	await n8n.importCredentials(ctx, [
		{ ...EXAMPLE_CREDENTIAL, type: 'rubikaApi', data: credentialData },
		{ ...BAD_TOKEN_CREDENTIAL, type: 'rubikaApi', data: { accessToken: 'B'.repeat(64), baseUrl: sandbox.url } },
		{ ...OPENAI_EXAMPLE_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-e2e-fake-model', url: `http://127.0.0.1:${fakeModelPort}/v1` } },
	]);

	// Examples that call n8n's own public API call this n8n.
	const apiUrl = `${ctx.baseUrl}/api/v1`;
	const examples = new Map();
	for (const { file, workflow, error } of readExamples()) {
		if (error) throw new Error(`examples/${file}: ${error}`);
		examples.set(file, withApiUrl(workflow, apiUrl));
	}
	// The demo ids, plus where the sandbox answers (for workflows that address the Bot API by URL).
	const all = [...examples.values(), ...(typeof workflows === 'function' ? workflows({ ...demo, sandboxUrl: sandbox.url }) : workflows)];
	const ids = new Set();
	for (const wf of all) {
		if (!wf.id) throw new Error(`workflow "${wf.name}" has no id`);
		if (ids.has(wf.id)) throw new Error(`two workflows share the id ${wf.id}`);
		ids.add(wf.id);
	}
	await n8n.importWorkflows(ctx, all);
	log(`world ready for n8n ${paths.version} in ${((Date.now() - t0) / 1000).toFixed(1)} s (${workDir})`);

	let server;
	let session;
	let apiKey;
	let n8nApiCredentialImported = false;
	const logFile = path.join(workDir, 'n8n.log');

	const world = {
		version: paths.version,
		paths,
		ctx,
		workDir,
		installedDir,
		pack,
		sandbox,
		admin,
		demo,
		credential: { ...EXAMPLE_CREDENTIAL, type: 'rubikaApi', data: credentialData },
		/** The port the OpenAI example credential points at (the AI assistant test starts its fake model there). */
		fakeModelPort,
		badCredential: { ...BAD_TOKEN_CREDENTIAL, type: 'rubikaApi' },
		/** The imported copy of examples/<file> (its Rubika nodes on the suite's credential). */
		example(file) {
			const wf = examples.get(file);
			if (!wf) throw new Error(`no example ${file} (have ${[...examples.keys()].join(', ')})`);
			return wf;
		},
		exampleId(file) {
			return world.example(file).id;
		},
		/** `n8n execute --id` (works whether or not the server runs). */
		execute(id, opts = {}) {
			return n8n.executeWorkflow(ctx, id, { ...opts, env: { N8N_RUNNERS_BROKER_PORT: String(cliBrokerPort), ...opts.env } });
		},

		// --- the server -------------------------------------------------------------------------
		get running() {
			return !!server && !server.exited();
		},
		/** The log of every `n8n start` of this world so far (also in <workDir>/n8n.log). */
		serverLog() {
			try {
				return fs.readFileSync(logFile, 'utf8');
			} catch {
				return '';
			}
		},
		/** Starts n8n when it is not running; creates the owner and an API key the first time. */
		async server() {
			if (world.running) return server;
			const t = Date.now();
			server = await n8n.startN8n(ctx, { logFile, timeoutMs: 180_000 });
			if (!session) {
				session = await n8n.setupOwner(ctx);
				apiKey = await n8n.createApiKey(ctx, session);
			} else {
				session = await n8n.login(ctx);
			}
			log(`n8n ${paths.version} started in ${((Date.now() - t) / 1000).toFixed(1)} s`);
			return server;
		},
		async session() {
			await world.server();
			return session;
		},
		async apiKey() {
			await world.server();
			return apiKey;
		},
		/**
		 * Imports the n8n API credential the examples name (N8N_API_EXAMPLE_CREDENTIAL), holding this n8n's API
		 * key and address, once; the server must be running (the key exists once the owner does). The CLI
		 * writes it beside the running server, which reads credentials from the database when a node needs one.
		 */
		async n8nApiCredential() {
			if (!n8nApiCredentialImported) {
				await n8n.importCredentials(ctx, [{ ...N8N_API_EXAMPLE_CREDENTIAL, type: 'n8nApi', data: { apiKey: await world.apiKey(), baseUrl: apiUrl } }]);
				n8nApiCredentialImported = true;
			}
			return N8N_API_EXAMPLE_CREDENTIAL;
		},
		/** Stops n8n: SIGTERM (graceful) or, with `kill`, SIGKILL. */
		async stopServer({ kill = false } = {}) {
			if (!world.running) return;
			if (kill) {
				server.child.kill('SIGKILL');
				await new Promise((r) => (server.exited() ? r() : server.child.once('exit', r)));
			} else {
				await server.stop();
			}
		},
		async restartServer(opts) {
			await world.stopServer(opts);
			return await world.server();
		},

		// --- REST helpers -----------------------------------------------------------------------
		async publicApi(urlPath, opts) {
			return n8n.publicApi(ctx, await world.apiKey(), urlPath, opts);
		},
		/** Publishes (activates) a workflow in the running n8n, through the public API. */
		async activate(id) {
			return world.publicApi(`/workflows/${id}/activate`, { method: 'POST' });
		},
		/**
		 * Activates a workflow with a Rubika Trigger receiving by reading and waits for its first getUpdates
		 * (the one that marks "now" for Start From Now). n8n 2.41 activates after the API call returns, so a
		 * message sent right after it could otherwise be taken for backlog. Assumes no other trigger reads.
		 */
		async activateReading(id, { timeoutMs = 30_000 } = {}) {
			const before = (await admin.requests('getUpdates')).length;
			const result = await world.activate(id);
			const deadline = Date.now() + timeoutMs;
			let count = before;
			while (Date.now() < deadline) {
				count = (await admin.requests('getUpdates')).length;
				if (count > before) break;
				await sleep(100);
			}
			if (count === before) throw new Error(`workflow ${id} made no getUpdates call within ${timeoutMs} ms of its activation`);
			// Let the first reading finish: it may read several pages.
			for (let last = -1; last !== count; ) {
				last = count;
				await sleep(300);
				count = (await admin.requests('getUpdates')).length;
			}
			return result;
		},
		async deactivate(id) {
			return world.publicApi(`/workflows/${id}/deactivate`, { method: 'POST' });
		},
		/** Finished executions of a workflow (all pages), newest first, with their data. */
		async executions(workflowId) {
			return (await listExecutions(world.publicApi, workflowId)).filter(isFinished).reverse();
		},
		/**
		 * Waits until `count` finished executions of the workflow exist that `filter` accepts (default: all),
		 * returns them oldest first.
		 */
		async waitForExecutions(workflowId, { count = 1, timeoutMs = 60_000, filter = () => true } = {}) {
			const accepted = (list) => list.filter(isFinished).filter(filter);
			const list = await waitForExecutionList(world.publicApi, workflowId, (all) => accepted(all).length >= count, {
				timeoutMs,
				onTimeout: (all) => {
					throw new Error(`${accepted(all).length} of ${count} execution(s) of ${workflowId} after ${timeoutMs} ms`);
				},
			});
			return accepted(list);
		},
		/** One execution, with its data, once it has ended (waitForExecution). */
		finished: (id, opts) => waitForExecution(world.publicApi, id, opts),
		/** n8n's webhook table: the production routes it serves (n8n.webhookRows), of one workflow when given. */
		async webhookRows(workflowId) {
			const rows = await n8n.webhookRows(ctx);
			return workflowId === undefined ? rows : rows.filter((row) => row.workflowId === workflowId);
		},
		/** Waits until n8n answers the production webhook path (registered after activation). */
		async waitForWebhook(webhookPath, opts) {
			await world.server();
			return n8n.waitForWebhook(ctx, webhookPath, opts);
		},

		/** Stops n8n and the sandbox; removes the work folder unless `keep`. */
		async close({ keep = false } = {}) {
			await world.stopServer().catch(() => {});
			await sandbox.stop().catch(() => {});
			if (!keep) fs.rmSync(workDir, { recursive: true, force: true });
		},
	};
	return world;
}

async function distinctPort(taken) {
	for (;;) {
		const p = await n8n.freePort();
		if (!taken.includes(p)) return p;
	}
}

/** Whether an execution from the public API has ended (whatever its status). */
export function isFinished(e) {
	return e.finished || (e.status && !['running', 'new', 'waiting'].includes(e.status));
}

/**
 * Every execution of a workflow, from n8n's public API (`publicApi(urlPath)`), all pages, oldest first (by
 * id), finished or not; with their data unless `includeData` is false. The one way the e2e worlds read them.
 */
export async function listExecutions(publicApi, workflowId, { includeData = true, storedIds } = {}) {
	const all = [];
	let cursor;
	do {
		const q = new URLSearchParams({ workflowId, includeData: String(includeData), limit: '250', ...(cursor ? { cursor } : {}) });
		const page = await publicApi(`/executions?${q}`);
		all.push(...page.data);
		cursor = page.nextCursor;
	} while (cursor);
	// n8n's list leaves out the executions its process counts as running. n8n 2.8.4's main in queue mode can go on
	// counting one a worker has finished (seen for two trigger executions ending in the same millisecond: main still
	// waited for them at its shutdown), so where the database can be read (`storedIds`, the queue world) what the
	// list left out is read by id, as stored.
	if (storedIds) {
		const listed = new Set(all.map((e) => String(e.id)));
		for (const id of await storedIds(workflowId)) {
			if (listed.has(String(id))) continue;
			const stored = await publicApi(`/executions/${id}?includeData=${includeData}`).catch(() => undefined);
			if (stored?.id !== undefined) all.push(stored);
		}
	}
	return all.sort((a, b) => Number(a.id) - Number(b.id));
}

/**
 * Polls one execution, with its data, from n8n's public API until it has ended; resolves it (the last one read
 * after `timeoutMs`).
 */
export async function waitForExecution(publicApi, id, { timeoutMs = 120_000 } = {}) {
	const deadline = Date.now() + timeoutMs;
	let last;
	while (Date.now() < deadline) {
		last = await publicApi(`/executions/${id}?includeData=true`);
		if (last && isFinished(last)) return last;
		await sleep(200);
	}
	return last;
}

/**
 * Reads listExecutions until `until(list)` holds, and returns that list. After `timeoutMs`, `onTimeout(list)`
 * decides with the last list read (default: return it).
 */
export async function waitForExecutionList(publicApi, workflowId, until, { timeoutMs = 60_000, includeData = true, storedIds, onTimeout = (list) => list } = {}) {
	const deadline = Date.now() + timeoutMs;
	let list = [];
	while (Date.now() < deadline) {
		list = await listExecutions(publicApi, workflowId, { includeData, storedIds });
		if (until(list)) return list;
		await sleep(400);
	}
	return onTimeout(list);
}

/** The items a node emitted in an execution from the public API (first run, output 0 unless told). */
export function nodeItems(execution, nodeName, { runIndex = 0, outputIndex = 0 } = {}) {
	const run = execution?.data?.resultData?.runData?.[nodeName]?.[runIndex];
	return (run?.data?.main?.[outputIndex] ?? []).map((item) => item.json);
}

/** Whole items (json and binary) a node emitted. */
export function nodeFullItems(execution, nodeName, { runIndex = 0, outputIndex = 0 } = {}) {
	const run = execution?.data?.resultData?.runData?.[nodeName]?.[runIndex];
	return run?.data?.main?.[outputIndex] ?? [];
}

/** Names of the nodes that ran in an execution. */
export function nodesRun(execution) {
	return Object.keys(execution?.data?.resultData?.runData ?? {});
}

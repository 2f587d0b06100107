#!/usr/bin/env node
// Restart torture for the Rubika Trigger in a real `n8n start`: while users keep writing to the bot (a few
// numbered messages a second, from their own loop), n8n is stopped again and again at random moments —
// half SIGTERM (n8n's own graceful shutdown), half SIGKILL — many of them 0–300 ms after the trigger has just
// read a page with updates (seen in the sandbox's request log, polled every 20 ms), some while executions
// run, some at any moment (also while n8n is still activating the workflow), and started again. At the
// end the sender stops, everything drains, and every message sent is looked up in the executions n8n
// stored (public API, all pages, with data): each must be in exactly one execution's trigger output.
//
//   node e2e/torture.mjs [--version 2.41.1|2.8.4] [--restarts 50] [--mode continuous|poll] [--short]
//                        [--rate 3] [--no-build] [--keep] [--tgz file]
//
// --mode continuous (default): Rubika Trigger v2 (trigger(), reads about once a second).
// --mode poll: Rubika Trigger v1 (poll(), made to poll every 5 s with withFastPolls).
// Under e2e/run.mjs (the exported `test`) it is the short run: 4 restarts, well under 90 s.
//
// Checked, as docs/trigger-continuous.md promises: continuous on n8n ≥ 2.41 — every message in exactly one
// execution (nothing lost, nothing duplicated; an execution n8n marked crashed is reported, not run again);
// continuous on older n8n (no deduplication key) — nothing duplicated, losses and crashed ones reported;
// poll mode — only reported.
import fs from 'node:fs';
import path from 'node:path';
import { isMain, runTest } from './lib/harness.mjs';
import { EXAMPLE_CREDENTIAL, withFastPolls } from './lib/examples.mjs';
import { RUBIKA_TRIGGER, linearWorkflow, node, noOp } from './lib/workflow-builder.mjs';
import { createWorld, packOnce } from './lib/world.mjs';

const TRIGGER = 'Rubika Trigger';
const IDS = { continuous: 'e2eTortureCont01', poll: 'e2eTorturePoll01' };
const PREFIX = 'torture ';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rand = (lo, hi) => lo + Math.random() * (hi - lo);
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** The run's settings; the exported test uses the short defaults, the command line changes them. */
export const SHORT = Object.freeze({ mode: 'continuous', restarts: 4, ratePerSecond: 3, short: true });
const config = { ...SHORT, ownWorld: false, keepEvidence: false };

function hasDeduplicationKey(version) {
	const [major, minor] = String(version).split('.').map(Number);
	return major > 2 || (major === 2 && minor >= 41);
}

function shuffle(list) {
	for (let i = list.length - 1; i > 0; i--) {
		const j = Math.floor(Math.random() * (i + 1));
		[list[i], list[j]] = [list[j], list[i]];
	}
	return list;
}

/**
 * The stop plan: half SIGTERM, half SIGKILL; of each, about half right after a read with updates
 * ("after-read", 0–300 ms later), a quarter while executions run ("running"), a quarter at a random
 * moment 0–6 s after n8n answered ("random", including the workflow's activation).
 */
function stopPlan(count) {
	const kinds = (n) => Array.from({ length: n }, (_, i) => (i % 4 === 1 ? 'running' : i % 4 === 3 ? 'random' : 'after-read'));
	const term = Math.ceil(count / 2);
	return shuffle([
		...kinds(term).map((kind) => ({ signal: 'SIGTERM', kind })),
		...kinds(count - term).map((kind) => ({ signal: 'SIGKILL', kind })),
	]);
}

function workflowFor(mode) {
	const filters = { textPattern: `^${PREFIX}` };
	if (mode === 'poll') {
		const wf = linearWorkflow(IDS.poll, 'E2E: torture (polling trigger v1)', [
			node(
				TRIGGER,
				RUBIKA_TRIGGER,
				{ pollTimes: { item: [{ mode: 'everyMinute' }] }, firstActivation: 'startFromNow', updateTypes: ['NewMessage'], filters },
				{ credential: EXAMPLE_CREDENTIAL, typeVersion: 1 },
			),
			noOp('Received'),
		]);
		return withFastPolls(wf);
	}
	return linearWorkflow(IDS.continuous, 'E2E: torture (continuous trigger v2)', [
		node(TRIGGER, RUBIKA_TRIGGER, { firstActivation: 'startFromNow', updateTypes: ['NewMessage'], filters }, { credential: EXAMPLE_CREDENTIAL, typeVersion: 2 }),
		noOp('Received'),
	]);
}

/** The trigger's items in an execution: its run data, or (an execution that never ran it) its start data. */
function triggerItems(execution) {
	const run = execution?.data?.resultData?.runData?.[TRIGGER]?.[0];
	if (run) return { items: run.data?.main?.[0] ?? [], from: 'runData' };
	const stack = execution?.data?.executionData?.nodeExecutionStack ?? [];
	const start = stack.find((s) => s?.node?.name === TRIGGER);
	if (start) return { items: start.data?.main?.[0] ?? [], from: 'startData' };
	return { items: [], from: 'none' };
}

export const test = {
	name: 'torture',
	workflows() {
		return [workflowFor(config.mode)];
	},

	async run(world, t) {
		const t0 = Date.now();
		const { admin, demo } = world;
		const mode = config.mode;
		const id = IDS[mode];
		const dedup = hasDeduplicationKey(world.version);
		const users = Object.values(demo.users ?? {}).filter((u) => u?.user_id && u?.chat_id);
		if (users.length === 0) throw new Error('the sandbox reported no demo users');
		const tag = Math.random().toString(36).slice(2, 6);
		t.note(`mode ${mode} (trigger v${mode === 'poll' ? 1 : 2}), n8n ${world.version} (deduplication key: ${dedup ? 'yes' : 'no'}), ${config.restarts} restarts, ~${config.ratePerSecond} messages/s, tag ${tag}`);

		// --- the request-log watcher: every getUpdates, and which answers carried updates --------------
		// The log has no answers, but a getUpdates answer carries updates exactly when a message was stored
		// after the previous request arrived (that one read everything before it) and before this one did.
		// The watcher sees an answered request within ~20 ms, so a stop can follow the read 0–300 ms later.
		const reads = []; // { seq, at, offset, httpStatus, status, durationMs, newMessages, carried }
		const readBySeq = new Map();
		const sentList = []; // in send order: { at, doneAt }
		const readWaiters = new Set();
		let watching = true;
		let watchErrors = 0;
		const messagesBetween = (from, to) => {
			let n = 0;
			for (let k = sentList.length - 1; k >= 0; k--) {
				const m = sentList[k];
				if (m.doneAt !== undefined && m.doneAt <= from) break;
				if (m.at < to && (m.doneAt === undefined || m.doneAt > from)) n++;
			}
			return n;
		};
		const processEntries = (entries) => {
			for (const e of entries) {
				let r = readBySeq.get(e.seq);
				if (!r) {
					r = { seq: e.seq, at: e.at, offset: e.body?.offset_id ?? null, httpStatus: null, status: null, durationMs: null, newMessages: undefined, carried: undefined };
					const before = reads.at(-1);
					// A new cursor: the previous answer carried updates (confirmation, seen later).
					if (before) before.carried = before.offset !== r.offset;
					reads.push(r);
					readBySeq.set(r.seq, r);
				}
				if (r.status === null && e.status !== null) {
					Object.assign(r, { httpStatus: e.httpStatus, status: e.status, durationMs: e.durationMs });
					const index = reads.indexOf(r);
					const since = index > 0 ? reads[index - 1].at : -Infinity;
					r.newMessages = messagesBetween(since, r.at);
					const answeredAt = r.at + (r.durationMs ?? 0);
					if (r.status === 'OK' && r.newMessages > 0 && Date.now() - answeredAt < 1000) {
						for (const w of readWaiters) w({ readSeq: r.seq, answeredAt, detectedAt: Date.now(), newMessages: r.newMessages });
					}
				}
			}
		};
		const refresh = async () => processEntries(await admin.requests('getUpdates'));
		const watcher = (async () => {
			while (watching) {
				try {
					await refresh();
				} catch {
					watchErrors++;
				}
				await sleep(20);
			}
		})();
		/** Resolves with the next read that carried updates, or null after `timeoutMs`. */
		const nextRead = (timeoutMs) =>
			new Promise((resolve) => {
				const done = (v) => {
					readWaiters.delete(done);
					clearTimeout(timer);
					resolve(v);
				};
				const timer = setTimeout(() => done(null), timeoutMs);
				readWaiters.add(done);
			});
		/** Only when this test owns the sandbox: keep the log short (n8n is down, nobody reads). */
		const trimLog = async () => {
			if (!config.ownWorld) return;
			await refresh();
			await admin.clearRequests();
		};

		// --- the sender ------------------------------------------------------------------------------
		const sent = new Map(); // text -> { n, user, at, messageId, restart }
		let sending = true;
		let sendErrors = 0;
		let restartNow = 0; // index of the n8n process running (0 = the first)
		const maxMessages = 100_000;
		let sender = Promise.resolve();
		// Started once the workflow is active: with Start From Now, earlier messages are backlog it skips.
		const startSender = () => (sender = (async () => {
			for (let n = 1; sending && n <= maxMessages; n++) {
				const user = users[n % users.length];
				const text = `${PREFIX}${tag} #${n} from ${user.first_name ?? user.user_id.slice(0, 6)}`;
				const at = Date.now();
				const timing = { at, doneAt: undefined };
				sentList.push(timing);
				try {
					const m = await admin.act('send-message', { userId: user.user_id, chatId: user.chat_id, text });
					timing.doneAt = Date.now();
					sent.set(text, { n, user: user.user_id, at, messageId: m?.message_id, restart: restartNow });
				} catch (e) {
					timing.doneAt = Date.now();
					sendErrors++;
					if (sendErrors <= 3) t.note(`send-message failed: ${e.message}`);
				}
				await sleep(rand(0.5, 1.5) * (1000 / config.ratePerSecond));
			}
		})());

		const restarts = [];
		const statusCounts = {};
		let executions = [];
		try {
			await world.server();
			const activated = await world.activatePolling(id, { timeoutMs: 60_000 });
			t.check(`the ${mode} workflow activates and reads getUpdates`, activated?.active === true || activated?.activeVersionId != null);
			startSender();

			// --- the restarts --------------------------------------------------------------------------
			const plan = stopPlan(config.restarts);
			for (let i = 0; i < plan.length; i++) {
				const { signal, kind } = plan[i];
				const server = await world.server();
				const readyAt = Date.now();
				const record = { i: i + 1, signal, kind, pid: server.pid };
				if (config.short) {
					// The short run (e2e/run.mjs) stops only once the workflow is surely active (three reads by this
					// process): killing n8n 2.41 while it activates leaves its publication lease taken for 2 min, and
					// the next start would not run the trigger for that long.
					const readsBefore = reads.length;
					const until = Date.now() + 30_000;
					while (reads.length - readsBefore < 3 && Date.now() < until) await sleep(50);
				}
				if (kind === 'random') {
					record.plannedMs = Math.round(rand(0, 6000));
					await sleep(record.plannedMs);
				} else {
					await sleep(rand(0, mode === 'poll' ? 1000 : 3000));
					const read = await nextRead(mode === 'poll' ? 15_000 : 12_000);
					if (!read) record.note = 'no read with updates seen in time';
					else record.readSeq = read.readSeq;
					if (kind === 'after-read') {
						record.plannedMs = Math.round(rand(0, 300));
						const since = read ? Date.now() - read.answeredAt : 0;
						await sleep(Math.max(0, record.plannedMs - since));
						if (read) record.afterReadMs = Date.now() - read.answeredAt;
					} else {
						// While executions run: the public API lists them (status running) until they finish.
						const deadline = Date.now() + 1500;
						record.runningSeen = 0;
						while (Date.now() < deadline) {
							try {
								const res = await world.publicApi(`/executions?workflowId=${id}&status=running&limit=20`);
								record.runningSeen = res?.data?.length ?? 0;
							} catch (e) {
								record.note = `running query: ${e.message.slice(0, 80)}`;
								break;
							}
							if (record.runningSeen > 0) break;
							await sleep(20);
						}
						if (read) record.afterReadMs = Date.now() - read.answeredAt;
					}
				}
				record.upMs = Date.now() - readyAt;
				record.sentBefore = sent.size;
				record.stoppedAt = Date.now();
				if (signal === 'SIGKILL') {
					await world.stopServer({ kill: true });
				} else {
					await server.stop({ graceMs: 60_000 });
				}
				record.exit = server.exited();
				// Evidence: how this n8n process ended, and what it said when it came up (recovery, skipped keys).
				const lines = server.log().split('\n').filter(Boolean);
				record.logTail = lines.slice(-12);
				record.logNotable = lines.filter((l) => /crash|dedup|recover|unfinished|error|Rubika Trigger/i.test(l)).slice(0, 30);
				record.stopMs = Date.now() - record.stoppedAt;
				restarts.push(record);
				t.note(
					`stop ${record.i}/${plan.length}: ${signal} ${kind}${record.afterReadMs !== undefined ? ` ${record.afterReadMs} ms after a read` : ''}${record.kind === 'random' ? ` ${record.plannedMs} ms after ready` : ''}${record.runningSeen ? ` (${record.runningSeen} running)` : ''}${record.note ? ` [${record.note}]` : ''}; up ${secs(record.upMs)}, stopped in ${record.stopMs} ms, exit ${JSON.stringify(record.exit)}; ${sent.size} sent so far`,
				);
				await trimLog();
				restartNow = i + 1;
				await sleep(rand(0, 1000)); // messages pile up while n8n is down
			}
			await world.server();

			// --- drain ---------------------------------------------------------------------------------
			// Let the last n8n run a little under load, then stop sending.
			await sleep(config.short ? 2000 : 5000);
			sending = false;
			await sender;
			const lastSendAt = Math.max(...[...sent.values()].map((m) => m.at), 0);
			t.note(`sender stopped: ${sent.size} messages sent, ${sendErrors} send errors`);
			// Drained when, after the last send, the trigger asked twice with the cursor it already had and (one
			// execution per update) n8n holds at least one execution per message sent: with another reader of the
			// bot in a shared world, its repeated cursor alone would not tell. n8n 2.41 activates published
			// workflows through an outbox whose lease (2 min) a killed n8n may still hold, so the last start may
			// not run the trigger for up to ~2.5 min: the wait is that long (bounded).
			const drainStartedAt = Date.now();
			const drainDeadline = Date.now() + 240_000;
			const countExecutions = async () => {
				let n = 0;
				let cursor;
				for (let page = 0; page < 200; page++) {
					const q = new URLSearchParams({ workflowId: id, limit: '250' });
					if (cursor) q.set('cursor', cursor);
					const res = await world.publicApi(`/executions?${q}`);
					n += res?.data?.length ?? 0;
					cursor = res?.nextCursor;
					if (!cursor) break;
				}
				return n;
			};
			let idleReads = 0;
			let stored = 0;
			while (Date.now() < drainDeadline) {
				const after = reads.filter((r) => r.at > lastSendAt + 50);
				idleReads = after.filter((r, k) => k > 0 && r.offset === after[k - 1].offset).length;
				if (idleReads >= 2) {
					if (mode === 'poll') break;
					// Before 2.41 an update handed over at a stop can be lost, so executions may never reach the
					// number sent; there is no publication lease either: caught up, give running executions a moment.
					if (!dedup) {
						await sleep(3000);
						stored = await countExecutions().catch(() => 0);
						break;
					}
					stored = await countExecutions().catch(() => 0);
					if (stored >= sent.size) break;
				}
				await sleep(mode === 'poll' ? 250 : 1000);
			}
			t.check('after the sender stopped, the trigger reads to the end (two reads with nothing new)', idleReads >= 2, `${idleReads} idle reads${mode === 'poll' ? '' : `, ${stored} executions for ${sent.size} messages`} after ${secs(Date.now() - drainStartedAt)}`);
			// ...and n8n has finished the executions (none running).
			const runDeadline = Date.now() + 60_000;
			let running = -1;
			while (Date.now() < runDeadline) {
				try {
					const res = await world.publicApi(`/executions?workflowId=${id}&status=running&limit=5`);
					running = res?.data?.length ?? 0;
				} catch {
					running = 0; // an n8n that cannot filter by running: the sleep below has to do
				}
				if (running === 0) break;
				await sleep(500);
			}
			await sleep(3000);

			// --- count ---------------------------------------------------------------------------------
			const fetchAll = async () => {
				const all = [];
				let cursor;
				for (let page = 0; page < 1000; page++) {
					const q = new URLSearchParams({ workflowId: id, includeData: 'true', limit: '250' });
					if (cursor) q.set('cursor', cursor);
					const res = await world.publicApi(`/executions?${q}`);
					all.push(...(res?.data ?? []));
					cursor = res?.nextCursor;
					if (!cursor) break;
				}
				return all;
			};
			const tally = (list) => {
				const seen = new Map(); // text -> [{ executionId, status, from }]
				let foreign = 0;
				for (const e of list) {
					const { items, from } = triggerItems(e);
					for (const item of items) {
						const text = item?.json?.text;
						if (!sent.has(text)) {
							foreign++;
							continue;
						}
						if (!seen.has(text)) seen.set(text, []);
						seen.get(text).push({ executionId: e.id, status: e.status, from, startedAt: e.startedAt, stoppedAt: e.stoppedAt });
					}
				}
				return { seen, foreign };
			};
			executions = await fetchAll();
			let { seen, foreign } = tally(executions);
			let lost = [...sent.keys()].filter((text) => !seen.has(text));
			if (lost.length > 0) {
				t.note(`${lost.length} message(s) not found yet; looking again in 15 s`);
				await sleep(15_000);
				executions = await fetchAll();
				({ seen, foreign } = tally(executions));
				lost = [...sent.keys()].filter((text) => !seen.has(text));
			}
			for (const e of executions) {
				const key = e.status ?? (e.finished ? 'finished' : 'unknown');
				statusCounts[key] = (statusCounts[key] ?? 0) + 1;
			}
			// "Delivered": in the trigger's output (run data) of an execution. "Stranded": only in the start data of
			// an execution that never ran the trigger node (n8n stored it, then was killed; it is marked crashed and
			// never run again). "Lost": in no execution at all.
			const ran = (v) => v.filter((x) => x.from === 'runData');
			const once = [...seen.values()].filter((v) => ran(v).length === 1).length;
			const duplicated = [...seen.entries()].filter(([, v]) => ran(v).length > 1);
			const extraExecutions = duplicated.reduce((n, [, v]) => n + ran(v).length - 1, 0);
			const stranded = [...seen.entries()].filter(([, v]) => ran(v).length === 0).map(([text]) => text);
			const inCrashed = [...seen.values()].filter((v) => v.some((x) => x.status === 'crashed')).length;
			for (const e of executions.filter((x) => x.status === 'crashed')) {
				const stop = restarts.find((r) => r.stoppedAt >= Date.parse(e.startedAt ?? e.createdAt ?? 0));
				if (stop) stop.crashedExecutions = (stop.crashedExecutions ?? 0) + 1;
			}
			const noItems = executions.filter((e) => triggerItems(e).items.length === 0);
			const bySignal = restarts.reduce((m, r) => ((m[r.signal] = (m[r.signal] ?? 0) + 1), m), {});
			const byKind = restarts.reduce((m, r) => ((m[`${r.signal} ${r.kind}`] = (m[`${r.signal} ${r.kind}`] ?? 0) + 1), m), {});
			// n8n processes in which the trigger never asked for updates (not activated before the stop).
			const readsIn = (k) => reads.filter((r) => r.at > (k === 0 ? 0 : restarts[k - 1].stoppedAt) && (k >= restarts.length || r.at <= restarts[k].stoppedAt)).length;
			const silent = restarts.map((r, k) => ({ i: r.i, reads: readsIn(k), upMs: r.upMs })).filter((x) => x.reads === 0);
			const log = world.serverLog();
			const dedupSkips = (log.match(/duplicate deduplication key/g) ?? []).length;
			const runMs = Date.now() - t0;

			const summary = {
				date: new Date().toISOString(),
				n8n: world.version,
				mode,
				triggerVersion: mode === 'poll' ? 1 : 2,
				restarts: restarts.length,
				restartsBySignal: bySignal,
				restartsByKind: byKind,
				afterReadStops: restarts.filter((r) => r.afterReadMs !== undefined && r.afterReadMs <= 300).length,
				sent: sent.size,
				sendErrors,
				deliveredExactlyOnce: once,
				lost: lost.length,
				duplicated: duplicated.length,
				extraExecutions,
				strandedInCrashedExecution: stranded.length,
				messagesInACrashedExecution: inCrashed,
				crashedExecutionsByStop: restarts.filter((r) => r.crashedExecutions).map((r) => `${r.i}:${r.signal}:${r.kind}:${r.crashedExecutions}`),
				executions: executions.length,
				executionsByStatus: statusCounts,
				executionsWithoutTriggerItems: noItems.length,
				foreignItems: foreign,
				dedupSkipsLogged: dedupSkips,
				processesWithoutReads: silent.length,
				processesWithoutReadsUpOver5s: silent.filter((x) => x.upMs > 5000).length,
				sigtermCrashes: restarts.filter((r) => r.signal === 'SIGTERM' && r.exit?.signal).map((r) => `${r.i}:${r.exit.signal}`),
				drainSeconds: Math.round((Date.now() - drainStartedAt) / 1000),
				getUpdatesSeen: reads.length,
				watcherErrors: watchErrors,
				runSeconds: Math.round(runMs / 1000),
			};
			t.note(`RESULT ${JSON.stringify(summary)}`);

			// --- evidence for what went wrong ------------------------------------------------------------
			const stopOf = (m) => restarts.find((r) => r.stoppedAt >= m.at);
			const describe = (text) => {
				const m = sent.get(text);
				const stop = stopOf(m);
				const near = reads.filter((r) => Math.abs(r.at - m.at) < 3000 || (stop && Math.abs(r.at - stop.stoppedAt) < 1500));
				return {
					text,
					sentAt: new Date(m.at).toISOString(),
					messageId: m.messageId,
					sentWhileProcess: m.restart,
					nextStop: stop && { i: stop.i, signal: stop.signal, kind: stop.kind, msAfterSend: stop.stoppedAt - m.at, afterReadMs: stop.afterReadMs, readSeq: stop.readSeq },
					executions: seen.get(text) ?? [],
					getUpdatesNear: near.map((r) => ({ seq: r.seq, at: new Date(r.at).toISOString(), offset: r.offset, status: r.status, newMessages: r.newMessages, carried: r.carried })),
				};
			};
			const evidence = { summary, lost: lost.map(describe), stranded: stranded.map(describe), duplicated: duplicated.map(([text]) => describe(text)), restarts, reads: reads.length <= 20_000 ? reads : reads.slice(-20_000) };
			const evidenceFile = path.join(world.workDir, `torture-${mode}-${world.version}.json`);
			fs.writeFileSync(evidenceFile, JSON.stringify(evidence, null, 1));
			const badRestarts = new Set([...evidence.lost, ...evidence.stranded, ...evidence.duplicated].map((d) => d.nextStop?.i).filter(Boolean));
			const shown = [...evidence.lost.slice(0, 10).map((d) => ['LOST', d]), ...evidence.stranded.slice(0, 5).map((d) => ['STRANDED', d]), ...evidence.duplicated.slice(0, 10).map((d) => ['DUPLICATED', d])];
			for (const [what, d] of shown) t.note(`${what} ${JSON.stringify({ ...d, getUpdatesNear: d.getUpdatesNear.slice(-8) })}`);
			for (const i of [...badRestarts].slice(0, 5)) {
				const r = restarts.find((x) => x.i === i);
				const next = restarts.find((x) => x.i === i + 1);
				t.note(
					`n8n log at stop ${i} (${r.signal} ${r.kind}), its last lines:\n         ${r.logTail.join('\n         ')}\n       the next n8n process, notable lines:\n         ${(next?.logNotable ?? ['(the last process: see the log file)']).slice(0, 12).join('\n         ')}`,
				);
			}
			// The work folder is kept when a message was lost or duplicated (crashed executions are expected after SIGKILL).
			if (lost.length || duplicated.length) {
				config.keepEvidence = true;
				t.note(`evidence: ${evidenceFile}`);
			}

			// --- checks -----------------------------------------------------------------------------------
			t.check(`n8n was stopped and started ${config.restarts} times (${bySignal.SIGTERM ?? 0} SIGTERM, ${bySignal.SIGKILL ?? 0} SIGKILL)`, restarts.length === config.restarts, byKind);
			t.check('some stops came 0–300 ms after a read with updates', summary.afterReadStops > 0 || config.restarts < 2, `${summary.afterReadStops} of ${restarts.length}`);
			t.check('messages kept arriving during the whole run', sent.size > config.restarts * 5 && sendErrors === 0, `${sent.size} sent, ${sendErrors} errors`);
			t.check('every item the trigger emitted is one of the messages sent', foreign === 0, `${foreign} unknown`);
			t.note(
				`sent ${sent.size}; delivered exactly once ${once}; lost ${lost.length}; stranded in a crashed execution that never ran ${stranded.length}; duplicated ${duplicated.length} (${extraExecutions} extra); executions ${executions.length} ${JSON.stringify(statusCounts)}; ${secs(runMs)}`,
			);
			const strandedDetail = `${stranded.length} only in crashed executions that never ran the workflow${dedup ? ' (n8n refuses to run them again: their deduplication key is taken)' : ''}: ${stranded.slice(0, 5).join(' | ')}`;
			const lostDetail = `${lost.length} lost: ${lost.slice(0, 5).join(' | ')}`;
			const duplicatedDetail = `${duplicated.length} duplicated: ${duplicated.slice(0, 5).map(([k, v]) => `${k} ×${v.length}`).join(' | ')}`;
			if (mode === 'poll') {
				t.note(`poll mode (v1), reported only: ${lost.length} lost, ${stranded.length} only in a crashed execution, ${duplicated.length} duplicated, of ${sent.size}`);
			} else {
				if (dedup) t.check(`continuous on n8n ${world.version}: no message lost (${sent.size} sent)`, lost.length === 0, lostDetail);
				// Before 2.41 an update is recorded as delivered when it is handed to n8n: one handed over in n8n's last
				// moment, never stored, is lost (documented), so it is reported there.
				else t.note(`continuous on n8n ${world.version} (no deduplication key), reported: ${lostDetail}`);
				t.check(`continuous on n8n ${world.version}: no message duplicated`, duplicated.length === 0, duplicatedDetail);
				// Documented: an execution running when n8n was killed stays "crashed" and is not started again.
				t.note(`continuous on n8n ${world.version}, reported: ${strandedDetail}`);
			}
			t.check('no execution ended in error', !statusCounts.error, statusCounts);
		} finally {
			sending = false;
			await sender.catch(() => {});
			watching = false;
			await watcher.catch(() => {});
			if (world.running) await world.deactivate(id).catch(() => {});
		}
	},
};

function parseTortureArgs(argv) {
	const opts = { version: undefined, build: true, keep: false, tgz: undefined, restarts: undefined, mode: 'continuous', short: false, rate: undefined };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
		const value = () => inline ?? argv[++i];
		if (flag === '--version') opts.version = value();
		else if (flag === '--restarts') opts.restarts = Number(value());
		else if (flag === '--mode') opts.mode = value();
		else if (flag === '--rate') opts.rate = Number(value());
		else if (flag === '--short') opts.short = true;
		else if (flag === '--no-build') opts.build = false;
		else if (flag === '--keep') opts.keep = true;
		else if (flag === '--tgz') opts.tgz = value();
		else throw new Error(`unknown option ${a}`);
	}
	if (!['continuous', 'poll'].includes(opts.mode)) throw new Error(`--mode is continuous or poll, not ${opts.mode}`);
	if (opts.restarts !== undefined && !(Number.isInteger(opts.restarts) && opts.restarts >= 1 && opts.restarts <= 1000)) throw new Error('--restarts takes 1–1000');
	return opts;
}

/** On its own: its own world, as long as the run needs, closing `N passed, N failed`. */
async function main() {
	const opts = parseTortureArgs(process.argv.slice(2));
	Object.assign(config, {
		mode: opts.mode,
		restarts: opts.restarts ?? (opts.short ? SHORT.restarts : 50),
		short: opts.short || (opts.restarts ?? 50) <= SHORT.restarts,
		ratePerSecond: opts.rate ?? SHORT.ratePerSecond,
		ownWorld: true,
	});
	const version = opts.version ?? process.env.RUBIKA_N8N_VERSION;
	const say = (s) => process.stdout.write(`[e2e] ${s}\n`);
	say(`command: node e2e/torture.mjs ${process.argv.slice(2).join(' ')}`);
	let world;
	let pack;
	let result = { passed: 0, failed: 1 };
	try {
		pack = await packOnce({ build: opts.build, tgz: opts.tgz, log: say });
		world = await createWorld({ version, pack, workflows: () => test.workflows(), log: say });
		result = await runTest(test, world, { timeoutMs: (5 + config.restarts * 1.5) * 60_000 });
	} catch (e) {
		process.stdout.write(`FAIL   setting up the world — ${e?.stack || e}\n`);
	} finally {
		const keep = opts.keep || result.failed > 0 || config.keepEvidence;
		if (world) {
			await world.close({ keep });
			if (keep) say(`work folder kept: ${world.workDir} (n8n log: ${world.workDir}/n8n.log)`);
		}
		pack?.cleanup();
	}
	process.stdout.write(`${result.passed} passed, ${result.failed} failed\n`);
	process.exit(result.failed ? 1 : 0);
}

if (isMain(import.meta.url)) await main();

/**
 * B8: many bots on one n8n, at rest. In ONE real n8n 2.41.1 (the e2e world: the packed package, the sandbox
 * in its own process), N bots each with its own credential and a published workflow Rubika Trigger (default
 * settings) → No Op, none of them getting an update. For N = 1, 10, 30 and 100 (more published before each
 * window), and with no trigger at all (all unpublished again): getUpdates requests in the sandbox's log and
 * the CPU of n8n's process tree (/proc) over a window. Beside each row, at the same rate and each in a process
 * of its own that sleeps between requests as n8n does (bench/lib/requestLoop.cjs): a raw keep-alive HTTP loop,
 * the floor of what a request can cost, and n8n's own HTTP client, the floor of what a node can reach (n8n
 * gives nodes no other way to make a request).
 *
 * While all 100 are active, one bot gets messages at random gaps: latency from sending to its execution's
 * start (n8n's startedAt), p50/p95, with 99 others idling.
 *
 * Every one of those windows falls within the triggers' first quiet minutes, when they read once a second
 * (Interval); after Idle After (15 minutes by default) they slow to Idle Interval (3 s).
 *
 * At rest, the defaults against today's settings (before issue 33: Idle After 5 minutes, Idle Interval 3 s, no
 * faster reading during a conversation), first of all: `rest.bots` bots of each, all published at once and left
 * without an update. Window 1 once today's have slowed down (the defaults still read every second), window 2 once
 * the defaults have too, then today's are unpublished and window 3 has the defaults alone. CPU above n8n's own
 * idle (no trigger): the defaults at rest = window 3; today's at rest = window 2 − window 3 (same length); the
 * defaults before Idle After = window 1 − today's at rest. Requests per bot per minute come from the sandbox's
 * log, per bot, in each window.
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { caseMain, importTooling } from '../lib/proc';
import { untilEveryBotReads } from '../lib/reading';
import type { CpuWindow } from '../lib/procCpu';
import { cpuBetween, sampleCpu } from '../lib/procCpu';
import { percentile } from '../lib/stats';

interface Input {
	bots: number[];
	windowMs: number;
	messages: number;
	minGapMs: number;
	maxGapMs: number;
	/**
	 * The defaults against today's settings at rest (absent: not measured): bots per setting, window length, and
	 * for a quick check an Idle After (minutes) that both settings use instead of their own.
	 */
	rest?: { bots: number; windowMs: number; idleAfterMinutes?: number };
}

/** One setting's share of a window at rest: requests per bot per minute, and CPU per bot above n8n's idle. */
export interface RestShare {
	getUpdatesPerBotPerMinute: number;
	percentOfCorePerBot: number;
}

export interface RestResult {
	bots: number;
	/** Idle After of each setting, in minutes, as they ran. */
	idleAfterMinutes: { defaults: number; today: number };
	windows: Array<{ label: string; seconds: number; cpu: CpuWindow; getUpdates: { defaults: number; today: number }; loadAvg1: number }>;
	defaultsAtRest: RestShare;
	todayAtRest: RestShare;
	defaultsBeforeIdle: RestShare;
}

export interface IdleRow {
	bots: number;
	seconds: number;
	getUpdates: number;
	requestsPerSecond: number;
	cpu: CpuWindow;
	/** n8n's CPU above its own idle (no trigger), per request and per bot. */
	msPerRequest: number;
	percentOfCorePerBot: number;
	/** The two floors at this row's rate (bench/lib/requestLoop.cjs). */
	raw: LoopResult;
	n8nClient: LoopResult;
}

/** One request loop's run: CPU of its own process per request. */
export interface LoopResult {
	requests: number;
	seconds: number;
	cpuMs: number;
	msPerRequest: number;
}

export interface B8Result {
	n8nVersion: string;
	/** n8n with no trigger, after the windows (the baseline) and before them (to show it had settled). */
	none: { seconds: number; cpu: CpuWindow };
	noneBefore: { seconds: number; cpu: CpuWindow };
	rows: IdleRow[];
	latency: { bots: number; sent: number; delivered: number; p50Ms: number; p95Ms: number; maxMs: number };
	activationSeconds: number;
	rest?: RestResult;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const N8N_VERSION = '2.41.1';
const PREFIX = 'b8bench';
/** How long n8n gets to finish publishing or unpublishing in the background before a window. */
const SETTLE_MS = 15_000;
const STARTUP_SETTLE_MS = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string) => process.stderr.write(`[b8] ${message}\n`);
const run = promisify(execFile);

/** A request loop (bench/lib/requestLoop.cjs) under n8n's Node, at `rate` requests per second. */
async function requestLoop(paths: { nodeBin: string; dir: string }, client: 'raw' | 'n8n', url: string, rate: number, seconds: number): Promise<LoopResult> {
	const script = path.join(__dirname, '..', 'lib', 'requestLoop.cjs');
	const { stdout } = await run(paths.nodeBin, [script, client, url, String(rate), String(seconds), paths.dir], { timeout: Math.ceil((seconds + 60) * 1000) });
	return JSON.parse(stdout.trim().split('\n').at(-1)!) as LoopResult;
}

const workflowId = (index: number) => `benchB8Idle${String(index).padStart(5, '0')}`;
const credentialId = (index: number) => `benchB8Cred${String(index).padStart(5, '0')}`;

type RestSetting = 'defaults' | 'today';
const REST_SETTINGS: RestSetting[] = ['defaults', 'today'];
/** The reading settings before issue 33 (the trigger's options), and the defaults' Idle After, in minutes. */
const TODAY_OPTIONS = { idleAfter: 5, idleInterval: 3, conversationInterval: 1 };
const DEFAULT_IDLE_AFTER_MINUTES = 15;
const restWorkflowId = (setting: RestSetting, index: number) => `benchB8Rest${setting === 'today' ? 'T' : 'D'}${String(index).padStart(3, '0')}`;
const restCredentialId = (setting: RestSetting, index: number) => `benchB8RCred${setting === 'today' ? 'T' : 'D'}${String(index).padStart(3, '0')}`;

caseMain<Input, B8Result>(async (input) => {
	const [worldLib, builder, n8n] = await Promise.all([importTooling('world.mjs'), importTooling('workflow-builder.mjs'), importTooling('n8n.mjs')]);
	const { noOp, linearWorkflow, readingTrigger } = builder;
	const most = Math.max(...input.bots);
	const workflows = Array.from({ length: most }, (_, index) =>
		linearWorkflow(workflowId(index), `B8: bot ${index + 1}`, [
			readingTrigger('Rubika Trigger', { updateTypes: ['NewMessage'], options: {} }, { credential: { id: credentialId(index), name: `B8 bot ${index + 1}` } }),
			noOp('NoOp'),
		]),
	);
	const rest = input.rest;
	const restOptions = (setting: RestSetting) => {
		const options: Record<string, number> = setting === 'today' ? { ...TODAY_OPTIONS } : {};
		if (rest?.idleAfterMinutes !== undefined) options.idleAfter = rest.idleAfterMinutes;
		return options;
	};
	for (const setting of rest ? REST_SETTINGS : []) {
		for (let index = 0; index < rest!.bots; index++) {
			const name = `B8 rest bot ${index + 1} (${setting})`;
			workflows.push(
				linearWorkflow(restWorkflowId(setting, index), name, [
					readingTrigger('Rubika Trigger', { updateTypes: ['NewMessage'], options: restOptions(setting) }, { credential: { id: restCredentialId(setting, index), name } }),
					noOp('NoOp'),
				]),
			);
		}
	}
	log('building and packing the package, preparing n8n…');
	const pack = await worldLib.packOnce({ build: true, log });
	let world: any;
	try {
		world = await worldLib.createWorld({ version: N8N_VERSION, pack, workflows, log });
		const { admin, demo } = world;
		// Bot 1 is the demo bot (its users can write to it); the others are new bots of their own.
		const tokens: string[] = [demo.token];
		for (let index = 1; index < most; index++) tokens.push((await admin.call('POST', '/bots', { bot_title: `B8 bot ${index + 1}` })).token);
		await n8n.importCredentials(
			world.ctx,
			tokens.map((token, index) => ({ id: credentialId(index), name: `B8 bot ${index + 1}`, type: 'rubikaApi', data: { accessToken: token, baseUrl: world.sandbox.url } })),
		);
		// The bots at rest: new bots of their own, each with its credential.
		const restBots: Array<{ setting: RestSetting; index: number; botId: string; name: string; token: string }> = [];
		for (const setting of rest ? REST_SETTINGS : []) {
			for (let index = 0; index < rest!.bots; index++) {
				const name = `B8 rest bot ${index + 1} (${setting})`;
				const bot = await admin.call('POST', '/bots', { bot_title: name });
				restBots.push({ setting, index, botId: bot.bot_id, name, token: bot.token });
			}
		}
		if (restBots.length > 0) {
			await n8n.importCredentials(
				world.ctx,
				restBots.map((bot) => ({ id: restCredentialId(bot.setting, bot.index), name: bot.name, type: 'rubikaApi', data: { accessToken: bot.token, baseUrl: world.sandbox.url } })),
			);
		}
		const server = await world.server();
		const pid: number = server.pid;
		const getUpdatesSince = async (from: number) => ((await admin.requests('getUpdates')) as Array<{ at: number }>).filter((entry) => entry.at >= from).length;
		const measure = async () => {
			const before = sampleCpu(pid);
			await sleep(input.windowMs);
			const after = sampleCpu(pid);
			return { cpu: cpuBetween(before, after), getUpdates: await getUpdatesSince(before.at) - (await getUpdatesSince(after.at)) };
		};

		// n8n keeps busy for minutes after it starts (6 % of a core in the first seconds, 2 % a minute later): the
		// windows start once it has settled, and its idle is measured before them and again after them.
		await sleep(STARTUP_SETTLE_MS);
		const noneBefore = await measure();
		log(`no trigger, before: n8n ${noneBefore.cpu.percentOfCore.toFixed(2)} % of a core`);

		// --- at rest: the defaults against today's settings -------------------------------------------
		type RawRestWindow = { label: string; cpu: CpuWindow; getUpdates: Record<RestSetting, number>; loadAvg1: number };
		const restWindows: RawRestWindow[] = [];
		let idleAfterMinutes = { defaults: DEFAULT_IDLE_AFTER_MINUTES, today: TODAY_OPTIONS.idleAfter };
		if (rest) {
			if (rest.idleAfterMinutes !== undefined) idleAfterMinutes = { defaults: rest.idleAfterMinutes, today: rest.idleAfterMinutes };
			for (const bot of restBots) await world.activate(restWorkflowId(bot.setting, bot.index));
			await untilEveryBotReads(admin, restBots.map((bot) => bot.botId), 60_000);
			// Each reader's quiet clock starts when it starts; the last one started by now.
			const restStart = Date.now();
			log(`${restBots.length} bots at rest (${rest.bots} with the defaults, ${rest.bots} with today's settings)`);
			const restWindow = async (label: string) => {
				const before = sampleCpu(pid);
				await sleep(rest.windowMs);
				const after = sampleCpu(pid);
				const requests = ((await admin.requests('getUpdates')) as Array<{ at: number; botId: string | null }>).filter((entry) => entry.at >= before.at && entry.at < after.at);
				const getUpdates = {} as Record<RestSetting, number>;
				for (const setting of REST_SETTINGS) {
					const ids = new Set(restBots.filter((bot) => bot.setting === setting).map((bot) => bot.botId));
					getUpdates[setting] = requests.filter((entry) => entry.botId !== null && ids.has(entry.botId)).length;
				}
				const window = { label, cpu: cpuBetween(before, after), getUpdates, loadAvg1: os.loadavg()[0] };
				log(`rest, ${label}: getUpdates ${getUpdates.defaults} (defaults) + ${getUpdates.today} (today's), n8n ${window.cpu.percentOfCore.toFixed(2)} % of a core, load ${window.loadAvg1.toFixed(2)}`);
				restWindows.push(window);
			};
			const untilQuietFor = async (minutes: number) => {
				const wait = restStart + minutes * 60_000 + 20_000 - Date.now();
				log(`waiting ${Math.round(Math.max(0, wait) / 1000)} s…`);
				if (wait > 0) await sleep(wait);
			};
			await untilQuietFor(idleAfterMinutes.today);
			await restWindow('1: today\'s at rest, the defaults before Idle After');
			await untilQuietFor(idleAfterMinutes.defaults);
			await restWindow('2: both at rest');
			for (const bot of restBots.filter((b) => b.setting === 'today')) await world.deactivate(restWorkflowId(bot.setting, bot.index));
			await sleep(SETTLE_MS);
			await restWindow('3: the defaults alone at rest');
			for (const bot of restBots.filter((b) => b.setting === 'defaults')) await world.deactivate(restWorkflowId(bot.setting, bot.index));
			await sleep(SETTLE_MS);
		}

		// Smallest first, activating more bots between the windows: n8n 2.41 publishes and unpublishes in the
		// background, so each window waits until every active trigger reads (the request rate) and n8n settles.
		const windows: Array<{ bots: number; cpu: CpuWindow; getUpdates: number }> = [];
		let active = 0;
		let activationSeconds = 0;
		for (const bots of [...input.bots].sort((a, b) => a - b)) {
			const activationStart = Date.now();
			for (; active < bots; active++) await world.activate(workflowId(active));
			activationSeconds += (Date.now() - activationStart) / 1000;
			const readyBy = Date.now() + 60_000;
			while (Date.now() < readyBy && (await getUpdatesSince(Date.now() - 3000)) < 0.9 * 3 * bots) await sleep(1000);
			await sleep(SETTLE_MS);
			const { cpu, getUpdates } = await measure();
			windows.push({ bots, cpu, getUpdates });
			log(`${bots} idle bots: ${(getUpdates / cpu.seconds).toFixed(1)} getUpdates/s, n8n ${cpu.percentOfCore.toFixed(1)} % of a core`);
		}

		// --- latency of one bot while the others idle -------------------------------------------------
		const sara = demo.users.sara;
		const sentAt: number[] = [];
		for (let seq = 0; seq < input.messages; seq++) {
			const at = Date.now();
			await admin.act('send-message', { userId: sara.user_id, chatId: sara.chat_id, text: `${PREFIX} ${seq}` });
			sentAt.push(at);
			await sleep(input.minGapMs + Math.random() * (input.maxGapMs - input.minGapMs));
		}
		let latencies: number[] = [];
		const deadline = Date.now() + 60_000;
		while (Date.now() < deadline) {
			const executions = await worldLib.listExecutions(world.publicApi, workflowId(0));
			latencies = [];
			for (const execution of executions) {
				const text = String(execution.data?.resultData?.runData?.['Rubika Trigger']?.[0]?.data?.main?.[0]?.[0]?.json?.text ?? '');
				const match = new RegExp(`^${PREFIX} (\\d+)$`).exec(text);
				if (match) latencies.push(Date.parse(execution.startedAt) - sentAt[Number(match[1])]);
			}
			if (latencies.length >= input.messages) break;
			await sleep(1000);
		}
		latencies.sort((a, b) => a - b);
		const latency = {
			bots: most,
			sent: input.messages,
			delivered: latencies.length,
			p50Ms: percentile(latencies, 50),
			p95Ms: percentile(latencies, 95),
			maxMs: latencies.at(-1) ?? NaN,
		};
		log(`one bot of ${most}: ${latency.delivered}/${latency.sent} messages, p50 ${latency.p50Ms} ms, p95 ${latency.p95Ms} ms`);

		// --- n8n's own idle, in the same process, once every trigger is gone ----------------------------
		for (let index = 0; index < active; index++) await world.deactivate(workflowId(index));
		await sleep(SETTLE_MS);
		const none = await measure();
		if (none.getUpdates !== 0) throw new Error(`${none.getUpdates} getUpdates requests with no trigger active`);
		log(`no trigger, after: n8n ${none.cpu.percentOfCore.toFixed(2)} % of a core`);
		// --- the floors, at each row's rate, while n8n idles -------------------------------------------
		const url = `${world.sandbox.url}/v3/${tokens[0]}/getUpdates`;
		const rows: IdleRow[] = [];
		for (const { bots, cpu, getUpdates } of windows) {
			const rate = getUpdates / cpu.seconds;
			const [raw, n8nClient] = await Promise.all([
				requestLoop(world.ctx.paths, 'raw', url, rate, cpu.seconds),
				requestLoop(world.ctx.paths, 'n8n', url, rate, cpu.seconds),
			]);
			const aboveIdleMs = cpu.treeMs - (none.cpu.treeMs / none.cpu.seconds) * cpu.seconds;
			rows.push({
				bots,
				seconds: cpu.seconds,
				getUpdates,
				requestsPerSecond: rate,
				cpu,
				msPerRequest: aboveIdleMs / Math.max(1, getUpdates),
				percentOfCorePerBot: ((aboveIdleMs / (cpu.seconds * 1000)) * 100) / bots,
				raw,
				n8nClient,
			});
			const row = rows.at(-1)!;
			log(`${bots} idle bots: ${row.msPerRequest.toFixed(2)} ms per request above n8n's idle (raw loop ${raw.msPerRequest.toFixed(2)} ms, n8n's client ${n8nClient.msPerRequest.toFixed(2)} ms at ${rate.toFixed(1)}/s), ${row.percentOfCorePerBot.toFixed(3)} % of a core per bot`);
		}

		// The rest windows' shares, above n8n's own idle (no trigger, after every window).
		let restResult: RestResult | undefined;
		if (rest && restWindows.length === 3) {
			const noneMsPerSecond = none.cpu.treeMs / none.cpu.seconds;
			const aboveIdle = (w: RawRestWindow) => w.cpu.treeMs - noneMsPerSecond * w.cpu.seconds;
			const share = (cpuMs: number, requests: number, seconds: number): RestShare => ({
				getUpdatesPerBotPerMinute: requests / rest.bots / (seconds / 60),
				percentOfCorePerBot: ((cpuMs / (seconds * 1000)) * 100) / rest.bots,
			});
			const [w1, w2, w3] = restWindows;
			const defaultsAtRestMsPerSecond = aboveIdle(w3) / w3.cpu.seconds;
			const todayAtRestMsPerSecond = (aboveIdle(w2) - defaultsAtRestMsPerSecond * w2.cpu.seconds) / w2.cpu.seconds;
			restResult = {
				bots: rest.bots,
				idleAfterMinutes,
				windows: restWindows.map((w) => ({ label: w.label, seconds: w.cpu.seconds, cpu: w.cpu, getUpdates: w.getUpdates, loadAvg1: w.loadAvg1 })),
				defaultsAtRest: share(aboveIdle(w3), w3.getUpdates.defaults, w3.cpu.seconds),
				todayAtRest: share(todayAtRestMsPerSecond * w2.cpu.seconds, w2.getUpdates.today, w2.cpu.seconds),
				defaultsBeforeIdle: share(aboveIdle(w1) - todayAtRestMsPerSecond * w1.cpu.seconds, w1.getUpdates.defaults, w1.cpu.seconds),
			};
			log(`rest: the defaults ${restResult.defaultsAtRest.percentOfCorePerBot.toFixed(3)} % of a core per bot, today's ${restResult.todayAtRest.percentOfCorePerBot.toFixed(3)} %`);
		}

		return {
			n8nVersion: world.version,
			none: { seconds: none.cpu.seconds, cpu: none.cpu },
			noneBefore: { seconds: noneBefore.cpu.seconds, cpu: noneBefore.cpu },
			rows,
			latency,
			activationSeconds,
			rest: restResult,
		};
	} finally {
		await world?.close().catch(() => {});
		pack.cleanup?.();
	}
});

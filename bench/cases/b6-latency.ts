/**
 * B6: how long a Rubika message takes to start a workflow, for each way the Rubika Trigger receives, in ONE
 * real n8n 2.41.1 (the e2e world: the packed package installed as a community package, the sandbox in its own
 * process), and what the trigger by reading costs while nothing happens.
 *
 * Latency: four published workflows hear the same bot at once, each Rubika Trigger → NoOp with a Text Pattern
 * that only the bench's messages match: by reading (defaults), the same with Options → Add Sender Details on
 * (one getChat per new sender), by reading with the settings of before issue 33 (Idle After 5 minutes, Idle
 * Interval 3 s, no faster reading during a conversation: "today's"), and by webhook. (Before issue 31 another
 * ran the polling trigger, version 1, which is gone.) Sandbox users send numbered messages at random gaps; each message's send time is taken just before the sandbox's admin call
 * that makes it. Afterwards every execution is read back through n8n's public API (includeData, paginated)
 * and each message's latency is its execution's startedAt minus its send time.
 *
 * Idle cost: with only the workflow by reading active and no messages, getUpdates requests in the sandbox's
 * request log and n8n's CPU time (/proc, n8n and its child processes) over a window; then the same window
 * with no trigger active, in the same n8n; the first window starts once the minute of faster reading after the
 * last message is over. Optionally also after Idle After (fifteen quiet minutes), when the trigger slows to its
 * Idle Interval.
 *
 * After a quiet spell: bots of their own, half read with the defaults and half with today's settings, get no
 * update for `quietMs` (ten minutes); then each gets one message, in a random order at random gaps. A message's
 * latency is its execution's startedAt minus its send time; the getUpdates of each half in the sandbox's request
 * log, before today's five quiet minutes and after them, say what each costs while nobody writes.
 */
import os from 'node:os';

import { caseMain, importTooling, withN8nLogTail } from '../lib/proc';
import { untilEveryBotReads } from '../lib/reading';
import type { CpuWindow } from '../lib/procCpu';
import { cpuBetween, sampleCpu } from '../lib/procCpu';
import type { Spread } from '../lib/stats';
import { percentile, seededRandom, spread } from '../lib/stats';

interface Input {
	messages: number;
	minGapMs: number;
	maxGapMs: number;
	/** Length of each idle measurement window. */
	idleWindowMs: number;
	/** Also measure the trigger by reading after Idle After (costs about fourteen more minutes). */
	idleSlowdown: boolean;
	/** Bots per setting (defaults, today's) in the quiet spell (0: none), and how long it lasts before their one message. */
	quietBots: number;
	quietMs: number;
	seed: number;
}

export type TriggerName = 'reading' | 'readingSenders' | 'today' | 'webhook';
/** The two settings compared after a quiet spell. */
export type QuietSetting = 'defaults' | 'today';

export interface QuietStats {
	bots: number;
	delivered: number;
	p50Ms: number;
	p95Ms: number;
	maxMs: number;
	/** Each bot's first message's latency (NaN when it started nothing). */
	latenciesMs: number[];
	/** getUpdates per bot per minute from the second quiet minute to the fifth, and from 5.5 minutes to the message. */
	perBotPerMinute: { first: number; rest: number };
}

export interface LatencyStats {
	sent: number;
	/** Distinct bench messages that started (or were part of) an execution. */
	delivered: number;
	missing: number;
	/** Deliveries beyond the first of the same message. */
	duplicates: number;
	executions: number;
	failedExecutions: number;
	p50Ms: number;
	p95Ms: number;
	maxMs: number;
	minMs: number;
	meanMs: number;
	/** Latency of each message in send order (NaN when not delivered). */
	latenciesMs: number[];
}

export interface IdleWindow {
	label: string;
	activeTriggers: string;
	seconds: number;
	getUpdates: number;
	getUpdatesPerMinute: number;
	cpu: CpuWindow;
	loadAvg1Before: number;
	loadAvg1After: number;
}

export interface B6Result {
	n8nVersion: string;
	messages: number;
	gapMs: [number, number];
	sendSeconds: number;
	/** Median and max duration of the sandbox admin call that makes a message (send time is taken before it). */
	sendCallMs: { median: number; max: number };
	triggers: Record<TriggerName, LatencyStats>;
	/**
	 * Where the time goes (medians and p95, ms): for the webhook, send → the sandbox's POST to n8n, and that
	 * POST → startedAt; for the trigger by reading, send → the first getUpdates request after it, and that
	 * request → startedAt.
	 */
	breakdown: {
		webhook: { toDelivery: Spread; deliveryToStart: Spread; answerMs: Spread };
		reading: { toRequest: Spread; requestToStart: Spread };
	};
	/** What Add Sender Details cost the trigger by reading with it on: its getChat requests and their answers. */
	senderDetails: {
		/** Distinct senders of the bench messages. */
		senders: number;
		/** getChat requests in the sandbox's log while the messages were read. */
		getChat: number;
		/** How long the sandbox took to answer each getChat (its request log). */
		getChatMs: number[];
		/** The variant's items whose `sender` has a full name. */
		withNames: number;
		/** The variant's latency for each sender's first message (the one that waits for getChat), in ms. */
		firstMessageMs: number[];
	};
	idle: { reading: IdleWindow; readingSlowed?: IdleWindow; none: IdleWindow };
	/** The quiet spell (absent with quietBots 0). */
	quiet?: { ms: number; gapMs: [number, number]; settings: Record<QuietSetting, QuietStats>; /** At the start of the silence and at the end. */ loadAvg1: number[] };
	/** The trigger by reading's settings the extrapolation uses (its defaults). */
	intervalMs: number;
	conversationIntervalMs: number;
	conversationMs: number;
	idleIntervalMs: number;
	idleAfterMs: number;
	loadAvg: { start: number[]; afterSending: number[]; end: number[] };
}

// ------------------------------------------------------------------------------------------------
// The e2e libraries are ES modules; this case is compiled to CommonJS, where `import()` would become
// `require()`. A Function keeps a real dynamic import.
// ------------------------------------------------------------------------------------------------
/* eslint-disable @typescript-eslint/no-explicit-any */

const N8N_VERSION = '2.41.1';
const IDS: Record<TriggerName, string> = {
	reading: 'benchB6Continu01',
	readingSenders: 'benchB6Senders01',
	webhook: 'benchB6Webhook01',
	today: 'benchB6Today0001',
};
const NODE_NAME: Record<TriggerName, string> = {
	reading: 'Rubika Trigger (by reading)',
	readingSenders: 'Rubika Trigger (by reading, Add Sender Details)',
	webhook: 'Rubika Trigger (by webhook)',
	today: 'Rubika Trigger (by reading, today\'s settings)',
};
/** The reading settings before issue 33: Idle After 5 minutes, Idle Interval 3 s, no faster reading during a conversation. */
const TODAY_OPTIONS = { idleAfter: 5, idleInterval: 3, conversationInterval: 1 };
const TODAY_IDLE_AFTER_MS = 5 * 60_000;
const quietWorkflowId = (setting: QuietSetting, index: number) => `benchB6Quiet${setting === 'today' ? 'T' : 'D'}${String(index).padStart(3, '0')}`;
const quietCredentialId = (setting: QuietSetting, index: number) => `benchB6QCred${setting === 'today' ? 'T' : 'D'}${String(index).padStart(3, '0')}`;
const PREFIX = 'b6bench';
const TEXT_PATTERN = `^${PREFIX} `;
/** The trigger by reading's defaults (nodes/RubikaTrigger/description.ts), for the report's extrapolation. */
const INTERVAL_MS = 1000;
const CONVERSATION_INTERVAL_MS = 250;
/** How long the faster reading lasts after an update (nodes/RubikaTrigger/reading/limits.ts PACE). */
const CONVERSATION_MS = 60_000;
const IDLE_INTERVAL_MS = 3000;
const IDLE_AFTER_MS = 15 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string) => process.stderr.write(`[b6] ${message}\n`);

caseMain<Input, B6Result>(async (input) => {
	const [world_, builder, examples, n8n] = await Promise.all([
		importTooling('world.mjs'),
		importTooling('workflow-builder.mjs'),
		importTooling('examples.mjs'),
		importTooling('n8n.mjs'),
	]);
	const { noOp, linearWorkflow, readingTrigger, webhookTrigger } = builder;
	const credential = examples.EXAMPLE_CREDENTIAL;
	const webhookId = 'b6b6b6b6-0000-4000-8000-00000000b6b6';
	const filters = { textPattern: TEXT_PATTERN };

	const workflows = [
		linearWorkflow(IDS.reading, 'B6: Rubika Trigger by reading (defaults)', [
			readingTrigger(NODE_NAME.reading, { updateTypes: ['NewMessage'], firstActivation: 'startFromNow', filters, options: {} }, { credential }),
			noOp('NoOp'),
		]),
		linearWorkflow(IDS.readingSenders, 'B6: Rubika Trigger by reading (Add Sender Details)', [
			readingTrigger(NODE_NAME.readingSenders, { updateTypes: ['NewMessage'], firstActivation: 'startFromNow', filters, options: { addSenderDetails: true } }, { credential }),
			noOp('NoOp'),
		]),
		linearWorkflow(IDS.webhook, 'B6: Rubika Trigger by webhook', [
			webhookTrigger(NODE_NAME.webhook, { endpoints: ['ReceiveUpdate'], updateTypes: ['NewMessage'], filters, options: {} }, { credential, webhookId }),
			noOp('NoOp'),
		]),
		linearWorkflow(IDS.today, 'B6: Rubika Trigger by reading (today\'s settings)', [
			readingTrigger(NODE_NAME.today, { updateTypes: ['NewMessage'], firstActivation: 'startFromNow', filters, options: TODAY_OPTIONS }, { credential }),
			noOp('NoOp'),
		]),
	];
	const quietSettings: QuietSetting[] = ['defaults', 'today'];
	for (const setting of quietSettings) {
		for (let index = 0; index < input.quietBots; index++) {
			const name = `B6 quiet bot ${index + 1} (${setting})`;
			workflows.push(
				linearWorkflow(quietWorkflowId(setting, index), name, [
					readingTrigger('Rubika Trigger', { updateTypes: ['NewMessage'], firstActivation: 'startFromNow', options: setting === 'today' ? TODAY_OPTIONS : {} }, {
						credential: { id: quietCredentialId(setting, index), name },
					}),
					noOp('NoOp'),
				]),
			);
		}
	}

	const loadStart = os.loadavg();
	log('building and packing the package, preparing n8n…');
	const pack = await world_.packOnce({ build: true, log });
	let world: any;
	try {
		world = await world_.createWorld({ version: N8N_VERSION, pack, workflows, log });
		const { admin, demo } = world;
		// The quiet spell's bots, each with its own credential and a chat with Sara (no update: no start message).
		const quietBots: Array<{ setting: QuietSetting; index: number; botId: string; token: string; chatId: string }> = [];
		for (const setting of quietSettings) {
			for (let index = 0; index < input.quietBots; index++) {
				const bot = await admin.addBot({ bot_title: `B6 quiet bot ${index + 1} (${setting})` });
				const { chat_id: chatId } = await admin.act('start-bot', { userId: demo.users.sara.user_id, botId: bot.bot_id, sendStartMessage: false });
				quietBots.push({ setting, index, botId: bot.bot_id, token: bot.token, chatId });
			}
		}
		if (quietBots.length > 0) {
			await n8n.importCredentials(
				world.ctx,
				quietBots.map((bot) => ({
					id: quietCredentialId(bot.setting, bot.index),
					name: `B6 quiet bot ${bot.index + 1} (${bot.setting})`,
					type: 'rubikaApi',
					data: { accessToken: bot.token, baseUrl: world.sandbox.url },
				})),
			);
		}
		const server = await world.server();
		const pid: number = server.pid;
		const getUpdatesCount = async () => ((await admin.requests('getUpdates')) as unknown[]).length;
		const getUpdatesBetween = async (from: number, to: number) =>
			((await admin.requests('getUpdates')) as Array<{ at: number }>).filter((entry) => entry.at >= from && entry.at < to).length;

		// --- activation: each trigger ready before the first message -----------------------------
		const before = await getUpdatesCount();
		await world.activate(IDS.reading);
		await world.activate(IDS.readingSenders);
		await world.activate(IDS.today);
		for (let i = 0; i < 150 && (await getUpdatesCount()) < before + 6; i++) await sleep(200);
		if ((await getUpdatesCount()) < before + 6) throw new Error('the triggers by reading did not start reading getUpdates');
		await world.activate(IDS.webhook);
		let registered = false;
		for (let i = 0; i < 150 && !registered; i++) {
			registered = ((await admin.requests('updateBotEndpoints')) as unknown[]).length > 0 && (await admin.bot(demo.botId)).endpoints.length > 0;
			if (!registered) await sleep(200);
		}
		if (!registered) throw new Error('the webhook trigger did not register its endpoint within 30 s');
		// The route ends in the secret (the trigger's default, Secret: In the Path): read from the registered address.
		const registeredUrl: string = (await admin.bot(demo.botId)).endpoints[0].url;
		await world.waitForWebhook(registeredUrl.slice(`${world.ctx.baseUrl}/webhook/`.length));
		await sleep(2000);
		log(`four workflows active in n8n ${world.version} (pid ${pid}); sending ${input.messages} messages`);

		// --- sending ------------------------------------------------------------------------------
		const rand = seededRandom(input.seed);
		const users = Object.values(demo.users) as Array<{ user_id: string; chat_id: string }>;
		const sentAt: number[] = [];
		const senderOf: string[] = [];
		const callMs: number[] = [];
		const sendStart = Date.now();
		for (let seq = 0; seq < input.messages; seq++) {
			const user = users[Math.floor(rand() * users.length)];
			const gap = input.minGapMs + rand() * (input.maxGapMs - input.minGapMs);
			const at = Date.now();
			await admin.act('send-message', { userId: user.user_id, chatId: user.chat_id, text: `${PREFIX} ${seq} from ${user.user_id.slice(0, 6)}` });
			sentAt.push(at);
			senderOf.push(user.user_id);
			callMs.push(Date.now() - at);
			if (seq + 1 < input.messages) await sleep(Math.max(0, at + gap - Date.now()));
			if ((seq + 1) % 50 === 0) log(`${seq + 1} sent`);
		}
		const lastSend = sentAt[sentAt.length - 1];
		const sendSeconds = (Date.now() - sendStart) / 1000;
		const loadAfterSending = os.loadavg();

		// --- reading executions back ----------------------------------------------------------------
		const listAll = async (workflowId: string, includeData: boolean) => {
			const all: any[] = [];
			let cursor: string | undefined;
			for (let page = 0; page < 100; page++) {
				const query = new URLSearchParams({ workflowId, includeData: String(includeData), limit: '100' });
				if (cursor) query.set('cursor', cursor);
				const answer = await world.publicApi(`/executions?${query}`);
				all.push(...(answer.data ?? []));
				cursor = answer.nextCursor ?? undefined;
				if (!cursor) break;
			}
			return all;
		};
		const finished = (e: any) => e.finished || (e.status && !['running', 'new', 'waiting'].includes(e.status));
		// Bounded: every trigger has had its chance 75 s after the last message.
		const deadline = lastSend + 75_000;
		for (;;) {
			const lists = await Promise.all((Object.keys(IDS) as TriggerName[]).map(async (name) => await listAll(IDS[name], false)));
			const done = lists.every((list) => list.filter(finished).length >= input.messages);
			if (done || Date.now() > deadline) break;
			await sleep(3000);
		}
		await sleep(1000);

		const triggers = {} as Record<TriggerName, LatencyStats>;
		let withNames = 0;
		for (const name of Object.keys(IDS) as TriggerName[]) {
			const executions = await listAll(IDS[name], true);
			const first = new Array<number>(input.messages).fill(NaN);
			let deliveries = 0;
			for (const execution of executions) {
				const started = Date.parse(execution.startedAt);
				const items = execution.data?.resultData?.runData?.[NODE_NAME[name]]?.[0]?.data?.main?.[0] ?? [];
				for (const item of items) {
					const match = new RegExp(`^${PREFIX} (\\d+) `).exec(String(item.json?.text ?? ''));
					if (!match) continue;
					const seq = Number(match[1]);
					if (seq >= input.messages) continue;
					deliveries++;
					if (name === 'readingSenders' && typeof item.json?.sender?.full_name === 'string') withNames++;
					const latency = started - sentAt[seq];
					if (Number.isNaN(first[seq]) || latency < first[seq]) first[seq] = latency;
				}
			}
			const got = first.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
			triggers[name] = {
				sent: input.messages,
				delivered: got.length,
				missing: input.messages - got.length,
				duplicates: deliveries - got.length,
				executions: executions.length,
				failedExecutions: executions.filter((e) => e.status && e.status !== 'success').length,
				p50Ms: percentile(got, 50),
				p95Ms: percentile(got, 95),
				maxMs: got.length ? got[got.length - 1] : NaN,
				minMs: got.length ? got[0] : NaN,
				meanMs: got.length ? got.reduce((sum, value) => sum + value, 0) / got.length : NaN,
				latenciesMs: first,
			};
			log(`${name}: ${got.length}/${input.messages} delivered, p50 ${triggers[name].p50Ms} ms, p95 ${triggers[name].p95Ms} ms, max ${triggers[name].maxMs} ms`);
		}

		// --- where the time goes ------------------------------------------------------------------------
		const startedOf = (name: TriggerName) => triggers[name].latenciesMs.map((latency, seq) => sentAt[seq] + latency);
		const deliveries = (await admin.deliveries()) as Array<{ at: number; durationMs?: number; body?: { update?: { new_message?: { text?: string } } } }>;
		const deliveryAt = new Array<number>(input.messages).fill(NaN);
		const answerMs: number[] = [];
		for (const delivery of deliveries) {
			const match = new RegExp(`^${PREFIX} (\\d+) `).exec(String(delivery.body?.update?.new_message?.text ?? ''));
			if (!match || Number(match[1]) >= input.messages || !Number.isNaN(deliveryAt[Number(match[1])])) continue;
			deliveryAt[Number(match[1])] = delivery.at;
			if (delivery.durationMs !== undefined) answerMs.push(delivery.durationMs);
		}
		const webhookStarted = startedOf('webhook');
		const requests = ((await admin.requests('getUpdates')) as Array<{ at: number }>).map((entry) => entry.at).sort((a, b) => a - b);
		const firstRequestAfter = (at: number) => requests.find((value) => value > at) ?? NaN;
		const readingStarted = startedOf('reading');
		const breakdown: B6Result['breakdown'] = {
			webhook: {
				toDelivery: spread(deliveryAt.map((at, seq) => at - sentAt[seq])),
				deliveryToStart: spread(deliveryAt.map((at, seq) => webhookStarted[seq] - at)),
				answerMs: spread(answerMs),
			},
			reading: {
				toRequest: spread(sentAt.map((at) => firstRequestAfter(at) - at)),
				requestToStart: spread(sentAt.map((at, seq) => readingStarted[seq] - firstRequestAfter(at))),
			},
		};

		const firstSeqs = [...new Set(senderOf)].map((userId) => senderOf.indexOf(userId));
		const getChat = ((await admin.requests('getChat')) as Array<{ durationMs: number | null }>).filter((entry) => entry.durationMs !== null);
		const senderDetails: B6Result['senderDetails'] = {
			senders: firstSeqs.length,
			getChat: getChat.length,
			getChatMs: getChat.map((entry) => entry.durationMs as number),
			withNames,
			firstMessageMs: firstSeqs.map((seq) => triggers.readingSenders.latenciesMs[seq]),
		};
		log(`Add Sender Details: ${getChat.length} getChat for ${firstSeqs.length} senders, ${withNames} items with names`);

		// --- idle cost --------------------------------------------------------------------------------
		const measure = async (label: string, activeTriggers: string): Promise<IdleWindow> => {
			const loadBefore = os.loadavg()[0];
			const cpuBefore = sampleCpu(pid);
			const from = cpuBefore.at;
			await sleep(input.idleWindowMs);
			const cpuAfter = sampleCpu(pid);
			const getUpdates = await getUpdatesBetween(from, cpuAfter.at);
			const cpu = cpuBetween(cpuBefore, cpuAfter);
			const window: IdleWindow = {
				label,
				activeTriggers,
				seconds: cpu.seconds,
				getUpdates,
				getUpdatesPerMinute: (getUpdates / cpu.seconds) * 60,
				cpu,
				loadAvg1Before: loadBefore,
				loadAvg1After: os.loadavg()[0],
			};
			log(`idle, ${label}: ${getUpdates} getUpdates in ${cpu.seconds.toFixed(1)} s, n8n CPU ${cpu.treeMs} ms (${cpu.percentOfCore.toFixed(2)} % of a core)`);
			return window;
		};
		await world.deactivate(IDS.webhook);
		await world.deactivate(IDS.readingSenders);
		await world.deactivate(IDS.today);
		// The first window once the minute of faster reading after the last message (Interval During a Conversation) is over.
		await sleep(Math.max(3000, lastSend + CONVERSATION_MS + 5_000 - Date.now()));
		const reading = await measure('by reading only, after its conversation minute, before Idle After', 'Rubika Trigger, by reading');
		let readingSlowed: IdleWindow | undefined;
		if (input.idleSlowdown) {
			// The reader's quiet clock starts when it last read a page with updates: at most ~1 s after the last message.
			const wait = lastSend + IDLE_AFTER_MS + 15_000 - Date.now();
			log(`waiting ${Math.round(Math.max(0, wait) / 1000)} s for the trigger by reading's idle slow-down…`);
			if (wait > 0) await sleep(wait);
			readingSlowed = await measure('by reading only, after Idle After', 'Rubika Trigger, by reading');
		}
		await world.deactivate(IDS.reading);
		await sleep(3000);
		const none = await measure('no trigger active', 'none');
		if (none.getUpdates !== 0) throw new Error(`${none.getUpdates} getUpdates requests with no trigger active`);

		// --- after a quiet spell ------------------------------------------------------------------------
		let quiet: B6Result['quiet'];
		if (quietBots.length > 0) {
			for (const bot of quietBots) await world.activate(quietWorkflowId(bot.setting, bot.index));
			await untilEveryBotReads(admin, quietBots.map((bot) => bot.botId), 30_000);
			const quietStart = Date.now();
			const quietLoadStart = os.loadavg()[0];
			log(`${quietBots.length} quiet bots reading (${input.quietBots} with the defaults, ${input.quietBots} with today's settings); ${Math.round(input.quietMs / 1000)} s of silence…`);
			await sleep(input.quietMs);
			const order = [...quietBots].sort(() => rand() - 0.5);
			const sentAtOf = new Map<string, number>();
			for (const bot of order) {
				const at = Date.now();
				await admin.act('send-message', { userId: demo.users.sara.user_id, chatId: bot.chatId, text: `${PREFIX} quiet ${bot.setting} ${bot.index}` });
				sentAtOf.set(bot.botId, at);
				await sleep(Math.max(0, at + input.minGapMs + rand() * (input.maxGapMs - input.minGapMs) - Date.now()));
			}
			await sleep(5_000);
			const requests = (await admin.requests('getUpdates')) as Array<{ at: number; botId: string | null }>;
			const settings = {} as Record<QuietSetting, QuietStats>;
			for (const setting of quietSettings) {
				const bots = quietBots.filter((bot) => bot.setting === setting);
				const latencies: number[] = [];
				for (const bot of bots) {
					const executions = await listAll(quietWorkflowId(setting, bot.index), false);
					const started = executions.map((execution) => Date.parse(execution.startedAt)).sort((a, b) => a - b)[0];
					latencies.push(started === undefined ? NaN : started - (sentAtOf.get(bot.botId) ?? NaN));
				}
				const ids = new Set(bots.map((bot) => bot.botId));
				const perBotPerMinute = (from: number, to: number) =>
					requests.filter((entry) => entry.botId !== null && ids.has(entry.botId) && entry.at >= from && entry.at < to).length / bots.length / ((to - from) / 60_000);
				// Today's settings slow down after five quiet minutes: compare before and after that.
				const restFrom = quietStart + Math.min(TODAY_IDLE_AFTER_MS + 30_000, input.quietMs / 2);
				const { p50, p95, max } = spread(latencies);
				settings[setting] = {
					bots: bots.length,
					delivered: latencies.filter((value) => Number.isFinite(value)).length,
					p50Ms: p50,
					p95Ms: p95,
					maxMs: max,
					latenciesMs: latencies,
					perBotPerMinute: { first: perBotPerMinute(quietStart + 60_000, Math.min(restFrom, quietStart + TODAY_IDLE_AFTER_MS)), rest: perBotPerMinute(restFrom, quietStart + input.quietMs) },
				};
				log(`quiet, ${setting}: ${settings[setting].delivered}/${bots.length} started, p50 ${settings[setting].p50Ms} ms, p95 ${settings[setting].p95Ms} ms; getUpdates per bot per minute ${settings[setting].perBotPerMinute.first.toFixed(1)} then ${settings[setting].perBotPerMinute.rest.toFixed(1)}`);
			}
			quiet = { ms: input.quietMs, gapMs: [input.minGapMs, input.maxGapMs], settings, loadAvg1: [quietLoadStart, os.loadavg()[0]] };
		}

		return {
			n8nVersion: world.version,
			messages: input.messages,
			gapMs: [input.minGapMs, input.maxGapMs],
			sendSeconds,
			sendCallMs: { median: percentile([...callMs].sort((a, b) => a - b), 50), max: Math.max(...callMs) },
			triggers,
			breakdown,
			senderDetails,
			idle: { reading, readingSlowed, none },
			quiet,
			intervalMs: INTERVAL_MS,
			conversationIntervalMs: CONVERSATION_INTERVAL_MS,
			conversationMs: CONVERSATION_MS,
			idleIntervalMs: IDLE_INTERVAL_MS,
			idleAfterMs: IDLE_AFTER_MS,
			loadAvg: { start: loadStart, afterSending: loadAfterSending, end: os.loadavg() },
		};
	} catch (error) {
		throw withN8nLogTail(error, world);
	} finally {
		await world?.close().catch(() => {});
		pack.cleanup?.();
	}
});

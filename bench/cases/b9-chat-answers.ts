/**
 * B9: how long a Send and Wait answer takes from the tap to the resumed execution, in ONE real n8n 2.41.1 (the
 * e2e world: the packed package installed as a community package, the sandbox in its own process), for the three
 * ways of answering an Approval side by side:
 * - web page: the link opened with a browser's User-Agent (n8n's resume address, as before Answer In);
 * - buttons under the message: the tap reaches the bot's webhook, a published Rubika Trigger receiving by webhook
 *   hands it to the waiting execution;
 * - chat keypad: the tap is a message, a published Rubika Trigger receiving by reading (defaults) reads it with
 *   getUpdates and hands it on.
 * Each chat path has a bot of its own (a trigger by webhook and one by reading must not share a bot); the
 * web page uses the demo bot. Workflows Webhook node → Send and Wait → No Op ask Sara; once the execution waits,
 * a random gap, then the tap (its time taken just before the sandbox admin call or the fetch that makes it). A
 * sample's latency is the No Op's start in n8n's run data minus the tap's time. The paths take turns, in a random
 * order each round.
 */
import os from 'node:os';

import { caseMain, importTooling, withN8nLogTail } from '../lib/proc';
import type { Spread } from '../lib/stats';
import { percentile, seededRandom, spread } from '../lib/stats';

interface Input {
	samples: number;
	minGapMs: number;
	maxGapMs: number;
	seed: number;
}

export type AnswerPath = 'webPage' | 'inlineButtons' | 'chatKeypad';
export const ANSWER_PATHS: AnswerPath[] = ['webPage', 'inlineButtons', 'chatKeypad'];

export interface PathStats {
	samples: number;
	/** Samples whose execution went on with the answer given. */
	decided: number;
	p50Ms: number;
	p95Ms: number;
	minMs: number;
	maxMs: number;
	/** Each sample's latency in order (NaN when the execution did not go on with the answer). */
	latenciesMs: number[];
	/**
	 * Where the time goes. Chat paths: tap → the waiting node's first request to Rubika (removing the buttons: the
	 * trigger has read the tap and n8n has called the node), and that request → the next node's start. Web page:
	 * tap → n8n's answer page received.
	 */
	toNode?: Spread;
	nodeToNext?: Spread;
	pageMs?: Spread;
	/** Why the path stopped being measured: a tap that did not resume its execution (what n8n logged). */
	failure?: string;
}

export interface B9Result {
	n8nVersion: string;
	/** n8n's expression engine (N8N_EXPRESSION_ENGINE; n8n 2.41's default is vm). */
	expressionEngine: string;
	samples: number;
	gapMs: [number, number];
	paths: Record<AnswerPath, PathStats>;
	seconds: number;
	loadAvg: { start: number[]; end: number[] };
}

/* eslint-disable @typescript-eslint/no-explicit-any */
/** n8n 2.41.1 unless RUBIKA_BENCH_N8N names another installed version (2.8.4), to check a path there too. */
const N8N_VERSION = process.env.RUBIKA_BENCH_N8N ?? '2.41.1';
const ASK = 'Ask';
const AFTER = 'After';
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const IDS = {
	question: { webPage: 'benchB9AskWeb001', inlineButtons: 'benchB9AskInline', chatKeypad: 'benchB9AskKeypad' } as Record<AnswerPath, string>,
	hookTrigger: 'benchB9HookTrig1',
	contTrigger: 'benchB9ContTrig1',
};
const CREDENTIALS = {
	inlineButtons: { id: 'benchB9CredInlin', name: 'B9 Approvals Bot' },
	chatKeypad: { id: 'benchB9CredKeypa', name: 'B9 Keypad Bot' },
};
const HOOK_WEBHOOK_ID = 'b9b9b9b9-0000-4000-8000-00000000b9b9';
/** How long one sample may take to reach a state before the case gives up (a failure, not a bound). */
const DEADLINE_MS = 60_000;
/** A tap that has not resumed its execution by then did not reach it: the path is reported as failing. */
const RESUME_DEADLINE_MS = 20_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string) => process.stderr.write(`[b9] ${message}\n`);

async function until<T>(what: string, probe: () => Promise<T | undefined>, intervalMs = 100): Promise<T> {
	const deadline = Date.now() + DEADLINE_MS;
	while (Date.now() < deadline) {
		const value = await probe().catch(() => undefined);
		if (value !== undefined) return value;
		await sleep(intervalMs);
	}
	throw new Error(`${what}: not within ${DEADLINE_MS / 1000} s`);
}

caseMain<Input, B9Result>(async (input) => {
	const [worldLib, builder, examples, n8n] = await Promise.all([importTooling('world.mjs'), importTooling('workflow-builder.mjs'), importTooling('examples.mjs'), importTooling('n8n.mjs')]);
	const { noOp, linearWorkflow, readingTrigger, webhookTrigger } = builder;
	const credentialOf: Record<AnswerPath, { id: string; name: string }> = { webPage: examples.EXAMPLE_CREDENTIAL, ...CREDENTIALS };
	const question = (path: AnswerPath, index: number) =>
		linearWorkflow(
			IDS.question[path],
			`B9: answer on ${path}`,
			builder.approvalQuestionNodes({
				path: `b9-${path.toLowerCase()}`,
				answerIn: path,
				credential: credentialOf[path],
				labels: { approveLabel: '✅ Approve', disapproveLabel: '❌ Decline' },
				ask: ASK,
				after: AFTER,
				webhookIds: { ask: `b9b9b9b9-0000-4000-a000-00000000000${index}`, start: `b9b9b9b9-0000-4000-9000-00000000000${index}` },
			}),
		);
	const workflows = [
		...ANSWER_PATHS.map(question),
		linearWorkflow(IDS.hookTrigger, 'B9: Rubika Trigger by webhook of the Approvals Bot', [
			webhookTrigger('Approvals Bot receives', {}, { credential: CREDENTIALS.inlineButtons, webhookId: HOOK_WEBHOOK_ID }),
			noOp('Handled'),
		]),
		linearWorkflow(IDS.contTrigger, 'B9: Rubika Trigger by reading of the Keypad Bot', [
			readingTrigger('Keypad Bot receives', { updateTypes: ['NewMessage'], firstActivation: 'startFromNow', options: {} }, { credential: CREDENTIALS.chatKeypad }),
			noOp('Handled'),
		]),
	];

	const loadStart = os.loadavg();
	log('building and packing the package, preparing n8n…');
	const pack = await worldLib.packOnce({ build: true, log });
	let world: any;
	try {
		world = await worldLib.createWorld({ version: N8N_VERSION, pack, workflows, log });
		const { admin, demo, ctx } = world;
		const sara = demo.users.sara;
		const bots = {
			inlineButtons: await admin.addBot({ bot_title: CREDENTIALS.inlineButtons.name }),
			chatKeypad: await admin.addBot({ bot_title: CREDENTIALS.chatKeypad.name }),
		};
		await n8n.importCredentials(
			world.ctx,
			(['inlineButtons', 'chatKeypad'] as const).map((path) => ({ ...CREDENTIALS[path], type: 'rubikaApi', data: { accessToken: bots[path].token, baseUrl: world.sandbox.url } })),
		);
		const chatOf: Record<AnswerPath, string> = {
			webPage: sara.chat_id,
			inlineButtons: (await admin.act('start-bot', { userId: sara.user_id, botId: bots.inlineButtons.bot_id, sendStartMessage: false })).chat_id,
			chatKeypad: (await admin.act('start-bot', { userId: sara.user_id, botId: bots.chatKeypad.bot_id, sendStartMessage: false })).chat_id,
		};
		await world.server();

		// --- publishing: the questions, the trigger by webhook registered, the trigger by reading reading -------
		for (const path of ANSWER_PATHS) await world.activate(IDS.question[path]);
		await world.activate(IDS.hookTrigger);
		await world.activateReading(IDS.contTrigger);
		const endpoints = await until('the webhook trigger registers its endpoints', async () => {
			const list = (await admin.bot(bots.inlineButtons.bot_id)).endpoints as Array<{ url: string }>;
			return list.length === 2 ? list : undefined;
		});
		await world.waitForWebhook(endpoints[0].url.slice(`${ctx.baseUrl}/webhook/`.length));
		for (const path of ANSWER_PATHS) await world.waitForWebhook(`b9-${path.toLowerCase()}`);
		await sleep(2000);
		log(`n8n ${world.version}: ${input.samples} samples per path, taps ${input.minGapMs}–${input.maxGapMs} ms after the execution waits`);

		// --- the samples --------------------------------------------------------------------------------
		const execution = (id: string) => world.publicApi(`/executions/${id}?includeData=true`);
		/** Starts a question; resolves the bot's message and the waiting execution's id, once it waits. */
		const ask = async (path: AnswerPath, text: string) => {
			const chatId = chatOf[path];
			const before = new Set(((await admin.messages(chatId)) as Array<{ message_id: string }>).map((m) => m.message_id));
			const res = await fetch(`${ctx.baseUrl}/webhook/b9-${path.toLowerCase()}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ chatId, text }),
			});
			await res.text();
			const message = await until(`the question "${text}"`, async () =>
				((await admin.messages(chatId)) as any[]).find((m) => m.sender_type === 'Bot' && !before.has(m.message_id) && m.text === text),
			);
			const keypad = path === 'chatKeypad' ? (await admin.chat(chatId)).chat_keypad : message.inline_keypad;
			const approve = keypad.rows[0].buttons[0];
			const id: string = path === 'webPage' ? new URL(approve.button_link.link_url).pathname.split('/')[2] : approve.id.split('.')[1];
			await until(`execution ${id} waits`, async () => ((await execution(id))?.status === 'waiting' ? true : undefined), 150);
			return { chatId, message, approve, id };
		};
		const rand = seededRandom(input.seed);
		const paths = {} as Record<AnswerPath, PathStats>;
		const perPath = Object.fromEntries(ANSWER_PATHS.map((path) => [path, { latency: [] as number[], toNode: [] as number[], nodeToNext: [] as number[], page: [] as number[] }])) as Record<
			AnswerPath,
			{ latency: number[]; toNode: number[]; nodeToNext: number[]; page: number[]; failure?: string }
		>;
		const started = Date.now();
		for (let round = 0; round < input.samples; round++) {
			const order = [...ANSWER_PATHS].sort(() => rand() - 0.5);
			for (const path of order.filter((candidate) => perPath[candidate].failure === undefined)) {
				const asked = await ask(path, `B9 ${path} ${round}`);
				await sleep(input.minGapMs + rand() * (input.maxGapMs - input.minGapMs));
				const since = ((await admin.requests()) as Array<{ seq: number }>).at(-1)?.seq ?? 0;
				const at = Date.now();
				if (path === 'webPage') {
					const res = await fetch(asked.approve.button_link.link_url, { headers: { 'user-agent': BROWSER_UA } });
					await res.text();
					perPath[path].page.push(Date.now() - at);
				} else if (path === 'inlineButtons') {
					await admin.act('tap-inline-button', { userId: sara.user_id, chatId: asked.chatId, messageId: asked.message.message_id, buttonId: asked.approve.id });
				} else {
					await admin.act('tap-chat-keypad-button', { userId: sara.user_id, chatId: asked.chatId, buttonId: asked.approve.id });
				}
				const done = await world.finished(asked.id, { timeoutMs: RESUME_DEADLINE_MS });
				if (!done || !worldLib.isFinished(done)) {
					// One tap that reached nothing says enough: the path's remaining samples are not taken.
					const logged = String(world.serverLog())
						.split('\n')
						.filter((line: string) => /Rubika/.test(line))
						.slice(-3)
						.join(' | ');
					perPath[path].failure = `the tap did not resume execution ${asked.id} within ${RESUME_DEADLINE_MS / 1000} s; n8n's last Rubika log lines: ${logged || '(none)'}`;
					log(`${path}: ${perPath[path].failure}`);
					perPath[path].latency.push(NaN);
					continue;
				}
				const approved = done.data?.resultData?.runData?.[ASK]?.at(-1)?.data?.main?.[0]?.[0]?.json?.data?.approved === true;
				const nextAt: number | undefined = done.data?.resultData?.runData?.[AFTER]?.[0]?.startTime;
				perPath[path].latency.push(approved && nextAt !== undefined ? nextAt - at : NaN);
				if (path !== 'webPage') {
					const removal = ((await admin.requests()) as Array<{ seq: number; at: number; method: string; body?: { chat_id?: string } }>).find(
						(r) => r.seq > since && ['editChatKeypad', 'editMessageKeypad'].includes(r.method) && r.body?.chat_id === asked.chatId,
					);
					perPath[path].toNode.push(removal ? removal.at - at : NaN);
					perPath[path].nodeToNext.push(removal && nextAt !== undefined ? nextAt - removal.at : NaN);
				}
			}
			if ((round + 1) % 5 === 0) log(`${round + 1} rounds`);
		}
		for (const path of ANSWER_PATHS) {
			const latencies = perPath[path].latency;
			const sorted = latencies.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
			paths[path] = {
				samples: latencies.length,
				decided: sorted.length,
				p50Ms: percentile(sorted, 50),
				p95Ms: percentile(sorted, 95),
				minMs: sorted[0] ?? NaN,
				maxMs: sorted.at(-1) ?? NaN,
				latenciesMs: latencies,
				...(path === 'webPage' ? { pageMs: spread(perPath[path].page) } : { toNode: spread(perPath[path].toNode), nodeToNext: spread(perPath[path].nodeToNext) }),
				...(perPath[path].failure !== undefined ? { failure: perPath[path].failure } : {}),
			};
			log(`${path}: ${sorted.length}/${latencies.length} decided, p50 ${paths[path].p50Ms} ms, p95 ${paths[path].p95Ms} ms, max ${paths[path].maxMs} ms`);
		}
		return {
			n8nVersion: world.version,
			expressionEngine: process.env.N8N_EXPRESSION_ENGINE ?? 'vm (the default)',
			samples: input.samples,
			gapMs: [input.minGapMs, input.maxGapMs],
			paths,
			seconds: (Date.now() - started) / 1000,
			loadAvg: { start: loadStart, end: os.loadavg() },
		};
	} catch (error) {
		throw withN8nLogTail(error, world);
	} finally {
		await world?.close().catch(() => {});
		pack.cleanup?.();
	}
});

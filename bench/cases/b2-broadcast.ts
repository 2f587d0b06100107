/**
 * B2: broadcasts against a bot limited to `perSecond` requests in any one second (the sandbox refuses the rest
 * with TOO_REQUESTS on HTTP 200, without Retry-After, as Rubika does), every call answered after `latencyMs`.
 * The node is never told the limit: it has to find it. Baseline in the same run: a raw keep-alive loop that
 * knows the limit and sends exactly at it. Each scenario sends from a new bot (a rate window of its own in the
 * sandbox, a gate of its own in the node), except the last, which sends again from the first scenario's bot in
 * this same process, as the next execution of a workflow would. The sandbox's own state says whether every
 * recipient got exactly one message and what became of each TOO_REQUESTS.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../tooling/harness/n8n';
import { caseMain } from '../lib/proc';
import { keepAliveAgent, postJson } from '../lib/rawHttp';
import { SandboxProcess } from '../lib/sandboxProcess';
import { elapsedMs } from '../lib/stats';

export type B2ScenarioName = 'raw' | 'sequential' | 'parallel' | 'twoAtOnce' | 'again';

interface Input {
	latencyMs: number;
	perSecond: number;
	recipients: number;
}

export interface DeliveryAudit {
	recipients: number;
	deliveredOnce: number;
	missing: number;
	duplicated: number;
	requests: number;
	rateLimitedAnswers: number;
	rateLimitedThenDelivered: number;
	rateLimitedNeverDelivered: number;
}

export interface B2Scenario {
	name: B2ScenarioName;
	/** The Request Options of each execution; undefined for the raw loop. */
	requestOptions?: INodeParameters;
	executions: number;
	recipients: number;
	seconds: number;
	/** Recipients served exactly once per second of wall time. */
	throughput: number;
	outputItems: number;
	errors: string[];
	audit: DeliveryAudit;
}

export interface B2Result {
	latencyMs: number;
	perSecond: number;
	scenarios: B2Scenario[];
}

const PARALLEL: INodeParameters = { concurrency: 5 };

caseMain<Input, B2Result>(async ({ latencyMs, perSecond, recipients }) => {
	const sandbox = await SandboxProcess.start({ latencyMs, rateLimit: { perSecond, status: 'TOO_REQUESTS', httpStatus: 200 } });
	const scenarios: B2Scenario[] = [];
	try {
		const newBot = async () => await sandbox.call<{ botId: string; token: string }>('createBot');
		const audience = async (botId: string) => (await sandbox.call<{ chatIds: string[] }>('createRecipients', { count: recipients, botId })).chatIds;
		/** Runs `send` over the audience, times it, and audits what the sandbox received. */
		const measure = async (
			name: B2ScenarioName,
			bot: { botId: string; token: string },
			executions: number,
			requestOptions: INodeParameters | undefined,
			send: (chatIds: string[], token: string) => Promise<{ outputItems: number; errors: string[] }>,
		) => {
			const chatIds = await audience(bot.botId);
			// The previous scenario's last second must not count against this one (each bot has its own window,
			// but the sandbox and this process should be idle when the clock starts).
			await new Promise((resolve) => setTimeout(resolve, 1_000));
			const start = process.hrtime.bigint();
			const { outputItems, errors } = await send(chatIds, bot.token);
			const seconds = elapsedMs(start) / 1000;
			const audit = await sandbox.call<DeliveryAudit>('deliveryAudit', { chatIds });
			// A node that cannot send at all (e.g. the operation is missing) is a broken benchmark, not a result.
			if (audit.requests === 0) throw new Error(`${name}: nothing was sent: ${errors.join('; ') || 'no error'}`);
			scenarios.push({ name, requestOptions, executions, recipients, seconds, throughput: audit.deliveredOnce / seconds, outputItems, errors, audit });
		};
		const broadcast = async (chatIds: string[], token: string, requestOptions: INodeParameters) => {
			const result = await runNode({
				parameters: { resource: 'message', operation: 'sendMessage', chatId: '={{ $json.chat_id }}', text: '={{ $json.text }}', requestOptions },
				credentials: { accessToken: token, baseUrl: sandbox.credentials.baseUrl },
				items: chatIds.map((chatId, index) => ({ json: { chat_id: chatId, text: `Hello recipient ${index + 1}` } })),
			});
			return { outputItems: result.items.length, errors: result.error ? [result.error.message] : [] };
		};
		/** Several executions at once, the audience split evenly. */
		const inParallel = async (chatIds: string[], token: string, executions: number, requestOptions: INodeParameters) => {
			const size = Math.ceil(chatIds.length / executions);
			const parts = Array.from({ length: executions }, (_, index) => chatIds.slice(index * size, (index + 1) * size));
			const results = await Promise.all(parts.map(async (part) => await broadcast(part, token, requestOptions)));
			return { outputItems: results.reduce((sum, result) => sum + result.outputItems, 0), errors: results.flatMap((result) => result.errors) };
		};

		await measure('raw', await newBot(), 1, undefined, async (chatIds, token) => await rawAtTheLimit(sandbox, token, chatIds, perSecond));
		const first = await newBot();
		await measure('sequential', first, 1, {}, async (chatIds, token) => await broadcast(chatIds, token, {}));
		await measure('parallel', await newBot(), 1, PARALLEL, async (chatIds, token) => await broadcast(chatIds, token, PARALLEL));
		await measure('twoAtOnce', await newBot(), 2, PARALLEL, async (chatIds, token) => await inParallel(chatIds, token, 2, PARALLEL));
		await measure('again', first, 1, {}, async (chatIds, token) => await broadcast(chatIds, token, {}));
	} finally {
		await sandbox.close();
	}
	return { latencyMs, perSecond, scenarios };
});

/**
 * The baseline: a hand-written loop that knows the limit. One keep-alive connection, one request every
 * 1000 / perSecond ms from the first; a refused recipient is tried again in the next slot.
 */
async function rawAtTheLimit(sandbox: SandboxProcess, token: string, chatIds: string[], perSecond: number) {
	const agent = keepAliveAgent();
	const url = `${sandbox.credentials.baseUrl}/v3/${token}/sendMessage`;
	const interval = 1000 / perSecond;
	const start = performance.now();
	let slot = 0;
	try {
		for (const [index, chatId] of chatIds.entries()) {
			for (;;) {
				const wait = start + slot++ * interval - performance.now();
				if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
				const answer = await postJson(url, { chat_id: chatId, text: `Hello recipient ${index + 1}` }, agent);
				if ((answer.json as { status?: string }).status === 'OK') break;
			}
		}
	} finally {
		agent.destroy();
	}
	return { outputItems: chatIds.length, errors: [] };
}

/**
 * B7: broadcasts in n8n's queue mode (real n8n 2.41.1, PostgreSQL, Redis; tooling/queue-world.mjs) side by
 * side with the same n8n in regular mode (one process), all against one sandbox with a bot-wide rate limit.
 *
 * Several executions sending for one bot compete for its one rate limit. The node paces per bot in each process
 * (nodes/shared/transport/rateLimit.ts): executions in one process share one pacer, each worker has its own. Each
 * run starts `executions` broadcasts at once (the audience split evenly) through n8n's Webhook node and
 * measures, from the sandbox: throughput as a share of the limit, recipients lost or served twice, and
 * TOO_REQUESTS answers. Pacing: "divided" sets Max Requests per Second to the limit ÷ the processes that may
 * send at once (1 in regular mode, the running workers in queue mode, at most one per execution: what the README
 * advises), "none" leaves it at 0 (the node finds the limit). Every run sends from the same bot, so a run starts
 * at the pace the process learned in the runs before it, as a bot's next broadcast would.
 */

import { caseMain, importTooling } from '../lib/proc';

interface Input {
	recipients: number;
	perSecond: number;
	executions: number[];
}

export type B7Mode = 'regular' | 'queue, 1 worker' | 'queue, 2 workers';
export type B7Pacing = 'divided' | 'none';

export interface B7Run {
	mode: B7Mode;
	executions: number;
	pacing: B7Pacing;
	maxPerSecond: number;
	seconds: number;
	/** Recipients served once ÷ seconds ÷ the limit. */
	shareOfLimit: number;
	lost: number;
	duplicated: number;
	tooRequests: number;
	failedExecutions: number;
}

export interface B7Result {
	recipients: number;
	perSecond: number;
	runs: B7Run[];
}

const log = (message: string) => process.stderr.write(`[b7] ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ID = 'benchB7Broadcas1';
const PATH = 'bench-b7-broadcast';

caseMain<Input, B7Result>(async (input) => {
	const { isFinished, packOnce } = await importTooling('world.mjs');
	const { broadcastWorkflow, createQueueWorld } = await importTooling('queue-world.mjs');
	const pack = await packOnce({ log });
	const runs: B7Run[] = [];
	const most = Math.max(...input.executions);
	try {
		for (const regular of [true, false]) {
			const world = await createQueueWorld({ pack, regular, workers: 2, workerConcurrency: most, workflows: () => [broadcastWorkflow(ID, PATH)], log });
			try {
				await world.start();
				await world.admin.config({ rateLimit: { perSecond: input.perSecond, status: 'TOO_REQUESTS', httpStatus: 200 } });
				await world.activate(ID);
				await world.waitForWebhook(regular ? 'main' : 'webhook', PATH);
				const modes: B7Mode[] = regular ? ['regular'] : ['queue, 2 workers', 'queue, 1 worker'];
				for (const mode of modes) {
					if (mode === 'queue, 1 worker') await world.stop('worker2');
					const processes = mode === 'regular' ? 1 : mode === 'queue, 1 worker' ? 1 : 2;
					for (const executions of input.executions) {
						for (const pacing of ['divided', 'none'] as B7Pacing[]) {
							const sending = Math.min(processes, executions);
							runs.push(await broadcast(isFinished, world, { mode, executions, pacing, sending, recipients: input.recipients, perSecond: input.perSecond }));
							const last = runs[runs.length - 1];
							log(`${mode}, ${executions} at once, pacing ${pacing}: ${(last.shareOfLimit * 100).toFixed(0)} % of the limit, lost ${last.lost}, twice ${last.duplicated}, TOO_REQUESTS ${last.tooRequests}`);
						}
					}
				}
			} finally {
				await world.close();
			}
		}
	} finally {
		pack.cleanup();
	}
	return { recipients: input.recipients, perSecond: input.perSecond, runs };
});

async function broadcast(
	isFinished: (execution: unknown) => boolean,
	world: any,
	run: { mode: B7Mode; executions: number; pacing: B7Pacing; sending: number; recipients: number; perSecond: number },
): Promise<B7Run> {
	const { admin } = world;
	const chatIds: string[] = await admin.recipients(run.recipients);
	const maxPerSecond = run.pacing === 'divided' ? Math.floor((run.perSecond / run.sending) * 100) / 100 : 0;
	const parts = Array.from({ length: run.executions }, (_, index) => chatIds.filter((_id, i) => i % run.executions === index));
	const before = (await world.executions(ID, { includeData: false })).length;
	await admin.clearRequests();
	// The rate limiter's window forgets the previous run.
	await sleep(1100);
	const started = Date.now();
	await Promise.all(
		parts.map((part) =>
			fetch(`${world.webhookBase}/webhook/${PATH}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ recipients: part.map((chat_id) => ({ chat_id })), perSecond: maxPerSecond, campaign: '' }),
			}),
		),
	);
	const list = await world.waitForExecutions(ID, (all: any[]) => all.slice(before).filter(isFinished).length >= run.executions, { timeoutMs: 15 * 60_000, includeData: false });
	const mine = list.slice(before);
	const seconds = (Math.max(...mine.map((e: any) => Date.parse(e.stoppedAt))) - started) / 1000;
	const counts: number[] = await admin.botMessageCounts(chatIds);
	const once = counts.filter((n) => n === 1).length;
	const requests: Array<{ fault?: string }> = await admin.requests('sendMessage');
	return {
		mode: run.mode,
		executions: run.executions,
		pacing: run.pacing,
		maxPerSecond,
		seconds,
		shareOfLimit: once / seconds / run.perSecond,
		lost: counts.filter((n) => n === 0).length,
		duplicated: counts.filter((n) => n > 1).length,
		tooRequests: requests.filter((r) => r.fault === 'rateLimit').length,
		failedExecutions: mine.filter((e: any) => e.status !== 'success').length,
	};
}

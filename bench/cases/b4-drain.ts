/**
 * B4: working off a backlog of pending updates with the Rubika Trigger receiving by reading ("Process
 * Backlog"), as an active workflow does: n8n-core's real TriggerContext, the trigger reading getUpdates page by
 * page and starting one execution per update (each finishes at once, so the trigger never waits for n8n).
 * Timed from the activation to the last execution started. Baseline: a raw getUpdates paging loop (keep-alive,
 * JSON.parse, the same page size) that does nothing with the updates but count them.
 *
 * The executions' items are dropped as they start, as n8n hands them to an execution and forgets them; only
 * their keys are kept, to prove every update came exactly once. Both variants keep the same key set.
 */
import { ReadingTriggerHarness } from '../../tooling/harness/reading';
import { DEMO_USERS } from '../../sandbox';
import type { PhaseMemory } from '../lib/memory';
import { PhaseSampler } from '../lib/memory';
import { caseMain } from '../lib/proc';
import { envelopeData, keepAliveAgent, postJson } from '../lib/rawHttp';
import { SandboxProcess } from '../lib/sandboxProcess';
import { elapsedMs, median } from '../lib/stats';

interface Input {
	updates: number;
	pageSize: number;
	warmups: number;
	repeats: number;
}

export interface B4Run {
	ms: number;
	requests: number;
	memory: PhaseMemory;
}

export interface B4Result {
	updates: number;
	pageSize: number;
	trigger: { runs: B4Run[]; medianMs: number };
	raw: { runs: B4Run[]; medianMs: number };
}

/** How long the trigger may take to work the backlog off before the run counts as failed. */
const DRAIN_TIMEOUT_MS = 300_000;

caseMain<Input, B4Result>(async (input) => {
	const sandbox = await SandboxProcess.start();
	try {
		const fill = async () => {
			await sandbox.call('reset');
			const { pending } = await sandbox.call<{ pending: number }>('appendSyntheticUpdates', {
				count: input.updates,
				userId: DEMO_USERS.sara.user_id,
			});
			if (pending !== input.updates) throw new Error(`the sandbox holds ${pending} updates, not ${input.updates}`);
		};
		const check = (keys: Set<string>, delivered: number, what: string) => {
			if (delivered !== input.updates || keys.size !== input.updates) {
				throw new Error(`${what}: ${delivered} updates delivered, ${keys.size} distinct, expected ${input.updates}`);
			}
		};
		const requests = async () =>
			(await sandbox.call<Record<string, { total: number }>>('requestStats')).getUpdates?.total ?? 0;

		const trigger = async (): Promise<B4Run> => {
			await fill();
			const harness = new ReadingTriggerHarness({
				parameters: { firstActivation: 'processBacklog', options: { pageSize: input.pageSize } },
				credentials: sandbox.credentials,
			});
			const keys = new Set<string>();
			let delivered = 0;
			const sampler = new PhaseSampler();
			sampler.begin();
			const start = process.hrtime.bigint();
			await harness.activate();
			// Takes the started executions' keys and forgets their items, until every update has started one.
			const deadline = Date.now() + DRAIN_TIMEOUT_MS;
			while (delivered < input.updates) {
				if (harness.failures.length > 0) throw harness.failures[0];
				if (Date.now() > deadline) throw new Error(`trigger: ${delivered} of ${input.updates} updates after ${DRAIN_TIMEOUT_MS} ms`);
				for (const execution of harness.started) keys.add(String(execution.item.json.update_key));
				delivered += harness.started.length;
				harness.started.length = 0;
				harness.database.executions.length = 0;
				if (delivered < input.updates) await new Promise((resolve) => setTimeout(resolve, 1));
			}
			const ms = elapsedMs(start);
			const memory = sampler.end();
			const asked = await requests();
			await harness.stop();
			check(keys, delivered, 'trigger');
			return { ms, requests: asked, memory };
		};

		const raw = async (): Promise<B4Run> => {
			await fill();
			const url = `${sandbox.baseUrl}/v3/${sandbox.token}/getUpdates`;
			const agent = keepAliveAgent();
			const keys = new Set<string>();
			let delivered = 0;
			let offset: string | undefined;
			const sampler = new PhaseSampler();
			sampler.begin();
			const start = process.hrtime.bigint();
			for (let page = 0; page < 100_000; page++) {
				const body: Record<string, unknown> = { limit: input.pageSize };
				if (offset !== undefined) body.offset_id = offset;
				const data = envelopeData('getUpdates', await postJson(url, body, agent)) as {
					updates?: Array<{ new_message?: { message_id?: string } }>;
					next_offset_id?: string;
				};
				const updates = data.updates ?? [];
				if (updates.length === 0) break;
				for (const update of updates) keys.add(String(update.new_message?.message_id));
				delivered += updates.length;
				offset = data.next_offset_id;
			}
			const ms = elapsedMs(start);
			const memory = sampler.end();
			agent.destroy();
			check(keys, delivered, 'raw');
			return { ms, requests: await requests(), memory };
		};

		const runs = { trigger: [] as B4Run[], raw: [] as B4Run[] };
		for (let round = 0; round < input.warmups + input.repeats; round++) {
			const t = await trigger();
			const r = await raw();
			if (round >= input.warmups) {
				runs.trigger.push(t);
				runs.raw.push(r);
			}
		}
		return {
			updates: input.updates,
			pageSize: input.pageSize,
			trigger: { runs: runs.trigger, medianMs: median(runs.trigger.map((run) => run.ms)) },
			raw: { runs: runs.raw, medianMs: median(runs.raw.map((run) => run.ms)) },
		};
	} finally {
		await sandbox.close();
	}
});

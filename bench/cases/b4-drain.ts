/**
 * B4: working off a backlog of pending updates with the polling trigger, as an active workflow does: n8n-core's
 * PollTriggerExecutor polls until a poll emits nothing (the trigger reads at most "Max Updates per Poll" per
 * poll, so a long backlog takes several). Baseline: a raw getUpdates paging loop (keep-alive, JSON.parse, the
 * same page size) that does nothing with the updates but count them.
 *
 * Emitted items are dropped after each poll, as n8n hands them to an execution and forgets them; only their
 * keys are kept, to prove every update came exactly once. Both variants keep the same key set.
 */
import type { INodeParameters } from 'n8n-workflow';

import { DEMO_USERS } from '../../sandbox';
import { PollingTriggerHarness } from '../../tooling/harness/polling';
import type { PhaseMemory } from '../lib/memory';
import { PhaseSampler } from '../lib/memory';
import { caseMain } from '../lib/proc';
import { envelopeData, keepAliveAgent, postJson } from '../lib/rawHttp';
import { SandboxProcess } from '../lib/sandboxProcess';
import { elapsedMs, median } from '../lib/stats';

interface Input {
	updates: number;
	pageSize: number;
	/** The trigger's "Max Updates per Poll"; undefined = its default. */
	maxUpdatesPerPoll?: number;
	warmups: number;
	repeats: number;
}

export interface B4Run {
	ms: number;
	polls: number;
	requests: number;
	memory: PhaseMemory;
}

export interface B4Result {
	updates: number;
	pageSize: number;
	maxUpdatesPerPoll?: number;
	trigger: { runs: B4Run[]; medianMs: number };
	raw: { runs: B4Run[]; medianMs: number };
}

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
			const options: INodeParameters = { pageSize: input.pageSize };
			if (input.maxUpdatesPerPoll !== undefined) options.maxUpdatesPerPoll = input.maxUpdatesPerPoll;
			const harness = new PollingTriggerHarness({
				parameters: { firstActivation: 'processBacklog', options },
				credentials: sandbox.credentials,
			});
			const keys = new Set<string>();
			let delivered = 0;
			let polls = 0;
			const sampler = new PhaseSampler();
			sampler.begin();
			const start = process.hrtime.bigint();
			// Bounded: a backlog of N needs N / maxUpdatesPerPoll polls and one that finds nothing.
			for (let tick = 0; tick < 1000; tick++) {
				const { items, error } = await harness.tick();
				polls++;
				if (error) throw error;
				if (items.length === 0) break;
				for (const item of items) keys.add(String(item.json.update_key));
				delivered += items.length;
				harness.emitted.length = 0;
			}
			const ms = elapsedMs(start);
			const memory = sampler.end();
			check(keys, delivered, 'trigger');
			return { ms, polls, requests: await requests(), memory };
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
			return { ms, polls: 1, requests: await requests(), memory };
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
			maxUpdatesPerPoll: input.maxUpdatesPerPoll,
			trigger: { runs: runs.trigger, medianMs: median(runs.trigger.map((run) => run.ms)) },
			raw: { runs: runs.raw, medianMs: median(runs.raw.map((run) => run.ms)) },
		};
	} finally {
		await sandbox.close();
	}
});

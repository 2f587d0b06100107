/**
 * B1: what the node adds per item. 1,000 Send Text items through n8n-core's real engine (tooling/harness/),
 * against raw node:http loops sending the same bodies to the same sandbox, sequentially:
 * - raw, keep-alive: one connection for the whole loop (the floor);
 * - raw, new connection per request: what n8n's HTTP client does (it builds a new agent per request), so
 *   "node - raw without keep-alive" is the cost of the engine and the node, not of connecting.
 * - a bare node in the same engine making the same n8n helper call per item (`httpRequestWithAuthentication`
 *   with the Rubika credential and the transport's options, body taken from the item, answer JSON.parse'd):
 *   the floor of any node
 *   built on n8n's helpers, so "node ÷ bare node" is what this package's own code costs.
 * Variants run interleaved, after warm-up rounds, and the median of the repeats is reported.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { DEMO_USERS } from '../../sandbox';
import { runNode } from '../../tooling/harness/n8n';
import { countersSince, installCounters, snapshotCounters } from '../lib/instrument';
import { caseMain } from '../lib/proc';
import { envelopeData, freshConnectionAgent, keepAliveAgent, postJson } from '../lib/rawHttp';
import { SandboxProcess } from '../lib/sandboxProcess';
import { elapsedMs, median } from '../lib/stats';

interface Input {
	items: number;
	warmups: number;
	repeats: number;
}

type Variant = 'rawKeepAlive' | 'rawNewConnection' | 'bareHelper' | 'nodeFixed' | 'nodeExpressions';

export interface B1Run {
	ms: number;
	cpuMs: number;
	connections: number;
	credentialResolutions: number;
}

export interface B1Result {
	items: number;
	repeats: number;
	variants: Record<Variant, { runs: B1Run[]; medianMs: number; medianCpuMs: number; connections: number; credentialResolutions: number }>;
}

const CHAT = DEMO_USERS.sara.chat_id;

/** The floor: one `httpRequestWithAuthentication` per item, as the Rubika node's transport makes it, nothing else. */
const bareHelperNode: INodeType = {
	description: {
		displayName: 'Bare helper',
		name: 'bareHelper',
		group: ['output'],
		version: 1,
		description: 'One authenticated n8n helper call per item',
		defaults: { name: 'Bare helper' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'rubikaApi', required: true }],
		properties: [],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let index = 0; index < items.length; index++) {
			// The options the node's transport passes (status and body read as text), so the two differ only in what
			// the node does around the call: reading and checking parameters, parsing, retry and pacing bookkeeping.
			const response = (await this.helpers.httpRequestWithAuthentication.call(this, 'rubikaApi', {
				method: 'POST',
				url: 'sendMessage',
				body: items[index].json,
				headers: { 'Content-Type': 'application/json' },
				json: false,
				encoding: 'text',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				timeout: 60_000,
			})) as { body: string };
			out.push({ json: JSON.parse(response.body) as IDataObject, pairedItem: { item: index } });
		}
		return [out];
	},
};
const text = (index: number) => `Broadcast message number ${index + 1}`;

caseMain<Input, B1Result>(async (input) => {
	installCounters();
	const sandbox = await SandboxProcess.start();
	try {
		const url = `${sandbox.baseUrl}/v3/${sandbox.token}/sendMessage`;
		const bodies = Array.from({ length: input.items }, (_, index) => ({ chat_id: CHAT, text: text(index) }));

		const raw = async (keepAlive: boolean) => {
			const agent = keepAlive ? keepAliveAgent() : freshConnectionAgent();
			for (const body of bodies) envelopeData('sendMessage', await postJson(url, body, agent));
			agent.destroy();
		};
		const node = async (parameters: INodeParameters) => {
			const result = await runNode({
				parameters: { resource: 'message', operation: 'sendMessage', ...parameters },
				credentials: sandbox.credentials,
				items: bodies.map((body) => ({ json: body })),
			});
			if (result.error) throw result.error;
			if (result.items.length !== input.items) throw new Error(`node returned ${result.items.length} items`);
		};
		const bare = async () => {
			const result = await runNode({ nodeType: bareHelperNode, parameters: {}, credentials: sandbox.credentials, items: bodies.map((body) => ({ json: body })) });
			if (result.error) throw result.error;
			if (result.items.length !== input.items) throw new Error(`bare node returned ${result.items.length} items`);
		};
		const variants: Record<Variant, () => Promise<void>> = {
			rawKeepAlive: () => raw(true),
			rawNewConnection: () => raw(false),
			bareHelper: bare,
			// The same text on every item: parameters as typed in the editor, no expression to evaluate.
			nodeFixed: () => node({ chatId: CHAT, text: text(0) }),
			// What a broadcast really looks like: chat and text from each item, through n8n's expressions.
			nodeExpressions: () => node({ chatId: '={{ $json.chat_id }}', text: '={{ $json.text }}' }),
		};

		const runs = Object.fromEntries(Object.keys(variants).map((name) => [name, [] as B1Run[]])) as Record<Variant, B1Run[]>;
		for (let round = 0; round < input.warmups + input.repeats; round++) {
			for (const [name, run] of Object.entries(variants) as Array<[Variant, () => Promise<void>]>) {
				// Every run starts from the same world, so the sandbox's work per request is the same.
				await sandbox.call('reset');
				const before = snapshotCounters();
				const cpu = process.cpuUsage();
				const start = process.hrtime.bigint();
				await run();
				const ms = elapsedMs(start);
				const used = process.cpuUsage(cpu);
				const counted = countersSince(before);
				const stats = await sandbox.call<Record<string, { total: number; byStatus: Record<string, number> }>>('requestStats');
				if (stats.sendMessage?.byStatus.OK !== input.items) {
					throw new Error(`${name}: the sandbox answered ${JSON.stringify(stats.sendMessage)} instead of ${input.items} OK`);
				}
				if (round >= input.warmups) {
					runs[name].push({ ms, cpuMs: (used.user + used.system) / 1000, ...counted });
				}
			}
		}
		const result = {} as B1Result['variants'];
		for (const [name, list] of Object.entries(runs) as Array<[Variant, B1Run[]]>) {
			result[name] = {
				runs: list,
				medianMs: median(list.map((run) => run.ms)),
				medianCpuMs: median(list.map((run) => run.cpuMs)),
				connections: list[0].connections,
				credentialResolutions: list[0].credentialResolutions,
			};
		}
		return { items: input.items, repeats: input.repeats, variants: result };
	} finally {
		await sandbox.close();
	}
});

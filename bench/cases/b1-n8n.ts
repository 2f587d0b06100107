/**
 * B1, in a real n8n (2.41.1, regular mode): the Rubika node against what a user would pick instead, n8n's own
 * HTTP Request node with the Rubika credential, sending the same Send Text requests to the same sandbox.
 * Each workflow starts from n8n's Webhook node with the items in the body (Split Out), and the sending node's
 * own execution time is read from the stored execution (n8n measures it around the node's execute()).
 * Variants alternate within each round; medians of the rounds are reported.
 * - Rubika node, Parallel Requests 1 (its default: one request after the other);
 * - HTTP Request node with Batching 1 item per batch, no interval: also one request after the other;
 * - HTTP Request node with its defaults: every item's request started at once.
 */

import { caseMain, importTooling } from '../lib/proc';
import { median } from '../lib/stats';

interface Input {
	items: number;
	repeats: number;
}

export type B1N8nVariant = 'rubika' | 'httpSequential' | 'httpDefault';

export interface B1N8nResult {
	items: number;
	repeats: number;
	n8nVersion: string;
	/** The sending node's execution time, ms, per round. */
	runs: Record<B1N8nVariant, number[]>;
	medianMs: Record<B1N8nVariant, number>;
}

const log = (message: string) => process.stderr.write(`[b1-n8n] ${message}\n`);
const SEND = 'Send';
const WORKFLOWS: Record<B1N8nVariant, { id: string; path: string }> = {
	rubika: { id: 'benchB1Rubika001', path: 'bench-b1-rubika' },
	httpSequential: { id: 'benchB1HttpSeq01', path: 'bench-b1-http-sequential' },
	httpDefault: { id: 'benchB1HttpDef01', path: 'bench-b1-http-default' },
};

caseMain<Input, B1N8nResult>(async (input) => {
	const { packOnce, createWorld } = await importTooling('world.mjs');
	const { startWebhook } = await importTooling('queue-world.mjs');
	const { linearWorkflow, node, rubika } = await importTooling('workflow-builder.mjs');
	const { EXAMPLE_CREDENTIAL } = await importTooling('examples.mjs');
	const splitOut = () => node('Items', 'n8n-nodes-base.splitOut', { fieldToSplitOut: 'body.items', options: {} });
	const httpRequest = (sandboxUrl: string, options: object) =>
		node(
			SEND,
			'n8n-nodes-base.httpRequest',
			{
				method: 'POST',
				url: `${sandboxUrl}/v3/sendMessage`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'rubikaApi',
				sendBody: true,
				specifyBody: 'json',
				jsonBody: '={{ JSON.stringify({ chat_id: $json.chat_id, text: $json.text }) }}',
				options,
			},
			{ typeVersion: 4.2, credentials: { rubikaApi: { id: EXAMPLE_CREDENTIAL.id, name: EXAMPLE_CREDENTIAL.name } } },
		);
	const workflows = (demo: { sandboxUrl: string }) => [
		linearWorkflow(WORKFLOWS.rubika.id, 'B1: Rubika node', [
			startWebhook(WORKFLOWS.rubika.path),
			splitOut(),
			rubika(SEND, { resource: 'message', operation: 'sendMessage', chatId: '={{ $json.chat_id }}', text: '={{ $json.text }}' }),
		]),
		linearWorkflow(WORKFLOWS.httpSequential.id, 'B1: HTTP Request node, one at a time', [
			startWebhook(WORKFLOWS.httpSequential.path),
			splitOut(),
			httpRequest(demo.sandboxUrl, { batching: { batch: { batchSize: 1, batchInterval: 0 } } }),
		]),
		linearWorkflow(WORKFLOWS.httpDefault.id, 'B1: HTTP Request node, defaults', [
			startWebhook(WORKFLOWS.httpDefault.path),
			splitOut(),
			httpRequest(demo.sandboxUrl, {}),
		]),
	];

	const pack = await packOnce({ log });
	const world = await createWorld({ version: '2.41.1', pack, workflows, log });
	const runs: Record<B1N8nVariant, number[]> = { rubika: [], httpSequential: [], httpDefault: [] };
	try {
		await world.server();
		const chat = world.demo.users.sara.chat_id;
		const items = Array.from({ length: input.items }, (_, index) => ({ chat_id: chat, text: `Broadcast message number ${index + 1}` }));
		for (const variant of Object.keys(WORKFLOWS) as B1N8nVariant[]) {
			await world.activate(WORKFLOWS[variant].id);
			await world.waitForWebhook(WORKFLOWS[variant].path);
		}
		const done: Record<B1N8nVariant, number> = { rubika: 0, httpSequential: 0, httpDefault: 0 };
		// One warm-up round, not counted.
		for (let round = 0; round <= input.repeats; round++) {
			for (const variant of Object.keys(WORKFLOWS) as B1N8nVariant[]) {
				await world.admin.clearRequests();
				const answer = await fetch(`${world.ctx.baseUrl}/webhook/${WORKFLOWS[variant].path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ items }),
				});
				if (answer.status !== 200) throw new Error(`${variant}: the webhook answered ${answer.status}`);
				done[variant]++;
				const [latest] = (await world.waitForExecutions(WORKFLOWS[variant].id, { count: done[variant], timeoutMs: 600_000 })).slice(-1);
				const task = latest.data?.resultData?.runData?.[SEND]?.[0];
				const sent = (await world.admin.requests('sendMessage')).filter((r: { status?: string }) => r.status === 'OK').length;
				if (latest.status !== 'success' || sent !== input.items) {
					const why = latest.data?.resultData?.error?.message ?? 'no error recorded';
					throw new Error(`${variant}: execution ${latest.status} (${why}), ${sent} of ${input.items} sent`);
				}
				if (round > 0) runs[variant].push(task.executionTime);
				log(`${variant}: ${task.executionTime} ms`);
			}
		}
	} finally {
		await world.close();
		pack.cleanup();
	}
	const medianMs = Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, median(list)])) as Record<B1N8nVariant, number>;
	return { items: input.items, repeats: input.repeats, n8nVersion: world.version, runs, medianMs };
});

/**
 * B2: a broadcast to many recipients against a slow, rate-limited API. The sandbox answers every call after
 * `latencyMs` and refuses calls beyond `perSecond` in any one-second window with TOO_REQUESTS; each run sends
 * one Send Text per recipient through the real engine with the node's Request Options, then the sandbox's own
 * state says whether every recipient got exactly one message and what became of each TOO_REQUESTS.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../tooling/harness/n8n';
import { caseMain } from '../lib/proc';
import { SandboxProcess } from '../lib/sandboxProcess';
import { elapsedMs } from '../lib/stats';

interface Scenario {
	name: string;
	recipients: number;
	requestOptions: INodeParameters;
}

interface Input {
	latencyMs: number;
	perSecond: number;
	scenarios: Scenario[];
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

export interface B2Scenario extends Scenario {
	seconds: number;
	/** Recipients served per second (messages delivered / wall time). */
	throughput: number;
	outputItems: number;
	error?: string;
	audit: DeliveryAudit;
}

export interface B2Result {
	latencyMs: number;
	perSecond: number;
	scenarios: B2Scenario[];
}

caseMain<Input, B2Result>(async (input) => {
	const sandbox = await SandboxProcess.start({
		latencyMs: input.latencyMs,
		rateLimit: { perSecond: input.perSecond, status: 'TOO_REQUESTS', httpStatus: 200 },
	});
	const scenarios: B2Scenario[] = [];
	try {
		for (const scenario of input.scenarios) {
			// A fresh world per scenario: no earlier messages, an empty log, a forgotten rate window.
			await sandbox.call('reset');
			const { chatIds } = await sandbox.call<{ chatIds: string[] }>('createRecipients', { count: scenario.recipients });
			const items = chatIds.map((chatId, index) => ({ json: { chat_id: chatId, text: `Hello recipient ${index + 1}` } }));
			const start = process.hrtime.bigint();
			const result = await runNode({
				parameters: {
					resource: 'message',
					operation: 'sendMessage',
					chatId: '={{ $json.chat_id }}',
					text: '={{ $json.text }}',
					requestOptions: scenario.requestOptions,
				},
				credentials: sandbox.credentials,
				items,
			});
			const seconds = elapsedMs(start) / 1000;
			const audit = await sandbox.call<DeliveryAudit>('deliveryAudit', { chatIds });
			// A node that cannot send at all (e.g. the operation is missing) is a broken benchmark, not a result.
			if (audit.requests === 0) throw new Error(`${scenario.name}: the node sent nothing: ${result.error?.message ?? 'no error'}`);
			scenarios.push({
				...scenario,
				seconds,
				throughput: audit.deliveredOnce / seconds,
				outputItems: result.items.length,
				error: result.error?.message,
				audit,
			});
		}
	} finally {
		await sandbox.close();
	}
	return { latencyMs: input.latencyMs, perSecond: input.perSecond, scenarios };
});

/**
 * "Listen for test event" never takes the bot away from its published workflow for longer than the test: when
 * n8n ends the listener (it received its event, the user stopped it, or it timed out: n8n runs the node's
 * `delete` in each case), the published trigger's registration is given back at once; with no published
 * trigger for the bot, what the test registered is removed where Rubika allows it. A restart repairs what a
 * listener that n8n never ended left, and registers a changed webhook URL alone. Harnesses of one test share a node type: workflows in one n8n process.
 */
import type { INodeType } from 'n8n-workflow';

import { DEMO_BOT_ID, DEMO_BOT_TOKEN, DEMO_USERS } from '../../sandbox';
import type { WebhookHarness, WebhookHarnessOptions } from '../../tooling/harness/webhook';
import { freshTriggerNodeType, harness, registered, sandbox, useSandboxPerTest } from './helpers';

const { sara } = DEMO_USERS;

useSandboxPerTest();

let process: INodeType;
beforeEach(() => {
	process = freshTriggerNodeType();
});

/** A trigger in workflow `id` (the published one unless `test`), in this test's n8n process. */
async function workflowFor(id: string, options: Partial<WebhookHarnessOptions> & { token?: string } = {}): Promise<WebhookHarness> {
	const { token = DEMO_BOT_TOKEN, parameters = {}, ...rest } = options;
	return await harness(parameters, {
		nodeType: process,
		workflow: { id, name: `Workflow ${id}` },
		credentials: { accessToken: token, baseUrl: sandbox.baseUrl },
		...rest,
	});
}

/** The same workflow's trigger listening for a test event (the same node: the same webhook id). */
async function testOf(published: WebhookHarness, options: Partial<WebhookHarnessOptions> = {}): Promise<WebhookHarness> {
	const listener = await workflowFor(published.options.workflow?.id ?? '', { test: true, webhookId: published.node.webhookId, parameters: published.node.parameters, ...options });
	await listener.activate();
	expect(registered('ReceiveUpdate')).toContain('/webhook-test/');
	return listener;
}

/** The published workflow for the demo bot, and the endpoints its publishing registered. */
async function publishedWorkflow(): Promise<{ published: WebhookHarness; productionEndpoints: Record<string, string> }> {
	const published = await workflowFor('published');
	await published.activate();
	return { published, productionEndpoints: endpointsOf() };
}

/**
 * n8n stopped while a test of the published workflow listened (nothing ended the listener), and started again:
 * the published workflow's trigger in the new process, not started yet.
 */
async function restartedWhileListening(): Promise<{ restarted: WebhookHarness; productionEndpoints: Record<string, string> }> {
	const { published, productionEndpoints } = await publishedWorkflow();
	await testOf(published);
	process = freshTriggerNodeType();
	await published.close();
	const restarted = await workflowFor('published', { webhookId: published.node.webhookId, staticData: published.saved, port: published.port });
	return { restarted, productionEndpoints };
}

/** Every endpoint the sandbox holds for a bot, type → URL. */
function endpointsOf(bot = DEMO_BOT_ID): Record<string, string> {
	return Object.fromEntries(sandbox.endpoints(bot).map((endpoint) => [endpoint.type, endpoint.url]));
}

const texts = (trigger: WebhookHarness) => trigger.executions.map((execution) => execution.items[0].json.text);

async function say(text: string): Promise<void> {
	sandbox.userSendMessage({ userId: sara.user_id, text });
	await sandbox.deliveriesSettled();
}

describe('a published workflow for the bot', () => {
	test('the test received its event: the published registration is back at once, and the next message reaches the published workflow', async () => {
		const { published, productionEndpoints } = await publishedWorkflow();
		const listener = await testOf(published);
		await say('the test event');
		expect(texts(listener)).toEqual(['the test event']);
		expect(texts(published)).toEqual([]);

		// n8n ends the listener after its event (and, the same way, when it is stopped or times out).
		await listener.deactivate();
		expect(endpointsOf()).toEqual(productionEndpoints);
		await say('after the test');
		expect(texts(published)).toEqual(['after the test']);
		expect(texts(listener)).toEqual(['the test event']);
	});

	test('the test stopped or timed out without an event: the same', async () => {
		const { published, productionEndpoints } = await publishedWorkflow();
		const listener = await testOf(published);
		await listener.deactivate();
		expect(endpointsOf()).toEqual(productionEndpoints);
		await say('after the stopped test');
		expect(texts(published)).toEqual(['after the stopped test']);
	});

	test('a test of another workflow with a credential for the same bot gives the bot back to the published one', async () => {
		const { published, productionEndpoints } = await publishedWorkflow();
		const draft = await workflowFor('draft', { test: true });
		await draft.activate();
		await draft.deactivate();
		expect(endpointsOf()).toEqual(productionEndpoints);
		await say('to the published one');
		expect(texts(published)).toEqual(['to the published one']);
	});

	test('a type the test registered and the published workflow did not is removed, where Rubika allows it', async () => {
		sandbox.configure({ endpointRemoval: 'emptyUrl' });
		const published = await workflowFor('published', { parameters: { endpoints: ['ReceiveUpdate'], updateTypes: ['NewMessage'] } });
		await published.activate();
		const productionUrl = registered('ReceiveUpdate');
		const listener = await workflowFor('published', { test: true, webhookId: published.node.webhookId });
		await listener.activate();
		expect(Object.keys(endpointsOf()).sort()).toEqual(['ReceiveInlineMessage', 'ReceiveUpdate']);
		await listener.deactivate();
		expect(endpointsOf()).toEqual({ ReceiveUpdate: productionUrl });
	});

	test('Rubika refusing the published address again: the end of the test does not fail, and the bot stays with the test address', async () => {
		const published = await workflowFor('published');
		await published.activate();
		const listener = await testOf(published);
		const testUrl = registered('ReceiveUpdate');
		sandbox.injectFault({ kind: 'status', method: 'updateBotEndpoints', status: 'INVALID_INPUT', devMessage: 'no', times: -1 });
		await expect(listener.deactivate()).resolves.toBeUndefined();
		expect(registered('ReceiveUpdate')).toBe(testUrl);
	});

	test('another bot\'s published workflow is left alone; the test\'s bot loses what the test registered', async () => {
		sandbox.configure({ endpointRemoval: 'emptyUrl' });
		const { productionEndpoints } = await publishedWorkflow();
		const other = sandbox.addBot();
		const listener = await workflowFor('other', { test: true, token: other.token });
		await listener.activate();
		expect(Object.keys(endpointsOf(other.bot_id))).toHaveLength(2);
		const calls = sandbox.requestsFor('updateBotEndpoints').length;
		await listener.deactivate();
		expect(endpointsOf(other.bot_id)).toEqual({});
		expect(endpointsOf()).toEqual(productionEndpoints);
		expect(sandbox.requestsFor('updateBotEndpoints').slice(calls).every((call) => call.botId === other.bot_id)).toBe(true);
	});
});

describe('no published workflow for the bot', () => {
	test.each(['emptyUrl', 'nullUrl'] as const)(
		'a Rubika that removes an endpoint (%s): nothing is left registered, and getUpdates gets the bot\'s updates again',
		async (endpointRemoval) => {
			sandbox.configure({ endpointRemoval, endpointStopsPolling: true });
			const listener = await workflowFor('draft', { test: true });
			await listener.activate();
			await say('while the test listens');
			expect(texts(listener)).toEqual(['while the test listens']);
			await listener.deactivate();
			expect(endpointsOf()).toEqual({});
			await say('after the test');
			expect(await pendingTexts()).toContain('after the test');
		},
	);

	test('a Rubika that cannot remove an endpoint: the test address stays registered, and nothing fails', async () => {
		const listener = await workflowFor('draft', { test: true });
		await listener.activate();
		const testEndpoints = endpointsOf();
		const calls = sandbox.requestsFor('updateBotEndpoints').length;
		await expect(listener.deactivate()).resolves.toBeUndefined();
		expect(endpointsOf()).toEqual(testEndpoints);
		// Both ways were tried for both types: an empty url, then none.
		const bodies = sandbox.requestsFor('updateBotEndpoints').slice(calls).map((call) => call.body as { type: string; url?: string });
		expect(bodies.map((body) => [body.type, 'url' in body ? body.url : 'absent'])).toEqual([
			['ReceiveUpdate', ''],
			['ReceiveUpdate', 'absent'],
			['ReceiveInlineMessage', ''],
			['ReceiveInlineMessage', 'absent'],
		]);
	});

	test('unpublishing a workflow removes its endpoints too, where Rubika allows it', async () => {
		sandbox.configure({ endpointRemoval: 'emptyUrl' });
		const published = await workflowFor('published');
		await published.activate();
		await published.deactivate();
		expect(endpointsOf()).toEqual({});
	});
});

describe('n8n restarted while a test was listening (it never ended the listener)', () => {
	test('n8n 2.8 activates the published workflow again: its start registers the published address again', async () => {
		const { restarted, productionEndpoints } = await restartedWhileListening();
		await restarted.activate('init');
		expect(endpointsOf()).toEqual(productionEndpoints);
		await say('after the restart');
		expect(texts(restarted)).toEqual(['after the restart']);
	});

	test('n8n 2.41 starts the trigger node again, its webhook methods beside trigger(): the same; and a later test gives the bot back', async () => {
		const { restarted, productionEndpoints } = await restartedWhileListening();
		await restarted.startAs241();
		expect(endpointsOf()).toEqual(productionEndpoints);

		// The new process knows the published trigger from its start, without any delivery.
		const listener = await testOf(restarted);
		await listener.deactivate();
		expect(endpointsOf()).toEqual(productionEndpoints);
		await say('after the second test');
		expect(texts(restarted)).toEqual(['after the second test']);
	});
});

describe('n8n started with another webhook URL', () => {
	test('n8n 2.41: create registers the new address, and nothing beside it registers the old one', async () => {
		const { published } = await publishedWorkflow();
		process = freshTriggerNodeType();
		await published.close();
		const moved = await workflowFor('published', { webhookId: published.node.webhookId, staticData: published.saved });
		const calls = sandbox.requestsFor('updateBotEndpoints').length;
		// The start's first registration is answered late: one made at the same time would be applied after it.
		sandbox.injectFault({ kind: 'delay', method: 'updateBotEndpoints', ms: 300 });
		await moved.startAs241();
		const urls = sandbox.requestsFor('updateBotEndpoints').slice(calls).map((call) => (call.body as { url?: string }).url ?? '');
		expect(urls.map((url) => url.startsWith(`${moved.origin}/webhook/`))).toEqual([true, true]);
		expect(Object.values(endpointsOf()).every((url) => url.startsWith(`${moved.origin}/webhook/`))).toBe(true);
		await say('at the new address');
		expect(texts(moved)).toEqual(['at the new address']);
	});
});

/** The texts of the demo bot's updates getUpdates hands out now, from the oldest kept. */
async function pendingTexts(): Promise<string[]> {
	const response = await fetch(sandbox.methodUrl('getUpdates', DEMO_BOT_TOKEN), {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ limit: 100 }),
	});
	const envelope = (await response.json()) as { data: { updates: Array<{ new_message?: { text?: string } }> } };
	return envelope.data.updates.map((update) => update.new_message?.text ?? '');
}

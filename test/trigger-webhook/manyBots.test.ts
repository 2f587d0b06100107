/**
 * The trigger by webhook: a webhook path of its own for every node, so that workflows for several bots can all
 * be published, and one published trigger per bot. Harnesses of one test share a node type loaded
 * afresh (`freshTriggerNodeType()`): workflows in one n8n process, which start with nothing in memory.
 */
import type { INodeType, WebhookPathTakenError } from 'n8n-workflow';

import { RubikaTrigger } from '../../nodes/RubikaTrigger/RubikaTrigger.node';
import { DEMO_BOT_ID, DEMO_BOT_TOKEN, DEMO_USERS } from '../../sandbox';
import type { WebhookHarness, WebhookHarnessOptions } from '../../tooling/harness/webhook';
import { OK_ANSWER, answer, freshTriggerNodeType, harness, newMessageDelivery, registered, restart, sandbox, useSandboxPerTest } from './helpers';

const { sara } = DEMO_USERS;

useSandboxPerTest();

let process: INodeType;
beforeEach(() => {
	process = freshTriggerNodeType();
});

/**
 * A trigger receiving by webhook (default parameters unless given) in workflow `id`, with a credential named after it,
 * for the demo bot or the bot with `token`, in this test's n8n process.
 */
async function workflowFor(
	id: string,
	{ token = DEMO_BOT_TOKEN, parameters = {}, ...options }: Partial<WebhookHarnessOptions> & { token?: string } = {},
): Promise<WebhookHarness> {
	return await harness(parameters, {
		nodeType: process,
		workflow: { id, name: `Workflow ${id}` },
		credentials: { accessToken: token, baseUrl: sandbox.baseUrl },
		credentialName: `Bot ${id}`,
		...options,
	});
}

/**
 * The first workflow published, then n8n 2.41 restarted: a new process that starts the trigger node again, its
 * webhook methods beside `trigger()`, on the same address. `withoutBot`: its registration record lacks the bot, as written by an earlier
 * version. `asked`: the getMe calls before the restart.
 */
async function restartedOn241(withoutBot = false): Promise<{ first: WebhookHarness; restarted: WebhookHarness; asked: number }> {
	const first = await workflowFor('first');
	await first.activate();
	if (withoutBot) delete (first.saved['node:Rubika Trigger'] as { registration: Record<string, unknown> }).registration.bot;
	process = freshTriggerNodeType();
	await first.close();
	const asked = sandbox.requestsFor('getMe').length;
	const restarted = await workflowFor('first', { webhookId: first.node.webhookId, staticData: first.saved, port: first.port });
	await restarted.startAs241();
	return { first, restarted, asked };
}

/** The texts of the items a trigger's executions started with. */
const texts = (trigger: WebhookHarness) => trigger.executions.map((execution) => execution.items[0].json.text);

describe('paths', () => {
	test.each(['path', 'query', 'off'])('Secret %s: every node has webhook paths of its own', async (secretLocation) => {
		const first = await harness({ secretLocation });
		const second = await harness({ secretLocation });
		const taken = new Set(first.storedWebhooks());
		expect(first.storedWebhooks()).toHaveLength(6);
		expect(second.storedWebhooks().filter((row) => taken.has(row))).toEqual([]);
	});

	test('receiving by reading, the node has no webhook for n8n to register or route', async () => {
		const reading = await harness({ receiveUpdates: 'reading' });
		expect(reading.storedWebhooks()).toEqual([]);
	});

	test('the editor shows the webhook address only when the trigger receives by webhook', () => {
		const [main, ...suffixes] = new RubikaTrigger().description.webhooks ?? [];
		expect(main.ndvHideUrl).toBe('={{ !($parameter["receiveUpdates"] === "webhook") }}');
		expect(suffixes.every((route) => route.ndvHideUrl === true)).toBe(true);
	});
});

describe('routes', () => {
	test('registers <webhook id>/<webhook id>/webhook/<secret>, which n8n routes to the node with the secret as its route parameter', async () => {
		const trigger = await workflowFor('one');
		await trigger.activate();
		const id = trigger.node.webhookId as string;
		expect(trigger.webhookUrl()).toBe(`${trigger.origin}/webhook/${id}/${id}/webhook/:secret`);
		const url = registered('ReceiveUpdate');
		const secret = url.slice(url.lastIndexOf('/') + 1);
		expect(url).toBe(trigger.webhookUrl().replace(':secret', secret));
		expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
		expect(url).not.toContain(DEMO_BOT_TOKEN);

		sandbox.userSendMessage({ userId: sara.user_id, text: 'to this node' });
		await sandbox.deliveriesSettled();
		expect(texts(trigger)).toEqual(['to this node']);

		const path = new URL(url).pathname;
		expect(answer(await trigger.post(`${path}/receiveUpdate`, newMessageDelivery('31', 'through a suffix')))).toEqual(OK_ANSWER);
		expect(texts(trigger)).toEqual(['to this node', 'through a suffix']);
		// The secret with its last character changed (a secret that ends in x once made this the right one).
		expect((await trigger.post(`${path.slice(0, -1)}${path.endsWith('x') ? 'y' : 'x'}`, newMessageDelivery('32', 'wrong secret'))).status).toBe(403);
		// The address with the id once is not this node's.
		expect((await trigger.post(`/webhook/${id}/webhook/${secret}`, newMessageDelivery('33', 'the id once'))).status).toBe(404);
		expect(texts(trigger)).toHaveLength(2);
	});

	test('with the secret in the query or off, the address is <webhook id>/webhook', async () => {
		const inQuery = await workflowFor('query', { parameters: { secretLocation: 'query' } });
		await inQuery.activate();
		expect(inQuery.webhookUrl()).toBe(`${inQuery.origin}/webhook/${inQuery.node.webhookId}/webhook`);
		expect(registered('ReceiveUpdate')).toMatch(new RegExp(`^${inQuery.webhookUrl()}\\?secret=[A-Za-z0-9_-]{32}$`));
		await inQuery.deactivate();

		const off = await workflowFor('off', { parameters: { secretLocation: 'off' } });
		await off.activate();
		expect(registered('ReceiveUpdate')).toBe(`${off.origin}/webhook/${off.node.webhookId}/webhook`);
	});
});

describe('many bots', () => {
	test('three workflows for three bots, default settings: all active, each receives only its own bot\'s updates', async () => {
		const bots = [
			{ bot_id: DEMO_BOT_ID, token: DEMO_BOT_TOKEN },
			sandbox.addBot({ bot_title: 'Second Bot' }),
			sandbox.addBot({ bot_title: 'Third Bot' }),
		];
		// Sara's chats with the bots (opened before any workflow listens, so nothing is delivered).
		const chats = bots.map((bot, index) =>
			index === 0 ? sara.chat_id : sandbox.userStartBot({ userId: sara.user_id, botId: bot.bot_id, sendStartMessage: false }).chat_id,
		);
		const triggers: WebhookHarness[] = [];
		for (const [index, bot] of bots.entries()) {
			const trigger = await workflowFor(`bot-${index}`, { token: bot.token });
			await trigger.activate();
			triggers.push(trigger);
		}
		expect(bots.map((bot) => sandbox.endpoints(bot.bot_id).map((endpoint) => endpoint.url))).toEqual(
			triggers.map((trigger) => [registeredBy(trigger), registeredBy(trigger)]),
		);

		bots.forEach((bot, index) => sandbox.userSendMessage({ userId: sara.user_id, botId: bot.bot_id, text: `for bot ${index}` }));
		await sandbox.deliveriesSettled();
		expect(triggers.map(texts)).toEqual([['for bot 0'], ['for bot 1'], ['for bot 2']]);
		expect(triggers.map((trigger) => trigger.executions[0].items[0].json.chat_id)).toEqual(chats);
	});
});

describe('one active workflow per bot', () => {
	test('a second workflow for the same bot is refused, naming the bot\'s credential, the workflow that has it and what to do; the first keeps the bot', async () => {
		const first = await workflowFor('first');
		await first.activate();
		const registrations = sandbox.requestsFor('updateBotEndpoints').length;

		const second = await workflowFor('second');
		const refusal = second.activate();
		await expect(refusal).rejects.toThrow(
			'Another active workflow already receives the bot of the credential "Bot second": "Workflow first" (ID first, node "Rubika Trigger").',
		);
		await expect(refusal).rejects.toThrow(/Deactivate that workflow first, or choose another bot's credential here/);
		// n8n's own "path taken" error, which n8n 2.41 does not retry (of the node's copy of n8n-workflow, loaded
		// afresh here, so compared by class name); the node is named for the editor.
		const error = (await refusal.catch((caught: unknown) => caught)) as WebhookPathTakenError;
		expect(classNames(error)).toContain('WebhookPathTakenError');
		expect(error.node?.name).toBe('Rubika Trigger');
		expect(error.description).toMatch(/Execute Workflow/);
		expect(second.active).toBe(false);
		expect(sandbox.requestsFor('updateBotEndpoints')).toHaveLength(registrations);

		sandbox.userSendMessage({ userId: sara.user_id, text: 'still the first' });
		await sandbox.deliveriesSettled();
		expect(texts(first)).toEqual(['still the first']);
	});

	test('once the first workflow is deactivated, the second activates and receives the bot', async () => {
		const first = await workflowFor('first');
		await first.activate();
		const second = await workflowFor('second');
		await expect(second.activate()).rejects.toThrow(/already receives/);
		await first.deactivate();
		await second.activate();
		sandbox.userSendMessage({ userId: sara.user_id, text: 'now the second' });
		await sandbox.deliveriesSettled();
		expect(texts(second)).toEqual(['now the second']);
	});

	test('the same workflow activated again (n8n publishing a new version) is not refused', async () => {
		const trigger = await workflowFor('again');
		await trigger.activate();
		await trigger.activate('update');
		expect(trigger.active).toBe(true);
	});

	test('listening for a test event is not refused, and when it stops the active workflow keeps its bot', async () => {
		const production = await workflowFor('production');
		await production.activate();
		const testOfAnother = await workflowFor('draft', { test: true });
		await testOfAnother.activate();
		await testOfAnother.deactivate();
		// The same node on the same n8n: only its test address (…/webhook-test/…) differs.
		const testOfItself = await workflowFor('production', {
			test: true,
			webhookId: production.node.webhookId,
			publicOrigin: production.origin,
		});
		await testOfItself.activate();
		await testOfItself.deactivate();
		await expect((await workflowFor('third')).activate()).rejects.toThrow(/"Workflow production"/);
	});

	test('an activation that fails (Rubika refuses the address) leaves the bot free', async () => {
		sandbox.configure({ requireHttpsEndpoints: true });
		await expect((await workflowFor('failing')).activate()).rejects.toThrow(/InvalidUrl/);
		sandbox.configure({ requireHttpsEndpoints: false });
		const next = await workflowFor('next');
		await next.activate();
		expect(next.active).toBe(true);
	});

	test('after a restart: n8n 2.8 activates the workflows again, and the second one is refused', async () => {
		const first = await workflowFor('first');
		await first.activate();
		process = freshTriggerNodeType();
		const restarted = await workflowFor('first', { webhookId: first.node.webhookId, staticData: first.saved });
		await restarted.activate('init');
		await expect((await workflowFor('second')).activate()).rejects.toThrow(/"Workflow first"/);
	});

	test('after a restart n8n 2.41 runs the webhook methods again beside trigger(): the second one is refused at once', async () => {
		const { first, restarted } = await restartedOn241();
		await expect((await workflowFor('early')).activate()).rejects.toThrow(/"Workflow first"/);
		expect(registered('ReceiveUpdate')).toBe(registeredBy(first));

		const firstAddress = new URL(registeredBy(first)).pathname;
		expect(answer(await restarted.post(firstAddress, newMessageDelivery('42', 'hello')))).toEqual(OK_ANSWER);
		expect(texts(restarted)).toEqual(['hello']);
	});
});

describe('a bot is who Rubika says it is (getMe\'s bot id)', () => {
	test('two credentials reaching one bot (another Base URL, as a proxy or gateway would be) are one bot: the second workflow is refused', async () => {
		const first = await workflowFor('first');
		await first.activate();
		const second = await workflowFor('second', { credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: `${sandbox.baseUrl}/via/gateway` } });
		await expect(second.activate()).rejects.toThrow(/Another active workflow already receives the bot of the credential "Bot second": "Workflow first"/);
		expect(first.saved['node:Rubika Trigger']).toMatchObject({ registration: { bot: DEMO_BOT_ID } });
	});

	test('a rotated token: Rubika keeps posting to the registered address, which still reaches the workflow with the old or the new token in the credential; publishing again registers the new secret', async () => {
		const credentials = { accessToken: DEMO_BOT_TOKEN, baseUrl: sandbox.baseUrl };
		const trigger = await workflowFor('rotating', { credentials });
		await trigger.activate();
		const before = registered('ReceiveUpdate');
		const { token } = sandbox.rotateToken(DEMO_BOT_ID);
		sandbox.userSendMessage({ userId: sara.user_id, text: 'the old token refused, still in the credential' });
		await sandbox.deliveriesSettled();
		credentials.accessToken = `${token.slice(0, -1)}x`;
		sandbox.userSendMessage({ userId: sara.user_id, text: 'a mistyped token in the credential' });
		await sandbox.deliveriesSettled();
		credentials.accessToken = token;
		sandbox.userSendMessage({ userId: sara.user_id, text: 'the new token in the credential' });
		await sandbox.deliveriesSettled();
		expect(texts(trigger)).toEqual(['the old token refused, still in the credential', 'a mistyped token in the credential', 'the new token in the credential']);
		expect(sandbox.deliveries.map((delivery) => delivery.httpStatus)).toEqual([200, 200, 200]);
		// Any other secret is still refused.
		const made = new URL(before);
		made.pathname = made.pathname.replace(/[^/]+$/, 'A'.repeat(32));
		expect((await trigger.post(made.pathname, newMessageDelivery('43', 'forged'))).status).toBe(403);

		// Published again: the same bot, registered with the new token's secret.
		await trigger.deactivate();
		await trigger.activate();
		expect(registered('ReceiveUpdate')).not.toBe(before);
		expect(trigger.saved['node:Rubika Trigger']).toMatchObject({ registration: { bot: DEMO_BOT_ID } });
		sandbox.userSendMessage({ userId: sara.user_id, text: 'after publishing again' });
		await sandbox.deliveriesSettled();
		expect(texts(trigger).at(-1)).toBe('after publishing again');
	});

	test('a registration record static data lost (a call saved static data it had read before the activation saved the record): a delivery after a token change still reaches the workflow, from what this process registered', async () => {
		const credentials = { accessToken: DEMO_BOT_TOKEN, baseUrl: sandbox.baseUrl };
		const trigger = await workflowFor('losing', { credentials });
		await trigger.activate();
		delete (trigger.saved['node:Rubika Trigger'] as Record<string, unknown>).registration;
		credentials.accessToken = `${DEMO_BOT_TOKEN.slice(0, -1)}x`;
		sandbox.userSendMessage({ userId: sara.user_id, text: 'after the record was lost, a mistyped token' });
		await sandbox.deliveriesSettled();
		expect(sandbox.deliveries.map((delivery) => delivery.httpStatus)).toEqual([200]);
		expect(texts(trigger)).toEqual(['after the record was lost, a mistyped token']);
		// Any other secret is still refused.
		const made = new URL(registered('ReceiveUpdate'));
		made.pathname = made.pathname.replace(/[^/]+$/, 'A'.repeat(32));
		expect((await trigger.post(made.pathname, newMessageDelivery('43', 'forged'))).status).toBe(403);
	});

	test('a registration record written before bot ids were kept, activated while Rubika refuses getMe (n8n 2.8 starting up): still active, nothing registered again', async () => {
		const first = await workflowFor('first');
		await first.activate();
		const saved = first.saved['node:Rubika Trigger'] as { registration: Record<string, unknown> };
		delete saved.registration.bot;
		const address = new URL(registeredBy(first)).pathname;
		sandbox.injectFault({ kind: 'status', method: 'getMe', status: 'INVALID_ACCESS', times: -1 });
		const registrations = sandbox.requestsFor('updateBotEndpoints').length;
		// n8n 2.8 restarts on the same address and activates the workflow again.
		const restarted = await restart(first);
		expect(restarted.active).toBe(true);
		expect(sandbox.requestsFor('updateBotEndpoints')).toHaveLength(registrations);
		sandbox.clearFaults();
		expect(answer(await restarted.post(address, newMessageDelivery('42', 'hello')))).toEqual(OK_ANSWER);
		expect(texts(restarted)).toEqual(['hello']);
	});

	test('a registration record written before bot ids were kept: the start asks for the bot once to count the holder, and deliveries go on', async () => {
		const { first, restarted, asked } = await restartedOn241(true);
		expect(answer(await restarted.post(new URL(registeredBy(first)).pathname, newMessageDelivery('42', 'hello')))).toEqual(OK_ANSWER);
		expect(answer(await restarted.post(new URL(registeredBy(first)).pathname, newMessageDelivery('44', 'again')))).toEqual(OK_ANSWER);
		expect(texts(restarted)).toEqual(['hello', 'again']);
		expect(sandbox.requestsFor('getMe').length - asked).toBe(1);
		await expect((await workflowFor('late')).activate()).rejects.toThrow(/"Workflow first"/);
	});
});

/** The classes an object is an instance of, by name, its own first. */
function classNames(value: object): string[] {
	const names: string[] = [];
	for (let prototype = Object.getPrototypeOf(value); prototype; prototype = Object.getPrototypeOf(prototype)) {
		names.push(prototype.constructor.name);
	}
	return names;
}

/** The address a trigger registered with the sandbox (its last updateBotEndpoints call). */
function registeredBy(trigger: WebhookHarness): string {
	const urls = sandbox.requestsFor('updateBotEndpoints').map((entry) => (entry.body as { url?: unknown }).url);
	return urls.filter((url): url is string => typeof url === 'string' && url.startsWith(`${trigger.origin}/`)).at(-1) ?? '';
}

/**
 * Shared setup for the tests of the trigger by webhook: a fresh sandbox per test, harnesses that talk to it and are
 * closed after each test, and the answer every accepted delivery must get.
 *
 * `sandbox` is a live binding: it names the current test's sandbox once `useSandboxPerTest()` has run its
 * `beforeEach`, in every file that imports it.
 */
import type { INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';

import type { RubikaSandbox } from '../../sandbox';
import { DEMO_BOT_ID, DEMO_BOT_TOKEN, DEMO_USERS } from '../../sandbox';
import { useSandbox } from '../support/sandbox';
import type { PostAnswer, ServedRequest, WebhookHarnessOptions } from '../../tooling/harness/webhook';
import { WebhookHarness } from '../../tooling/harness/webhook';

/** What every accepted delivery must get back, whatever happens next (facts §4). */
export const OK_ANSWER = { status: 200, contentType: 'application/json; charset=utf-8', body: '{"status":"OK"}' };

export let sandbox: RubikaSandbox;
const harnesses: WebhookHarness[] = [];

/** Registers the hooks: a sandbox started before each test; harnesses and sandbox closed after it. */
export function useSandboxPerTest(): void {
	// Registered before the fixture's afterEach, so it runs while the sandbox is still open.
	afterEach(async () => {
		await sandbox.deliveriesSettled();
		await Promise.all(harnesses.splice(0).map(async (harness) => await harness.close()));
	});
	const fixture = useSandbox({ perTest: true });
	beforeEach(() => {
		sandbox = fixture.sandbox;
	});
}

/**
 * A webhook harness with the demo bot's credential, closed after the test. Each runs in an n8n process of its
 * own (the node loaded afresh) unless `nodeType` puts several in one: a bot held by a published trigger stays
 * held in its process, and tests must not hold each other's bots.
 */
export async function harness(
	parameters: INodeParameters = {},
	options: Partial<WebhookHarnessOptions> = {},
): Promise<WebhookHarness> {
	const started = await WebhookHarness.start({
		parameters,
		credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: sandbox.baseUrl },
		nodeType: freshTriggerNodeType(),
		...options,
	});
	harnesses.push(started);
	return started;
}

/**
 * n8n restarts on the same address: a new process (the node module loaded afresh, so nothing in memory), the
 * static data as saved, the same node; the activation finds the registration in place.
 */
export async function restart(trigger: WebhookHarness, options: Partial<WebhookHarnessOptions> = {}): Promise<WebhookHarness> {
	await trigger.close();
	harnesses.splice(harnesses.indexOf(trigger), 1);
	const restarted = await harness(trigger.node.parameters, {
		...trigger.options,
		webhookId: trigger.node.webhookId,
		staticData: trigger.saved,
		port: trigger.port,
		nodeType: freshTriggerNodeType(),
		...options,
	});
	await restarted.activate('init');
	return restarted;
}

/** The URL the sandbox holds for an endpoint of the demo bot. */
export function registered(type: string): string {
	const endpoint = sandbox.endpoints(DEMO_BOT_ID).find((candidate) => candidate.type === type);
	if (!endpoint) throw new Error(`no ${type} endpoint registered`);
	return endpoint.url;
}

/** Path and query of the registered ReceiveUpdate URL, for posting to the harness by hand. */
export function updateEndpointPath(): string {
	const url = new URL(registered('ReceiveUpdate'));
	return `${url.pathname}${url.search}`;
}

/** The answers the server sent, in the shape of OK_ANSWER. */
export function answers(served: ServedRequest[]): Array<typeof OK_ANSWER> {
	return served.map(({ status, contentType, responseBody }) => ({ status, contentType, body: responseBody }));
}

export function answer({ status, contentType, body }: PostAnswer): typeof OK_ANSWER {
	return { status, contentType, body };
}

/** The bot sends a user (Sara unless `chatId` says another) a message with an inline keypad, through the API like any workflow would. */
export async function sendKeypad(
	buttons: object[] = [
		{ id: 'pizza', type: 'Simple', button_text: 'Pizza' },
		{ id: 'pasta', type: 'Simple', button_text: 'Pasta' },
	],
	chatId: string = DEMO_USERS.sara.chat_id,
): Promise<string> {
	const response = await fetch(sandbox.methodUrl('sendMessage', DEMO_BOT_TOKEN), {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ chat_id: chatId, text: 'Pizza or pasta?', inline_keypad: { rows: [{ buttons }] } }),
	});
	const envelope = (await response.json()) as { status: string; data: { message_id: string } };
	expect(envelope.status).toBe('OK');
	return envelope.data.message_id;
}

/** A `{"update": …}` delivery of a user's new message, as Rubika posts it, for requests sent by hand. */
export function newMessageDelivery(
	messageId: string,
	text: string,
	user: { chat_id: string; user_id: string } = DEMO_USERS.sara,
) {
	return {
		update: {
			type: 'NewMessage',
			chat_id: user.chat_id,
			new_message: { message_id: messageId, text, time: '1700000000', sender_type: 'User', sender_id: user.user_id },
		},
	};
}

/**
 * Waits until the trigger has handled every delivery sent to it, and returns the first item of each execution:
 * a download or a sender lookup runs after the answer.
 */
export async function handled(trigger: WebhookHarness, count = sandbox.deliveries.length): Promise<INodeExecutionData[]> {
	await sandbox.deliveriesSettled();
	await until(() => trigger.served.length >= count);
	return trigger.executions.map((execution) => execution.items[0]);
}

/** Resolves once `condition()` holds; the test's own timeout ends a wait that never does. */
export async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * The trigger's node type loaded afresh, without the memory the node keeps in its module: what a new n8n
 * process would load. For restarts.
 */
export function freshTriggerNodeType(): INodeType {
	let nodeType: INodeType | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const loaded = require('../../nodes/RubikaTrigger/RubikaTrigger.node') as { RubikaTrigger: new () => INodeType };
		nodeType = new loaded.RubikaTrigger();
	});
	if (nodeType === undefined) throw new Error('the trigger node did not load');
	return nodeType;
}

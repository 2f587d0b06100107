// Small builders for the workflows the tests write themselves (the examples are JSON files in examples/).
// The output is exactly what `n8n import:workflow` takes.
import { randomUUID } from 'node:crypto';
import { EXAMPLE_CREDENTIAL } from './examples.mjs';

const RUBIKA = 'n8n-nodes-rubika.rubika';
/** The package's one trigger node type; Receive Updates (`receiveUpdates`) says whether it reads or takes a webhook. */
const RUBIKA_TRIGGER = 'n8n-nodes-rubika.rubikaTrigger';

export function node(name, type, parameters = {}, { typeVersion = 1, credential, ...extra } = {}) {
	return {
		id: randomUUID(),
		name,
		type,
		typeVersion,
		position: [0, 0],
		parameters,
		...(credential ? { credentials: { rubikaApi: { id: credential.id, name: credential.name } } } : {}),
		...extra,
	};
}

export const manualTrigger = (name = 'Start') => node(name, 'n8n-nodes-base.manualTrigger');
export const rubika = (name, parameters, opts = {}) => node(name, RUBIKA, parameters, { credential: EXAMPLE_CREDENTIAL, ...opts });
export const noOp = (name) => node(name, 'n8n-nodes-base.noOp');

/**
 * A Rubika Trigger receiving by reading (Receive Updates left at its default, as the editor saves it). It carries a
 * webhook id like every node the editor makes of a type with webhooks, so switching it to By Webhook works.
 */
export const readingTrigger = (name, parameters = {}, { credential = EXAMPLE_CREDENTIAL, ...extra } = {}) =>
	node(name, RUBIKA_TRIGGER, parameters, { credential, webhookId: randomUUID(), ...extra });

/** A Rubika Trigger receiving by webhook: Receive Updates By Webhook, and the webhook id its address starts with. */
export const webhookTrigger = (name, parameters = {}, { credential = EXAMPLE_CREDENTIAL, ...extra } = {}) =>
	node(name, RUBIKA_TRIGGER, { receiveUpdates: 'webhook', ...parameters }, { credential, webhookId: randomUUID(), ...extra });

/** A workflow whose nodes run one after another in the order given, laid out left to right. */
export function linearWorkflow(id, name, nodes) {
	nodes.forEach((n, i) => (n.position = [i * 240, 300]));
	const connections = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return { id, name, nodes, connections, settings: { executionOrder: 'v1' }, pinData: {}, active: false };
}

/**
 * The nodes of questions asked from outside: an n8n Webhook node (POST `path`, body `{ chatId, text }`) → one
 * Rubika Send and Wait per entry of `questions`, in that order (`{ name, parameters }`: the node's name and its
 * parameters besides the chat, which comes from the body; the first one's message is the body's text unless its
 * parameters say otherwise) → a No Op named `after`.
 * `webhookIds` pins the Webhook node's (`start`) and the first question's (`ask`) webhook ids where a run must keep
 * its addresses (a benchmark's imported workflow).
 */
export function questionNodes({ path, credential, questions, after = 'After', webhookIds = {} }) {
	const asked = questions.map(({ name, parameters }, index) =>
		rubika(
			name,
			{ resource: 'message', operation: 'sendAndWait', chatId: "={{ $('Start').first().json.body.chatId }}", message: '={{ $json.body.text }}', options: {}, ...parameters },
			{ credential, webhookId: (index === 0 && webhookIds.ask) || randomUUID() },
		),
	);
	const start = node('Start', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} }, { typeVersion: 2, webhookId: webhookIds.start ?? randomUUID() });
	return [start, ...asked, noOp(after)];
}

/**
 * The nodes of an approval asked from outside (questionNodes with one question): Rubika Send and Wait (Approval:
 * `approvalType` double, two buttons, or single, Approve only; Answer In `answerIn`) named `ask`.
 */
export function approvalQuestionNodes({ path, answerIn, credential, options = {}, labels, approvalType = 'double', ask = 'Ask', after = 'After', webhookIds = {} }) {
	const parameters = { responseType: 'approval', approvalOptions: { values: { approvalType, ...labels } }, answerIn, options };
	return questionNodes({ path, credential, questions: [{ name: ask, parameters }], after, webhookIds });
}

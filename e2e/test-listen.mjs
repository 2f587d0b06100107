#!/usr/bin/env node
// "Listen for test event" never takes the bot away from its published workflow for longer than the test, in a
// real `n8n start` (issue 32 item 1). A bot of its own (the Listen Bot) and a workflow with a Rubika Trigger
// receiving by webhook, published:
// - the editor listens for a test event (POST /rest/workflows/:id/run): the bot's endpoints go to the test
//   address; Sara's message is the test execution's; n8n then ends the listener (it runs the node's delete) and
//   the published address is registered again at once: the next message reaches the published workflow;
// - the same when the user stops listening (DELETE /rest/test-webhook/:id, the function n8n's two-minute
//   timeout calls too);
// - unpublished, a listener that ends leaves nothing registered where Rubika removes an endpoint given an empty
//   url (the sandbox's endpointRemoval). Where it cannot, e2e/webhook.mjs's listener shows the test address left.
// A restart while listening (nothing ended the listener) is repaired at n8n's start, which registers the published
// address again: e2e/webhook.mjs checks that registration at its restart; jest the listener case on both versions.
// `queue.mjs` runs `listenWhilePublished` in queue mode.
//
//   node e2e/test-listen.mjs [--version 2.8.4] [--no-build] [--keep]
import { eventually, isMain, runStandalone } from './lib/reporter.mjs';
import { nodeItems } from '../tooling/world.mjs';
import { linearWorkflow, webhookTrigger } from '../tooling/workflow-builder.mjs';

const TRIGGER = 'Listen Bot receives';

/**
 * A bot of its own, a credential for it (as the editor makes one) and an unpublished workflow whose Rubika
 * Trigger receives it by webhook. Sara has started the bot.
 */
async function listenWorld(world, name) {
	const { admin, demo } = world;
	const bot = await admin.addBot({ bot_title: name });
	await admin.act('start-bot', { userId: demo.users.sara.user_id, botId: bot.bot_id, sendStartMessage: false });
	const s = await world.session();
	const credential = await s.post('/rest/credentials', { name: `${name} credential`, type: 'rubikaApi', data: { accessToken: bot.token, baseUrl: world.sandbox.url } });
	const trigger = webhookTrigger(TRIGGER, {}, { credential });
	const { nodes, connections, settings } = linearWorkflow(undefined, name, [trigger]);
	const workflow = await world.publicApi('/workflows', { method: 'POST', body: { name, nodes, connections, settings } });
	return { bot, id: workflow.id, credentialId: credential.id };
}

/**
 * The checks of a published workflow and a test listener for its bot, in the world given (regular or queue
 * mode): published → listen → the test event → ended → a message reaches the published workflow; listen →
 * stopped → the same. Returns the workflow and its bot, still published.
 *
 * `routeTestTo`: where test events go (queue mode: main, as a load balancer sends `/webhook-test/` there while
 * WEBHOOK_URL names the webhook process, which serves production webhooks only). The sandbox's delivery to the
 * test address is then posted again there, body and path as they were.
 */
export async function listenWhilePublished(world, t, { name = 'Listen Bot', routeTestTo } = {}) {
	const { admin } = world;
	const sara = world.demo.users.sara;
	const listen = await listenWorld(world, name);
	const { bot, id } = listen;
	const endpoints = async () => Object.fromEntries((await admin.bot(bot.bot_id)).endpoints.map((e) => [e.type, e.url]));
	/** The texts of the workflow's executions in `mode` ('manual' for tests, else the published workflow's). */
	const texts = async (manual) => (await world.executions(id)).filter((e) => (e.mode === 'manual') === manual).map((e) => nodeItems(e, TRIGGER)[0]?.text);
	const reaches = async (text, manual = false) => {
		await admin.act('send-message', { userId: sara.user_id, botId: bot.bot_id, text });
		if (manual && routeTestTo) {
			const delivery = (await admin.settle()).findLast((d) => d.botId === bot.bot_id && d.body?.update?.new_message?.text === text);
			const { pathname, search } = new URL(delivery.url);
			await fetch(`${routeTestTo}${pathname}${search}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(delivery.body) });
		}
		return (await eventually(async () => ((await texts(manual)).includes(text) ? text : undefined), { timeoutMs: 30_000 })) === text;
	};

	await world.activate(id);
	const published = await eventually(async () => {
		const now = await endpoints();
		return Object.keys(now).length === 2 && Object.values(now).every((url) => url.includes('/webhook/')) ? now : undefined;
	});
	t.check('published: both endpoints of the bot at the production address', published !== undefined, published);
	const shown = (all) => Object.fromEntries(Object.entries(all ?? {}).map(([type, url]) => [type, url.replace(/\/[^/]+$/, '/<secret>')]));
	t.check('… and a message reaches the published workflow', await reaches('before any test'));

	const s = await world.session();
	const workflowData = await s.get(`/rest/workflows/${id}`);
	const startListening = async () => {
		const started = await s.post(`/rest/workflows/${id}/run`, { workflowData, triggerToStartFrom: { name: TRIGGER } });
		const testAddress = await eventually(async () => {
			const now = await endpoints();
			return Object.values(now).length === 2 && Object.values(now).every((url) => url.includes('/webhook-test/')) ? now : undefined;
		});
		return { waiting: started?.waitingForWebhook === true, testAddress };
	};
	const restored = async () => await eventually(async () => (JSON.stringify(await endpoints()) === JSON.stringify(published) ? true : undefined), { timeoutMs: 15_000, intervalMs: 100 });

	// --- the test receives its event ----------------------------------------------------------------
	let listening = await startListening();
	t.check('listening for a test event: n8n waits, and both endpoints go to the test address', listening.waiting && listening.testAddress !== undefined, shown(listening.testAddress));
	let started = Date.now();
	t.check('Sara\'s message is the test execution\'s', await reaches('the test event', true));
	t.check('n8n ended the listener: the published address is registered again for both endpoints', await restored(), shown(await endpoints()));
	t.note(`from the test event to the published address back: ${Date.now() - started} ms (this includes the test execution)`);
	t.check('… and the next message reaches the published workflow', await reaches('after the test'));

	// --- the user stops listening (what the timeout does too) ----------------------------------------
	listening = await startListening();
	t.check('listening again: the test address', listening.testAddress !== undefined);
	started = Date.now();
	await s.request('DELETE', `/rest/test-webhook/${id}`);
	t.check('the user stops listening (DELETE /rest/test-webhook/:id, what the timeout calls): the published address is back', await restored(), shown(await endpoints()));
	t.note(`from the stop to the published address back: ${Date.now() - started} ms`);
	t.check('… and a message reaches the published workflow', await reaches('after the stopped test'));
	t.eq('the test executions: the one event, nothing else', await texts(true), ['the test event']);
	return { ...listen, endpoints, published, startListening };
}

export const test = {
	name: 'test-listen',
	async run(world, t) {
		const { admin } = world;
		await world.server();
		const listen = await listenWhilePublished(world, t);

		// --- nothing published for the bot --------------------------------------------------------------
		// (Where Rubika cannot remove an endpoint, the sandbox's default, e2e/webhook.mjs's test listener shows the
		// test address left registered.)
		await t.step('no published workflow, where Rubika removes an endpoint given an empty url', async () => {
			await admin.config({ endpointRemoval: 'emptyUrl' });
			try {
				await world.deactivate(listen.id);
				// n8n 2.41 unpublishes through its publication outbox after the API call has returned: seconds later,
				// more on a busy machine.
				const none = async () => await eventually(async () => (Object.keys(await listen.endpoints()).length === 0 ? true : undefined), { timeoutMs: 45_000 });
				t.check('unpublished: the bot has no endpoint left', await none(), await listen.endpoints());
				const listening = await listen.startListening();
				const s = await world.session();
				await s.request('DELETE', `/rest/test-webhook/${listen.id}`);
				t.check('a test listener with nothing published: when it ends, nothing is left registered', listening.testAddress !== undefined && (await none()), await listen.endpoints());
			} finally {
				await admin.config({ endpointRemoval: 'none' });
			}
		});
		// browser.mjs, later in the same n8n, looks at the editor's default credential for a new node.
		await (await world.session()).request('DELETE', `/rest/credentials/${listen.credentialId}`).catch(() => {});
	},
};

if (isMain(import.meta.url)) await runStandalone(test);

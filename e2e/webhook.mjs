#!/usr/bin/env node
// Rubika Trigger receiving by webhook (Receive Updates: By Webhook) in a real `n8n start`, through
// examples/echo-bot.json: publishing registers the
// endpoints with the sandbox; "/start" gets a menu with an inline keypad; the sandbox taps a button and the
// tap starts an execution that edits the menu; other text is echoed. Also: what n8n answers (200
// {"status":"OK"} as JSON to a delivery that starts an execution, to a filtered one and to a repeated one),
// the secret (the last segment of the registered address by default: 403 when wrong, no route without it),
// the suffix routes after it, and an n8n restart that neither re-registers nor loses the hook. (The query
// form of the secret is checked by the jest tests, test/trigger-webhook/.) webhook-bots.mjs checks three bots, each with
// a workflow of its own, around the same restart.
//
//   node e2e/webhook.mjs [--version 2.8.4] [--no-build] [--keep]
import { eventually, isMain, runStandalone } from './lib/reporter.mjs';
import { nodeItems, nodesRun } from '../tooling/world.mjs';
import { startManyBots } from './webhook-bots.mjs';

const TRIGGER = 'Bot receives a message or a tap';
const SECRET_RE = /^[A-Za-z0-9_-]{32}$/;
/** What every accepted delivery must get back (facts §4), whatever the trigger does with it. */
const OK_BODY = '{"status":"OK"}';
const OK_ANSWER = { status: 200, json: true, body: OK_BODY };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const test = {
	name: 'webhook',
	async run(world, t) {
		const { admin, demo, ctx } = world;
		const sara = demo.users.sara;
		const chat = sara.chat_id;
		const workflow = world.example('echo-bot.json');
		const id = workflow.id;
		const webhookId = workflow.nodes.find((n) => n.name === TRIGGER).webhookId;
		// The path is a full path starting with the node's webhook id, and n8n puts that id before a path with a
		// parameter (the secret): <id>/<id>/webhook/<secret>.
		const hookPath = `${webhookId}/${webhookId}/webhook`;
		const hookUrl = `${ctx.baseUrl}/webhook/${hookPath}`;

		await world.server();
		await admin.clearRequests();
		await admin.clearDeliveries();
		let executions = 0;
		/** Waits for the next execution of the echo bot and returns it. */
		const nextExecution = async (label) => {
			executions += 1;
			const all = await world.waitForExecutions(id, { count: executions, timeoutMs: 30_000 }).catch((e) => {
				t.check(`${label}: an execution starts`, false, e.message);
				throw e;
			});
			return all[executions - 1];
		};

		// --- registration -------------------------------------------------------------------------
		const activated = await world.activate(id);
		t.check('the echo bot workflow activates', activated?.active === true || activated?.activeVersionId != null);
		const registrations = await eventually(async () => {
			const calls = await admin.requests('updateBotEndpoints');
			return calls.length >= 2 ? calls : undefined;
		});
		t.eq('activation registers both endpoints with updateBotEndpoints', (registrations ?? []).map((r) => r.body.type).sort(), ['ReceiveInlineMessage', 'ReceiveUpdate']);
		const registered = registrations?.[0]?.body?.url ?? '';
		const secret = registered.slice(registered.lastIndexOf('/') + 1);
		const base = registered.slice(0, registered.lastIndexOf('/'));
		t.check("the registered URL is n8n's production webhook URL of the node, then the secret", base === hookUrl, registered.replace(secret, '<secret>'));
		t.check('the secret: 32 characters in the last path segment (the default)', SECRET_RE.test(secret) && !registered.includes('?'));
		t.check('both endpoints get the same URL', registrations?.every((r) => r.body.url === registered));
		const bot = await admin.bot(demo.botId);
		t.eq('the sandbox keeps the two endpoints', bot.endpoints.map((e) => [e.type, e.url === registered]).sort(), [['ReceiveInlineMessage', true], ['ReceiveUpdate', true]]);
		await world.waitForWebhook(`${hookPath}/${secret}`);

		// --- the secret ---------------------------------------------------------------------------
		const fakeUpdate = (text, { messageId = '7', senderType = 'User' } = {}) => ({
			update: {
				type: 'NewMessage',
				chat_id: chat,
				new_message: { message_id: messageId, time: String(Math.floor(Date.now() / 1000)), is_edited: false, sender_type: senderType, sender_id: sara.user_id, text },
			},
		});
		const post = (url, body) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		/** POSTs a delivery with the secret, as Rubika would, and reads the answer: status, JSON or not, body. */
		const deliver = async (body) => {
			const answer = await post(`${hookUrl}/${secret}`, body);
			return { status: answer.status, json: /^application\/json\b/.test(answer.headers.get('content-type') ?? ''), body: await answer.text() };
		};
		let res = await post(hookUrl, fakeUpdate('/start'));
		t.check('a delivery without the secret finds no route (404)', res.status === 404, `HTTP ${res.status}`);
		res = await post(`${hookUrl}?secret=${secret}`, fakeUpdate('/start'));
		t.check('… also with the secret in the query instead of the path (404)', res.status === 404, `HTTP ${res.status}`);
		res = await post(`${hookUrl}/${'x'.repeat(32)}`, fakeUpdate('/start'));
		t.check('a delivery with a wrong secret is refused with 403', res.status === 403, `HTTP ${res.status}`);
		await sleep(500);
		t.eq('refused deliveries start nothing', (await world.executions(id)).length, 0);

		// --- /start → menu with keypads -----------------------------------------------------------
		const start = await admin.act('send-message', { userId: sara.user_id, chatId: chat, text: '/start' });
		let execution = await nextExecution('/start');
		t.has('the trigger item carries the update (type, chat, sender, text, message id)', nodeItems(execution, TRIGGER)[0], {
			type: 'NewMessage',
			chat_id: chat,
			sender_id: sara.user_id,
			text: '/start',
			message_id: start.message_id,
		});
		t.check('"/start" takes the menu branch', nodesRun(execution).includes('Send the menu') && execution.status === 'success', nodesRun(execution));
		const menu = (await admin.messages(chat)).at(-1);
		t.eq(
			'the menu arrives with its inline keypad',
			{ from: menu?.sender_type, keypad: menu?.inline_keypad?.rows?.map((row) => row.buttons.map((b) => b.id)) },
			{ from: 'Bot', keypad: [['about', 'help'], ['time']] },
		);
		t.eq('… and the chat keypad is set', (await admin.chat(chat)).chat_keypad?.rows?.map((row) => row.buttons.map((b) => b.id)), [['menu']]);

		// --- inline tap → edit --------------------------------------------------------------------
		await admin.act('tap-inline-button', { userId: sara.user_id, chatId: chat, messageId: menu.message_id, buttonId: 'about' });
		execution = await nextExecution('inline tap');
		t.has('the tap arrives as an InlineMessage item with the button and the menu message', nodeItems(execution, TRIGGER)[0], {
			type: 'InlineMessage',
			button_id: 'about',
			message_id: menu.message_id,
			chat_id: chat,
			sender_id: sara.user_id,
		});
		let edited = (await admin.messages(chat)).find((m) => m.message_id === menu.message_id);
		t.check('the tap edits the menu message in place, keeping its buttons', edited?.is_edited === true && edited?.text.includes('n8n workflow') && edited?.inline_keypad?.rows?.length === 2, edited);

		// --- other text → echo --------------------------------------------------------------------
		const hello = await admin.act('send-message', { userId: sara.user_id, chatId: chat, text: 'hello n8n' });
		execution = await nextExecution('echo');
		const echo = (await admin.messages(chat)).at(-1);
		t.check('other text is echoed as a reply', nodesRun(execution).includes('Echo the text') && echo?.text === 'hello n8n' && echo?.reply_to_message_id === hello.message_id && echo?.sender_type === 'Bot', echo);

		// --- chat keypad tap → menu again ---------------------------------------------------------
		await admin.act('tap-chat-keypad-button', { userId: sara.user_id, chatId: chat, buttonId: 'menu' });
		execution = await nextExecution('chat keypad tap');
		t.check('a tap on the chat keypad\'s Menu button sends the menu again', nodesRun(execution).includes('Send the menu'), nodesRun(execution));

		let deliveries = await admin.settle();
		t.eq(
			'every sandbox delivery that started an execution was answered 200 {"status":"OK"}',
			deliveries.map((d) => [d.kind, d.httpStatus, d.responseBody]),
			[['update', 200, OK_BODY], ['inline_message', 200, OK_BODY], ['update', 200, OK_BODY], ['update', 200, OK_BODY]],
		);

		// --- what n8n answers: started, filtered, repeated ---------------------------------------
		// The sandbox logs status and body; direct POSTs with the secret also show the Content-Type.
		await admin.clearDeliveries();
		await admin.act('edit-message', { userId: sara.user_id, chatId: chat, messageId: hello.message_id, text: 'hello again' });
		deliveries = await admin.settle();
		t.eq(
			'a filtered sandbox delivery (an edit; the trigger takes new messages and taps) is answered 200 {"status":"OK"}',
			deliveries.map((d) => [d.kind, d.httpStatus, d.responseBody]),
			[['update', 200, OK_BODY]],
		);

		await admin.clearDeliveries();
		await admin.injectFault({ kind: 'duplicateDelivery' });
		await admin.act('send-message', { userId: sara.user_id, chatId: chat, text: '/start' });
		await nextExecution('duplicated delivery');
		deliveries = await admin.settle();
		t.eq(
			'both copies of a duplicated sandbox delivery are answered 200 {"status":"OK"}',
			deliveries.map((d) => [d.duplicate, d.httpStatus, d.responseBody]),
			[[false, 200, OK_BODY], [true, 200, OK_BODY]],
		);

		// The same for an inline keypad tap (its own de-duplication): on the menu the last "/start" sent.
		const latestMenu = (await admin.messages(chat)).filter((m) => m.inline_keypad).at(-1);
		await admin.clearDeliveries();
		await admin.injectFault({ kind: 'duplicateDelivery' });
		await admin.act('tap-inline-button', { userId: sara.user_id, chatId: chat, messageId: latestMenu.message_id, buttonId: 'time' });
		execution = await nextExecution('duplicated tap');
		t.check('a duplicated tap starts the tap branch once…', nodesRun(execution).includes('Answer the tap'), nodesRun(execution));
		deliveries = await admin.settle();
		t.eq(
			'… and both copies are answered 200 {"status":"OK"}',
			deliveries.map((d) => [d.kind, d.duplicate, d.httpStatus, d.responseBody]),
			[['inline_message', false, 200, OK_BODY], ['inline_message', true, 200, OK_BODY]],
		);

		const direct = fakeUpdate('/start', { messageId: '8001' });
		t.eq('a direct delivery that starts an execution is answered 200 with the JSON {"status":"OK"}', await deliver(direct), OK_ANSWER);
		execution = await nextExecution('direct delivery');
		t.has('… and it did start one', nodeItems(execution, TRIGGER)[0], { message_id: '8001', text: '/start' });
		t.eq('the same delivery again (a repeat) is answered the same', await deliver(direct), OK_ANSWER);
		t.eq('a filtered delivery (sent by a bot) is answered the same', await deliver(fakeUpdate('/start', { messageId: '8002', senderType: 'Bot' })), OK_ANSWER);
		await sleep(1500);
		t.eq('the duplicated, filtered and repeated deliveries started nothing more', (await world.executions(id)).length, executions);
		// (n8n 2.41 does not save the static data of a call that starts an execution; the node remembers the
		// event in memory, and the static data gets it with the repeat, which starts nothing.)

		// --- suffix routes ------------------------------------------------------------------------
		// Path form: a service that delivers to <url>/receiveUpdate and <url>/receiveInlineMessage (older
		// documentation). The sandbox's appendEndpointSuffix puts the suffix at the end of the URL's path.
		await admin.config({ appendEndpointSuffix: true });
		await admin.clearDeliveries();
		try {
			await admin.act('send-message', { userId: sara.user_id, chatId: chat, text: 'suffix in the path' });
			await nextExecution('path suffix');
			const newMenu = (await admin.messages(chat)).filter((m) => m.inline_keypad).at(-1);
			await admin.act('tap-inline-button', { userId: sara.user_id, chatId: chat, messageId: newMenu.message_id, buttonId: 'help' });
			execution = await nextExecution('path suffix tap');
			deliveries = await admin.settle();
			const shown = deliveries.map((d) => [d.url?.replace(secret, '<secret>'), d.httpStatus]);
			t.check(
				'sandbox deliveries to <webhook>/receiveUpdate and <webhook>/receiveInlineMessage start executions',
				deliveries.length === 2 &&
					deliveries.every((d) => d.httpStatus === 200) &&
					deliveries[0].url === `${hookUrl}/${secret}/receiveUpdate` &&
					deliveries[1].url === `${hookUrl}/${secret}/receiveInlineMessage`,
				shown,
			);
			t.check('… the tap through the suffix route edits the menu', nodesRun(execution).includes('Answer the tap'));
		} finally {
			await admin.config({ appendEndpointSuffix: false });
		}
		res = await post(`${hookUrl}/${'x'.repeat(32)}/receiveInlineMessage`, fakeUpdate('/start'));
		t.check('the suffix routes check the secret too (403 with a wrong one)', res.status === 403, `HTTP ${res.status}`);
		res = await post(`${hookUrl}/${secret}/somethingElse`, fakeUpdate('/start'));
		t.check('an unknown suffix after the secret finds no route (404)', res.status === 404, `HTTP ${res.status}`);

		// --- many bots, one workflow per bot (checked again after the restart) ---------------------
		const manyBots = await t.step('three bots, and a second workflow for one of them', async () => await startManyBots(world, t));

		// --- restart ------------------------------------------------------------------------------
		const before = (await admin.requests('updateBotEndpoints')).length;
		await world.restartServer();
		await world.waitForWebhook(`${hookPath}/${secret}`);
		// n8n serves the address before its start-up check has registered it again (on a busy machine seconds later):
		// wait for both endpoint types, then a moment for a third registration that must not come.
		const registeredAgain = async () => (await admin.requests('updateBotEndpoints')).slice(before).filter((r) => r.botId === demo.botId);
		await eventually(async () => (await registeredAgain()).length >= 2, { timeoutMs: 20_000 });
		await sleep(1000);
		const again = await registeredAgain();
		t.check(
			'after an n8n restart the published address is registered again, once per endpoint type (what repairs a bot taken over while n8n was down)',
			again.length === 2 && again.every((r) => r.body.url === registered),
			again.map((r) => [r.body.type, r.body.url?.replace(secret, '<secret>')]),
		);
		t.eq('after the restart, a redelivery of an event handled before it is answered 200 {"status":"OK"}…', await deliver(direct), OK_ANSWER);
		await sleep(1500);
		t.eq('… and starts nothing (the static data remembered it)', (await world.executions(id)).length, executions);
		await admin.act('send-message', { userId: sara.user_id, chatId: chat, text: 'after the restart' });
		execution = await nextExecution('after restart');
		edited = (await admin.messages(chat)).at(-1);
		t.check('… and deliveries still start executions', edited?.text === 'after the restart' && edited?.sender_type === 'Bot', edited?.text);
		if (manyBots) await t.step('three bots after the restart', async () => await manyBots.afterRestart());

		await world.deactivate(id);
		// Deactivation, like activation, may complete a moment after the API call.
		await sleep(1000);
		await admin.act('send-message', { userId: sara.user_id, chatId: chat, text: 'nobody listens' });
		deliveries = await admin.settle();
		t.check(
			'after deactivation the URL stays where Rubika cannot remove an endpoint (the sandbox\'s default; the trigger tried) and n8n answers it with 404',
			deliveries.at(-1)?.httpStatus === 404 && (await admin.bot(demo.botId)).endpoints.length === 2,
			deliveries.at(-1)?.httpStatus,
		);
		t.eq('no execution started after deactivation', (await world.executions(id)).length, executions);

		// --- "Listen for test event" --------------------------------------------------------------
		// The editor's request; n8n registers the node's test webhook (…/webhook-test/…) and waits for a call.
		await t.step('listen for a test event', async () => {
			const s = await world.session();
			const workflowData = await s.get(`/rest/workflows/${id}`);
			await admin.clearRequests();
			const started = await s.post(`/rest/workflows/${id}/run`, { workflowData, triggerToStartFrom: { name: TRIGGER } });
			t.check('n8n waits for a test event', started?.waitingForWebhook === true, started);
			const testUrl = await eventually(async () => (await admin.requests('updateBotEndpoints')).map((r) => r.body.url).find((u) => u.includes('/webhook-test/')));
			t.check('… and registers its test address, the secret as its last segment', testUrl === `${ctx.baseUrl}/webhook-test/${hookPath}/${secret}`, testUrl?.replace(secret, '<secret>'));
			await admin.clearDeliveries();
			await admin.act('send-message', { userId: sara.user_id, chatId: chat, text: 'a test event' });
			const [delivery] = await admin.settle();
			t.check('the sandbox delivers the message there and gets 200', delivery?.httpStatus === 200 && delivery?.url === testUrl, delivery && [delivery.url?.replace(secret, '<secret>'), delivery.httpStatus]);
			const manual = await eventually(async () => (await world.executions(id)).find((e) => e.mode === 'manual'), { timeoutMs: 20_000 });
			t.check('… which runs the workflow in the editor (a manual execution) with that message', nodeItems(manual, TRIGGER)[0]?.text === 'a test event', manual && { mode: manual.mode, status: manual.status });
			// n8n ends the listener after its event; nothing is published for the bot, so the trigger asks Rubika to
			// remove both endpoints (an empty url, then none), which the sandbox, like Rubika's documentation, has no way for.
			const removals = await eventually(async () => {
				const calls = (await admin.requests('updateBotEndpoints')).filter((r) => r.botId === demo.botId && r.body.url !== testUrl);
				return calls.length >= 4 ? calls : undefined;
			});
			t.check(
				'the listener ended with nothing published: the trigger tried to remove both endpoints, and where Rubika cannot, the test address stays (n8n answers it 404)',
				removals?.every((r) => !r.body.url && r.status !== 'OK') && (await admin.bot(demo.botId)).endpoints.every((e) => e.url === testUrl),
				removals?.map((r) => [r.body.type, r.body.url, r.status]),
			);
		});
	},
};

if (isMain(import.meta.url)) await runStandalone(test);

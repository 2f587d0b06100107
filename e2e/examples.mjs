#!/usr/bin/env node
// The example workflows of examples/ run in a real n8n against the sandbox, so they cannot rot:
// scheduled broadcast, file relay and poll through `n8n execute`; moderation as a published workflow with
// Rubika Trigger by reading (link spam → delete, ban, notice) plus its "Unban by hand" branch through `n8n execute`;
// approval in the chat as a published workflow (the admin answers on the chat keypad, seen on the sandbox chat
// page in headless Chromium: the screenshot send-and-wait-in-chat.png, into docs/images/ with RUBIKA_SCREENSHOTS=1);
// a registration asked in the chat as a published workflow (name, birth date in Persian digits, phone number, one
// after another on the chat keypad).
// Broadcasts as the examples build them, under a rate limit, in one n8n process: two at once for one bot, then the
// bot's next execution, which starts at the pace the first two learned.
// The echo bot (its trigger receives by webhook) is exercised by e2e/webhook.mjs.
//
//   node e2e/examples.mjs [--version 2.8.4] [--no-build] [--keep]
import { randomUUID } from 'node:crypto';
import { eventually, isMain, runStandalone } from './lib/reporter.mjs';
import { linearWorkflow, node } from '../tooling/workflow-builder.mjs';
import { nodeItems, nodesRun } from '../tooling/world.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Why `n8n execute` did not count as a success: how it ended, the workflow's error, the end of its output. */
const executeFailure = (r) => `exit ${r.code ?? r.signal}${r.error ? `, ${r.error.message}` : ''}${r.retried ? ' (retried)' : ''}:\n${(r.stdout + r.stderr).slice(-3000)}`;

/**
 * Publishes a workflow with a Rubika Trigger by reading and waits until it reads in its loop: two getUpdates
 * requests at least 500 ms apart (the reads that skip to "now" come back to back). n8n 2.41 activates
 * after the API call returns; a message sent before that would count as backlog. Assumes no other
 * workflow reads the bot.
 */
async function activateReading(world, id, { timeoutMs = 30_000 } = {}) {
	const after = (await world.admin.requests('getUpdates')).at(-1)?.seq ?? 0;
	const result = await world.activate(id);
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const seen = (await world.admin.requests('getUpdates')).filter((r) => r.seq > after);
		for (let i = 1; i < seen.length; i++) if (seen[i].at - seen[i - 1].at >= 500) return result;
		await sleep(150);
	}
	throw new Error(`workflow ${id} did not settle into reading getUpdates within ${timeoutMs} ms of its activation`);
}

export const test = {
	name: 'examples',
	async run(world, t) {
		const { admin, demo } = world;
		const { sara, reza, ali } = demo.users;

		// --- scheduled-broadcast.json -------------------------------------------------------------
		await t.step('scheduled-broadcast.json', async () => {
			await admin.clearRequests();
			const r = await world.execute(world.exampleId('scheduled-broadcast.json'));
			if (!t.check('scheduled-broadcast: "Send now (test)" runs with n8n execute', r.ok, r.ok ? `${(r.ms / 1000).toFixed(1)} s` : executeFailure(r))) return;
			t.check('scheduled-broadcast: the run starts at the Manual Trigger', nodesRun(r.run).includes('Send now (test)') && !nodesRun(r.run).includes('Every Monday at 09:00'), nodesRun(r.run));
			const chats = [sara.chat_id, reza.chat_id, ali.chat_id, demo.groupId, demo.channelId];
			const out = r.output('Send the announcement');
			t.eq('scheduled-broadcast: one sent message per chat, in the order of the list', out.map((o) => o.chat_id), chats);
			t.check('scheduled-broadcast: no item failed', out.every((o) => typeof o.message_id === 'string' && !o.error), out.filter((o) => o.error));
			const last = await admin.messages(sara.chat_id).then((m) => m.at(-1));
			t.eq(
				'scheduled-broadcast: the text arrives with its Markdown turned into formatting',
				{ text: last?.text, bold: last?.metadata?.meta_data_parts?.map((p) => p.type) },
				{ text: 'Hello Sara! 📣\nThis week: the new menu is live. Send /start to the bot to see it.', bold: ['Bold'] },
			);
			const sends = await admin.requests('sendMessage');
			const span = sends.at(-1).at - sends[0].at;
			// 5 per second: the node starts the five sends 200 ms apart (800 ms in all). The sandbox sees them arrive a
			// request's latency later, and the first request is the slow one (n8n sets up its HTTP client), which
			// was seen to shorten the span to 677 ms on n8n 2.8.4. Unpaced, five sends on loopback take a few ms each,
			// so half the paced span still tells the two apart.
			t.check('scheduled-broadcast: Request Options pace the sends (5 per second)', sends.length === 5 && span >= 400, `${sends.length} sends over ${span} ms`);
		});

		// --- file-relay.json ----------------------------------------------------------------------
		await t.step('file-relay.json', async () => {
			await admin.clearRequests();
			const r = await world.execute(world.exampleId('file-relay.json'));
			if (!t.check('file-relay: runs with n8n execute', r.ok, r.ok ? `${(r.ms / 1000).toFixed(1)} s` : executeFailure(r))) return;
			const source = r.output('Report text')[0]?.report;
			const [sent] = r.output('Send the file');
			t.check(
				'file-relay: Send File uploads the binary data and sends it as a File',
				sent?.chat_id === sara.chat_id && sent?.file_name === 'report.csv' && sent?.type === 'File' && typeof sent?.file_id === 'string',
				sent,
			);
			t.eq('file-relay: the copy downloaded back reads the same as the report', r.output('Read the copy')[0]?.report, source);
			const message = (await admin.messages(sara.chat_id)).find((m) => m.message_id === sent?.message_id);
			t.check('file-relay: the chat holds the file with its caption', message?.file?.file_name === 'report.csv' && message?.text === "📎 This week's orders", message);
			t.eq(
				'file-relay: the sandbox saw upload, send and download',
				(await admin.requests()).map((q) => q.method),
				['requestSendFile', 'upload', 'sendFile', 'getFile', 'download'],
			);
		});

		// --- poll.json ----------------------------------------------------------------------------
		await t.step('poll.json', async () => {
			const r = await world.execute(world.exampleId('poll.json'));
			if (!t.check('poll: runs with n8n execute', r.ok, r.ok ? `${(r.ms / 1000).toFixed(1)} s` : executeFailure(r))) return;
			const [sent] = r.output('Send the poll');
			const message = (await admin.messages(demo.groupId)).find((m) => m.message_id === sent?.message_id);
			t.eq(
				'poll: the group holds the poll with the answers from the list',
				{ question: message?.poll?.question, options: message?.poll?.options },
				{ question: 'Where shall we meet on Friday?', options: ['Café Naderi', 'The book garden', 'Online'] },
			);
		});

		// --- moderation.json (published, Rubika Trigger by reading) -------------------------------
		await t.step('moderation.json', async () => {
			const id = world.exampleId('moderation.json');
			await world.server();
			const trigger = world.example('moderation.json').nodes.find((n) => n.name === 'Link posted in the group');
			t.check('moderation: its Rubika Trigger is version 1 and receives by reading (Receive Updates left at its default)', trigger?.typeVersion === 1 && !('receiveUpdates' in (trigger?.parameters ?? {})), trigger && { typeVersion: trigger.typeVersion, parameters: trigger.parameters });
			const activated = await activateReading(world, id);
			t.check('moderation: the workflow activates', activated?.active === true || activated?.activeVersionId != null, activated?.active);
			try {
				await admin.act('send-message', { userId: sara.user_id, chatId: demo.groupId, text: 'Good morning everyone' });
				const spam = await admin.act('send-message', { userId: ali.user_id, chatId: demo.groupId, text: 'Free followers!!! https://spam.example/join' });
				const [execution] = await world.waitForExecutions(id, { count: 1, timeoutMs: 30_000 });
				const items = nodeItems(execution, 'Link posted in the group');
				t.eq('moderation: only the message with a link starts the workflow', items.map((i) => [i.sender_id, i.text]), [[ali.user_id, 'Free followers!!! https://spam.example/join']]);
				t.eq('moderation: delete, ban and notice ran', nodesRun(execution).sort(), ['Ban the sender', 'Delete the message', 'Link posted in the group', 'Tell the group'].sort());
				const group = await eventually(async () => {
					const g = await admin.chat(demo.groupId);
					return g.banned.includes(ali.user_id) ? g : undefined;
				});
				t.check('moderation: the sender is banned', !!group);
				const messages = await admin.messages(demo.groupId);
				t.check('moderation: the spam is deleted, the other message stays', !messages.some((m) => m.message_id === spam.message_id) && messages.some((m) => m.text === 'Good morning everyone'));
				t.check('moderation: the group is told', messages.at(-1)?.text?.includes('removed and its sender was banned'), messages.at(-1)?.text);
				// Nothing more happens on later reads (about one a second).
				await sleep(3000);
				t.eq('moderation: one execution, no repeats on later reads', (await world.executions(id)).length, 1);
			} finally {
				await world.deactivate(id).catch(() => {});
			}

			const r = await world.execute(id);
			t.check('moderation: "Unban by hand" runs with n8n execute', r.ok, r.ok ? '' : executeFailure(r));
			t.eq('moderation: n8n execute starts at the Manual Trigger, not at the Rubika Trigger', nodesRun(r.run).sort(), ['Unban by hand', 'Unban the member', 'Who to unban']);
			const group = await admin.chat(demo.groupId);
			t.check('moderation: the member is unbanned', !group.banned.includes(ali.user_id), group.banned);
			const joined = await admin.act('join-chat', { userId: ali.user_id, chatId: demo.groupId }).then(() => true, (e) => e.message);
			t.check('moderation: … and can join the group again', joined === true, joined);
		});

		// --- approval-in-chat.json (published, Rubika Trigger by reading, the admin answers on the chat keypad) ---
		await t.step(IN_CHAT, () => approvalInChat(world, t));

		// --- registration-in-chat.json (published, three questions answered on the chat keypad) ---------
		await t.step(REGISTRATION, () => registrationInChat(world, t));

		// --- broadcasts under a rate limit: one pacer per bot in the n8n process ------------------------
		await t.step(RATE_LIMITED, () => broadcastsUnderALimit(world, t));

		// --- the schedule itself ------------------------------------------------------------------
		await t.step('scheduled-broadcast activation', async () => {
			const id = world.exampleId('scheduled-broadcast.json');
			await world.server();
			const activated = await world.activate(id);
			t.check('scheduled-broadcast: the Schedule Trigger activates in n8n', activated?.active === true || activated?.activeVersionId != null);
			await world.deactivate(id);
		});
	},
};

const IN_CHAT = 'approval-in-chat.json';
const RATE_LIMITED = 'broadcasts of one bot under a rate limit';
const REGISTRATION = 'registration-in-chat.json';

/**
 * examples/registration-in-chat.json published: Reza writes /register; the name (Textbox), the birth date
 * (Calendar, Persian, answered in Persian digits) and the phone number (his own, shared with one tap) are asked one
 * after another on his chat keypad, each answer handed by the same trigger to the waiting execution; the summary
 * has the three answers, the keypad is gone, and the answers started no execution of their own.
 */
async function registrationInChat(world, t) {
	const { admin, demo } = world;
	const { reza } = demo.users;
	const id = world.exampleId(REGISTRATION);
	const deadline = { timeoutMs: 30_000, intervalMs: 150 };
	const began = Date.now();
	await world.server();
	await activateReading(world, id);
	try {
		const before = new Set((await admin.messages(reza.chat_id)).map((m) => m.message_id));
		const botSince = async () => (await admin.messages(reza.chat_id)).filter((m) => m.sender_type === 'Bot' && !before.has(m.message_id));
		/** The question `text` and the one button of the keypad it set, once the keypad shows a `type` button. */
		const asked = async (text, type) => {
			let button;
			const question = await eventually(async () => {
				button = (await admin.chat(reza.chat_id)).chat_keypad?.rows?.[0]?.buttons?.[0];
				return button?.type === type && (await botSince()).find((m) => m.text === text);
			}, deadline);
			if (!question) throw new Error(`registration: the question "${text}" with a ${type} button did not come (keypad ${JSON.stringify(button)})`);
			return button;
		};
		const answer = (button, values) => admin.act('answer-button', { userId: reza.user_id, chatId: reza.chat_id, buttonId: button.id, ...values });
		await admin.act('send-message', { userId: reza.user_id, chatId: reza.chat_id, text: '/register' });
		const name = await asked('Welcome! What is your full name?', 'Textbox');
		t.eq('registration: /register asks the name with one Textbox (one line) on the chat keypad', [name.button_text, name.button_textbox?.type_line], ['✍️ Write your name', 'SingleLine']);
		await answer(name, { text: 'رضا احمدی' });
		const born = await asked('When were you born?', 'Calendar');
		t.eq('… then the birth date, a Persian calendar of 1300 to 1404', born.button_calendar, { type: 'DatePersian', min_year: '1300', max_year: '1404' });
		await answer(born, { date: '۱۳۶۹/۰۵/۱۲' });
		const phone = await asked('Last one: your phone number, please.', 'AskMyPhoneNumber');
		await answer(phone, { phoneNumber: '+989351112233' });
		const summary = await eventually(async () => (await botSince()).find((m) => m.text?.startsWith('Registered')), deadline);
		t.eq('… then the phone number; the summary has the three answers (the date in both calendars)', summary?.text, 'Registered ✅\nName: رضا احمدی\nBorn: 1369-05-12 (1990-08-03)\nPhone: +989351112233');
		const executions = await world.waitForExecutions(id, { count: 1, timeoutMs: 30_000 });
		await sleep(1500);
		const all = await world.executions(id);
		t.check('registration: one execution, successful, each question answered once; the answers started none', all.length === 1 && all[0].status === 'success' && ['Ask the name', 'Ask the birth date', 'Ask the phone number', 'Confirm'].every((n) => nodesRun(executions[0]).includes(n)), all.map((e) => e.status));
		t.eq('… and Reza\'s keypad is gone, with no outcome replies (After the Decision: Remove the Buttons)', [(await admin.chat(reza.chat_id)).chat_keypad ?? null, (await botSince()).length], [null, 4]);
		t.note(`registration-in-chat: ${((Date.now() - began) / 1000).toFixed(1)} s`);
	} finally {
		await world.deactivate(id).catch(() => {});
	}
}

/**
 * A Webhook → Split Out → Send Text broadcast (Parallel Requests 5, Max Requests per Second 0) for a new bot that
 * the sandbox limits to 5 requests a second, which the node is not told. Two broadcasts at once: both succeed,
 * every recipient gets one message. Then the bot's next execution, with 5 recipients in parallel: it starts at
 * the pace the first two learned in this n8n process, so its requests are spread out instead of going at once.
 */
async function broadcastsUnderALimit(world, t) {
	const { admin, ctx } = world;
	const limit = 5;
	await world.server();
	const s = await world.session();
	const bot = await admin.addBot({ bot_title: 'Broadcast Bot' });
	const credential = await s.post('/rest/credentials', { name: 'Broadcast Bot (rate limit)', type: 'rubikaApi', data: { accessToken: bot.token, baseUrl: world.sandbox.url } });
	const webhookPath = `broadcast-${randomUUID().slice(0, 8)}`;
	const nodes = [
		node('Start', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} }, { typeVersion: 2, webhookId: randomUUID() }),
		node('Recipients', 'n8n-nodes-base.splitOut', { fieldToSplitOut: 'body.recipients', options: {} }),
		node('Send', 'n8n-nodes-rubika.rubika', { resource: 'message', operation: 'sendMessage', chatId: '={{ $json.chat_id }}', text: 'News', requestOptions: { concurrency: 5 } }, { credential }),
	];
	const { connections, settings } = linearWorkflow(undefined, 'Broadcast under a rate limit', nodes);
	const workflow = await world.publicApi('/workflows', { method: 'POST', body: { name: 'Broadcast under a rate limit', nodes, connections, settings } });
	await admin.config({ rateLimit: { perSecond: limit, status: 'TOO_REQUESTS', httpStatus: 200 } });
	try {
		await world.activate(workflow.id);
		await world.waitForWebhook(webhookPath);
		const audience = async (count) => (await admin.call('POST', '/recipients', { count, botId: bot.bot_id })).chatIds;
		const post = (chatIds) =>
			fetch(`${ctx.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ recipients: chatIds.map((chat_id) => ({ chat_id })) }) });
		const sends = async () => (await admin.requests('sendMessage')).filter((r) => r.botId === bot.bot_id);

		const halves = [await audience(15), await audience(15)];
		const answers = await Promise.all(halves.map(post));
		t.eq('rate limit: n8n accepts both broadcasts', answers.map((a) => a.status), [200, 200]);
		const both = await world.waitForExecutions(workflow.id, { count: 2, timeoutMs: 60_000 });
		t.eq('rate limit: both executions succeed', both.map((e) => e.status), ['success', 'success']);
		const counts = await admin.botMessageCounts(halves.flat());
		t.check('rate limit: each of the 30 recipients got exactly one message', counts.every((n) => n === 1), counts.join(''));
		const refused = (await sends()).filter((r) => r.fault === 'rateLimit').length;
		t.check(`rate limit: the sandbox refused some requests (${limit}/s, which the node was not told)`, refused > 0, `${refused} TOO_REQUESTS`);

		const before = (await sends()).length;
		const next = await audience(5);
		await post(next);
		const [third] = (await world.waitForExecutions(workflow.id, { count: 3, timeoutMs: 60_000 })).slice(2);
		t.eq('rate limit: the bot\'s next execution succeeds', third?.status, 'success');
		t.check('rate limit: … each of its 5 recipients got one message', (await admin.botMessageCounts(next)).every((n) => n === 1));
		const times = (await sends()).slice(before).map((r) => r.at);
		// Five in parallel would start within a few milliseconds; at the learned pace, a little under 5 a second,
		// they are about 200 ms apart.
		const span = times.length >= 5 ? times[4] - times[0] : 0;
		t.check('rate limit: the next execution starts at the pace the first two learned (5 requests spread over ≥ 600 ms)', span >= 600, `${times.length} requests over ${span} ms`);
	} finally {
		await admin.config({ rateLimit: null });
		await world.deactivate(workflow.id).catch(() => {});
		await world.publicApi(`/workflows/${workflow.id}`, { method: 'DELETE' }).catch(() => {});
		// Later tests in a shared world must not see this credential as the default for a new node.
		await s.request('DELETE', `/rest/credentials/${credential.id}`).catch(() => {});
	}
}

/**
 * examples/approval-in-chat.json published: Reza suggests a post, the admin (Sara) gets the question with ✅ Publish
 * and ❌ Reject on her chat keypad and taps Publish; the same trigger hands the tap to the waiting execution, which
 * posts to the channel and tells Reza. Then Ali's suggestion starts the trigger's workflow again, and Sara rejects
 * it. Sara's chat page, with the first question answered and the second one asked, is the screenshot
 * send-and-wait-in-chat.png.
 */
async function approvalInChat(world, t) {
	const { admin, demo } = world;
	const { sara, reza, ali } = demo.users;
	const id = world.exampleId(IN_CHAT);
	const deadline = { timeoutMs: 30_000, intervalMs: 150 };
	const began = Date.now();
	await world.server();
	const { findChromium, noteScreenshot, openBrowser } = await import('./lib/browser.mjs');
	const chromium = findChromium();
	t.check('approval-in-chat: Chromium is there for the chat page (scripts/ensure-browser.mjs)', chromium.path, chromium.path ?? chromium.reason);
	const activated = await activateReading(world, id);
	t.check('approval-in-chat: the workflow activates', activated?.active === true || activated?.activeVersionId != null, activated?.active);
	// The chat page can only be asked to ignore its event stream being cut when it closes.
	const browser = chromium.path ? await openBrowser({ executablePath: chromium.path, ignoreFailedRequests: () => true }) : undefined;
	try {
		const page = await browser?.newPage({ width: 1000, height: 760 });
		await page?.goto(`${world.sandbox.url}/?user=${sara.user_id}&chat=${sara.chat_id}`);
		await page?.locator('#live-status[data-state="live"]').waitFor();
		const keypadOnPage = () => page.getByRole('group', { name: 'Chat keypad' });
		const execution = (executionId) => world.publicApi(`/executions/${executionId}?includeData=true`);
		const botTexts = async (chatId, since) => (await admin.messages(chatId)).filter((m) => m.sender_type === 'Bot' && !since.has(m.message_id)).map((m) => m.text);
		const ids = async (chatId) => new Set((await admin.messages(chatId)).map((m) => m.message_id));

		/** A user suggests a post: resolves the admin's question, its keypad buttons and the waiting execution. */
		const suggest = async (user, post) => {
			const before = await ids(sara.chat_id);
			await admin.act('send-message', { userId: user.user_id, chatId: user.chat_id, text: `/suggest ${post}` });
			const question = await eventually(async () => (await admin.messages(sara.chat_id)).find((m) => m.sender_type === 'Bot' && !before.has(m.message_id) && m.text?.includes(post)), deadline);
			if (!question) throw new Error(`the admin got no question about "${post}"`);
			const buttons = (await admin.chat(sara.chat_id)).chat_keypad?.rows?.flatMap((row) => row.buttons) ?? [];
			const executionId = buttons[0]?.id?.split('.')[1];
			const waiting = await eventually(async () => (await execution(executionId))?.status === 'waiting', deadline);
			return { question, buttons, executionId, waiting };
		};
		const decided = (executionId) => world.finished(executionId, { timeoutMs: deadline.timeoutMs });
		const answer = (e) => nodeItems(e, 'Ask the admin')[0]?.data;

		// Reza's post, published.
		const [rezaBefore, saraBefore, channelBefore] = [await ids(reza.chat_id), await ids(sara.chat_id), await ids(demo.channelId)];
		const first = await suggest(reza, 'Friday\'s meetup moves to 18:00, in the book garden.');
		t.eq(
			'approval-in-chat: the admin gets the post with ✅ Publish and ❌ Reject on the chat keypad, the execution waits',
			{ text: first.question.text, labels: first.buttons.map((b) => b.button_text), waiting: first.waiting },
			{ text: 'New post suggested for the channel:\n\nFriday\'s meetup moves to 18:00, in the book garden.\n\nPublish it?', labels: ['✅ Publish', '❌ Reject'], waiting: true },
		);
		t.eq('… and the author is thanked at once', await botTexts(reza.chat_id, rezaBefore), ['Thank you! An admin will look at your post.']);
		if (page) {
			await keypadOnPage().getByRole('button', { name: '❌ Reject' }).waitFor();
			t.eq('… the chat page shows the two buttons on Sara\'s keypad', await keypadOnPage().getByRole('button').allInnerTexts(), ['✅ Publish', '❌ Reject']);
		}
		await admin.act('tap-chat-keypad-button', { userId: sara.user_id, chatId: sara.chat_id, buttonId: first.buttons[0].id });
		const published = await decided(first.executionId);
		const resumed = t.check(
			'approval-in-chat: Sara\'s tap on ✅ Publish resumes that execution, approved in the chat by her',
			published?.status === 'success' && answer(published)?.approved === true && answer(published)?.answeredIn === 'chat' && answer(published)?.sender_name === 'Sara Karimi',
			{ status: published?.status, data: answer(published) },
		);
		if (!resumed) t.note(`what the trigger logged:\n${world.serverLog().split('\n').filter((line) => /Rubika/.test(line)).slice(-6).join('\n')}`);
		t.eq('… the post is in the channel', await botTexts(demo.channelId, channelBefore), ['Friday\'s meetup moves to 18:00, in the book garden.']);
		t.eq('… Reza is told', (await botTexts(reza.chat_id, rezaBefore)).at(-1), 'Your post is in the channel now. Thank you!');
		const saraChat = await admin.chat(sara.chat_id);
		t.check(
			'… and Sara\'s keypad is gone, a reply to her tap says who decided',
			!saraChat.chat_keypad?.rows?.length && (await botTexts(sara.chat_id, saraBefore)).at(-1) === '✅ Publish — Sara Karimi',
			{ keypad: saraChat.chat_keypad, texts: await botTexts(sara.chat_id, saraBefore) },
		);

		// Ali's post: the trigger's own workflow still starts for other messages; rejected.
		const [aliBefore, channelBefore2] = [await ids(ali.chat_id), await ids(demo.channelId)];
		const second = await suggest(ali, 'Can we have a poll about the next book?');
		t.check('approval-in-chat: Ali\'s suggestion starts the workflow again and asks the admin', second.waiting && second.executionId !== first.executionId, second.executionId);
		if (page) {
			await page.locator(`#message-${second.question.message_id}`).waitFor();
			await keypadOnPage().getByRole('button', { name: '❌ Reject' }).waitFor();
			await page.mouse.move(0, 0);
			await noteScreenshot(t, world, page, 'send-and-wait-in-chat.png');
		}
		await admin.act('tap-chat-keypad-button', { userId: sara.user_id, chatId: sara.chat_id, buttonId: second.buttons[1].id });
		const rejected = await decided(second.executionId);
		t.check('approval-in-chat: ❌ Reject resumes it, not approved', rejected?.status === 'success' && answer(rejected)?.approved === false, { status: rejected?.status, data: answer(rejected) });
		const aliTold = await eventually(async () => (await botTexts(ali.chat_id, aliBefore)).at(-1)?.startsWith('Your post was not'), deadline);
		t.check('… Ali is told, the channel gets nothing', aliTold && (await botTexts(demo.channelId, channelBefore2)).length === 0, await botTexts(ali.chat_id, aliBefore));
		t.eq('approval-in-chat: two executions in all, both successful: the taps started none', (await world.executions(id)).map((e) => e.status), ['success', 'success']);
		if (page) t.eq('approval-in-chat: the chat page logged no console error and threw nothing', browser.errors(page).filter((p) => p.kind === 'console' || p.kind === 'pageerror'), []);
		t.note(`approval-in-chat: ${((Date.now() - began) / 1000).toFixed(1)} s`);
	} finally {
		await browser?.close();
		await world.deactivate(id).catch(() => {});
	}
}

if (isMain(import.meta.url)) await runStandalone(test);

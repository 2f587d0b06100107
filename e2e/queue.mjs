#!/usr/bin/env node
// The package in n8n's queue mode (tooling/queue-world.mjs: PostgreSQL, Redis, main + 2 workers + 1 webhook
// process; n8n 2.41.1 unless --version says otherwise), checked as a scaled-out user would:
//   1. Send and Wait answered in the chat: every case of e2e/chat-answers.mjs (lib/chat-answer-cases.mjs) —
//      taps under the message and on a chat keypad through the Rubika Trigger by webhook in the webhook process,
//      chat-keypad taps through the Rubika Trigger by reading on main, all handed on to the execution's resume address
//      (WEBHOOK_URL); each decided execution runs on a worker when it starts and again when it goes on. It runs
//      first and its question with a time limit is checked last (finish): n8n goes on with that question when it
//      next looks for expired waits (once a minute), and the other scenarios use that time;
//   2. a broadcast to 2,000 sandbox users split into two executions that run at once on the two workers,
//      under the sandbox's rate limit: every recipient gets the message exactly once;
//   3. a worker killed (SIGKILL) in the middle of a broadcast that uses Skip Chats Already Sent, then the
//      broadcast started again: every recipient served, duplicates only for what was in flight;
//   4. the Rubika Trigger by reading (the way for n8n without a public address) on main while main is
//      restarted: no route in n8n's webhook table, nothing reads while main is down (the webhook process and the
//      workers never do), every message in exactly one execution;
//   5. Send and Wait for Response: the person's answer arrives through the webhook process and a worker
//      resumes the execution;
//   6. "Listen for test event" on main while a workflow whose trigger receives by webhook is published, its
//      trigger receiving at the webhook process (e2e/test-listen.mjs `listenWhilePublished`; the test event posted
//      to main as a load balancer routes /webhook-test/): when the listener ends or is stopped, the published
//      address is registered again at once and a message reaches the published workflow;
//   7. the Rubika Trigger by webhook: its six routes in n8n's webhook table, registered at the webhook process and
//      receiving there; one update delivered to the webhook process and again to main: two executions
//      (de-duplication memory is per process), and the documented Remove Duplicates step after the trigger lets
//      exactly one through; copies arriving at the same instant at both are counted and reported; a changed
//      WEBHOOK_URL (last: main keeps it).
//
//   node e2e/queue.mjs [--version 2.8.4] [--only chat,webhook] [--no-build] [--keep] [--tgz file] [--recipients 2000]
//
// --only runs just those scenarios (SCENARIOS below); `npm test` runs all of them on 2.41.1 and only `chat` on
// 2.8.4, which keeps the suite's time down while both versions' hand-over through a webhook process is checked.
//
// Timings and throughput are printed, not bounded (benchmarks hold thresholds).
import { BROWSER_UA, createReporter, eventually, isMain, parseArgs } from './lib/reporter.mjs';
import { chatAnswerCases } from './lib/chat-answer-cases.mjs';
import { packageLoadProblems } from '../tooling/n8n.mjs';
import { broadcastWorkflow, createQueueWorld, startWebhook } from '../tooling/queue-world.mjs';
import { linearWorkflow, node, noOp, readingTrigger, rubika, webhookTrigger } from '../tooling/workflow-builder.mjs';
import { isFinished, nodeItems, nodesRun, packOnce } from '../tooling/world.mjs';
import { listenWhilePublished } from './test-listen.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** The sandbox's rate limit for the bot (requests per second), and what each of two broadcasts asks for. */
const RATE_LIMIT = 60;
const PER_EXECUTION = 28;

const IDS = {
	broadcast: 'e2eQueueBcast001',
	reading: 'e2eQueueCont0001',
	webhook: 'e2eQueueHook0001',
	approval: 'e2eQueueWait0001',
};
const PATHS = {
	broadcast: 'e2e-queue-broadcast',
	approval: 'e2e-queue-approval',
};
const HOOK_TRIGGER = 'Rubika Trigger by webhook';
const READING_TRIGGER = 'Rubika Trigger by reading';
const HANDLED = 'Handled';


function workflows(demo) {
	const sara = demo.users.sara;
	return [
		broadcastWorkflow(IDS.broadcast, PATHS.broadcast),
		linearWorkflow(IDS.reading, 'E2E queue: trigger by reading', [
			readingTrigger(READING_TRIGGER, { filters: { textPattern: '^queue-cont ' } }),
			noOp(HANDLED),
		]),
		linearWorkflow(IDS.webhook, 'E2E queue: trigger by webhook + Remove Duplicates', [
			webhookTrigger(HOOK_TRIGGER, { filters: { textPattern: '^queue-hook ' } }),
			node(
				'Remove Duplicates',
				'n8n-nodes-base.removeDuplicates',
				{ operation: 'removeItemsSeenInPreviousExecutions', dedupeValue: '={{ $json.update_key }}', options: {} },
				{ typeVersion: 2 },
			),
			noOp(HANDLED),
		]),
		linearWorkflow(IDS.approval, 'E2E queue: send and wait', [
			startWebhook(PATHS.approval),
			rubika('Ask', {
				resource: 'message',
				operation: 'sendAndWait',
				chatId: sara.chat_id,
				message: 'Publish the queue-mode report?',
				responseType: 'approval',
				approvalOptions: { values: { approvalType: 'double', approveLabel: 'Approve', disapproveLabel: 'Decline' } },
			}),
			noOp('After the answer'),
		]),
	];
}

/** Counts → { once, missing, twice: [chat ids seen more than once] }. */
function audit(chatIds, counts) {
	const result = { once: 0, missing: [], repeated: [] };
	counts.forEach((n, i) => {
		if (n === 1) result.once++;
		else if (n === 0) result.missing.push(chatIds[i]);
		else result.repeated.push(`${chatIds[i]} ×${n}`);
	});
	return result;
}

/** The scenarios by name, for `--only` (the package-load check always runs). */
export const SCENARIOS = ['chat', 'broadcast', 'reading', 'send-and-wait', 'test-listen', 'webhook'];

export async function run(world, t, { recipients = 2000, only = SCENARIOS } = {}) {
	const unknown = only.filter((name) => !SCENARIOS.includes(name));
	if (unknown.length) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIOS.join(', ')}`);
	const wanted = (name) => only.includes(name);
	/** A step of a scenario, run only when the scenario is wanted; prints how long it took. */
	const scenario = async (name, label, fn) => {
		if (!wanted(name)) return undefined;
		const started = Date.now();
		const result = await t.step(label, fn);
		t.note(`(${label}: ${secs(Date.now() - started)})`);
		return result;
	};
	const { admin, demo } = world;
	const sara = demo.users.sara;
	const postTo = (base, path, body) =>
		fetch(`${base}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

	await t.step('the package loads in main, both workers and the webhook process', async () => {
		for (const name of world.processNames()) t.eq(`${name}: no problems loading n8n-nodes-rubika in its log`, packageLoadProblems(world.log(name)), []);
	});

	// --- 1. send and wait answered in the chat: every case of e2e/chat-answers.mjs, here in queue mode ----------
	// First, so that its question with a time limit waits while the other scenarios run: n8n (main) goes on with it
	// when it next looks for expired waits, once a minute and when main starts. Its last cases and the clean-up
	// (finish) run after the other scenarios.
	const chat = await scenario('chat', 'send and wait answered in the chat', () =>
		chatAnswerCases(world, t, { webhookBase: world.webhookBase, waitForWebhook: (p) => world.waitForWebhook('webhook', p), log: world.logs, workerStarts: world.workerStarts }),
	);

	// --- 2. a broadcast split across two workers ------------------------------------------------------
	await scenario('broadcast', 'broadcast on two workers', async () => {
		await admin.config({ rateLimit: { perSecond: RATE_LIMIT, status: 'TOO_REQUESTS', httpStatus: 200 } });
		await world.activate(IDS.broadcast);
		await world.waitForWebhook('webhook', PATHS.broadcast);
		const chatIds = await admin.recipients(recipients);
		const half = Math.ceil(chatIds.length / 2);
		const parts = [chatIds.slice(0, half), chatIds.slice(half)];
		const started = Date.now();
		const answers = await Promise.all(
			parts.map((part) => postTo(world.webhookBase, PATHS.broadcast, { recipients: part.map((chat_id) => ({ chat_id })), perSecond: PER_EXECUTION, campaign: '' })),
		);
		t.eq('the webhook process accepts both halves', answers.map((a) => a.status), [200, 200]);
		const executions = await world.waitForExecutions(IDS.broadcast, (list) => list.filter(isFinished).length >= 2, { timeoutMs: 4 * 60_000, includeData: false });
		const seconds = (Math.max(...executions.map((e) => Date.parse(e.stoppedAt))) - started) / 1000;
		t.eq('both executions succeed', executions.map((e) => e.status), ['success', 'success']);
		const workers = executions.map((e) => world.workersThatRan(e.id));
		t.check('they ran at the same time on different workers', workers.every((w) => w.length === 1) && workers[0][0] !== workers[1][0], workers);
		const result = audit(chatIds, await admin.botMessageCounts(chatIds));
		t.eq(`every one of the ${chatIds.length} recipients got the message exactly once`, { once: result.once, missing: result.missing.length, repeated: result.repeated.length }, { once: chatIds.length, missing: 0, repeated: 0 });
		const stats = await admin.requests('sendMessage');
		const refused = stats.filter((r) => r.fault === 'rateLimit').length;
		t.note(
			`${chatIds.length} messages in ${seconds.toFixed(1)} s = ${(chatIds.length / seconds).toFixed(1)}/s, ${((100 * chatIds.length) / seconds / RATE_LIMIT).toFixed(0)} % of the ${RATE_LIMIT}/s limit (2 × ${PER_EXECUTION}/s asked); ${refused} answers were TOO_REQUESTS and retried`,
		);
		await admin.clearRequests();
	});

	// --- 3. a worker dies mid-broadcast; the re-run skips who was served -----------------------------
	await scenario('broadcast', 'worker killed mid-broadcast, re-run with Skip Chats Already Sent', async () => {
		const chatIds = await admin.recipients(600);
		const body = { recipients: chatIds.map((chat_id) => ({ chat_id })), perSecond: 40, campaign: `queue-kill-${Date.now()}` };
		const before = (await world.executions(IDS.broadcast, { includeData: false })).length;
		await postTo(world.webhookBase, PATHS.broadcast, body);
		let delivered = 0;
		const deadline = Date.now() + 60_000;
		while (delivered < 150 && Date.now() < deadline) {
			await sleep(200);
			delivered = (await admin.botMessageCounts(chatIds)).filter((n) => n > 0).length;
		}
		const [running] = (await world.executions(IDS.broadcast, { includeData: false })).slice(before);
		const victim = running && world.workersThatRan(running.id)[0];
		if (!victim) throw new Error(`no worker log names the broadcast's execution ${running?.id}`);
		await world.stop(victim, { kill: true });
		await sleep(500);
		const atKill = (await admin.botMessageCounts(chatIds)).filter((n) => n > 0).length;
		t.check(`${victim} killed (SIGKILL) part-way: some recipients served, some not`, atKill > 0 && atKill < chatIds.length, `${atKill} of ${chatIds.length} served`);
		// The same broadcast again (n8n does not re-run an execution whose worker died).
		const restarted = world.startProcess(victim);
		await postTo(world.webhookBase, PATHS.broadcast, body);
		const rerun = await world.waitForExecutions(IDS.broadcast, (list) => list.slice(before + 1).some(isFinished), { timeoutMs: 90_000 });
		const second = rerun.slice(before + 1).find(isFinished);
		t.eq('the re-run succeeds', second?.status, 'success');
		const items = nodeItems(second, 'Send');
		const skipped = items.filter((i) => i.skipped === true).length;
		t.check('the re-run skips the chats recorded as served', skipped > 0 && skipped <= atKill, `${skipped} skipped, ${atKill} served before the kill`);
		const result = audit(chatIds, await admin.botMessageCounts(chatIds));
		t.check('every recipient served after the re-run', result.missing.length === 0, `${result.missing.length} missing ${result.missing.slice(0, 5).join(', ')}`);
		// What Skip Chats Already Sent promises: only what was in flight when the worker died goes twice.
		t.check('at most the in-flight messages were sent twice', result.repeated.length <= 3, `${result.repeated.length} twice ${result.repeated.slice(0, 5).join(', ')}`);
		t.note(`re-run: ${skipped} skipped as already sent, ${items.length - skipped} sent; ${result.repeated.length} recipient(s) got the message twice`);
		await restarted;
	});
	if (wanted('broadcast')) {
		await world.deactivate(IDS.broadcast);
		await admin.config({ rateLimit: null });
	}

	// --- 4. the trigger by reading on main while main restarts ---------------------------------------
	await scenario('reading', 'trigger by reading across a restart of main', async () => {
		const before = (await admin.requests('getUpdates')).length;
		await world.activate(IDS.reading);
		const reading = await eventually(async () => (await admin.requests('getUpdates')).length > before + 1, { timeoutMs: 60_000 });
		t.check('main starts reading getUpdates after activation', reading);
		t.eq("n8n's webhook table holds no route for it (nothing for the webhook process to serve)", await world.webhookRows(IDS.reading), []);
		const texts = Array.from({ length: 30 }, (_, i) => `queue-cont ${String(i + 1).padStart(2, '0')}`);
		const sender = (async () => {
			for (const text of texts) {
				await admin.act('send-message', { userId: sara.user_id, chatId: sara.chat_id, text });
				await sleep(250);
			}
		})();
		await sleep(2500);
		const t0 = Date.now();
		await world.stop('main');
		// The webhook process and the workers run on: none of them may read (only main runs triggers).
		const lastRead = (await admin.requests('getUpdates')).at(-1)?.seq ?? 0;
		await sleep(3000);
		const whileDown = (await admin.requests('getUpdates')).filter((r) => r.seq > lastRead);
		t.eq('while main is down nobody reads getUpdates (3 s; the webhook process and both workers run)', whileDown.length, 0);
		await world.startProcess('main');
		t.note(`main stopped (SIGTERM) and started again in ${secs(Date.now() - t0)} while messages kept coming`);
		await sender;
		const executions = await world.waitForExecutions(
			IDS.reading,
			(list) => list.filter(isFinished).flatMap((e) => nodeItems(e, READING_TRIGGER)).length >= texts.length,
			{ timeoutMs: 120_000 },
		);
		const got = executions.filter(isFinished).flatMap((e) => nodeItems(e, READING_TRIGGER).map((i) => i.text));
		const counts = new Map();
		for (const text of got) counts.set(text, (counts.get(text) ?? 0) + 1);
		t.eq('every message started exactly one execution', { lost: texts.filter((x) => !counts.has(x)), repeated: [...counts].filter(([, n]) => n > 1).map(([x]) => x) }, { lost: [], repeated: [] });
		t.check('the executions ran on the workers', executions.every((e) => world.workersThatRan(e.id).length === 1), executions.map((e) => [e.id, world.workersThatRan(e.id)]));
		await world.deactivate(IDS.reading);
	});

	// --- 5. send and wait, answered through the webhook process ---------------------------------------
	await scenario('send-and-wait', 'send and wait resumed through the webhook process', async () => {
		await world.activate(IDS.approval);
		await world.waitForWebhook('webhook', PATHS.approval);
		await postTo(world.webhookBase, PATHS.approval, {});
		const waiting = await world.waitForExecutions(IDS.approval, (l) => l.some((e) => e.status === 'waiting'));
		const execution = waiting.find((e) => e.status === 'waiting');
		t.check('the execution waits for the answer', !!execution, waiting.map((e) => e.status));
		const message = (await admin.messages(sara.chat_id)).filter((m) => m.sender_type === 'Bot' && m.inline_keypad).at(-1);
		const approve = message?.inline_keypad?.rows?.flatMap((r) => r.buttons).find((b) => b.button_link);
		const tap = await admin.act('tap-link-button', { userId: sara.user_id, chatId: sara.chat_id, messageId: message.message_id, buttonId: approve.id });
		t.check("the Approve button opens the webhook process's resume URL", tap.url?.startsWith(`${world.webhookBase}/webhook-waiting/${execution.id}/`), tap.url);
		const page = await fetch(tap.url, { headers: { 'user-agent': BROWSER_UA } });
		t.eq('the webhook process answers the person with a page', page.status, 200);
		const done = await world.waitForExecutions(IDS.approval, (l) => l.some((e) => e.id === execution.id && isFinished(e)));
		const resumed = done.find((e) => e.id === execution.id);
		t.eq('a worker resumes the execution to the end', resumed?.status, 'success');
		t.eq('… with the answer', nodeItems(resumed, 'Ask')[0]?.data?.approved, true);
		await world.deactivate(IDS.approval);
	});

	// --- 6. a test listener on main while the trigger by webhook is published -----------------------
	await scenario('test-listen', 'listen for a test event on main, the published trigger receiving at the webhook process', () => listenInQueueMode(world, t));

	// --- 7. the trigger by webhook through the webhook process -------------------------------------
	await scenario('webhook', 'trigger by webhook through the webhook process', async () => {
		await admin.clearRequests();
		await world.activate(IDS.webhook);
		const registration = await eventually(async () => (await admin.requests('updateBotEndpoints')).at(-1), { timeoutMs: 30_000 });
		const registered = registration?.body?.url ?? '';
		t.check('activation on main registers the webhook process\'s address (WEBHOOK_URL)', registered.startsWith(`${world.webhookBase}/webhook/`), registered.replace(/[^/]+$/, '<secret>'));
		// <webhook id>/<webhook id>/webhook/<secret>: the secret is the path's last segment (the trigger's default).
		const hookPath = registered.slice(`${world.webhookBase}/webhook/`.length);
		await world.waitForWebhook('webhook', hookPath);
		await world.waitForWebhook('main', hookPath);
		const rows = await world.webhookRows(IDS.webhook);
		t.eq(
			"n8n's webhook table holds its path and the five suffix routes (POST), which the webhook process serves",
			rows.map((r) => [r.method, r.webhookPath.replace(/^[^/]+\//, '<id>/')]).sort(),
			['', '/getSelectionItem', '/receiveInlineMessage', '/receiveQuery', '/receiveUpdate', '/searchSelectionItems'].map((suffix) => ['POST', `<id>/webhook/:secret${suffix}`]).sort(),
		);
		const suffixRoute = await fetch(`${world.webhookBase}/webhook/${hookPath}/receiveUpdate`, { method: 'OPTIONS', headers: { origin: world.webhookBase, 'access-control-request-method': 'POST' } });
		t.eq('… the webhook process answers the address with a suffix too (CORS preflight 204)', suffixRoute.status, 204);
		await admin.clearDeliveries();
		await admin.act('send-message', { userId: sara.user_id, chatId: sara.chat_id, text: 'queue-hook first' });
		const deliveries = await admin.settle();
		t.check('the sandbox delivers to the webhook process and gets 200', deliveries.length === 1 && deliveries[0].url.startsWith(world.webhookBase) && deliveries[0].httpStatus === 200, deliveries.map((d) => [d.url?.split('?')[0], d.httpStatus]));
		let list = await world.waitForExecutions(IDS.webhook, (l) => l.filter(isFinished).length >= 1);
		t.check('… which starts an execution that a worker runs to the end', list.length === 1 && nodesRun(list[0]).includes(HANDLED) && world.workersThatRan(list[0].id).length === 1, list.map((e) => [e.status, nodesRun(e)]));

		const update = (messageId, text) => ({
			update: {
				type: 'NewMessage',
				chat_id: sara.chat_id,
				new_message: { message_id: messageId, time: String(Math.floor(Date.now() / 1000)), is_edited: false, sender_type: 'User', sender_id: sara.user_id, text },
			},
		});
		const deliver = (base, body) =>
			fetch(`${base}/webhook/${hookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.status);
		const handledCount = (executions, messageId) =>
			executions.filter((e) => nodeItems(e, HOOK_TRIGGER)[0]?.message_id === messageId && nodesRun(e).includes(HANDLED) && nodeItems(e, HANDLED).length > 0).length;
		const startedCount = (executions, messageId) => executions.filter((e) => nodeItems(e, HOOK_TRIGGER)[0]?.message_id === messageId).length;

		// One update, delivered to the webhook process and a second later to main (another process).
		const statuses = [await deliver(world.webhookBase, update('9100', 'queue-hook copy'))];
		await sleep(1000);
		statuses.push(await deliver(world.mainBase, update('9100', 'queue-hook copy')));
		t.eq('both copies are answered 200', statuses, [200, 200]);
		list = await world.waitForExecutions(IDS.webhook, (l) => l.filter(isFinished).length >= 3);
		t.eq('each process starts an execution for its copy (the trigger\'s duplicate memory is per process)', startedCount(list, '9100'), 2);
		t.eq('Remove Duplicates on update_key after the trigger lets exactly one through', handledCount(list, '9100'), 1);

		// Copies that arrive at both processes at the same instant: counted, reported (docs/queue-mode.md).
		const pairs = ['9201', '9202', '9203', '9204', '9205'];
		for (const id of pairs) await Promise.all([deliver(world.webhookBase, update(id, 'queue-hook pair')), deliver(world.mainBase, update(id, 'queue-hook pair'))]);
		list = await world.waitForExecutions(IDS.webhook, (l) => l.filter(isFinished).length >= 3 + 2 * pairs.length, { timeoutMs: 90_000 });
		const through = pairs.map((id) => handledCount(list, id));
		t.check('simultaneous copies at two processes: none lost past Remove Duplicates', through.every((n) => n >= 1), through);
		t.note(`simultaneous copies at both processes: ${through.filter((n) => n > 1).length} of ${pairs.length} went through twice (Remove Duplicates reads and writes its record without a lock)`);

		// WEBHOOK_URL changed and main restarted: n8n runs the trigger's checkExists at start-up, which finds the
		// registered address out of date, and create registers the new one (2.41.1 here; n8n 2.8.4's queue mode
		// runs the chat cases only).
		// (Unpublishing asks Rubika to remove the endpoints, with an empty url or none: not registrations.)
		const registrations = async () => (await admin.requests('updateBotEndpoints')).filter((r) => r.body.url).map((r) => r.body.url.split('?')[0]);
		const before = (await registrations()).length;
		const moved = { WEBHOOK_URL: `${world.mainBase}/`, N8N_WEBHOOK_URL: `${world.mainBase}/` };
		await world.stop('main');
		await world.startProcess('main', { env: moved });
		const renewed = await eventually(
			async () => (await registrations()).slice(before).find((url) => url.includes(`/${hookPath.split('/')[0]}/`)),
			{ timeoutMs: 30_000 },
		);
		t.check('after WEBHOOK_URL changes and main restarts, the trigger registers the new address by itself', renewed?.startsWith(`${world.mainBase}/webhook/`), renewed);
		const beforeReactivation = (await registrations()).length;
		await unpublish(world, IDS.webhook);
		await world.activate(IDS.webhook);
		const after = await eventually(async () => (await registrations()).slice(beforeReactivation).at(-1), { timeoutMs: 30_000 });
		t.check('deactivating and activating the workflow registers it there too', after?.startsWith(`${world.mainBase}/webhook/`), after);
		await world.deactivate(IDS.webhook);
		// Main keeps the changed WEBHOOK_URL: this scenario comes last, and what follows (the chat cases' finish)
		// reaches main only through its public API.
	});


	if (chat) await scenario('chat', 'send and wait answered in the chat: past the time limit, clean-up', () => chat.finish());
}

/**
 * "Listen for test event" in queue mode (e2e/test-listen.mjs): the editor's listener runs on main, which published
 * the workflow and so knows which trigger holds the bot; the published trigger receives at the webhook process.
 * When the listener ends, the published address is back, and a message reaches the published workflow there.
 */
async function listenInQueueMode(world, t) {
	const listen = await listenWhilePublished(world, t, { name: 'Queue Listen Bot', routeTestTo: world.mainBase });
	t.check('… the published address is the webhook process\'s', Object.values(listen.published ?? {}).every((url) => url.startsWith(`${world.webhookBase}/webhook/`)));
	// Until n8n 2.41 has unpublished it, the trigger's delete is still to come, with its updateBotEndpoints calls,
	// which the next scenario would take for its own.
	await unpublish(world, listen.id);
}

/**
 * Unpublishes a workflow and, on n8n 2.41, waits until it is: 2.41 unpublishes after the API call has returned
 * (its publication outbox), and publishing again before then may leave nothing done.
 */
async function unpublish(world, id) {
	await world.deactivate(id);
	if (world.version === '2.8.4') return;
	const s = await world.session();
	const status = await eventually(async () => (await s.get(`/rest/workflows/${id}/publication-status`))?.status === 'not_published' || undefined, { timeoutMs: 30_000 });
	if (!status) throw new Error(`workflow ${id} still not unpublished 30 s after the API call`);
}

/** One queue world, the scenarios, `N passed, N failed`. Used by `npm test` (after e2e/run.mjs). */
export async function main(argv = process.argv.slice(2)) {
	let recipients = 2000;
	const rest = [];
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--recipients') recipients = Number(argv[++i]);
		else rest.push(argv[i]);
	}
	const opts = parseArgs(rest);
	const say = (s) => process.stdout.write(`[queue] ${s}\n`);
	const t = createReporter('queue');
	const started = Date.now();
	let world;
	let pack;
	try {
		pack = await packOnce({ build: opts.build, tgz: opts.tgz, log: say });
		world = await createQueueWorld({ pack, version: opts.versions[0], workflows, log: say });
		process.stdout.write(`\n=== queue mode (n8n ${world.version}: PostgreSQL, Redis, main + 2 workers + webhook process) ===\n`);
		await world.start();
		await run(world, t, { recipients, only: opts.only });
	} catch (e) {
		t.check('queue mode ran to the end', false, e?.stack || String(e));
	} finally {
		const keep = opts.keep || t.failed > 0;
		await world?.close({ keep });
		if (keep && world) say(`work folder kept: ${world.workDir} (logs: main.log, worker1.log, worker2.log, webhook.log)`);
		pack?.cleanup();
	}
	process.stdout.write(`${t.passed} passed, ${t.failed} failed (queue, ${secs(Date.now() - started)})\n`);
	return t.failed ? 1 : 0;
}

if (isMain(import.meta.url)) process.exit(await main());

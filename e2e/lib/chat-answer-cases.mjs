// The cases of Send and Wait for Response answered in the chat (Answer In: Chat), for any n8n: regular mode
// (e2e/chat-answers.mjs) and queue mode (e2e/queue.mjs, the trigger by webhook in the webhook process, the trigger
// by reading on main, the executions on workers) run this same code. Two new sandbox bots, so that nothing else in a
// shared world interferes: the Approvals Bot with a published Rubika Trigger receiving by webhook and the Keypad Bot
// with one receiving by reading. Questions start from n8n Webhook-node workflows; people tap through the sandbox's
// admin API; executions are read back through n8n's public API.
//
// Checks: buttons under the message — Approve (data.approved, sender_id, sender_name, answeredIn "chat"; the
// buttons go, a reply tells the outcome; the trigger by webhook's workflow runs for no tap, once for a message),
// Decline; two questions waiting in one chat, each decided by its own buttons; a tap delivered again decides
// nothing; a made-up button id posted to the trigger, a hand-made tap posted to the resume address and, on 2.8.4,
// an unsigned approve link decide nothing; the chat keypad with the trigger by reading, Approve and Decline (the keypad goes,
// the trigger's workflow still gets each other message once), and with the trigger by webhook (Keypad Buttons work
// with either way of receiving; Buttons Under the Message only by webhook); Restrict to User IDs in a group (the Unauthorized
// Reply, then the allowed person decides); the links with a proof when Rubika refuses the buttons; a tap after
// Limit Wait Time, once n8n has gone on (n8n looks for expired waits once a minute: up to a minute). In queue
// mode also: each decided execution ran on a worker when it started and again when it was resumed.
// The other kinds of question (issue 33): a chain of seven (a choice, a text, a date, a number, an item, a phone
// number, a place) on the chat keypad with the trigger by reading and another under the message with the trigger by
// webhook, answered with the sandbox's answer-button (Persian and Arabic digits, answers under the message as inline
// messages and as new messages), an answer that is no date (asked again), a hand-made answer and a replayed one;
// two Number questions in one chat; a choice restricted to a user in a group and tapped from another chat; a Free
// Text past its time limit. What n8n
// answered the triggers (from the logs) and each tap's delay until the execution went on are printed.
import { randomUUID } from 'node:crypto';
import { BROWSER_UA, eventually } from './reporter.mjs';
import { approvalQuestionNodes, linearWorkflow, noOp, questionNodes, readingTrigger, webhookTrigger } from '../../tooling/workflow-builder.mjs';
import { isFinished, nodeItems, waitForExecution, waitForExecutionList } from '../../tooling/world.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const ASK = 'Ask';
const AFTER = 'After';
const HOOK_TRIGGER = 'Approvals Bot receives';
const CONT_TRIGGER = 'Keypad Bot receives';
const LABELS = { approveLabel: '✅ Approve', disapproveLabel: '❌ Decline' };
const UNAUTHORIZED = 'Only Reza decides this one.';
const ANSWER_TITLE = 'Thank you, your answer was received';
/** How long an execution may take to reach a state before the test gives up (a failure, not a bound). */
const DEADLINE_MS = 90_000;
/** How long to wait before concluding that a tap decided nothing (n8n answers a tap within a second here). */
const SETTLE_MS = 1500;
/**
 * How long the chat may take to show the outcome after the execution went on: the trigger tells it once n8n has
 * accepted the tap, and in queue mode a worker can finish the execution before the trigger has heard that.
 */
const TOLD_MS = 15_000;

/** The questions: Webhook node → Send and Wait (Answer In: Chat) → No Op, each for one bot. */
const questions = (allowed) => ({
	inline: { bot: 'hook', answerIn: 'inlineButtons', options: {} },
	keypad: { bot: 'cont', answerIn: 'chatKeypad', options: {} },
	keypadByWebhook: { bot: 'hook', answerIn: 'chatKeypad', options: {} },
	late: { bot: 'hook', answerIn: 'inlineButtons', options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'seconds' } } } },
	group: { bot: 'hook', answerIn: 'inlineButtons', options: { allowedUserIds: allowed.user_id, unauthorizedReply: UNAUTHORIZED } },
	approveOnly: { bot: 'hook', answerIn: 'inlineButtons', options: {}, approvalType: 'single' },
	keypadApproveOnly: { bot: 'cont', answerIn: 'chatKeypad', options: {}, approvalType: 'single' },
});

const CHOICES = { choices: { values: [{ label: 'صبح', value: 'morning' }, { label: 'عصر', value: 'evening' }, { label: 'Night' }] } };
const AGAIN = 'That answer cannot be used (that is not a date). Please answer again.';

/**
 * Every other kind of question (issue 33), each once, in one execution: a chain of Send and Wait nodes, as a form
 * of several questions is built. On the chat keypad the date is Persian, the place picked on a map; under the
 * message the date is Gregorian, the place where the person is.
 */
const chainOf = (answerIn) => {
	const keypad = answerIn === 'chatKeypad';
	return [
		{ name: 'Shift', parameters: { responseType: 'choice', ...CHOICES, message: 'Which shift?' } },
		{ name: 'Name', parameters: { responseType: 'freeText', textLines: keypad ? 'SingleLine' : 'MultiLine', message: 'Your name?' } },
		{ name: 'Birth date', parameters: { responseType: 'date', calendarType: keypad ? 'DatePersian' : 'DateGregorian', fromYear: keypad ? '1300' : '1950', toYear: keypad ? '1404' : '2030', message: 'Your birth date?' } },
		{ name: 'Guests', parameters: { responseType: 'number', minNumber: -5, maxNumber: 20, message: 'How many guests?' } },
		{ name: 'City', parameters: { responseType: 'listItem', listItems: 'Tehran\nShiraz\nTabriz', message: 'Which city?' } },
		{ name: 'Phone', parameters: { responseType: 'phoneNumber', message: 'Your phone number?' } },
		{ name: 'Place', parameters: { responseType: 'location', locationKind: keypad ? 'picked' : 'current', message: 'Where?' } },
	].map((q) => ({ ...q, parameters: { ...q.parameters, answerIn } }));
};

/** Single questions of the other kinds: Webhook node → Send and Wait named ASK → No Op. */
const otherQuestions = (allowed) => ({
	keypadChain: { bot: 'cont', answerIn: 'chatKeypad', chain: chainOf('chatKeypad') },
	inlineChain: { bot: 'hook', answerIn: 'inlineButtons', chain: chainOf('inlineButtons') },
	inlineNumber: { bot: 'hook', answerIn: 'inlineButtons', parameters: { responseType: 'number', minNumber: 0, maxNumber: 10 } },
	groupChoice: { bot: 'hook', answerIn: 'inlineButtons', parameters: { responseType: 'choice', ...CHOICES, options: { allowedUserIds: allowed.user_id, unauthorizedReply: UNAUTHORIZED } } },
	lateText: { bot: 'hook', answerIn: 'inlineButtons', parameters: { responseType: 'freeText', options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'seconds' } } } } },
});

/**
 * Runs every case against an n8n that `world` drives (world.mjs or queue-world.mjs: version, admin, demo,
 * sandbox, session(), publicApi, activate, deactivate), with what differs between the modes in `mode`. Resolves
 * `{ finish }` (undefined when the bots could not be set up): finish() runs the cases that wait for n8n's
 * once-a-minute look for expired waits, and cleans up; call it after other work, so that the wait overlaps it.
 *
 * @param {object} world
 * @param {ReturnType<import('./reporter.mjs').createReporter>} t
 * @param {object} mode
 * @param {string} mode.webhookBase                where n8n serves /webhook/… and /webhook-waiting/… (WEBHOOK_URL)
 * @param {(path: string) => Promise<unknown>} mode.waitForWebhook  until that server answers a production path
 * @param {() => string} mode.log                  the logs of the processes that run the triggers
 * @param {(executionId: string) => string[]} [mode.workerStarts]  queue mode: the worker of each start of the execution
 */
export async function chatAnswerCases(world, t, { webhookBase, waitForWebhook, log, workerStarts }) {
	const { admin, demo } = world;
	const { sara, reza } = demo.users;
	const s = await world.session();
	const created = { workflows: [], credentials: [] };
	const latencies = [];

	// --- the bots, their chats, credentials and workflows ---------------------------------------
	const bots = { hook: await admin.addBot({ bot_title: 'Approvals Bot' }), cont: await admin.addBot({ bot_title: 'Keypad Bot' }) };
	const chats = {
		hook: (await admin.act('start-bot', { userId: sara.user_id, botId: bots.hook.bot_id, sendStartMessage: false })).chat_id,
		cont: (await admin.act('start-bot', { userId: sara.user_id, botId: bots.cont.bot_id, sendStartMessage: false })).chat_id,
		/** Reza's own chats with the bots: "another chat" for a button made for Sara's. */
		rezaHook: (await admin.act('start-bot', { userId: reza.user_id, botId: bots.hook.bot_id, sendStartMessage: false })).chat_id,
		rezaCont: (await admin.act('start-bot', { userId: reza.user_id, botId: bots.cont.bot_id, sendStartMessage: false })).chat_id,
	};
	const group = await admin.call('POST', '/chats', { type: 'Group', title: 'Approvals', ownerId: sara.user_id, memberIds: [reza.user_id, bots.hook.bot_id] });
	const QUESTIONS = questions(reza);
	const credentials = {};
	for (const [key, bot] of Object.entries(bots)) {
		credentials[key] = await s.post('/rest/credentials', { name: `${bot.bot_title} (chat answers)`, type: 'rubikaApi', data: { accessToken: bot.token, baseUrl: world.sandbox.url } });
		created.credentials.push(credentials[key].id);
	}
	const createWorkflow = async (name, nodes) => {
		const { connections, settings } = linearWorkflow(undefined, name, nodes);
		const workflow = await world.publicApi('/workflows', { method: 'POST', body: { name, nodes, connections, settings } });
		created.workflows.push(workflow.id);
		return workflow.id;
	};
	const hookId = await createWorkflow('Chat answers: Approvals Bot trigger', [
		webhookTrigger(HOOK_TRIGGER, {}, { credential: credentials.hook }),
		noOp('Handled'),
	]);
	const contId = await createWorkflow('Chat answers: Keypad Bot trigger', [
		readingTrigger(CONT_TRIGGER, {}, { credential: credentials.cont }),
		noOp('Handled'),
	]);
	for (const [key, q] of Object.entries(QUESTIONS)) {
		q.path = `chat-answers-${key}-${randomUUID().slice(0, 8)}`;
		const nodes = approvalQuestionNodes({ path: q.path, answerIn: q.answerIn, credential: credentials[q.bot], options: q.options, labels: LABELS, approvalType: q.approvalType, ask: ASK, after: AFTER });
		q.nodeId = nodes[1].id;
		q.id = await createWorkflow(`Chat answers: ${key}`, nodes);
	}
	const OTHERS = otherQuestions(reza);
	for (const [key, q] of Object.entries(OTHERS)) {
		q.path = `chat-answers-${key}-${randomUUID().slice(0, 8)}`;
		const chain = q.chain ?? [{ name: ASK, parameters: { ...q.parameters, answerIn: q.answerIn } }];
		q.id = await createWorkflow(`Chat answers: ${key}`, questionNodes({ path: q.path, credential: credentials[q.bot], questions: chain, after: AFTER }));
	}
	for (const q of [...Object.values(QUESTIONS), ...Object.values(OTHERS)]) await world.activate(q.id);
	await world.activate(hookId);
	// The trigger by reading starts from now: wait until it reads in its loop before anyone writes to the bot.
	await world.activate(contId);
	const reading = await eventually(async () => (await admin.requests('getUpdates')).filter((r) => r.botId === bots.cont.bot_id && r.httpStatus !== null).length >= 2, { timeoutMs: 30_000 });
	if (!t.check('the Keypad Bot\'s trigger by reading reads getUpdates', reading)) return;
	const endpoints = await eventually(async () => {
		const list = (await admin.bot(bots.hook.bot_id)).endpoints;
		return list.length === 2 ? list : undefined;
	});
	const atWebhookBase = endpoints?.length === 2 && endpoints.every((e) => e.url.startsWith(`${webhookBase}/webhook/`));
	if (!t.check(`the Approvals Bot's trigger by webhook registered both endpoints at ${webhookBase} (WEBHOOK_URL)`, atWebhookBase, endpoints)) return;
	const hookUrl = endpoints[0].url;
	await waitForWebhook(hookUrl.slice(`${webhookBase}/webhook/`.length));
	for (const q of [...Object.values(QUESTIONS), ...Object.values(OTHERS)]) await waitForWebhook(q.path);

	// --- helpers ------------------------------------------------------------------------------
	const execution = (id) => world.publicApi(`/executions/${id}?includeData=true`);
	const statusOf = async (id) => (await execution(id))?.status;
	const finished = (id) => waitForExecution(world.publicApi, id, { timeoutMs: DEADLINE_MS });
	const answer = (e) => nodeItems(e, ASK)[0]?.data;
	const runs = (e, name) => e?.data?.resultData?.runData?.[name]?.length ?? 0;
	/** The workflow's ended executions; with `count`, once that many have ended (or after 30 s: a failure later). */
	const ended = async (workflowId, count = 0) =>
		(await waitForExecutionList(world.publicApi, workflowId, (list) => list.filter(isFinished).length >= count, { timeoutMs: 30_000, storedIds: world.storedExecutionIds })).filter(isFinished);
	const keypadOf = async (q, chatId, message) => (q.answerIn === 'chatKeypad' ? (await admin.chat(chatId)).chat_keypad : message.inline_keypad);
	/**
	 * The bot's question `text` once it is in the chat (a message not in `before`), its answer buttons (or links; on
	 * the chat keypad once the keypad shows a `buttonType` button, the question's own) and the waiting execution's
	 * id, which the buttons carry (`sw1.<execution>.…`), as the links do (`/webhook-waiting/<id>/`).
	 */
	const questionIn = async (q, chatId, text, before, buttonType) => {
		let message;
		let buttons = [];
		await eventually(
			async () => {
				message = (await admin.messages(chatId)).find((m) => m.sender_type === 'Bot' && !before.has(m.message_id) && m.text?.startsWith(text));
				buttons = message ? ((await keypadOf(q, chatId, message))?.rows?.flatMap((row) => row.buttons) ?? []) : [];
				return message && (buttonType === undefined || buttons[0]?.type === buttonType);
			},
			{ timeoutMs: 30_000 },
		);
		if (!message) throw new Error(`the bot's question "${text}" did not arrive`);
		const first = buttons[0];
		const id = first?.type === 'Link' ? new URL(first.button_link.link_url).pathname.split('/')[2] : first?.id?.split('.')[1];
		const waiting = await eventually(async () => (await statusOf(id)) === 'waiting', { timeoutMs: 30_000 });
		if (!waiting) throw new Error(`execution ${id} of "${text}" does not wait (${await statusOf(id)})`);
		return { id, message, buttons, approve: buttons[0], decline: buttons[1], chatId, q };
	};
	const messageIds = async (chatId) => new Set((await admin.messages(chatId)).map((m) => m.message_id));
	/** Starts a question's workflow (its Webhook node) in a chat; resolves its first question (questionIn). */
	const ask = async (q, chatId, text, buttonType) => {
		const before = await messageIds(chatId);
		const res = await fetch(`${webhookBase}/webhook/${q.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chatId, text }) });
		await res.text();
		if (res.status !== 200) throw new Error(`POST /webhook/${q.path} answered ${res.status}`);
		return questionIn(q, chatId, text, before, buttonType);
	};
	/** Asks an approval of QUESTIONS in a chat. */
	const askIn = (key, chatId, text) => ask(QUESTIONS[key], chatId, text);
	/** A person taps an answer button; resolves when the tap left the sandbox (delivery or update). */
	const tap = async (question, button, user = sara) => {
		const at = Date.now();
		if (question.q.answerIn === 'chatKeypad') await admin.act('tap-chat-keypad-button', { userId: user.user_id, chatId: question.chatId, buttonId: button.id });
		else await admin.act('tap-inline-button', { userId: user.user_id, chatId: question.chatId, messageId: question.message.message_id, buttonId: button.id });
		return at;
	};
	/**
	 * A person answers the question's input button with `values` (the sandbox's answer-button: text, date, number,
	 * item, phoneNumber or location), on the chat keypad or under the question's message.
	 */
	const answerInput = async (question, values, user = sara) => {
		const at = Date.now();
		const where = question.q.answerIn === 'chatKeypad' ? {} : { messageId: question.message.message_id };
		await admin.act('answer-button', { userId: user.user_id, chatId: question.chatId, buttonId: question.buttons[0].id, ...where, ...values });
		return at;
	};
	/**
	 * Queue mode: a worker ran the execution when it started and again each time it went on after a wait (main and
	 * the webhook process ran none of it).
	 */
	const onWorkers = (label, id, waits = 1) =>
		workerStarts && t.check(`${label}: run on a worker at the start and again after ${waits === 1 ? 'the wait' : `each of the ${waits} waits`}`, workerStarts(id).length === waits + 1, workerStarts(id));
	/**
	 * The execution after a tap that should decide it; records the tap → next node delay, and with `bot` prints
	 * where the time went: the sandbox's calls of that bot since the tap (the waiting node's replies).
	 */
	const decided = async (label, question, at, bot) => {
		const done = await finished(question.id);
		const resumedAt = done?.data?.resultData?.runData?.[AFTER]?.[0]?.startTime;
		if (resumedAt) latencies.push(`${label} ${resumedAt - at} ms`);
		if (bot) {
			const calls = (await admin.requests()).filter((r) => r.botId === bot.bot_id && r.at >= at && r.method !== 'getUpdates').map((r) => `${r.method} +${r.at - at} ms`);
			t.note(`${label}, from the tap: ${calls.join(', ')}; the next node +${resumedAt - at} ms`);
		}
		onWorkers(label, question.id);
		return done;
	};
	/** Reads until `ok(value)` holds, up to TOLD_MS (what the chat shows after a decision); resolves the last value read. */
	const untilTold = async (read, ok) => {
		let last;
		await eventually(async () => ok((last = await read())), { timeoutMs: TOLD_MS, intervalMs: 200 });
		return last;
	};
	const botMessagesSince = async (chatId, sinceId) => (await admin.messages(chatId)).filter((m) => m.sender_type === 'Bot' && BigInt(m.message_id) > BigInt(sinceId));
	/** What n8n answered a trigger's hand-over for an execution, from the trigger's log lines. */
	const handOverLog = (id) =>
		log()
			.split('\n')
			.filter((line) => new RegExp(`execution ${id}\\b`).test(line) && /Rubika: (a tap|could not hand|ignored)/.test(line))
			.map((line) => line.replace(/^.*?Rubika: /, '').trim());
	const ignoredForChat = (chatId) => log().split('\n').filter((line) => line.includes(`did not make for chat ${chatId}`)).length;
	const noButtons = (keypad) => !keypad || (keypad.rows ?? []).length === 0;
	/** A delivery of an inline tap as Rubika posts it to the trigger by webhook: by default Sara's, on the question. */
	const inlineTap = (question, buttonId, { sender = sara.user_id, chatId = question.chatId, messageId = question.message.message_id } = {}) => ({
		inline_message: { sender_id: sender, text: LABELS.approveLabel, location: null, aux_data: { start_id: null, button_id: buttonId }, message_id: messageId, chat_id: chatId },
	});
	const post = async (url, body, headers = {}) => {
		const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
		return `HTTP ${res.status} ${(await res.text()).slice(0, 160)}`;
	};
	/** A keypad tap as a client other than Rubika's app can send it: any button id, in any chat it can write to. */
	const keypadTapFrom = (user, chatId, buttonId) => admin.act('send-message', { userId: user.user_id, chatId, text: LABELS.disapproveLabel, buttonId });
	/** The bot's calls of a method since a moment (the sandbox's request log). */
	const callsSince = async (bot, method, at) => (await admin.requests(method)).filter((r) => r.botId === bot.bot_id && r.at >= at);
	/** Where each chat stands now (its last message), to tell later what the bot wrote since. */
	const mark = async (chatIds) => {
		const at = Date.now();
		const last = {};
		for (const chatId of chatIds) last[chatId] = (await admin.messages(chatId)).at(-1)?.message_id ?? '0';
		return { at, last };
	};
	/**
	 * A tap that must decide nothing and change nothing in the chat: the execution still waits, the question's
	 * buttons are still there, and since `before` (mark) the bot wrote to none of its chats and edited no keypad.
	 */
	const changedNothing = async (label, question, before) => {
		await admin.settle();
		await sleep(SETTLE_MS);
		const written = [];
		for (const [chatId, last] of Object.entries(before.last)) written.push(...(await botMessagesSince(chatId, last)));
		const edits = [...(await callsSince(bots[question.q.bot], 'editMessageKeypad', before.at)), ...(await callsSince(bots[question.q.bot], 'editChatKeypad', before.at))];
		const keypad = await keypadOf(question.q, question.chatId, (await admin.messages(question.chatId)).find((m) => m.message_id === question.message.message_id));
		const status = await statusOf(question.id);
		t.check(
			`${label}: decides nothing and changes nothing in the chat (the execution waits, the buttons stay, no reply, no keypad edit)`,
			status === 'waiting' && !noButtons(keypad) && written.length === 0 && edits.length === 0,
			{ status, buttons: !noButtons(keypad), written: written.map((m) => m.text), edits: edits.map((r) => r.method) },
		);
	};

	// The question with a time limit first: n8n goes on by itself within about a minute, while the rest runs.
	const late = await t.step('Limit Wait Time: a question that expires in 2 s', () => askIn('late', chats.hook, 'Approve within 2 seconds?'));
	const lateText = await t.step('Limit Wait Time: a Free Text question that expires in 2 s', () => ask(OTHERS.lateText, chats.hook, 'Write within 2 seconds?', 'Textbox'));

	// --- buttons under the message ----------------------------------------------------------------
	const approved = await t.step('buttons under the message: Approve', async () => {
		const question = await askIn('inline', chats.hook, 'Publish the spring price list?');
		const form = world.version === '2.8.4' ? /^sw1\.\d+\.(a|d)m\.[A-Za-z0-9_-]{16}$/ : /^sw1\.\d+\.(a|d)t\.[A-Za-z0-9_-]{43}$/;
		t.check(
			`the question carries two Simple buttons under it, ids sw1.<execution>.<a|d>${world.version === '2.8.4' ? 'm.<16-character MAC>' : 't.<resume token, 43 characters>'}`,
			question.buttons.length === 2 && question.buttons.every((b) => b.type === 'Simple' && form.test(b.id)) &&
				question.approve.button_text === LABELS.approveLabel && question.decline.button_text === LABELS.disapproveLabel,
			question.buttons.map((b) => `${b.type} ${b.button_text} ${b.id} (${b.id.length} characters)`).join('; '),
		);
		const at = await tap(question, question.approve);
		const done = await decided('inline Approve', question, at, bots.hook);
		const data = answer(done);
		t.check(
			'Approve: the execution goes on with data.approved true, answeredIn "chat", the sender\'s id and name',
			done?.status === 'success' && data?.approved === true && data?.answeredIn === 'chat' && data?.sender_id === sara.user_id && data?.sender_name === 'Sara Karimi' &&
				data?.chat_id === chats.hook && data?.message_id === question.message.message_id && !Number.isNaN(Date.parse(data?.respondedAt)),
			{ status: done?.status, data },
		);
		t.eq('… which the next node receives', nodeItems(done, AFTER)[0]?.data?.approved, true);
		const message = await untilTold(async () => (await admin.messages(chats.hook)).find((m) => m.message_id === question.message.message_id), (m) => noButtons(m?.inline_keypad));
		t.check('… the buttons are gone from the question', noButtons(message?.inline_keypad), message?.inline_keypad);
		const outcome = (m) => m.text === `${LABELS.approveLabel} — Sara Karimi` && m.reply_to_message_id === question.message.message_id;
		const replies = await untilTold(() => botMessagesSince(chats.hook, question.message.message_id), (list) => list.some(outcome));
		t.check(
			'… and a reply to it tells the outcome: "✅ Approve — Sara Karimi"',
			replies.some(outcome),
			replies.map((m) => [m.text, m.reply_to_message_id]),
		);
		return question;
	});

	await t.step('buttons under the message: Decline', async () => {
		const question = await askIn('inline', chats.hook, 'Delete last month\'s drafts?');
		const at = await tap(question, question.decline);
		const done = await decided('inline Decline', question, at);
		t.check('Decline: the execution goes on with data.approved false', done?.status === 'success' && answer(done)?.approved === false && answer(done)?.answeredIn === 'chat', answer(done));
	});

	await t.step('two questions waiting in one chat', async () => {
		const first = await askIn('inline', chats.hook, 'Order 40 chairs?');
		const second = await askIn('inline', chats.hook, 'Order 12 desks?');
		const atSecond = await tap(second, second.decline);
		const doneSecond = await decided('second of two, Decline', second, atSecond);
		t.eq('the second question\'s Decline decides the second execution, and the first keeps waiting', [answer(doneSecond)?.approved, await statusOf(first.id)], [false, 'waiting']);
		const atFirst = await tap(first, first.approve);
		const doneFirst = await decided('first of two, Approve', first, atFirst);
		t.eq('… then the first question\'s Approve decides the first', answer(doneFirst)?.approved, true);
	});

	await t.step('a tap delivered again', async () => {
		if (!approved) return;
		const deliveries = await admin.settle();
		const delivery = deliveries.find((d) => d.kind === 'inline_message' && d.body.inline_message?.aux_data?.button_id === approved.approve.id);
		const received = delivery?.httpStatus === 200 && delivery.url.startsWith(`${webhookBase}/webhook/`);
		if (!t.check('the sandbox delivered the Approve tap to the trigger at WEBHOOK_URL, which answered 200', received, delivery)) return;
		const before = await execution(approved.id);
		const res = await fetch(delivery.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(delivery.body) });
		t.note(`the same delivery posted again: the trigger answers HTTP ${res.status} ${await res.text()}`);
		await sleep(SETTLE_MS);
		const after = await execution(approved.id);
		t.check(
			'… and it decides nothing more: one run of the node and of the next, the same end',
			runs(after, ASK) === 1 && runs(after, AFTER) === 1 && after.stoppedAt === before.stoppedAt,
			{ ask: runs(after, ASK), after: runs(after, AFTER) },
		);
		t.note(`n8n's answers to the trigger for execution ${approved.id}: ${handOverLog(approved.id).join(' | ') || '(nothing logged)'}`);
	});

	// --- forgeries ----------------------------------------------------------------------------
	await t.step('made-up buttons and hand-made taps', async () => {
		const question = await askIn('inline', chats.hook, 'Pay invoice 7731?');
		const made = {
			'a made-up resume token': `sw1.${question.id}.at.${Buffer.from(randomUUID() + randomUUID()).toString('base64url').slice(0, 43)}`,
			'a made-up MAC': `sw1.${question.id}.am.${Buffer.from(randomUUID()).toString('base64url').slice(0, 16)}`,
		};
		const ignoredBefore = ignoredForChat(chats.hook);
		const answers = {};
		for (const [name, id] of Object.entries(made)) answers[name] = await post(hookUrl, inlineTap(question, id));
		t.note(`made-up button ids posted to the trigger (with its secret): ${Object.entries(answers).map(([name, a]) => `${name} → ${a}`).join('; ')}`);
		await sleep(SETTLE_MS);
		t.eq('a made-up button id posted to the trigger decides nothing: the execution waits', await statusOf(question.id), 'waiting');
		t.note(`what became of them: ${[...handOverLog(question.id), ...(ignoredForChat(chats.hook) > ignoredBefore ? [`${ignoredForChat(chats.hook) - ignoredBefore} ignored by the trigger (not this bot's MAC)`] : [])].join(' | ') || '(nothing logged)'}`);

		// The resume address called directly: with what a person in the chat can see (the button's proof, which on
		// 2.14+ is the resume token sealed with the bot's key, not the token), and with the execution's real resume
		// token (as someone who read n8n's database would hold it).
		const tapBody = { execution_id: question.id, decision: 'approve', chat_id: chats.hook, message_id: question.message.message_id, sender_id: sara.user_id, at: Date.now() };
		const handMade = (resume) => ({
			'a hand-made tap with a made-up MAC': () => post(resume, { rubikaChatAnswer: { ...tapBody, button_id: question.approve.id }, mac: 'x'.repeat(43) }),
			'a hand-made tap without a MAC': () => post(resume, { rubikaChatAnswer: { ...tapBody, button_id: question.approve.id } }),
			'the approve query of a web link': () => post(`${resume}${resume.includes('?') ? '&' : '?'}approved=true`, {}),
		});
		const seen = question.approve.id.split('.')[2].endsWith('t') ? Buffer.from(question.approve.id.split('.')[3], 'base64url').toString('hex') : undefined;
		const realToken = (await execution(question.id))?.data?.resumeToken;
		const addresses = {
			'with the button\'s proof read as a token': `${webhookBase}/webhook-waiting/${question.id}${seen ? `?signature=${seen}` : ''}`,
			...(realToken ? { 'with the execution\'s real resume token': `${webhookBase}/webhook-waiting/${question.id}?signature=${realToken}` } : {}),
		};
		const direct = {};
		for (const [how, resume] of Object.entries(addresses)) {
			for (const [what, send] of Object.entries(handMade(resume))) direct[`${what}, ${how}`] = await send();
		}
		t.note(`hand-made taps POSTed to /webhook-waiting/${question.id}: ${Object.entries(direct).map(([name, a]) => `${name} → ${a}`).join('; ')}`);
		// 2.8.4 checks no token: the node refuses (403). 2.41 refuses anything but the real token (401), and the
		// node refuses what carries the real token but is not a trigger's signed tap (403).
		const expected = (name) => (world.version === '2.8.4' || name.endsWith('real resume token') ? 'HTTP 403' : 'HTTP 401');
		t.check(
			`hand-made taps posted to the resume address are refused (${world.version === '2.8.4' ? '403 from the node' : '401 from n8n without the real token, 403 from the node with it'})`,
			Object.entries(direct).every(([name, a]) => a.startsWith(expected(name))),
			direct,
		);
		if (world.version !== '2.8.4') t.check('… a button id does not show the execution\'s resume token', realToken !== undefined && seen !== realToken, { realTokenKnown: realToken !== undefined });
		const link = await fetch(`${webhookBase}/webhook-waiting/${question.id}/${question.q.nodeId}?approved=true`, { headers: { 'user-agent': BROWSER_UA } });
		const linkBody = await link.text();
		t.note(`GET /webhook-waiting/${question.id}/<node id>?approved=true (no signature), browser User-Agent → HTTP ${link.status} ${linkBody.includes(ANSWER_TITLE) ? '(the confirmation page)' : linkBody.replace(/\s+/g, ' ').slice(0, 120)}`);
		t.check('… an approve link without a signature is not answered as approved', !linkBody.includes(ANSWER_TITLE) && link.status !== 200, link.status);
		await sleep(SETTLE_MS);
		t.eq('… and the execution still waits', await statusOf(question.id), 'waiting');
		const at = await tap(question, question.approve);
		const done = await decided('inline Approve after forgeries', question, at);
		t.check('the person\'s real tap then decides it', done?.status === 'success' && answer(done)?.approved === true, answer(done));
	});

	// --- the chat keypad with the trigger by reading -------------------------------------------
	await t.step('chat keypad with the Rubika Trigger by reading', async () => {
		const say = (text) => admin.act('send-message', { userId: sara.user_id, chatId: chats.cont, text });
		await say('hello before the question');
		const question = await askIn('keypad', chats.cont, 'Restart the shop server?');
		t.check(
			'the question sets the chat keypad: Approve and Decline, not one-time',
			question.buttons.length === 2 && question.buttons.every((b) => b.type === 'Simple' && b.id.startsWith(`sw1.${question.id}.`)) && (await admin.chat(chats.cont)).chat_keypad_one_time === false,
			question.buttons.map((b) => b.id),
		);
		await say('hello while it waits');
		const at = await tap(question, question.approve);
		const done = await decided('keypad Approve (trigger by reading)', question, at, bots.cont);
		t.check(
			'Approve on the keypad: the execution goes on approved, answeredIn "chat", sender Sara',
			done?.status === 'success' && answer(done)?.approved === true && answer(done)?.answeredIn === 'chat' && answer(done)?.sender_id === sara.user_id && answer(done)?.sender_name === 'Sara Karimi',
			answer(done),
		);
		t.eq('… the chat keypad is removed', await untilTold(async () => (await admin.chat(chats.cont)).chat_keypad, (keypad) => keypad === null), null);
		const replies = await untilTold(() => botMessagesSince(chats.cont, question.message.message_id), (list) => list.some((m) => m.text === `${LABELS.approveLabel} — Sara Karimi`));
		t.check('… and the outcome is replied', replies.some((m) => m.text === `${LABELS.approveLabel} — Sara Karimi`), replies.map((m) => m.text));
		await say('hello after the answer');
		const texts = ['hello before the question', 'hello while it waits', 'hello after the answer'];
		const executions = await ended(contId, texts.length);
		await sleep(SETTLE_MS);
		const all = await ended(contId);
		const got = all.flatMap((e) => nodeItems(e, CONT_TRIGGER).map((item) => item.text)).sort();
		t.eq('the trigger\'s workflow got each other message exactly once, and no tap', got, [...texts].sort());
		t.eq('… in executions that all succeeded (no failed one: the trigger never stopped reading)', all.map((e) => e.status), texts.map(() => 'success'));
		t.note(`the trigger by reading's workflow: ${executions.length} executions`);
	});

	await t.step('chat keypad with the Rubika Trigger by reading: Decline', async () => {
		const question = await askIn('keypad', chats.cont, 'Delete the old backups?');
		const at = await tap(question, question.decline);
		const done = await decided('keypad Decline (trigger by reading)', question, at);
		t.check('Decline on the keypad: the execution goes on declined, sender Sara', done?.status === 'success' && answer(done)?.approved === false && answer(done)?.sender_id === sara.user_id, answer(done));
		t.eq('… the chat keypad is removed', await untilTold(async () => (await admin.chat(chats.cont)).chat_keypad, (keypad) => keypad === null), null);
	});

	// --- the chat keypad with the trigger by webhook --------------------------------------------
	// Keypad Buttons work with either way of receiving: a keypad tap is a message, which Rubika posts to the
	// Approvals Bot's webhook; its trigger hands it to the waiting execution (in queue mode, from the webhook process).
	await t.step('chat keypad with the Rubika Trigger by webhook', async () => {
		const question = await askIn('keypadByWebhook', chats.hook, 'Renew the domain?');
		t.check(
			'the question sets the chat keypad of the Approvals Bot\'s chat: Approve and Decline',
			question.buttons.length === 2 && question.buttons.every((b) => b.type === 'Simple' && b.id.startsWith(`sw1.${question.id}.`)),
			question.buttons.map((b) => b.id),
		);
		const at = await tap(question, question.approve);
		const done = await decided('keypad Approve (trigger by webhook)', question, at, bots.hook);
		t.check(
			'Approve on the keypad, delivered by webhook: the execution goes on approved, answeredIn "chat", sender Sara',
			done?.status === 'success' && answer(done)?.approved === true && answer(done)?.answeredIn === 'chat' && answer(done)?.sender_id === sara.user_id,
			answer(done),
		);
		t.eq('… the chat keypad is removed', await untilTold(async () => (await admin.chat(chats.hook)).chat_keypad, (keypad) => keypad === null), null);
		const replies = await untilTold(() => botMessagesSince(chats.hook, question.message.message_id), (list) => list.some((m) => m.text === `${LABELS.approveLabel} — Sara Karimi`));
		t.check('… and the outcome is replied', replies.some((m) => m.text === `${LABELS.approveLabel} — Sara Karimi`), replies.map((m) => m.text));
	});

	// --- a tap must carry everything the question sent (issue 29) --------------------------------
	await t.step('a decision the question never offered (Approve Only, its own id with the decision edited)', async () => {
		const question = await askIn('approveOnly', chats.hook, 'Archive the 2019 invoices?');
		t.check('an Approve Only question carries one button', question.buttons.length === 1 && question.approve.type === 'Simple', question.buttons.map((b) => b.id));
		const edited = question.approve.id.replace(/\.a([tm])\./, '.d$1.');
		const before = await mark([chats.hook]);
		const answered = await post(hookUrl, inlineTap(question, edited));
		t.note(`the Approve id with its decision letter changed to decline (${edited.split('.').slice(0, 3).join('.')}.…), delivered to the trigger by webhook: ${answered}; n8n and the node: ${handOverLog(question.id).join(' | ') || '(nothing logged)'}`);
		await changedNothing('a decline built from the Approve Only question\'s own id (trigger by webhook)', question, before);
		const keypadQuestion = await askIn('keypadApproveOnly', chats.cont, 'Clear the cache?');
		const keypadBefore = await mark([chats.cont]);
		await keypadTapFrom(sara, chats.cont, keypadQuestion.approve.id.replace(/\.a([tm])\./, '.d$1.'));
		await changedNothing('the same on the chat keypad (trigger by reading)', keypadQuestion, keypadBefore);
		t.note(`n8n and the node, keypad: ${handOverLog(keypadQuestion.id).join(' | ') || '(nothing logged)'}`);
		const done = await decided('Approve Only, the real Approve', question, await tap(question, question.approve));
		t.check('… then the real Approve decides it', done?.status === 'success' && answer(done)?.approved === true, answer(done));
		const keypadDone = await decided('Approve Only on the keypad, the real Approve', keypadQuestion, await tap(keypadQuestion, keypadQuestion.approve));
		t.check('… and on the keypad too', keypadDone?.status === 'success' && answer(keypadDone)?.approved === true, answer(keypadDone));
	});

	await t.step('a real button id tapped by another user in another chat', async () => {
		const question = await askIn('inline', chats.hook, 'Send the payroll file?');
		const before = await mark([chats.hook, group.chat_id, chats.rezaHook]);
		const answers = {
			'Reza in the Approvals group': await post(hookUrl, inlineTap(question, question.approve.id, { sender: reza.user_id, chatId: group.chat_id, messageId: question.message.message_id })),
			'Reza in his own chat with the bot': await post(hookUrl, inlineTap(question, question.approve.id, { sender: reza.user_id, chatId: chats.rezaHook, messageId: question.message.message_id })),
		};
		t.note(`Sara's question's Approve id delivered as taps from other chats: ${Object.entries(answers).map(([where, a]) => `${where} → ${a}`).join('; ')}; n8n and the node: ${handOverLog(question.id).join(' | ') || '(nothing logged)'}`);
		await changedNothing('Sara\'s real Approve id tapped in other chats (trigger by webhook)', question, before);
		const keypadQuestion = await askIn('keypad', chats.cont, 'Reboot the router?');
		const keypadBefore = await mark([chats.cont, chats.rezaCont]);
		await keypadTapFrom(reza, chats.rezaCont, keypadQuestion.approve.id);
		await changedNothing('the same on the chat keypad, from Reza\'s own chat (trigger by reading)', keypadQuestion, keypadBefore);
		const done = await decided('after taps from other chats, Sara\'s Approve', question, await tap(question, question.approve));
		t.check('… then Sara\'s own tap decides it, with her chat in the output', done?.status === 'success' && answer(done)?.approved === true && answer(done)?.chat_id === chats.hook, answer(done));
		const keypadDone = await decided('after a keypad tap from another chat, Sara\'s Decline', keypadQuestion, await tap(keypadQuestion, keypadQuestion.decline));
		t.check('… and on the keypad', keypadDone?.status === 'success' && answer(keypadDone)?.approved === false && answer(keypadDone)?.chat_id === chats.cont, answer(keypadDone));
	});

	await t.step('Approve and Decline tapped at once', async () => {
		const outcomes = [];
		const race = async (label, question, tapBoth) => {
			const since = Date.now();
			await tapBoth();
			const done = await finished(question.id);
			await admin.settle();
			await sleep(SETTLE_MS);
			const approved = answer(done)?.approved;
			const replies = (await botMessagesSince(question.chatId, question.message.message_id)).map((m) => m.text);
			const expected = `${approved ? LABELS.approveLabel : LABELS.disapproveLabel} — Sara Karimi`;
			const edits = [...(await callsSince(bots[question.q.bot], 'editMessageKeypad', since)), ...(await callsSince(bots[question.q.bot], 'editChatKeypad', since))];
			outcomes.push(approved ? 'approve' : 'decline');
			t.check(
				`${label}: decided once, and the chat told exactly that outcome once (one reply, one keypad edit)`,
				runs(done, ASK) === 1 && runs(done, AFTER) === 1 && typeof approved === 'boolean' && replies.length === 1 && replies[0] === expected && edits.length === 1,
				{ approved, replies, edits: edits.map((r) => r.method), handOver: handOverLog(question.id) },
			);
		};
		for (let round = 1; round <= 3; round++) {
			const question = await askIn('inline', chats.hook, `Race ${round}: ship order ${4400 + round}?`);
			await race(`under the message, round ${round}`, question, () => Promise.all([post(hookUrl, inlineTap(question, question.approve.id)), post(hookUrl, inlineTap(question, question.decline.id))]));
		}
		for (let round = 1; round <= 2; round++) {
			const question = await askIn('keypad', chats.cont, `Race ${round}: rotate the logs?`);
			await race(`on the keypad, round ${round}`, question, () => Promise.all([tap(question, question.approve), tap(question, question.decline)]));
		}
		t.note(`which tap won each race: ${outcomes.join(', ')}`);
	});

	// --- who may answer -----------------------------------------------------------------------
	await t.step('Restrict to User IDs in a group', async () => {
		const question = await askIn('group', group.chat_id, 'Move the team meeting to Thursday?');
		const sinceTap = question.message.message_id;
		await tap(question, question.approve, sara);
		const refused = await eventually(async () => (await botMessagesSince(group.chat_id, sinceTap)).find((m) => m.text === UNAUTHORIZED), { timeoutMs: 15_000 });
		t.check('a tap by Sara (not allowed) gets the Unauthorized Reply, as a reply to the question', refused?.reply_to_message_id === question.message.message_id, refused);
		await sleep(SETTLE_MS);
		const message = (await admin.messages(group.chat_id)).find((m) => m.message_id === question.message.message_id);
		t.check('… decides nothing: the execution waits, the buttons stay', (await statusOf(question.id)) === 'waiting' && !noButtons(message?.inline_keypad), await statusOf(question.id));
		const at = await tap(question, question.decline, reza);
		const done = await decided('group, allowed person\'s Decline', question, at);
		const data = answer(done);
		t.check('Reza (allowed) taps Decline: the execution goes on, not approved, sender Reza', done?.status === 'success' && data?.approved === false && data?.sender_id === reza.user_id && data?.chat_id === group.chat_id, data);
		// Until the outcome is in the group: the trigger replies after n8n accepted the tap, possibly after the execution
		// ended, and the next case makes Rubika refuse the next sendMessage.
		const told = await untilTold(() => botMessagesSince(group.chat_id, sinceTap), (list) => list.some((m) => m.text !== UNAUTHORIZED));
		const outcome = told.filter((m) => m.text !== UNAUTHORIZED).map((m) => m.text);
		t.note(`in a group the node has no name for the sender: data.sender_name ${JSON.stringify(data?.sender_name)}, the outcome reply ${JSON.stringify(outcome)}`);
	});

	// --- when Rubika refuses the buttons ------------------------------------------------------
	await t.step('links with a proof when Rubika refuses the buttons', async () => {
		const lastSeq = (await admin.requests('sendMessage')).at(-1)?.seq ?? 0;
		await admin.injectFault({ kind: 'status', status: 'INVALID_INPUT', method: 'sendMessage', times: 1 });
		const question = await askIn('inline', chats.hook, 'Refund order 1042?');
		const sends = (await admin.requests('sendMessage')).filter((r) => r.seq > lastSeq && r.body.chat_id === chats.hook);
		t.check(
			'the send with answer buttons is refused (INVALID_INPUT), the question goes again with link buttons',
			sends.length === 2 && sends[0].status === 'INVALID_INPUT' && sends[0].body.inline_keypad?.rows?.[0]?.buttons?.[0]?.type === 'Simple' &&
				sends[1].status === 'OK' && question.buttons.length === 2 && question.buttons.every((b) => b.type === 'Link'),
			sends.map((r) => [r.status, r.body.inline_keypad?.rows?.[0]?.buttons?.map((b) => b.type)]),
		);
		const approveUrl = new URL(question.approve.button_link.link_url);
		t.check('… each link carries a proof (and n8n\'s signature)', approveUrl.searchParams.has('proof') && approveUrl.searchParams.has('signature'), approveUrl.search.replace(/=[^&]+/g, '=…'));
		const stripped = new URL(question.decline.button_link.link_url);
		stripped.searchParams.delete('proof');
		const strippedAnswer = await fetch(stripped, { headers: { 'user-agent': BROWSER_UA } });
		t.note(`the Decline link without its proof → HTTP ${strippedAnswer.status}`);
		t.check('… the Decline link without its proof decides nothing', !(await strippedAnswer.text()).includes(ANSWER_TITLE), strippedAnswer.status);
		await sleep(SETTLE_MS);
		t.eq('… the execution still waits', await statusOf(question.id), 'waiting');
		const at = Date.now();
		const page = await fetch(approveUrl, { headers: { 'user-agent': BROWSER_UA } });
		t.check('opening the Approve link in a browser shows the confirmation page', page.status === 200 && (await page.text()).includes(ANSWER_TITLE), page.status);
		const done = await decided('fallback link Approve', question, at);
		t.check('… and the execution goes on approved', done?.status === 'success' && answer(done)?.approved === true, answer(done));
		await admin.clearFaults();
	});

	// --- every other kind of question (issue 33): a chain each way, answered in turn -------------------------
	/**
	 * Runs a chain (OTHERS.keypadChain or inlineChain) in a chat: each step waits for its question (the keypad or
	 * the buttons under it showing its `type` button), calls `answer(question)` and, when `expect` is given, takes
	 * the answer as the node's `data`; checks every node's output, the buttons gone, the outcomes replied, and
	 * resolves the execution and its questions.
	 */
	const runChain = async (label, q, chatId, steps) => {
		const before = await messageIds(chatId);
		const res = await fetch(`${webhookBase}/webhook/${q.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chatId, text: label }) });
		await res.text();
		const asked = {};
		for (const [index, step] of steps.entries()) {
			const { name, parameters } = q.chain[index];
			asked[name] = await questionIn(q, chatId, parameters.message, before, step.type);
			await step.answer(asked[name]);
		}
		const done = await finished(asked[q.chain[0].name].id);
		const outputs = Object.fromEntries(q.chain.map(({ name }) => [name, nodeItems(done, name)[0]?.data]));
		const expected = Object.fromEntries(q.chain.map(({ name }, index) => [name, steps[index].expect]));
		const picked = Object.fromEntries(Object.entries(outputs).map(([name, data]) => [name, data && Object.fromEntries(Object.keys(expected[name]).map((key) => [key, data[key]]))]));
		t.eq(`${label}: each node's data is the answer, read plainly`, picked, expected);
		t.check(
			`${label}: … every answer answeredIn "chat" by Sara, the execution on to the next node once`,
			done?.status === 'success' && Object.values(outputs).every((data) => data?.answeredIn === 'chat' && data?.sender_id === sara.user_id) && runs(done, AFTER) === 1,
			{ status: done?.status, outputs },
		);
		const shown = steps.map((step) => `${step.shown} — Sara Karimi`);
		const replies = await untilTold(
			() => botMessagesSince(chatId, asked[q.chain[0].name].message.message_id),
			(list) => shown.every((text) => list.some((m) => m.text === text)),
		);
		t.check(`${label}: … each outcome replied ("${shown.join('", "')}")`, shown.every((text) => replies.some((m) => m.text === text)), replies.map((m) => m.text));
		const gone = await untilTold(
			async () => (q.answerIn === 'chatKeypad' ? [(await admin.chat(chatId)).chat_keypad] : (await admin.messages(chatId)).filter((m) => Object.values(asked).some((a) => a.message.message_id === m.message_id)).map((m) => m.inline_keypad)),
			(keypads) => keypads.every(noButtons),
		);
		t.check(`${label}: … and the answer buttons are gone`, gone.every(noButtons), gone);
		onWorkers(label, done?.id ?? asked[q.chain[0].name].id, q.chain.length);
		return { done, asked };
	};

	await t.step('every kind of question on the chat keypad, one after another (Rubika Trigger by reading)', async () => {
		const keypadOnly = (buttonId, text) => admin.act('send-message', { userId: sara.user_id, chatId: chats.cont, text, buttonId });
		const handled = (await ended(contId)).length;
		await runChain('keypad chain', OTHERS.keypadChain, chats.cont, [
			{ type: 'Simple', answer: (question) => tap(question, question.buttons[1]), expect: { value: 'evening', label: 'عصر' }, shown: 'عصر' },
			{
				type: 'Textbox',
				answer: async (question) => {
					await admin.act('send-message', { userId: sara.user_id, chatId: chats.cont, text: 'a message while the chain waits' });
					await answerInput(question, { text: 'سارا کریمی' });
				},
				expect: { text: 'سارا کریمی' },
				shown: 'سارا کریمی',
			},
			{
				type: 'Calendar',
				answer: async (question) => {
					// A client that writes what it likes with the button's id: the node asks again, the question waits.
					await keypadOnly(question.buttons[0].id, 'next Friday');
					const again = await eventually(async () => (await botMessagesSince(chats.cont, question.message.message_id)).find((m) => m.text === AGAIN), { timeoutMs: 15_000 });
					t.check('an answer that is no date gets the Ask Again Reply; the question keeps waiting, its keypad stays', again && (await statusOf(question.id)) === 'waiting' && !noButtons((await admin.chat(chats.cont)).chat_keypad), again?.text);
					await answerInput(question, { date: '۱۳۷۵/۰۶/۳۱' });
				},
				expect: { date: '1996-09-21', calendar: 'persian', as_picked: '1375-06-31' },
				shown: '1375-06-31',
			},
			// Persian digits typed with the picker's id, as a client may send them.
			{ type: 'NumberPicker', answer: (question) => keypadOnly(question.buttons[0].id, '۱۲'), expect: { number: 12 }, shown: '12' },
			{ type: 'StringPicker', answer: (question) => answerInput(question, { item: 'Shiraz' }), expect: { value: 'Shiraz' }, shown: 'Shiraz' },
			{ type: 'AskMyPhoneNumber', answer: (question) => answerInput(question, { phoneNumber: '+989121234567' }), expect: { phone_number: '+989121234567' }, shown: '+989121234567' },
			{ type: 'Location', answer: (question) => answerInput(question, { location: { latitude: '35.6892', longitude: '51.3890' } }), expect: { latitude: 35.6892, longitude: 51.389 }, shown: '35.6892, 51.389' },
		]);
		const executions = await ended(contId, handled + 1);
		await sleep(SETTLE_MS);
		const earlier = new Set(['hello before the question', 'hello while it waits', 'hello after the answer']);
		const texts = (await ended(contId)).flatMap((e) => nodeItems(e, CONT_TRIGGER).map((item) => item.text)).filter((text) => !earlier.has(text));
		t.eq('the trigger by reading\'s workflow got the one message written meanwhile, and no answer', texts, ['a message while the chain waits']);
		t.note(`the trigger by reading's workflow: ${executions.length} executions in all`);
	});

	await t.step('every kind of question under the message, one after another (Rubika Trigger by webhook)', async () => {
		const knobs = await admin.config();
		let nameAnswer;
		const { asked } = await runChain('chain under the message', OTHERS.inlineChain, chats.hook, [
			{ type: 'Simple', answer: (question) => tap(question, question.buttons[2]), expect: { value: 'Night', label: 'Night' }, shown: 'Night' },
			{
				type: 'Textbox',
				answer: async (question) => {
					nameAnswer = await answerInput(question, { text: 'Sara\nKarimi' });
				},
				expect: { text: 'Sara\nKarimi' },
				shown: 'Sara\nKarimi',
			},
			// Arabic digits, as a phone set to Arabic may write them.
			{ type: 'Calendar', answer: (question) => answerInput(question, { date: '٢٠٠٠-٠٢-٢٩' }), expect: { date: '2000-02-29', calendar: 'gregorian', as_picked: '2000-02-29' }, shown: '2000-02-29' },
			{
				type: 'NumberPicker',
				answer: async (question) => {
					// Answers under a message that come as new messages (one way the libraries disagree on), the phone number as text.
					await admin.config({ inlineInputAnswers: 'newMessage', phoneAnswer: 'text' });
					const forged = { execution_id: question.id, decision: 'input', button_id: question.buttons[0].id, chat_id: chats.hook, message_id: question.message.message_id, sender_id: sara.user_id, at: Date.now(), content: { text: '20' } };
					const answered = await post(`${webhookBase}/webhook-waiting/${question.id}`, { rubikaChatAnswer: forged, mac: 'x'.repeat(43) });
					await sleep(SETTLE_MS);
					const next = (await admin.messages(chats.hook)).some((m) => m.text === 'Which city?' && BigInt(m.message_id) > BigInt(question.message.message_id));
					t.check('a hand-made answer posted to the resume address decides nothing (the question waits, no next question)', !answered.startsWith('HTTP 200') && (await statusOf(question.id)) === 'waiting' && !next, answered);
					await answerInput(question, { number: -3 });
				},
				expect: { number: -3 },
				shown: '-3',
			},
			{ type: 'StringPicker', answer: (question) => answerInput(question, { item: 'Tabriz' }), expect: { value: 'Tabriz' }, shown: 'Tabriz' },
			{
				type: 'AskMyPhoneNumber',
				answer: async (question) => {
					await answerInput(question, { phoneNumber: '+98 912 765 4321' });
					await admin.config({ inlineInputAnswers: knobs.inlineInputAnswers, phoneAnswer: knobs.phoneAnswer });
				},
				expect: { phone_number: '+989127654321' },
				shown: '+989127654321',
			},
			{ type: 'AskMyLocation', answer: (question) => answerInput(question, { location: { latitude: '-33.8688', longitude: '151.2093' } }), expect: { latitude: -33.8688, longitude: 151.2093 }, shown: '-33.8688, 151.2093' },
		]);
		// The Textbox answer, delivered again as Rubika delivered it: n8n has gone on, nothing more runs.
		const deliveries = await admin.settle();
		const delivery = deliveries.find((d) => d.kind === 'inline_message' && d.at >= nameAnswer && d.body.inline_message?.aux_data?.button_id === asked.Name.buttons[0].id);
		const again = delivery && (await post(delivery.url, delivery.body));
		await sleep(SETTLE_MS);
		const after = await execution(asked.Name.id);
		t.check('the Textbox answer\'s delivery posted again decides nothing (each node ran once)', delivery && OTHERS.inlineChain.chain.every(({ name }) => runs(after, name) === 1), { again, runs: OTHERS.inlineChain.chain.map(({ name }) => runs(after, name)) });
		t.note(`the Textbox answer delivered again: ${again}; n8n and the node: ${handOverLog(asked.Name.id).join(' | ') || '(nothing logged)'}`);
	});

	await t.step('two Number questions waiting in one chat', async () => {
		const first = await ask(OTHERS.inlineNumber, chats.hook, 'How many boxes?', 'NumberPicker');
		const second = await ask(OTHERS.inlineNumber, chats.hook, 'How many crates?', 'NumberPicker');
		const doneSecond = await decided('second of two Number questions', second, await answerInput(second, { number: 4 }));
		t.eq('the second question\'s answer goes to the second execution, and the first keeps waiting', [answer(doneSecond)?.number, await statusOf(first.id)], [4, 'waiting']);
		const doneFirst = await decided('first of two Number questions', first, await answerInput(first, { number: 9 }));
		t.eq('… then the first question\'s answer to the first', answer(doneFirst)?.number, 9);
	});

	await t.step('Choose One of Several with Restrict to User IDs in a group, and from another chat', async () => {
		const question = await ask(OTHERS.groupChoice, group.chat_id, 'When do we meet?', 'Simple');
		const sinceTap = question.message.message_id;
		await tap(question, question.buttons[0], sara);
		const refused = await eventually(async () => (await botMessagesSince(group.chat_id, sinceTap)).find((m) => m.text === UNAUTHORIZED), { timeoutMs: 15_000 });
		await sleep(SETTLE_MS);
		t.check('Sara (not allowed) picks a choice: the Unauthorized Reply, the execution waits', refused && (await statusOf(question.id)) === 'waiting', refused?.text);
		const before = await mark([group.chat_id, chats.rezaHook]);
		const answered = await post(hookUrl, inlineTap(question, question.buttons[1].id, { sender: reza.user_id, chatId: chats.rezaHook }));
		t.note(`the question's second choice tapped by Reza in his own chat with the bot: ${answered}`);
		await changedNothing('a choice of the group\'s question tapped in another chat', question, before);
		const done = await decided('group choice, the allowed person', question, await tap(question, question.buttons[1], reza));
		t.check('Reza (allowed) picks "عصر": the execution goes on with its value, sender Reza', done?.status === 'success' && answer(done)?.value === 'evening' && answer(done)?.sender_id === reza.user_id, answer(done));
	});

	// The Keypad Bot's trigger by reading has done its part. It stops reading now, so that whatever runs before
	// finish (the tests that follow in a shared world, the other queue-mode scenarios) sees no other reader of
	// getUpdates.
	await world.deactivate(contId).catch(() => {});

	/**
	 * The rest waits for n8n to go on with the question past its time limit, which n8n does when it next looks for
	 * expired waits (once a minute, and when it starts): the caller runs it last, after other work, and it removes
	 * the workflows and credentials.
	 */
	const finish = async () => {
		// --- a tap after Limit Wait Time ------------------------------------------------------------
		await t.step('a tap after Limit Wait Time', async () => {
			if (!late) return;
			const done = await finished(late.id);
			const askedAt = done?.data?.resultData?.runData?.Start?.[0]?.startTime;
			t.check('the question with a 2 s limit goes on by itself, with its input item (no data)', done?.status === 'success' && !('data' in (nodeItems(done, AFTER)[0] ?? { data: 1 })), done?.status);
			t.note(`it went on ${((Date.parse(done?.stoppedAt) - askedAt) / 1000).toFixed(1)} s after the question (n8n looks for expired waits once a minute and when it starts)`);
			onWorkers('the question past its time limit', late.id);
			const message = (await admin.messages(chats.hook)).find((m) => m.message_id === late.message.message_id);
			t.note(`its buttons ${noButtons(message?.inline_keypad) ? 'are gone' : 'stay in the chat'} after the time limit`);
			if (noButtons(message?.inline_keypad)) return;
			await tap(late, late.approve);
			await admin.settle();
			await sleep(SETTLE_MS);
			const after = await execution(late.id);
			t.check('a tap on them then decides nothing (one run of the node and of the next, the same end)', runs(after, ASK) === 1 && runs(after, AFTER) === 1 && after.stoppedAt === done.stoppedAt, { ask: runs(after, ASK), after: runs(after, AFTER) });
			t.note(`n8n's answer to the trigger: ${handOverLog(late.id).join(' | ') || '(nothing logged)'}`);
		});

		await t.step('an answer after Limit Wait Time (Free Text)', async () => {
			if (!lateText) return;
			const done = await finished(lateText.id);
			t.check('the Free Text question with a 2 s limit goes on by itself, without data', done?.status === 'success' && !('data' in (nodeItems(done, AFTER)[0] ?? { data: 1 })), done?.status);
			const message = (await admin.messages(chats.hook)).find((m) => m.message_id === lateText.message.message_id);
			if (noButtons(message?.inline_keypad)) return t.note('its Textbox is gone after the time limit');
			await answerInput(lateText, { text: 'sorry, late' });
			await admin.settle();
			await sleep(SETTLE_MS);
			const after = await execution(lateText.id);
			t.check('a text written in its Textbox then decides nothing (one run of the node and of the next, the same end)', runs(after, ASK) === 1 && runs(after, AFTER) === 1 && after.stoppedAt === done.stoppedAt, { ask: runs(after, ASK), after: runs(after, AFTER) });
			t.note(`n8n's answer to the trigger: ${handOverLog(lateText.id).join(' | ') || '(nothing logged)'}`);
		});

		await t.step('the trigger by webhook\'s own workflow', async () => {
			await admin.act('send-message', { userId: sara.user_id, chatId: chats.hook, text: 'a message, not a tap' });
			const executions = await ended(hookId, 1);
			await sleep(SETTLE_MS);
			const items = (await ended(hookId)).map((e) => nodeItems(e, HOOK_TRIGGER)[0]?.text);
			t.eq('after all the taps and answers (under the message and on the keypad), the trigger by webhook\'s workflow ran once: for the one message', items, ['a message, not a tap']);
			t.note(`(${executions.length} execution)`);
		});

		t.note(`tap → the next node running: ${latencies.join('; ')}`);

		for (const id of created.workflows) await world.deactivate(id).catch(() => {});
		// Later tests in a shared world (browser.mjs) must not see these credentials as the default for a new node.
		for (const id of created.credentials) await (await world.session()).request('DELETE', `/rest/credentials/${id}`).catch(() => {});
	};
	return { finish };
}

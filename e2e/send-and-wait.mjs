#!/usr/bin/env node
// Message → Send and Wait for Response in a real n8n, as the person who answers sees it: workflows started
// by n8n's Webhook node (published, called with fetch) send a question through the sandbox and wait; in
// headless Chromium (Debian's, playwright-core) the user opens the sandbox chat page, taps the message's
// link buttons (or text links), which open n8n's resume URL in a new tab; the execution's result is read
// back through n8n's public API.
//
// Checks: Approve / Decline (two link buttons) → data.approved; a second tap resumes nothing; Free Text
// (a Persian answer; an empty submit is refused and the execution keeps waiting); Custom Form (dropdown,
// number, checkbox arrive typed); Limit Wait Time (the execution goes on by itself with the input item);
// links as text; the fallback to text links when the service refuses link buttons (sandbox linkButtons:
// 'reject'); forged, edited, unsigned and foreign-signature links resume nothing; real phones' and
// desktops' User-Agents approve with one tap, link previews' and programs' do not and get a page with one
// button (test/fixtures/user-agents.json); a curl-like request does not approve; the AI-agent variant
// (…HitlTool) n8n derives from the node, with Answer In among its fields; and examples/approval-broadcast.json
// run as the editor runs it, approved and cancelled through the chat page.
//
// Screenshots (the chat page with the approval message, the confirmation page) go to docs/images/ with
// RUBIKA_SCREENSHOTS=1, otherwise into the work folder.
//
//   node e2e/send-and-wait.mjs [--version 2.8.4] [--no-build] [--keep]
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { BROWSER_UA, eventually, isMain, readJson, runStandalone } from './lib/reporter.mjs';
import { REPO_ROOT } from '../tooling/n8n.mjs';
import { linearWorkflow, node, noOp, rubika } from '../tooling/workflow-builder.mjs';
import { nodeItems, nodesRun } from '../tooling/world.mjs';

/** Real User-Agents of people's browsers and of programs (test/fixtures/user-agents.json). */
const USER_AGENTS = readJson(path.join(REPO_ROOT, 'test', 'fixtures', 'user-agents.json'));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const ASK = 'Ask';
const AFTER = 'After';
const EXAMPLE = 'approval-broadcast.json';
const ANSWER_TITLE = 'Thank you, your answer was received';
/** How long an execution may take to reach a state before the test gives up (a failure, not a bound). */
const DEADLINE_MS = 120_000;

/** The test's workflows: Webhook node (POST /webhook/<path>) → Rubika Send and Wait → No Op. */
const CASES = {
	approval: {
		id: 'sawApproval00001',
		ask: {
			responseType: 'approval',
			approvalOptions: { values: { approvalType: 'double', approveLabel: '✅ Approve', disapproveLabel: '❌ Decline' } },
			options: {},
		},
	},
	text: {
		id: 'sawTextLinks0001',
		ask: {
			responseType: 'approval',
			approvalOptions: { values: { approvalType: 'double', approveLabel: '✅ Approve', disapproveLabel: '❌ Decline' } },
			options: { linksAs: 'text' },
		},
	},
	freeText: {
		id: 'sawFreeText00001',
		ask: { responseType: 'freeText', options: { messageButtonLabel: '✍️ Answer' } },
	},
	form: {
		id: 'sawCustomForm001',
		ask: {
			responseType: 'customForm',
			defineForm: 'fields',
			formFields: {
				values: [
					{ fieldLabel: 'Full name', fieldType: 'text', requiredField: true },
					{ fieldLabel: 'Priority', fieldType: 'dropdown', fieldOptions: 'Low, Normal, High', requiredField: true },
					{ fieldLabel: 'Quantity', fieldType: 'number', requiredField: true },
					{ fieldLabel: 'Gift wrap', fieldType: 'checkbox' },
					{ fieldLabel: 'Note', fieldType: 'textarea', placeholder: 'Anything else?' },
				],
			},
			options: { formTitle: 'Your order', formButtonLabel: 'Send order' },
		},
	},
	timeout: {
		id: 'sawTimeout000001',
		ask: {
			responseType: 'approval',
			options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 3, resumeUnit: 'seconds' } } },
		},
	},
};

/** Fixed node ids, so the test knows the resume URLs' last path segment. */
const askNodeId = (index) => `5a9e0000-0000-4000-8000-0000000000${String(index).padStart(2, '0')}`;

function caseWorkflow(key, index, demo) {
	const c = CASES[key];
	const start = node(
		'Start',
		'n8n-nodes-base.webhook',
		{ httpMethod: 'POST', path: `saw-${key.toLowerCase()}`, responseMode: 'onReceived', options: {} },
		{ typeVersion: 2, webhookId: `5a9e0000-0000-4000-9000-0000000000${String(index).padStart(2, '0')}` },
	);
	const ask = rubika(ASK, {
		resource: 'message',
		operation: 'sendAndWait',
		chatId: '={{ $json.body.chatId }}',
		message: '={{ $json.body.text }}',
		...c.ask,
	});
	ask.id = askNodeId(index);
	ask.webhookId = `5a9e0000-0000-4000-a000-0000000000${String(index).padStart(2, '0')}`;
	return linearWorkflow(c.id, `e2e send and wait: ${key}`, [start, ask, noOp(AFTER)]);
}

export const test = {
	name: 'send-and-wait',
	workflows(demo) {
		return Object.keys(CASES).map((key, index) => caseWorkflow(key, index, demo));
	},
	async run(world, t) {
		const { admin, demo, ctx } = world;
		const sara = demo.users.sara;
		const keys = Object.keys(CASES);
		const nodeIdOf = (key) => askNodeId(keys.indexOf(key));
		await world.server();

		// --- the AI-agent variant ------------------------------------------------------------------
		await t.step('the Human review tool', async () => {
			const all = await (await world.session()).get('/types/nodes.json');
			const hitl = all.filter((type) => /^n8n-nodes-rubika\..*Hitl/i.test(type.name));
			t.eq('n8n derives "n8n-nodes-rubika.rubikaHitlTool" from the sendAndWait operation (/types/nodes.json)', hitl.map((type) => type.name), ['n8n-nodes-rubika.rubikaHitlTool']);
			const tool = hitl[0];
			const fixed = Object.fromEntries((tool?.properties ?? []).filter((p) => p.type === 'hidden').map((p) => [p.name, p.default]));
			const visible = (tool?.properties ?? []).filter((p) => p.type !== 'hidden').map((p) => p.name);
			t.check(
				'… an AI tool ("Tool" in, "Human review" out to an AI Agent) fixed to Message → Send and Wait, Approval, with Chat ID',
				tool?.inputs?.[0]?.displayName === 'Tool' && tool?.outputs?.[0]?.displayName === 'Human review' &&
					fixed.resource === 'message' && fixed.operation === 'sendAndWait' && fixed.responseType === 'approval' && visible.includes('chatId') && visible.includes('message'),
				{ displayName: tool?.displayName, inputs: tool?.inputs, outputs: tool?.outputs, fixed, visible },
			);
			// So an AI Agent's human review can be answered in the chat too (nodes/Rubika/waiting/chatAnswer.ts).
			const answerIn = tool?.properties?.find((p) => p.name === 'answerIn');
			t.check(
				'… whose visible fields include Answer In (Web Page, Chat: Buttons Under the Message, Chat: Keypad Buttons; default Web Page)',
				visible.includes('answerIn') && answerIn?.default === 'webPage' &&
					isDeepStrictEqual(answerIn?.options?.map((o) => o.value).sort(), ['chatKeypad', 'inlineButtons', 'webPage']),
				{ visible, answerIn: answerIn && { default: answerIn.default, options: answerIn.options?.map((o) => o.value), displayOptions: answerIn.displayOptions } },
			);
			t.note(`Human review tool: "${tool?.displayName}", "${tool?.description}", subtitle "${tool?.subtitle}"`);
		});

		for (const key of keys) await world.activate(CASES[key].id);
		for (const key of keys) await world.waitForWebhook(`saw-${key.toLowerCase()}`);

		/** Execution ids already handed out, so each start finds its own. */
		const seen = new Set();
		const highestExecutionId = async () => {
			const newest = (await world.publicApi('/executions?limit=1')).data ?? [];
			return Math.max(0, ...[...seen, ...newest.map((e) => e.id)].map(Number));
		};
		let nonce = 0;
		/**
		 * Starts a case's workflow through its Webhook node (its body carries a unique tag); resolves the
		 * waiting execution's id and the message the bot sent.
		 */
		const start = async (key, text, { chatId = sara.chat_id, waiting = true } = {}) => {
			const tag = `${world.version}#${++nonce}`;
			const before = new Set((await admin.messages(chatId)).map((m) => m.message_id));
			const base = await highestExecutionId();
			const res = await fetch(`${ctx.baseUrl}/webhook/saw-${key.toLowerCase()}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ chatId, text, tag }),
			});
			await res.text();
			if (res.status !== 200) throw new Error(`POST /webhook/saw-${key} answered ${res.status}`);
			// n8n 2.8.4's public list leaves out executions it still holds as active, waiting ones included:
			// the new execution is looked up by id (SQLite numbers them 1, 2, 3…) after the newest one known.
			const id = await eventually(
				async () => {
					for (let n = base + 1; n <= base + 50; n++) {
						const e = await world.publicApi(`/executions/${n}`).catch(() => undefined);
						if (!e) return undefined;
						if (e.workflowId === CASES[key].id && !seen.has(String(e.id)) && (!waiting || e.status === 'waiting')) return String(e.id);
					}
					return undefined;
				},
				{ timeoutMs: DEADLINE_MS, intervalMs: 200 },
			);
			if (!id) throw new Error(`no new ${waiting ? 'waiting ' : ''}execution of ${key}`);
			seen.add(id);
			// One question at a time per chat: the bot's one new message there.
			const message = await eventually(async () => (await admin.messages(chatId)).find((m) => m.sender_type === 'Bot' && !before.has(m.message_id) && m.text?.startsWith(text)), { timeoutMs: 30_000 });
			if (!message) throw new Error(`the bot's message "${text}" did not arrive`);
			return { id, message, tag };
		};
		const execution = (id) => world.publicApi(`/executions/${id}?includeData=true`);
		const finished = (id) => world.finished(id, { timeoutMs: DEADLINE_MS });
		const statusOf = async (id) => (await execution(id)).status;
		const answer = (e, nodeName = ASK) => nodeItems(e, nodeName)[0]?.data;

		// The timeout case first: it waits by itself while the rest runs. n8n goes on with it when it next looks
		// for expired waits (once a minute, and when it starts): it is checked last (finishLater), after the tests
		// that follow in a shared world, with the workflows' deactivation.
		const timeoutCase = await t.step('Limit Wait Time: start', async () => {
			const started = await start('timeout', 'Approve within 3 seconds?', { chatId: demo.users.ali.chat_id });
			return started;
		});
		const checkTimeout = async (timeoutCase) => {
			const done = await finished(timeoutCase.id);
			t.eq('Limit Wait Time (3 s): the execution finishes by itself with success', done?.status, 'success');
			// n8n looks for executions to resume once a minute (its WaitTracker) and when it starts: up to about a minute late.
			const askedAt = done?.data?.resultData?.runData?.Start?.[0]?.startTime;
			t.note(`went on ${((Date.parse(done?.stoppedAt) - (askedAt ?? NaN)) / 1000).toFixed(1)} s after the question was sent (limit 3 s)`);
			const [item] = nodeItems(done, AFTER);
			t.check("… and the next node gets the node's input item unchanged (the webhook's body, no data field)", item?.body?.tag === timeoutCase.tag && !('data' in item), item);
		};
		t.finishLater('Limit Wait Time', async () => {
			try {
				if (timeoutCase) await checkTimeout(timeoutCase);
			} finally {
				for (const key of keys) await world.deactivate(CASES[key].id).catch(() => {});
			}
		});

		const { CHROMIUM_ARGS, findChromium, noteScreenshot, openBrowser } = await import('./lib/browser.mjs');
		const chromium = findChromium();
		if (!t.check('Chromium is there (scripts/ensure-browser.mjs)', chromium.path, chromium.path ?? chromium.reason)) return;
		const browser = await openBrowser({ executablePath: chromium.path, ignoreFailedRequests: () => true });
		t.note(`Chromium ${chromium.path}, flags ${CHROMIUM_ARGS.join(' ')}`);
		const chat = await browser.newPage({ width: 1000, height: 760 });
		/** Clicks a link on the chat page; resolves the new tab once loaded. */
		const openInNewTab = async (link) => {
			const [tab] = await Promise.all([browser.context.waitForEvent('page'), link.click()]);
			await tab.waitForLoadState();
			return tab;
		};
		const heading = async (tab) => (await tab.locator('h1').first().innerText()).trim();
		try {
			await chat.goto(`${world.sandbox.url}/?user=${sara.user_id}&chat=${sara.chat_id}`);
			await chat.locator('#live-status[data-state="live"]').waitFor();
			await chat.locator(`.chat-item[aria-current="true"][data-chat-id="${sara.chat_id}"]`).waitFor();

			// --- approval: Approve, a second tap, then Decline ----------------------------------------
			await t.step('approval with two link buttons', async () => {
				const { id, message } = await start('approval', 'Publish the new price list? 12 prices change, the largest by 8 %.');
				t.eq('approval: the execution waits', await statusOf(id), 'waiting');
				const item = chat.locator(`#message-${message.message_id}`);
				const approve = item.getByRole('link', { name: '✅ Approve' });
				const decline = item.getByRole('link', { name: '❌ Decline' });
				await approve.waitFor();
				const resume = `${ctx.baseUrl}/webhook-waiting/${id}/${nodeIdOf('approval')}`;
				const [approveHref, declineHref] = [await approve.getAttribute('href'), await decline.getAttribute('href')];
				t.check(
					"approval: the chat page shows the message with two link buttons opening n8n's signed resume URL",
					approveHref?.startsWith(`${resume}?`) && /[?&]approved=true(&|$)/.test(approveHref) && /[?&]signature=/.test(approveHref) &&
						declineHref?.startsWith(`${resume}?`) && /[?&]approved=false(&|$)/.test(declineHref) && (await approve.getAttribute('target')) === '_blank',
					{ approveHref, declineHref },
				);
				await chat.mouse.move(0, 0);
				await noteScreenshot(t, world, chat, 'send-and-wait-chat.png');

				const tab = await openInNewTab(approve);
				t.check('approval: tapping Approve opens the resume URL in a new tab', tab.url() === approveHref, tab.url());
				t.eq('… which shows the confirmation page', await heading(tab), ANSWER_TITLE);
				await tab.setViewportSize({ width: 720, height: 300 });
				await noteScreenshot(t, world, tab, 'send-and-wait-answer.png');
				await tab.close();
				const done = await finished(id);
				t.eq('approval: the execution finishes with success', done?.status, 'success');
				const data = answer(done);
				t.check('… and the node outputs data.approved === true with respondedAt', data?.approved === true && !Number.isNaN(Date.parse(data?.respondedAt)), data);
				t.eq('… which the next node receives', nodeItems(done, AFTER)[0]?.data?.approved, true);

				// A second tap on the used link.
				const before = (await world.publicApi(`/executions?workflowId=${CASES.approval.id}&limit=50`)).data.length;
				const again = await openInNewTab(approve);
				const againText = (await again.locator('body').innerText()).trim().replace(/\s+/g, ' ');
				await again.close();
				const probe = await fetch(approveHref, { headers: { 'user-agent': BROWSER_UA } });
				const probeBody = await probe.text();
				t.note(`a second tap: n8n answers HTTP ${probe.status} "${againText.slice(0, 160)}"`);
				t.check('a second tap shows no confirmation again', !againText.includes(ANSWER_TITLE) && probe.status < 500, { status: probe.status, againText, probeBody: probeBody.slice(0, 300) });
				await sleep(1000);
				const after = await execution(id);
				const list = (await world.publicApi(`/executions?workflowId=${CASES.approval.id}&limit=50`)).data;
				t.check(
					'… and resumes nothing twice: still one execution, one run of the node and of the next',
					list.length === before && after.data.resultData.runData[ASK].length === 1 && after.data.resultData.runData[AFTER].length === 1 && after.stoppedAt === done.stoppedAt,
					{ executions: list.length, before, askRuns: after.data.resultData.runData[ASK]?.length, afterRuns: after.data.resultData.runData[AFTER]?.length },
				);

				// Decline, on a new question.
				const second = await start('approval', 'Delete last month\'s drafts?');
				const declineLink = chat.locator(`#message-${second.message.message_id}`).getByRole('link', { name: '❌ Decline' });
				await declineLink.waitFor();
				const declined = await openInNewTab(declineLink);
				t.eq('decline: tapping Decline shows the confirmation page', await heading(declined), ANSWER_TITLE);
				await declined.close();
				const done2 = await finished(second.id);
				t.check('decline: the execution finishes with success and data.approved === false', done2?.status === 'success' && answer(done2)?.approved === false, { status: done2?.status, data: answer(done2) });
			});

			// --- free text ----------------------------------------------------------------------------
			await t.step('free text', async () => {
				const { id, message } = await start('freeText', 'When can you come to the office?');
				const link = chat.locator(`#message-${message.message_id}`).getByRole('link', { name: '✍️ Answer' });
				await link.waitFor();
				const tab = await openInNewTab(link);
				const box = tab.getByLabel('Response');
				t.check('free text: the link opens the form page (title, a required text box)', (await heading(tab)) === 'Your answer' && (await box.getAttribute('required')) !== null, await heading(tab));

				// Empty: the browser refuses to send it; sent anyway (no validation), n8n's page refuses it.
				await tab.getByRole('button', { name: 'Submit' }).click();
				t.check('free text: with the box empty the browser does not send the form', (await box.evaluate((el) => el.validity.valueMissing)) && (await heading(tab)) === 'Your answer');
				await tab.locator('form').evaluate((form) => (form.noValidate = true));
				const [refused] = await Promise.all([tab.waitForResponse((r) => r.request().method() === 'POST'), tab.getByRole('button', { name: 'Submit' }).click()]);
				await tab.waitForLoadState();
				const problem = (await tab.getByRole('alert').innerText().catch(() => '')).trim();
				t.check('free text: sent empty anyway, the form comes back with the problem (HTTP 400)', refused.status() === 400 && problem === 'Response is required', { status: refused.status(), problem });
				await sleep(1000);
				t.eq('… and the execution keeps waiting', await statusOf(id), 'waiting');

				const persian = 'فردا ساعت ۱۰ صبح می‌آیم، ممنون!';
				await tab.getByLabel('Response').fill(persian);
				const [accepted] = await Promise.all([tab.waitForResponse((r) => r.request().method() === 'POST'), tab.getByRole('button', { name: 'Submit' }).click()]);
				await tab.waitForLoadState();
				t.check('free text: a Persian answer submitted shows the confirmation page', accepted.status() === 200 && (await heading(tab)) === ANSWER_TITLE, accepted.status());
				await tab.close();
				const done = await finished(id);
				t.check('free text: the execution finishes with success and data.text equals the answer', done?.status === 'success' && answer(done)?.text === persian, { status: done?.status, data: answer(done) });
			});

			// --- custom form --------------------------------------------------------------------------
			await t.step('custom form', async () => {
				const { id, message } = await start('form', 'Please confirm your order');
				const link = chat.locator(`#message-${message.message_id}`).getByRole('link', { name: 'Respond' });
				await link.waitFor();
				const tab = await openInNewTab(link);
				t.eq('custom form: the link opens the form with its title', await heading(tab), 'Your order');
				t.eq('… and its dropdown offers the choices', await tab.getByLabel('Priority').locator('option').allInnerTexts(), ['', 'Low', 'Normal', 'High']);
				await tab.getByLabel('Full name').fill('سارا کریمی');
				await tab.getByLabel('Priority').selectOption('High');
				await tab.getByLabel('Quantity').fill('3');
				await tab.getByLabel('Gift wrap').check();
				const [accepted] = await Promise.all([tab.waitForResponse((r) => r.request().method() === 'POST'), tab.getByRole('button', { name: 'Send order' }).click()]);
				await tab.waitForLoadState();
				const refusal = accepted.status() === 200 ? '' : (await tab.locator('body').innerText()).trim().slice(0, 300);
				const ok = t.check('custom form: submitting shows the confirmation page', accepted.status() === 200 && (await heading(tab)) === ANSWER_TITLE, { status: accepted.status(), contentType: accepted.request().headers()['content-type'], refusal });
				await tab.close();
				if (!ok) {
					t.note(`custom form: the refused submit left the execution ${await statusOf(id)}`);
					return;
				}
				const done = await finished(id);
				const data = answer(done) ?? {};
				const { respondedAt, ...values } = data;
				t.eq('custom form: the execution finishes with success', done?.status, 'success');
				t.eq('… with the values typed (number, boolean) and named by label', values, { 'Full name': 'سارا کریمی', Priority: 'High', Quantity: 3, 'Gift wrap': true, Note: '' });
				t.check('… and respondedAt', !Number.isNaN(Date.parse(respondedAt)), respondedAt);
			});

			// --- links as text --------------------------------------------------------------------------
			await t.step('links as text', async () => {
				const { id, message } = await start('text', 'Renew the domain for a year?');
				const parts = message.metadata?.meta_data_parts ?? [];
				t.check(
					"links as text: the message has no keypad; its text ends with the labels, each a Link part to the resume URL",
					!message.inline_keypad && message.text.endsWith('\n\n✅ Approve\n❌ Decline') && parts.length === 2 &&
						parts.every((p) => p.type === 'Link' && p.link_url.startsWith(`${ctx.baseUrl}/webhook-waiting/${id}/`)),
					message,
				);
				const link = chat.locator(`#message-${message.message_id} .text`).getByRole('link', { name: '✅ Approve' });
				await link.waitFor();
				const tab = await openInNewTab(link);
				t.eq('links as text: the chat page renders them as links; opening Approve shows the confirmation', await heading(tab), ANSWER_TITLE);
				await tab.close();
				const done = await finished(id);
				t.check('… and the execution finishes with data.approved === true', done?.status === 'success' && answer(done)?.approved === true, { status: done?.status, data: answer(done) });
			});

			// --- the fallback when link buttons are refused ------------------------------------------
			await t.step('fallback to text links', async () => {
				const lastSeq = (await admin.requests('sendMessage')).at(-1)?.seq ?? 0;
				await admin.config({ linkButtons: 'reject' });
				let started;
				try {
					started = await start('approval', 'Approve the refund of order 1042?');
				} finally {
					await admin.config({ linkButtons: 'accept' });
				}
				t.eq('fallback: the sandbox config is restored', (await admin.config()).linkButtons, 'accept');
				const sends = (await admin.requests('sendMessage')).filter((r) => r.seq > lastSeq);
				t.check(
					'fallback: the first send (link buttons) is refused with INVALID_INPUT, the second (text links) is accepted',
					sends.length === 2 && sends[0].status === 'INVALID_INPUT' && !!sends[0].body.inline_keypad && sends[1].status === 'OK' && !sends[1].body.inline_keypad,
					sends.map((s) => ({ status: s.status, keypad: !!s.body.inline_keypad })),
				);
				const { id, message } = started;
				t.check('fallback: the message carries the links in its text', !message.inline_keypad && (message.metadata?.meta_data_parts ?? []).filter((p) => p.type === 'Link').length === 2, message);
				const link = chat.locator(`#message-${message.message_id} .text`).getByRole('link', { name: '✅ Approve' });
				await link.waitFor();
				const tab = await openInNewTab(link);
				t.eq('fallback: opening its Approve link shows the confirmation', await heading(tab), ANSWER_TITLE);
				await tab.close();
				const done = await finished(id);
				t.check('… and the execution finishes with data.approved === true', done?.status === 'success' && answer(done)?.approved === true, { status: done?.status, data: answer(done) });
			});

			// --- forged links decide nothing (n8n 2.8.4 checks signatures only when the node asks) ------
			await t.step('forged, edited, unsigned and foreign-signature links', async () => {
				const a = await start('approval', 'Pay invoice 7731 (forgery check)?');
				const b = await start('approval', 'Pay invoice 7732 (forgery check)?');
				const linkOf = (message, index) => new URL(message.inline_keypad.rows[0].buttons[index].button_link.link_url);
				const approveA = linkOf(a.message, 0);
				const signature = approveA.searchParams.get('signature');
				const variant = (edit) => {
					const url = new URL(approveA);
					edit(url.searchParams);
					return url.href;
				};
				const forgeries = {
					'one signature character changed': variant((q) => q.set('signature', signature.slice(0, -1) + (signature.endsWith('a') ? 'b' : 'a'))),
					'approved=true edited to approved=false': variant((q) => q.set('approved', 'false')),
					'no signature': variant((q) => q.delete('signature')),
					"another execution's signature": variant((q) => q.set('signature', linkOf(b.message, 0).searchParams.get('signature'))),
				};
				const answers = {};
				for (const [name, url] of Object.entries(forgeries)) {
					const res = await fetch(url, { headers: { 'user-agent': USER_AGENTS.people['Chrome on Windows'] } });
					answers[name] = { status: res.status, confirmed: (await res.text()).includes(ANSWER_TITLE) };
				}
				const posted = await fetch(forgeries['no signature'], { method: 'POST', body: new FormData(), headers: { 'user-agent': USER_AGENTS.people['Chrome on Windows'] } });
				answers['no signature, posted'] = { status: posted.status, confirmed: (await posted.text()).includes(ANSWER_TITLE) };
				t.note(`forged links: ${Object.entries(answers).map(([name, r]) => `${name} → HTTP ${r.status}`).join('; ')}`);
				await sleep(1500);
				t.check(
					'forged links: none is answered with the confirmation page or HTTP 200',
					Object.values(answers).every((r) => !r.confirmed && r.status !== 200),
					answers,
				);
				t.eq('… and both executions still wait', [await statusOf(a.id), await statusOf(b.id)], ['waiting', 'waiting']);
				const real = await fetch(approveA.href, { headers: { 'user-agent': USER_AGENTS.people['Chrome on a CUBOT phone (Android 11)'] } });
				t.check('the real Approve link, opened on a CUBOT phone, shows the confirmation', (await real.text()).includes(ANSWER_TITLE), real.status);
				const doneA = await finished(a.id);
				t.check('… and resumes that execution, approved', doneA?.status === 'success' && answer(doneA)?.approved === true, { status: doneA?.status, data: answer(doneA) });
				const declineB = await fetch(linkOf(b.message, 1).href, { headers: { 'user-agent': USER_AGENTS.people['Safari on an iPhone (iOS 17)'] } });
				await declineB.text();
				const doneB = await finished(b.id);
				t.check('the other execution is declined by its own Decline link (iPhone)', doneB?.status === 'success' && answer(doneB)?.approved === false, { status: doneB?.status, data: answer(doneB) });
			});

			// --- who may answer: people's browsers, not previews or programs ---------------------------
			await t.step('User-Agents of phones, tablets, desktops, link previews and programs', async () => {
				const waiting = await start('approval', 'Order 88 more chairs (User-Agent check)?');
				const approveUrl = waiting.message.inline_keypad.rows[0].buttons[0].button_link.link_url;
				const letThrough = [];
				for (const [name, agent] of Object.entries(USER_AGENTS.programs)) {
					const res = await fetch(approveUrl, { headers: agent ? { 'user-agent': agent } : {} });
					if ((await res.text()).includes(ANSWER_TITLE)) letThrough.push(name);
				}
				await sleep(1000);
				t.check(`${Object.keys(USER_AGENTS.programs).length} link previews, crawlers and programs (several calling themselves Mozilla) decide nothing`, letThrough.length === 0 && (await statusOf(waiting.id)) === 'waiting', letThrough);
				const page = await fetch(approveUrl, { headers: { 'user-agent': USER_AGENTS.programs['VK link preview'] } });
				const html = await page.text();
				t.check('… they get a page with one button, labelled as the link', html.includes('<button type="submit">✅ Approve</button>') && html.includes('method="post"'), html.slice(0, 400));
				const tapped = await fetch(approveUrl, { method: 'POST', body: new FormData(), headers: { 'user-agent': USER_AGENTS.programs['VK link preview'] } });
				t.check('… whose tap (a POST to the same signed address) answers', (await tapped.text()).includes(ANSWER_TITLE), tapped.status);
				const done = await finished(waiting.id);
				t.check('… approved', done?.status === 'success' && answer(done)?.approved === true, { status: done?.status, data: answer(done) });

				const refused = [];
				for (const [name, agent] of Object.entries(USER_AGENTS.people)) {
					const asked = await start('approval', `Approve from ${name}?`);
					const res = await fetch(asked.message.inline_keypad.rows[0].buttons[0].button_link.link_url, { headers: { 'user-agent': agent } });
					const confirmed = (await res.text()).includes(ANSWER_TITLE);
					const result = await finished(asked.id);
					if (!confirmed || result?.status !== 'success' || answer(result)?.approved !== true) refused.push(name);
				}
				t.check(`${Object.keys(USER_AGENTS.people).length} browsers on Android and iOS phones (CUBOT, Samsung, Pixel, Xiaomi, Huawei, OPPO, Nokia, iPhone), an iPad and desktops approve with one tap`, refused.length === 0, refused);
			});

			// --- requests that are no person's browser ------------------------------------------------
			await t.step('a curl-like request', async () => {
				const { id, message } = await start('approval', 'Restart the payment service?');
				const tap = await admin.act('tap-link-button', { userId: sara.user_id, chatId: sara.chat_id, messageId: message.message_id, buttonId: 'approve' });
				t.check("the sandbox's tap-link-button reports the Approve URL", tap?.type === 'url' && tap.url === message.inline_keypad.rows[0].buttons[0].button_link.link_url, tap);
				const res = await fetch(tap.url, { headers: { 'user-agent': 'curl/8.5.0', accept: '*/*' } });
				const body = await res.text();
				t.note(`curl-like request: HTTP ${res.status}, ${body.includes(ANSWER_TITLE) ? 'the confirmation page' : 'not the confirmation page'}`);
				await sleep(1500);
				t.eq('a fetch of the Approve URL with a curl User-Agent does not resume the execution', await statusOf(id), 'waiting');
				t.check('… nor tells curl that an answer was received', !body.includes(ANSWER_TITLE), body.slice(0, 400));

				// The person then approves in the browser.
				const tab = await browser.newPage();
				await tab.goto(tap.url);
				t.eq('… the person opening it afterwards approves', await heading(tab), ANSWER_TITLE);
				await tab.close();
				const done = await finished(id);
				t.check('… once: data.approved === true', done?.status === 'success' && answer(done)?.approved === true, { status: done?.status, data: answer(done) });
			});

			// Node's own fetch (User-Agent "node"): a program that does not name itself a bot decides nothing either.
			await t.step('a fetch with Node\'s default User-Agent', async () => {
				const { id, message } = await start('approval', 'Rotate the API keys?');
				const url = message.inline_keypad.rows[0].buttons[0].button_link.link_url;
				const plain = await fetch(url);
				const body = await plain.text();
				await sleep(1500);
				t.eq('a fetch of the Approve URL with Node\'s User-Agent ("node") does not resume the execution', await statusOf(id), 'waiting');
				t.check('… nor tells it that an answer was received', !body.includes(ANSWER_TITLE), body.slice(0, 400));
			});

			// --- examples/approval-broadcast.json, run as the editor's "Execute workflow" runs it --------
			await t.step(EXAMPLE, () => runExample(world, t, { chat, openInNewTab, heading, finished, answer, seen }));
		} finally {
			await chat.close().catch(() => {});
			await browser.close();
		}

	},
};

/**
 * examples/approval-broadcast.json: "Execute workflow" in the editor (POST /rest/workflows/:id/run from
 * the Manual Trigger), the admin (Sara) approves on the chat page → Reza and Ali get the announcement; run
 * again and cancelled → the admin is told, nobody else gets anything.
 */
async function runExample(world, t, { chat, openInNewTab, heading, finished, answer }) {
	const { admin, demo } = world;
	const { sara, reza, ali } = demo.users;
	const workflow = world.example(EXAMPLE);
	const s = await world.session();
	const workflowData = await s.get(`/rest/workflows/${workflow.id}`);
	const run = () => s.post(`/rest/workflows/${workflow.id}/run`, { workflowData, triggerToStartFrom: { name: 'Run it' } });
	const question = async (since) =>
		await eventually(async () => (await admin.messages(sara.chat_id)).find((m) => m.sender_type === 'Bot' && !since.has(m.message_id) && m.text?.startsWith('Broadcast this announcement to 2 users?')), { timeoutMs: 30_000 });
	const ids = async (chatId) => new Set((await admin.messages(chatId)).map((m) => m.message_id));

	// Approved.
	const [saraBefore, rezaBefore, aliBefore] = [await ids(sara.chat_id), await ids(reza.chat_id), await ids(ali.chat_id)];
	const started = await run();
	if (!t.check(`${EXAMPLE}: "Execute workflow" starts it (an execution id)`, typeof started?.executionId === 'string', started)) return;
	const asked = await question(saraBefore);
	if (!t.check(`${EXAMPLE}: the admin gets the question with the announcement`, asked?.text?.includes('The new menu is live'), asked)) return;
	const waiting = await world.publicApi(`/executions/${started.executionId}`);
	t.eq(`${EXAMPLE}: the execution waits`, waiting?.status, 'waiting');
	const item = chat.locator(`#message-${asked.message_id}`);
	t.eq(`${EXAMPLE}: the chat page shows ✅ Broadcast and ❌ Cancel`, await item.getByRole('link').allInnerTexts().then((l) => l.map((x) => x.replace('↗', '').trim())), ['✅ Broadcast', '❌ Cancel']);
	const tab = await openInNewTab(item.getByRole('link', { name: '✅ Broadcast' }));
	t.eq(`${EXAMPLE}: ✅ Broadcast shows the confirmation page`, await heading(tab), ANSWER_TITLE);
	await tab.close();
	const done = await finished(started.executionId);
	t.check(`${EXAMPLE}: the execution finishes with success, approved`, done?.status === 'success' && answer(done, 'Ask the admin')?.approved === true, { status: done?.status, data: answer(done, 'Ask the admin') });
	t.eq(`${EXAMPLE}: the approved branch ran`, nodesRun(done).filter((n) => ['One item per chat', 'Send the announcement', 'Tell the admin'].includes(n)).sort(), ['One item per chat', 'Send the announcement']);
	const got = async (chatId, before) => (await admin.messages(chatId)).filter((m) => !before.has(m.message_id) && m.sender_type === 'Bot').map((m) => m.text);
	t.eq(`${EXAMPLE}: Reza and Ali got the announcement`, [await got(reza.chat_id, rezaBefore), await got(ali.chat_id, aliBefore)], [
		['Hello Reza! 📣 The new menu is live: send /start to the bot to see it.'],
		['Hello Ali! 📣 The new menu is live: send /start to the bot to see it.'],
	]);

	// Cancelled.
	const [saraBefore2, rezaBefore2, aliBefore2] = [await ids(sara.chat_id), await ids(reza.chat_id), await ids(ali.chat_id)];
	const second = await run();
	const asked2 = await question(saraBefore2);
	const item2 = chat.locator(`#message-${asked2?.message_id}`);
	const tab2 = await openInNewTab(item2.getByRole('link', { name: '❌ Cancel' }));
	await tab2.close();
	const done2 = await finished(second?.executionId);
	t.check(`${EXAMPLE}: cancelled, the execution finishes with success, not approved`, done2?.status === 'success' && answer(done2, 'Ask the admin')?.approved === false, { status: done2?.status, data: answer(done2, 'Ask the admin') });
	const told = await eventually(async () => (await got(sara.chat_id, saraBefore2)).find((text) => text.startsWith('Not sent')));
	t.eq(`${EXAMPLE}: the admin is told, nobody else gets anything`, [told, await got(reza.chat_id, rezaBefore2), await got(ali.chat_id, aliBefore2)], ['Not sent: you cancelled the broadcast.', [], []]);
}

if (isMain(import.meta.url)) await runStandalone(test);

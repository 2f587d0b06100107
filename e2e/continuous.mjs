#!/usr/bin/env node
// Rubika Trigger receiving by reading (Receive Updates: By Reading, the default; it reads getUpdates in a loop)
// in a real `n8n start`, as a user sees it: a message sent on the sandbox starts its own execution within
// seconds (the delay is printed, not bounded); filters start nothing for what they drop; Download Files puts a
// message's file into binary data; a burst gives one execution per message, each once;
// a graceful restart (messages sent while n8n is down; n8n starts while Rubika refuses the token: a failed
// execution and the Error Workflow say so, the workflow stays published and reads everything once the token
// is accepted again) and a SIGKILL lose and repeat nothing;
// deactivation ends every getUpdates request; "Listen for test event" (n8n's POST /rest/workflows/:id/run
// with the trigger to start from) gets the message sent while listening, and stops reading afterwards,
// also when the user stops listening without a message. Add Sender Details (on in the filters workflow and the
// listening one) gives a group member's names (getChatMember) and a private chat's person's (getChat).
// Beside the burst, downloads.mjs checks that a file too big or failing to download holds nothing up (By Reading
// and By Webhook).
//
//   node e2e/continuous.mjs [--version 2.8.4] [--no-build] [--keep]
import { isMain, runStandalone } from './lib/reporter.mjs';
import { linearWorkflow, node, noOp, readingTrigger } from '../tooling/workflow-builder.mjs';
import { listExecutions, nodeFullItems } from '../tooling/world.mjs';
import { downloadsWorkflow, startDownloads } from './downloads.mjs';

const ID = 'e2eContinuous001'; // defaults + a Text Pattern; its Error Workflow is ERROR_ID
const ERROR_ID = 'e2eContErrorWf01'; // Error Trigger → No Op: what n8n runs when ID fails
const FILTERS_ID = 'e2eContFilters01'; // chat, sender and command filters; Add Sender Details, Download Files
const LISTEN_ID = 'e2eContListen001'; // never published: "Listen for test event"; Add Sender Details
const TRIGGER = 'Rubika Trigger';
/** Generous: a message that has not started its execution by then is lost. Not a performance bound. */
const ARRIVAL_DEADLINE_MS = 30_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Every execution of a workflow, finished or not, oldest first. */
const listAll = async (world, id) => await listExecutions(world.publicApi, id, { includeData: false });
/** The workflow with its settings' Error Workflow set. */
const withErrorWorkflow = (workflow, errorWorkflowId) => ({ ...workflow, settings: { ...workflow.settings, errorWorkflow: errorWorkflowId } });

const trigger = (parameters) => readingTrigger(TRIGGER, parameters);

export const test = {
	name: 'continuous',
	workflows(demo) {
		return [
			// Defaults but for a Text Pattern: other tests talk to the same bot.
			withErrorWorkflow(linearWorkflow(ID, 'E2E: continuous trigger', [trigger({ filters: { textPattern: '^e2e-cont ' } }), noOp('Received')]), ERROR_ID),
			linearWorkflow(ERROR_ID, 'E2E: continuous trigger, error workflow', [node('Error Trigger', 'n8n-nodes-base.errorTrigger'), noOp('Told')]),
			linearWorkflow(FILTERS_ID, 'E2E: continuous trigger, filters', [
				trigger({
					// Nothing older matches these filters, so Process Backlog is safe and leaves no start-up race.
					firstActivation: 'processBacklog',
					filters: { chatIds: demo.groupId ?? '', senderIds: demo.users?.sara?.user_id ?? '', onlyCommands: true, commands: '/e2econt' },
					options: { addSenderDetails: true, downloadFiles: true },
				}),
				noOp('Received'),
			]),
			linearWorkflow(LISTEN_ID, 'E2E: continuous trigger, test event', [
				trigger({ filters: { textPattern: '^e2e-listen ' }, options: { addSenderDetails: true } }),
				noOp('Received'),
			]),
			downloadsWorkflow(),
		];
	},

	async run(world, t) {
		const { admin, demo } = world;
		const { sara, reza, ali } = demo.users;
		const sent = new Map(); // text -> { message_id, chat_id, sender_id, at }
		const say = async (user, text, chatId = user.chat_id, extra = {}) => {
			const at = Date.now();
			const m = await admin.act('send-message', { userId: user.user_id, chatId, text, ...extra });
			sent.set(text, { message_id: m.message_id, chat_id: chatId, sender_id: user.user_id, at });
			return m;
		};
		/** Every item a workflow's trigger emitted so far, in execution order (by execution id). */
		const received = async (id = ID) => {
			const executions = (await world.executions(id)).sort((a, b) => Number(a.id) - Number(b.id));
			return executions.flatMap((e) => nodeFullItems(e, TRIGGER).map((item) => ({ ...item, execution: e })));
		};
		const texts = (items) => items.map((i) => i.json.text);
		/** Waits until the workflow's trigger has emitted `count` items (at most ARRIVAL_DEADLINE_MS). */
		const waitForItems = async (count, label, id = ID, timeoutMs = ARRIVAL_DEADLINE_MS) => {
			const deadline = Date.now() + timeoutMs;
			let items = [];
			while (Date.now() < deadline) {
				items = await received(id);
				if (items.length >= count) return items;
				await sleep(200);
			}
			t.check(`${label}: ${count} items arrive within ${ARRIVAL_DEADLINE_MS / 1000} s`, false, `only ${items.length}: ${texts(items).join(', ')}`);
			return items;
		};
		/** Sending → the execution's startedAt, in ms, for the items whose text we sent. */
		const delays = (items) => items.map((i) => Date.parse(i.execution.startedAt) - sent.get(i.json.text).at);
		const allDelays = [];
		const getUpdates = async () => admin.requests('getUpdates');
		/**
		 * Waits until getUpdates requests after `afterSeq` come at the reading interval (two of them at least
		 * 500 ms apart): the trigger has skipped to the end and reads in its loop.
		 */
		const waitForSteadyReading = async (afterSeq, label) => {
			const deadline = Date.now() + 30_000;
			while (Date.now() < deadline) {
				const seen = (await getUpdates()).filter((r) => r.seq > afterSeq);
				for (let i = 1; i < seen.length; i++) if (seen[i].at - seen[i - 1].at >= 500) return true;
				await sleep(150);
			}
			t.check(`${label}: the trigger reads getUpdates in a loop`, false, 'no two getUpdates requests 500 ms or more apart within 30 s');
			return false;
		};
		const lastSeq = async () => (await getUpdates()).at(-1)?.seq ?? 0;
		/** getUpdates requests during `ms`, after letting a stopped loop end for `settleMs`. */
		const requestsDuring = async (ms, settleMs = 1500) => {
			await sleep(settleMs);
			await admin.clearRequests();
			await sleep(ms);
			return (await getUpdates()).length;
		};

		/** Every message of `expected` started an execution, and exactly one, on every n8n version. */
		const exactlyOnce = (label, got, expected) => {
			const list = texts(got);
			const counts = new Map();
			for (const x of list) counts.set(x, (counts.get(x) ?? 0) + 1);
			const lost = expected.filter((x) => !counts.has(x));
			const unexpected = list.filter((x) => !expected.includes(x));
			const repeated = [...counts].filter(([, n]) => n > 1).map(([x, n]) => `${x} ×${n}`);
			t.check(`${label}: nothing lost`, lost.length === 0 && unexpected.length === 0, { lost, unexpected });
			t.check(`${label}: nothing replayed`, repeated.length === 0, `${repeated.join(', ') || 'none repeated'} (n8n ${world.version}: ${dedup ? 'with' : 'no'} deduplication key)`);
			if (list.join('\n') !== expected.join('\n')) t.note(`executions in id order (not the order sent): ${list.join(' | ')}`);
		};
		const [major, minor] = world.version.split('.').map(Number);
		const dedup = major > 2 || (major === 2 && minor >= 41);

		await world.server();

		// --- one message, one execution ------------------------------------------------------------
		let seq = await lastSeq();
		const activated = await world.activate(ID);
		t.check('a workflow with Rubika Trigger (defaults: By Reading) publishes', activated?.active === true || activated?.activeVersionId != null, activated?.active);
		if (!(await waitForSteadyReading(seq, 'after publishing'))) return;

		await say(sara, 'e2e-cont 1');
		let items = await waitForItems(1, 'one message');
		const first = items[0];
		t.has('the message starts an execution whose item carries type, chat, sender, message id and text', first?.json, {
			type: 'NewMessage',
			chat_id: sara.chat_id,
			message_id: sent.get('e2e-cont 1').message_id,
			sender_id: sara.user_id,
			sender_type: 'User',
			text: 'e2e-cont 1',
		});
		t.check(
			'… the time as Rubika sent it and as an ISO date, its update key and the raw update',
			/^\d+$/.test(first?.json?.time ?? '') &&
				!Number.isNaN(Date.parse(first?.json?.time_iso)) &&
				typeof first?.json?.update_key === 'string' &&
				first?.json?.update?.new_message?.message_id === first?.json?.message_id,
			first?.json,
		);
		t.check('the execution ran in trigger mode and succeeded', first?.execution.mode === 'trigger' && first?.execution.status === 'success', first && { mode: first.execution.mode, status: first.execution.status });
		if (first) {
			const [d] = delays([first]);
			allDelays.push(d);
			t.note(`delay from sending to the execution's start: ${d} ms`);
		}

		// --- filters -------------------------------------------------------------------------------
		seq = await lastSeq();
		const filtersActivated = await world.activate(FILTERS_ID);
		t.check('a second workflow (Chat IDs, Sender IDs, Command List; Process Backlog; Add Sender Details, Download Files) publishes', filtersActivated?.active === true || filtersActivated?.activeVersionId != null);
		await say(sara, 'hello, not e2e-cont 2'); // Text Pattern: no
		await say(reza, '/e2econt from reza', demo.groupId); // sender: no
		await say(sara, '/e2econt in private'); // chat: no
		await say(sara, 'e2econt without a slash', demo.groupId); // not a command: no
		await say(sara, '/e2eother command', demo.groupId); // not in the command list: no
		const file = await admin.addFile('lat,lng\n35.7,51.4\n', { name: 'points.csv', mimeType: 'text/csv' });
		await say(sara, '/E2ECONT from sara', demo.groupId, { fileId: file.file_id }); // yes (commands are case-insensitive)
		await say(sara, 'e2e-cont 2'); // the first workflow: yes
		// Each trigger reads its updates in order: once the last message it takes has its execution, every
		// earlier one has been decided.
		items = await waitForItems(2, 'after the filtered messages');
		const filtered = await waitForItems(1, 'the filters workflow', FILTERS_ID);
		t.eq('Text Pattern: only matching messages start executions', texts(items), ['e2e-cont 1', 'e2e-cont 2']);
		t.eq('Chat IDs, Sender IDs, Only Commands, Command List: only the message passing all of them starts one', texts(filtered), ['/E2ECONT from sara']);
		t.has('… with its group and sender', filtered[0]?.json, { chat_id: demo.groupId, sender_id: sara.user_id });
		t.has('… and the file it carries', filtered[0]?.json?.file, { file_id: file.file_id, file_name: 'points.csv' });
		const binary = filtered[0]?.binary?.data;
		t.check('Download Files puts the file into binary data in n8n', binary?.fileName === 'points.csv' && /text\/csv/.test(binary?.mimeType ?? ''), binary && { fileName: binary.fileName, mimeType: binary.mimeType, fileSize: binary.fileSize });
		t.eq(
			'Add Sender Details: the group member\'s names, asked with one getChatMember',
			{ sender: filtered[0]?.json?.sender, asked: (await admin.requests('getChatMember')).map((r) => r.body) },
			{
				sender: { user_id: sara.user_id, first_name: sara.first_name, last_name: sara.last_name, full_name: `${sara.first_name} ${sara.last_name}`, username: sara.username },
				asked: [{ chat_id: demo.groupId, user_id: sara.user_id }],
			},
		);
		allDelays.push(...delays(items.slice(1)));
		await world.deactivate(FILTERS_ID);
		// Every download fails from here until downloads.finish(): no other active workflow downloads.
		const downloads = await t.step('downloads that cannot stall: publishing and sending', async () => await startDownloads(world, t));
		await sleep(1000);
		t.eq('nothing more from the filters workflow later', texts(await received(FILTERS_ID)), ['/E2ECONT from sara']);

		// --- several at once -----------------------------------------------------------------------
		const burst = ['e2e-cont 3', 'e2e-cont 4', 'e2e-cont 5', 'e2e-cont 6', 'e2e-cont 7'];
		const people = [sara, reza, ali];
		for (let i = 0; i < burst.length; i++) await say(people[i % 3], burst[i]);
		items = await waitForItems(7, 'a burst of five');
		await sleep(1000); // a repeat would show up now
		items = await received();
		const burstItems = items.slice(2);
		// The trigger hands them to n8n in the order sent, in one go; n8n creates those executions
		// concurrently, and their ids (the order the executions list shows) may differ: printed, not checked.
		t.eq('five messages sent at once: one execution each, each once', sorted(texts(burstItems)), sorted(burst));
		if (texts(burstItems).join() !== burst.join()) t.note(`n8n numbered the burst's executions in this order: ${texts(burstItems).join(' | ')}`);
		t.check(
			'… each execution holds exactly one item',
			new Set(burstItems.map((i) => i.execution.id)).size === burstItems.length,
			burstItems.map((i) => i.execution.id),
		);
		const burstDelays = delays(burstItems);
		allDelays.push(...burstDelays);
		t.note(`burst delays: ${burstDelays.join(', ')} ms`);
		if (downloads) await t.step('downloads that cannot stall', downloads.finish);

		// --- restarts ------------------------------------------------------------------------------
		const upTo7 = ['e2e-cont 1', 'e2e-cont 2', ...burst];
		// n8n 2.x runs only a published Error Workflow ("… is not active and cannot be executed" otherwise).
		await world.activate(ERROR_ID);
		await sleep(500);
		await world.stopServer();
		await say(sara, 'e2e-cont 8 (n8n down)');
		await say(reza, 'e2e-cont 9 (n8n down)');
		// n8n starts up while Rubika refuses the bot token: the trigger cannot read. Nobody watches the editor,
		// so the failure must come as a failed execution that starts the Error Workflow, and the trigger must
		// read everything once Rubika accepts the token again.
		const errorRunsBefore = (await listAll(world, ERROR_ID)).length;
		await admin.injectFault({ kind: 'status', method: 'getUpdates', status: 'INVALID_ACCESS', times: -1 });
		let failedExecution;
		let errorRun;
		try {
			await world.server();
			const deadline = Date.now() + ARRIVAL_DEADLINE_MS;
			while (Date.now() < deadline && !(failedExecution && errorRun)) {
				failedExecution ??= (await listAll(world, ID)).find((e) => e.status === 'error');
				errorRun ??= (await listAll(world, ERROR_ID)).slice(errorRunsBefore).find((e) => e.status === 'success');
				await sleep(300);
			}
		} finally {
			await admin.clearFaults();
		}
		const failed = failedExecution && (await world.publicApi(`/executions/${failedExecution.id}?includeData=true`));
		const failure = failed?.data?.resultData?.error;
		t.check(
			'n8n starting while Rubika refuses the token: a failed execution of the workflow says so (INVALID_ACCESS) and that the workflow stays published and the trigger tries again',
			/INVALID_ACCESS/.test(failure?.message ?? '') && /stays published.*tries again/.test(failure?.description ?? ''),
			failure ? { message: failure.message, description: failure.description } : 'no failed execution',
		);
		const told = errorRun && (await world.publicApi(`/executions/${errorRun.id}?includeData=true`));
		// n8n hands the Error Trigger the failed execution, or for a trigger's failure the trigger's error.
		const errorData = told && nodeFullItems(told, 'Error Trigger')[0]?.json;
		t.check(
			"… the workflow's Error Workflow runs, with that error",
			/INVALID_ACCESS/.test(errorData?.execution?.error?.message ?? errorData?.trigger?.error?.message ?? '') && errorData?.workflow?.id === ID,
			errorData ?? 'the Error Workflow did not run',
		);
		t.check('… and the workflow stays published', (await world.publicApi(`/workflows/${ID}`))?.active === true);
		await say(ali, 'e2e-cont 10 (after restart)');
		// The trigger backs off while Rubika refuses (up to a minute): allow for one long wait.
		await waitForItems(10, 'after a graceful restart, once Rubika accepts the token again', ID, 2 * ARRIVAL_DEADLINE_MS);
		// A replay comes from the first read after the start, which precedes the message sent after it.
		await sleep(1500);
		items = await received();
		// Executions that start together may get their ids in any order: the same set, each once, is the check.
		const afterGraceful = [...upTo7, 'e2e-cont 8 (n8n down)', 'e2e-cont 9 (n8n down)', 'e2e-cont 10 (after restart)'];
		exactlyOnce('graceful restart, messages sent while n8n was down', items, afterGraceful);
		const afterRestart = items.find((i) => i.json.text === 'e2e-cont 10 (after restart)');
		if (afterRestart) t.note(`after the restart, delay of a new message: ${delays([afterRestart])[0]} ms`);

		await sleep(500);
		await world.stopServer({ kill: true });
		await say(sara, 'e2e-cont 11 (after a crash)');
		await world.server();
		await waitForItems(11, 'after SIGKILL');
		await sleep(1500);
		items = await received();
		const afterKill = [...afterGraceful, 'e2e-cont 11 (after a crash)'];
		exactlyOnce('SIGKILL', items, afterKill);
		const skipped = world.serverLog().match(/duplicate deduplication key/g)?.length ?? 0;
		if (dedup) t.note(`n8n's log: ${skipped} re-emitted update(s) skipped for a duplicate deduplication key over the restarts`);
		t.check('the message ids are the sandbox\'s', items.every((i) => sent.get(i.json.text)?.message_id === i.json.message_id));
		t.check('every execution succeeded', items.every((i) => i.execution.status === 'success'), items.map((i) => i.execution.status));

		// --- deactivation ------------------------------------------------------------------------
		await world.deactivate(ID);
		await world.deactivate(ERROR_ID);
		const stillActive = (await world.publicApi('/workflows?active=true&limit=250')).data ?? [];
		t.eq('no workflow is active any more (so no getUpdates may come)', stillActive.map((w) => w.name), []);
		const afterDeactivation = await requestsDuring(5000, 2000);
		t.eq('after deactivation no getUpdates request arrives (5 s)', afterDeactivation, 0);
		t.note(`message → execution start, all live messages: ${summary(allDelays)}`);

		// --- "Listen for test event" -----------------------------------------------------------------
		await t.step('listen for a test event', async () => {
			const s = await world.session();
			const workflowData = await s.get(`/rest/workflows/${LISTEN_ID}`);
			// The editor's request (2.41 reads the workflow from the database, 2.8.4 takes it from the body).
			const listen = () => s.post(`/rest/workflows/${LISTEN_ID}/run`, { workflowData, triggerToStartFrom: { name: TRIGGER } });

			let seqBefore = await lastSeq();
			const started = await listen();
			if (!t.check('n8n starts listening for a test event (an execution id, no webhook wait)', typeof started?.executionId === 'string' && !started.waitingForWebhook, started)) return;
			if (!(await waitForSteadyReading(seqBefore, 'listening'))) return;
			await say(sara, 'not for listening');
			await say(reza, 'e2e-listen 1');
			const execution = await waitForExecution(world, started.executionId);
			const listened = nodeFullItems(execution, TRIGGER).map((i) => i.json);
			t.check('the test execution finishes in manual mode', execution?.mode === 'manual' && execution?.status === 'success', execution && { mode: execution.mode, status: execution.status });
			t.has('… with the message sent while listening (and only that one)', { count: listened.length, ...listened[0] }, {
				count: 1,
				text: 'e2e-listen 1',
				chat_id: reza.chat_id,
				sender_id: reza.user_id,
				message_id: sent.get('e2e-listen 1').message_id,
			});
			t.has('… and, with Add Sender Details, the private chat\'s person from getChat', listened[0]?.sender, {
				user_id: reza.user_id,
				full_name: `${reza.first_name} ${reza.last_name}`,
				username: reza.username,
			});
			t.eq('after the test event no getUpdates request arrives (3 s)', await requestsDuring(3000), 0);

			// Listening, then the user stops it without a message.
			seqBefore = await lastSeq();
			const second = await listen();
			if (!(await waitForSteadyReading(seqBefore, 'listening again'))) return;
			await s.post(`/rest/executions/${second.executionId}/stop`, {});
			t.eq('after the user stops listening no getUpdates request arrives (3 s)', await requestsDuring(3000), 0);
			const stopped = await waitForExecution(world, second.executionId);
			t.check('… and the stopped test execution holds no item', nodeFullItems(stopped, TRIGGER).length === 0, stopped && { status: stopped.status });
		});
	},
};

/** Polls one execution (public API) until it is finished; undefined after the deadline. */
async function waitForExecution(world, id, timeoutMs = ARRIVAL_DEADLINE_MS) {
	const deadline = Date.now() + timeoutMs;
	let last;
	while (Date.now() < deadline) {
		last = await world.publicApi(`/executions/${id}?includeData=true`).catch(() => undefined);
		if (last && (last.finished || (last.status && !['running', 'new', 'waiting'].includes(last.status)))) return last;
		await sleep(250);
	}
	return last;
}

const sorted = (list) => [...list].sort();

function summary(ms) {
	if (!ms.length) return 'none';
	const sorted = [...ms].sort((a, b) => a - b);
	const median = sorted[Math.floor(sorted.length / 2)];
	return `${ms.length} messages, min ${sorted[0]} ms, median ${median} ms, max ${sorted.at(-1)} ms`;
}

if (isMain(import.meta.url)) await runStandalone(test);

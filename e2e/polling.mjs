#!/usr/bin/env node
// The polling trigger in a real `n8n start`: a published workflow turns messages a user sends to the
// sandbox into executions with the right items (read back through n8n's public REST API), downloads a
// file into binary data, and across an n8n restart (graceful, then SIGKILL) replays nothing and loses
// nothing, including what arrived while n8n was down.
//
//   node e2e/polling.mjs [--version 2.8.4] [--no-build] [--keep]
import { isMain, runStandalone } from './lib/harness.mjs';
import { RUBIKA_TRIGGER, linearWorkflow, node, noOp } from '../tooling/workflow-builder.mjs';
import { EXAMPLE_CREDENTIAL, withFastPolls } from '../tooling/examples.mjs';
import { nodeFullItems } from '../tooling/world.mjs';

const ID = 'e2ePollingWflow1';
const TRIGGER = 'Rubika Trigger';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const test = {
	name: 'polling',
	workflows() {
		const wf = linearWorkflow(ID, 'E2E: polling trigger', [
			node(
				TRIGGER,
				RUBIKA_TRIGGER,
				{
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					firstActivation: 'startFromNow',
					updateTypes: ['NewMessage'],
					// Other tests talk to the same bot: only this test's messages count.
					filters: { textPattern: '^e2e-poll ' },
					options: { downloadFiles: true },
				},
				{ credential: EXAMPLE_CREDENTIAL },
			),
			noOp('Received'),
		]);
		return [withFastPolls(wf)];
	},

	async run(world, t) {
		const { admin, demo } = world;
		const { sara, reza, ali } = demo.users;
		const sent = new Map(); // text -> { message_id, chat_id, sender_id }
		const say = async (user, text, extra = {}) => {
			const m = await admin.act('send-message', { userId: user.user_id, chatId: user.chat_id, text, ...extra });
			sent.set(text, { message_id: m.message_id, chat_id: user.chat_id, sender_id: user.user_id });
			return m;
		};
		/** Every item the trigger emitted so far, in execution order. */
		const received = async () => {
			const executions = (await world.executions(ID)).reverse();
			return executions.flatMap((e) => nodeFullItems(e, TRIGGER).map((item) => ({ ...item, execution: e })));
		};
		/** Waits until the trigger has emitted `count` items; returns them. */
		const waitForItems = async (count, label) => {
			const deadline = Date.now() + 60_000;
			let items = [];
			while (Date.now() < deadline) {
				items = await received();
				if (items.length >= count) return items;
				await sleep(500);
			}
			t.check(`${label}: ${count} items arrive`, false, `only ${items.length}: ${items.map((i) => i.json.text).join(', ')}`);
			return items;
		};
		const texts = (items) => items.map((i) => i.json.text);

		await world.server();
		const activated = await world.activatePolling(ID);
		t.check('the polling workflow activates and polls at once', activated?.active === true || activated?.activeVersionId != null);

		// --- messages become executions -----------------------------------------------------------
		await say(sara, 'e2e-poll 1');
		await say(reza, 'e2e-poll 2');
		await admin.act('send-message', { userId: sara.user_id, chatId: sara.chat_id, text: 'not for this test' });
		const file = await admin.addFile('lat,lng\n35.7,51.4\n', { name: 'points.csv', mimeType: 'text/csv' });
		await say(ali, 'e2e-poll 3 with a file', { fileId: file.file_id });
		let items = await waitForItems(3, 'first messages');
		t.eq('the messages arrive as items in order; the filtered one does not', texts(items), ['e2e-poll 1', 'e2e-poll 2', 'e2e-poll 3 with a file']);
		const first = items[0]?.json;
		t.has('an item carries type, chat, sender, message id and text at the top level', first, { type: 'NewMessage', ...sent.get('e2e-poll 1'), text: 'e2e-poll 1', sender_type: 'User' });
		t.check('… the time as Rubika sent it and as an ISO date, and the raw update', /^\d+$/.test(first?.time ?? '') && !Number.isNaN(Date.parse(first?.time_iso)) && first?.update?.new_message?.message_id === first?.message_id, first);
		const withFile = items[2];
		t.has('a message with a file carries the file', withFile?.json?.file, { file_id: file.file_id, file_name: 'points.csv' });
		const binary = withFile?.binary?.data;
		t.check('Download Files puts the file into binary data in n8n', binary?.fileName === 'points.csv' && /text\/csv/.test(binary?.mimeType ?? ''), binary && { fileName: binary.fileName, mimeType: binary.mimeType, fileSize: binary.fileSize });
		t.check('every execution finished successfully', items.every((i) => i.execution.status === 'success'), items.map((i) => i.execution.status));

		// --- graceful restart, messages while n8n is down -----------------------------------------
		await sleep(500);
		await world.stopServer();
		await say(sara, 'e2e-poll 4 (n8n down)');
		await say(reza, 'e2e-poll 5 (n8n down)');
		await world.server();
		await say(sara, 'e2e-poll 6 (after restart)');
		items = await waitForItems(6, 'after a restart');
		await sleep(6000); // one more poll: a replay would show up now
		items = await received();
		t.eq(
			'after a restart, what arrived while n8n was down is delivered; nothing is replayed',
			texts(items),
			['e2e-poll 1', 'e2e-poll 2', 'e2e-poll 3 with a file', 'e2e-poll 4 (n8n down)', 'e2e-poll 5 (n8n down)', 'e2e-poll 6 (after restart)'],
		);

		// --- SIGKILL ------------------------------------------------------------------------------
		await sleep(1000); // the last execution has saved the trigger's position
		await world.stopServer({ kill: true });
		await say(ali, 'e2e-poll 7 (after a crash)');
		await world.server();
		items = await waitForItems(7, 'after SIGKILL');
		await sleep(6000);
		items = await received();
		t.eq(
			'after n8n was killed (SIGKILL), nothing is replayed and nothing lost',
			texts(items),
			['e2e-poll 1', 'e2e-poll 2', 'e2e-poll 3 with a file', 'e2e-poll 4 (n8n down)', 'e2e-poll 5 (n8n down)', 'e2e-poll 6 (after restart)', 'e2e-poll 7 (after a crash)'],
		);
		t.eq('every item has its own message id', new Set(items.map((i) => i.json.message_id)).size, items.length);
		t.check('the message ids are the sandbox\'s', items.every((i) => sent.get(i.json.text)?.message_id === i.json.message_id));

		await world.deactivate(ID);
	},
};

if (isMain(import.meta.url)) await runStandalone(test);

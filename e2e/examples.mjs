#!/usr/bin/env node
// The example workflows of examples/ run in a real n8n against the sandbox, so they cannot rot:
// scheduled broadcast, file relay and poll through `n8n execute`; moderation as a published workflow with
// Rubika Trigger v2 (link spam → delete, ban, notice) plus its "Unban by hand" branch through `n8n execute`.
// The echo bot (a webhook workflow) is exercised by e2e/webhook.mjs.
//
//   node e2e/examples.mjs [--version 2.8.4] [--no-build] [--keep]
import { eventually, isMain, runStandalone } from './lib/harness.mjs';
import { nodeItems, nodesRun } from './lib/world.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Why `n8n execute` did not count as a success: how it ended, the workflow's error, the end of its output. */
const executeFailure = (r) => `exit ${r.code ?? r.signal}${r.error ? `, ${r.error.message}` : ''}${r.retried ? ' (retried)' : ''}:\n${(r.stdout + r.stderr).slice(-3000)}`;

/**
 * Publishes a workflow with Rubika Trigger v2 and waits until it reads in its loop: two getUpdates
 * requests at least 500 ms apart (the reads that skip to "now" come back to back). n8n 2.41 activates
 * after the API call returns; a message sent before that would count as backlog. Assumes no other
 * workflow reads the bot.
 */
async function activateContinuous(world, id, { timeoutMs = 30_000 } = {}) {
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

		// --- moderation.json (published, Rubika Trigger v2) ---------------------------------------
		await t.step('moderation.json', async () => {
			const id = world.exampleId('moderation.json');
			await world.server();
			const trigger = world.example('moderation.json').nodes.find((n) => n.name === 'Link posted in the group');
			t.check('moderation: its Rubika Trigger is version 2.1 (continuous, no Poll Times)', trigger?.typeVersion === 2.1 && !('pollTimes' in (trigger?.parameters ?? {})), trigger && { typeVersion: trigger.typeVersion });
			const activated = await activateContinuous(world, id);
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

if (isMain(import.meta.url)) await runStandalone(test);

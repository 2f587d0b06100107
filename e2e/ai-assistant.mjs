#!/usr/bin/env node
// examples/ai-assistant.json in a real n8n, as a user runs it: the Rubika Trigger (by reading) hands each
// message to n8n's AI Agent (OpenAI Chat Model, Simple Memory) with no mapping, because its items carry
// `chatInput` and `sessionId`; the answer comes back as a reply. The model is a fake OpenAI-compatible server
// this test starts (lib/fake-model.mjs) on the port the world's OpenAI credential points at.
//
// Checked: the question reaches the model as the user message; the model's answer arrives in the chat as a
// reply to the question; a second message in the same chat reaches the model with the first exchange
// (memory keyed by the chat); another chat starts its own conversation.
//
//   node e2e/ai-assistant.mjs [--version 2.8.4] [--no-build] [--keep]
import { eventually, isMain, runStandalone } from './lib/reporter.mjs';
import { fakeAnswer, startFakeModel } from './lib/fake-model.mjs';
import { nodesRun } from '../tooling/world.mjs';

const EXAMPLE = 'ai-assistant.json';

export const test = {
	name: 'ai-assistant',
	async run(world, t) {
		const { admin, demo } = world;
		const { sara, reza } = demo.users;
		const model = await startFakeModel({ port: world.fakeModelPort });
		const id = world.exampleId(EXAMPLE);
		try {
			await world.server();
			const before = (await admin.requests('getUpdates')).length;
			await world.activate(id);
			const reading = await eventually(async () => (await admin.requests('getUpdates')).length > before + 1, { timeoutMs: 60_000 });
			if (!t.check('the AI assistant is published and its trigger reads updates', reading)) return;

			/** Sends a message as `user` in their private chat, waits for the bot's reply to it. */
			const ask = async (user, text) => {
				const question = await admin.act('send-message', { userId: user.user_id, chatId: user.chat_id, text });
				const reply = await eventually(
					async () => (await admin.messages(user.chat_id)).find((m) => m.sender_type === 'Bot' && m.reply_to_message_id === question.message_id),
					{ timeoutMs: 60_000 },
				);
				return { question, reply };
			};
			const lastRequest = () => model.requests.at(-1)?.body;
			const turns = (body) => (body?.messages ?? []).filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => `${m.role}: ${m.content}`);

			const first = await ask(sara, 'When does the shop open on Friday?');
			t.eq('the model is asked the question as the user message, with no history', turns(lastRequest()), ['user: When does the shop open on Friday?']);
			t.check('… by the model set in the example (gpt-4o-mini)', lastRequest()?.model === 'gpt-4o-mini', lastRequest()?.model);
			t.eq("the model's answer comes back as a reply to the question", first.reply?.text, fakeAnswer([{ role: 'user', content: 'When does the shop open on Friday?' }]));
			// The reply is the last node's work: n8n stores the finished execution a moment after Rubika has it.
			const [execution] = await world
				.waitForExecutions(id, { count: 1, timeoutMs: 30_000, filter: (e) => e.status === 'success' })
				.catch(() => []);
			t.check('one execution ran trigger → AI Agent → Reply in Rubika', execution && ['Message from Rubika', 'AI Agent', 'Reply in Rubika'].every((n) => nodesRun(execution).includes(n)), execution && nodesRun(execution));

			await ask(sara, 'And on Saturday?');
			t.eq('a second message in the same chat reaches the model with the first exchange (memory per chat)', turns(lastRequest()), [
				'user: When does the shop open on Friday?',
				`assistant: ${first.reply?.text}`,
				'user: And on Saturday?',
			]);

			await ask(reza, 'Hello!');
			t.eq('another chat starts its own conversation', turns(lastRequest()), ['user: Hello!']);
		} finally {
			await world.deactivate(id).catch(() => {});
			await model.close();
		}
	},
};

if (isMain(import.meta.url)) await runStandalone(test);

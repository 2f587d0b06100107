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
import { randomUUID } from 'node:crypto';
import { EXAMPLE_CREDENTIAL, OPENAI_EXAMPLE_CREDENTIAL } from '../tooling/examples.mjs';
import { node, readingTrigger } from '../tooling/workflow-builder.mjs';
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
		}
		try {
			await t.step('an AI Agent asks the person in the chat (Send and Wait as a tool, the human review)', () => agentAsksInChat(world, t, model));
		} finally {
			await model.close();
		}
	},
};

const TOOL = 'n8n-nodes-rubika.rubikaTool';
const HUMAN_REVIEW = 'n8n-nodes-rubika.rubikaHitlTool';

/**
 * A workflow made at run time: the Rubika Trigger by reading → an AI Agent → Send Text with its answer. The agent's
 * tools are Rubika nodes on Send and Wait (n8n's tool of the node, `rubikaTool`) asking in the chat, on the chat
 * keypad — a choice, a date, a text — and a Send Text tool behind n8n's human review (`rubikaHitlTool`, Approval
 * answered on the keypad). The fake model calls each tool once; the person answers each question on the keypad; the
 * answers come back to the model as the tools' results, and the gated tool runs once the review is approved.
 */
async function agentAsksInChat(world, t, model) {
	const { admin, demo } = world;
	const { sara } = demo.users;
	const chatId = "={{ $('Message from Rubika').item.json.chat_id }}";
	const question = (name, parameters) =>
		node(name, TOOL, { resource: 'message', operation: 'sendAndWait', chatId, message: "={{ $fromAI('question', 'What to ask the person') }}", answerIn: 'chatKeypad', options: {}, ...parameters }, { credential: EXAMPLE_CREDENTIAL, webhookId: randomUUID() });
	const nodes = [
		readingTrigger('Message from Rubika', { updateTypes: ['NewMessage'], filters: { ignoreBots: true, contentKinds: ['text'] } }),
		node('AI Agent', '@n8n/n8n-nodes-langchain.agent', { promptType: 'auto', text: '={{ $json.chatInput }}', options: {} }, { typeVersion: 3.1 }),
		node('Reply', 'n8n-nodes-rubika.rubika', { resource: 'message', operation: 'sendMessage', chatId, text: '={{ $json.output }}' }, { credential: EXAMPLE_CREDENTIAL }),
		node('Model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', { model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' }, options: {} }, { typeVersion: 1.2, credentials: { openAiApi: OPENAI_EXAMPLE_CREDENTIAL } }),
		question('Ask a choice', { responseType: 'choice', choices: { values: [{ label: 'صبح', value: 'morning' }, { label: 'عصر', value: 'evening' }] } }),
		question('Ask a date', { responseType: 'date', calendarType: 'DatePersian' }),
		question('Ask for text', { responseType: 'freeText', textLines: 'SingleLine' }),
		node('Human review', HUMAN_REVIEW, { resource: 'message', operation: 'sendAndWait', chatId, answerIn: 'chatKeypad', options: {} }, { credential: EXAMPLE_CREDENTIAL, webhookId: randomUUID() }),
		node('Tell Sara', TOOL, { resource: 'message', operation: 'sendMessage', chatId, text: "={{ $fromAI('text', 'What to tell Sara') }}" }, { credential: EXAMPLE_CREDENTIAL }),
	];
	const link = (to, type) => ({ [type]: [[{ node: to, type, index: 0 }]] });
	const connections = {
		'Message from Rubika': link('AI Agent', 'main'),
		'AI Agent': link('Reply', 'main'),
		Model: link('AI Agent', 'ai_languageModel'),
		'Ask a choice': link('AI Agent', 'ai_tool'),
		'Ask a date': link('AI Agent', 'ai_tool'),
		'Ask for text': link('AI Agent', 'ai_tool'),
		'Human review': link('AI Agent', 'ai_tool'),
		'Tell Sara': link('Human review', 'ai_tool'),
	};
	nodes.forEach((n, i) => (n.position = [i * 200, 300]));
	const workflow = await world.publicApi('/workflows', { method: 'POST', body: { name: 'AI Agent asks in the chat', nodes, connections, settings: { executionOrder: 'v1' } } });
	const before = (await admin.requests('getUpdates')).length;
	await world.activate(workflow.id);
	try {
		const reading = await eventually(async () => (await admin.requests('getUpdates')).length > before + 1, { timeoutMs: 60_000 });
		if (!t.check('the agent\'s workflow is published and its trigger reads', reading)) return;
		const since = new Set((await admin.messages(sara.chat_id)).map((m) => m.message_id));
		const requestsBefore = model.requests.length;
		// A keypad an earlier file left in Sara's chat (in the suite's shared world) is no question of the agent's.
		const leftover = (await admin.chat(sara.chat_id)).chat_keypad?.rows?.flatMap((row) => row.buttons)?.[0];
		await admin.act('send-message', { userId: sara.user_id, chatId: sara.chat_id, text: 'Book me a table, please.' });
		// Each question the agent asks sets Sara's keypad: answer it by its button, until the execution ends. The
		// questions of one execution that ask for a value have buttons with the same id (the execution, the decision
		// "input", the chat): a new question is a new id or a new type of button.
		const answered = [];
		const same = (a, b) => a.id === b.id && a.type === b.type;
		const seen = (button) => (leftover !== undefined && same(leftover, button)) || answered.some((a) => same(a, button));
		const ended = async () => (await world.executions(workflow.id)).some((e) => e.finished || ['success', 'error', 'crashed'].includes(e.status));
		for (let round = 0; round < 6; round++) {
			const next = await eventually(
				async () => {
					const buttons = (await admin.chat(sara.chat_id)).chat_keypad?.rows?.flatMap((row) => row.buttons) ?? [];
					if (buttons.length > 0 && !seen(buttons[0])) return buttons;
					return (await ended()) ? 'ended' : undefined;
				},
				{ timeoutMs: 60_000, intervalMs: 150 },
			);
			if (!next || next === 'ended') break;
			const [first] = next;
			answered.push({ id: first.id, type: first.type, texts: next.map((b) => b.button_text) });
			const by = { userId: sara.user_id, chatId: sara.chat_id, buttonId: first.id };
			if (first.type === 'Calendar') await admin.act('answer-button', { ...by, date: '۱۴۰۳/۰۱/۰۱' });
			else if (first.type === 'Textbox') await admin.act('answer-button', { ...by, text: 'A table by the window' });
			else {
				const evening = next.find((b) => b.button_text === 'عصر');
				await admin.act('tap-chat-keypad-button', { ...by, buttonId: (evening ?? first).id });
			}
		}
		const [done] = await world.waitForExecutions(workflow.id, { count: 1, timeoutMs: 60_000 }).catch(() => []);
		t.check('the agent asked four questions on Sara\'s keypad (a choice, a date, a text, the review\'s Approve/Decline), each answered once', answered.length === 4, answered.map((a) => `${a.type} ${a.texts.join('/')}`));
		t.check('the execution ends successfully', done?.status === 'success', done?.status);
		const toolResults = (model.requests.slice(requestsBefore).at(-1)?.body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
		const has = (fragment) => toolResults.some((content) => content.includes(fragment));
		t.check(
			'the answers come back to the model as the tools\' results: the choice\'s value, the date (Persian 1403-01-01 = 2024-03-20), the text',
			has('"value":"evening"') && has('"date":"2024-03-20"') && has('"as_picked":"1403-01-01"') && has('"text":"A table by the window"'),
			toolResults,
		);
		const texts = (await admin.messages(sara.chat_id)).filter((m) => m.sender_type === 'Bot' && !since.has(m.message_id)).map((m) => m.text);
		t.check(
			'the review (n8n\'s message naming the tool) approved on the keypad, the gated tool ran: Sara gets its message once',
			// "The agent wants to run this tool: Tell_Sara …" (2.41.1), "The agent wants to call Tell_Sara" (2.8.4)
			texts.some((text) => /^The agent wants to .*\bTell_Sara\b/.test(text ?? '')) && texts.filter((text) => text?.startsWith('Question for Tell_Sara')).length === 1,
			texts,
		);
		t.check('… and the agent\'s answer, with what each tool answered, is the reply', texts.some((text) => text?.includes('"date":"2024-03-20"')), texts.at(-1));
	} finally {
		await world.deactivate(workflow.id).catch(() => {});
	}
}

if (isMain(import.meta.url)) await runStandalone(test);

#!/usr/bin/env node
// Send and Wait for Response answered in the chat (Answer In: Chat) in a real n8n in regular mode: one process
// runs the triggers, receives the hand-over and resumes the execution. The cases are in
// lib/chat-answer-cases.mjs, which e2e/queue.mjs runs in queue mode too.
//
//   node e2e/chat-answers.mjs [--version 2.8.4] [--no-build] [--keep]
import { isMain, runStandalone } from './lib/reporter.mjs';
import { chatAnswerCases } from './lib/chat-answer-cases.mjs';

export const test = {
	name: 'chat-answers',
	// Everything is made at run time: the bots are new, so are their credentials.
	workflows: () => [],
	async run(world, t) {
		await world.server();
		const cases = await chatAnswerCases(world, t, { webhookBase: world.ctx.baseUrl, waitForWebhook: world.waitForWebhook, log: world.serverLog });
		// The question past its time limit goes on when n8n next looks for expired waits (within a minute): checked
		// after the tests that follow in a shared world (e2e/run.mjs), or at once when this file runs alone.
		if (cases) t.finishLater('the question past its time limit, and the clean-up', cases.finish);
	},
};

if (isMain(import.meta.url)) await runStandalone(test);

/**
 * Broadcasts through the Rubika node for the rate-limit tests (rate-limit.test.ts, pacing.test.ts), each from a
 * bot of its own: the pace a bot's gate learns lives as long as the process (nodes/shared/transport/rateLimit.ts),
 * so a test that shares a bot with an earlier one would start where that one left off.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { RubikaSandbox } from '../../sandbox';
import type { RequestLogEntry } from '../../sandbox/api';
import type { NodeRunResult } from '../../tooling/harness/n8n';
import { runNode } from '../../tooling/harness/n8n';

export interface TestBot {
	botId: string;
	token: string;
	/** `count` new users, each with a private chat with this bot; their chat ids. */
	recipients(count: number): string[];
	/** One execution of Send Text to each chat ("Hello 1", "Hello 2"…), with these Request Options. */
	broadcast(chatIds: string[], requestOptions: INodeParameters, options?: { continueOnFail?: boolean; sendOptions?: INodeParameters }): Promise<NodeRunResult>;
	/** The sandbox's log of this bot's sendMessage requests, in order. */
	sends(): RequestLogEntry[];
}

/** A new bot in the sandbox, with a new token: a gate of its own in the node. */
export function newBot(sandbox: RubikaSandbox): TestBot {
	const { bot_id: botId, token } = sandbox.addBot();
	return {
		botId,
		token,
		recipients: (count) => sandbox.addRecipients(count, botId),
		broadcast: async (chatIds, requestOptions, { continueOnFail, sendOptions = {} } = {}) =>
			await runNode({
				parameters: {
					resource: 'message',
					operation: 'sendMessage',
					chatId: '={{ $json.chat_id }}',
					text: '={{ $json.text }}',
					requestOptions,
					sendOptions,
				},
				credentials: { accessToken: token, baseUrl: sandbox.baseUrl },
				items: chatIds.map((chatId, index) => ({ json: { chat_id: chatId, text: `Hello ${index + 1}` } })),
				continueOnFail,
			}),
		sends: () => sandbox.requestsFor('sendMessage').filter((entry) => entry.botId === botId),
	};
}

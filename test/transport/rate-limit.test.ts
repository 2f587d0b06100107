/**
 * Rate limits shared by one execution (nodes/shared/rateLimit.ts), through the Rubika node as a user runs it:
 * parallel broadcasts against the sandbox's rate limit, Retry-After, the wait budget and its error.
 */
import type { INodeParameters, NodeApiError } from 'n8n-workflow';

import { DEMO_BOT_ID, DEMO_USERS } from '../../sandbox';
import type { RequestLogEntry } from '../../sandbox/api';
import { useActionSandbox } from '../actions/helpers';

const t = useActionSandbox('message');

/** `count` new users, each with a private chat with the demo bot. */
function recipients(count: number): string[] {
	return Array.from({ length: count }, (_, index) => {
		const user = t.sandbox.addUser({ first_name: `Recipient ${index + 1}` });
		return t.sandbox.privateChat(DEMO_BOT_ID, user.user_id).chat_id;
	});
}

function broadcast(chatIds: string[], requestOptions: INodeParameters, options: { continueOnFail?: boolean } = {}) {
	return t.run(
		{ operation: 'sendMessage', chatId: '={{ $json.chat_id }}', text: '={{ $json.text }}', requestOptions },
		chatIds.map((chatId, index) => ({ json: { chat_id: chatId, text: `Hello ${index + 1}` } })),
		options,
	);
}

const refusals = () => t.sandbox.requests.filter((entry) => entry.status === 'TOO_REQUESTS');
const chatOf = (entry: RequestLogEntry) => (entry.body as { chat_id: string }).chat_id;
const answeredAt = (entry: RequestLogEntry) => entry.at + (entry.durationMs ?? 0);

describe('a parallel broadcast under a sustained rate limit', () => {
	test('reaches every recipient exactly once, in order, and the node succeeds', async () => {
		t.sandbox.configure({ rateLimit: { perSecond: 20 } });
		const chatIds = recipients(150);
		const result = await broadcast(chatIds, { concurrency: 5 });

		expect(result.error).toBeUndefined();
		// The limit did refuse requests, so the shared cool-down and the pace were what got the broadcast through.
		expect(refusals().length).toBeGreaterThan(0);
		for (const [index, chatId] of chatIds.entries()) {
			const messages = t.sandbox.messages(chatId);
			expect(messages.map((message) => [message.sender_id, message.text])).toEqual([[DEMO_BOT_ID, `Hello ${index + 1}`]]);
			expect(result.items[index].json.message_id).toBe(messages[0].message_id);
			expect(result.items[index].pairedItem).toEqual({ item: index });
		}
		expect(result.items).toHaveLength(150);
	});

	test('with Continue On Fail, a bad chat fails once (INVALID_INPUT is never retried) and the others arrive', async () => {
		t.sandbox.configure({ rateLimit: { perSecond: 10 } });
		const chatIds = recipients(30);
		chatIds[7] = 'b0' + 'x'.repeat(30);
		const result = await broadcast(chatIds, { concurrency: 4 }, { continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(refusals().length).toBeGreaterThan(0);
		expect(result.items[7].json).toMatchObject({ status: 'INVALID_INPUT' });
		const answersForBadChat = t.sandbox.requestsFor('sendMessage').filter((entry) => chatOf(entry) === chatIds[7]);
		expect(answersForBadChat.filter((entry) => entry.status === 'INVALID_INPUT')).toHaveLength(1);
		expect(answersForBadChat.filter((entry) => entry.status !== 'TOO_REQUESTS')).toHaveLength(1);
		for (const [index, chatId] of chatIds.entries()) {
			if (index === 7) continue;
			expect(t.sandbox.messages(chatId)).toHaveLength(1);
			expect(result.items[index].json.message_id).toBeDefined();
		}
	});
});

describe('the shared cool-down', () => {
	test('Retry-After holds back every request of the execution, not just the refused one', async () => {
		const chatIds = recipients(10);
		t.sandbox.injectFault({ kind: 'status', status: 'TOO_REQUESTS', httpStatus: 429, retryAfterSeconds: 1, method: 'sendMessage' });
		const result = await broadcast(chatIds, { concurrency: 5 });

		expect(result.error).toBeUndefined();
		const [refused] = refusals();
		const coolDownEnds = answeredAt(refused) + 1000;
		const others = t.sandbox.requestsFor('sendMessage').filter((entry) => entry !== refused);
		// Only the requests already on their way when the refusal came (at most 4 with 5 in parallel) arrive
		// during the cool-down; without it, all 9 others would have been sent straight away.
		expect(others.filter((entry) => entry.at < coolDownEnds - 10).length).toBeLessThanOrEqual(4);
		const retry = others.find((entry) => chatOf(entry) === chatOf(refused))!;
		expect(retry.at).toBeGreaterThanOrEqual(coolDownEnds - 10);
		expect(retry.status).toBe('OK');
		for (const chatId of chatIds) expect(t.sandbox.messages(chatId)).toHaveLength(1);
	});

	test('rate-limit refusals do not use up Retries', async () => {
		t.sandbox.injectFault({ kind: 'status', status: 'TOO_REQUESTS', method: 'sendMessage', times: 3 });
		const result = await broadcast([DEMO_USERS.sara.chat_id], { retries: 0 });

		expect(result.error).toBeUndefined();
		expect(t.sandbox.requestsFor('sendMessage').map((entry) => entry.status)).toEqual([
			'TOO_REQUESTS',
			'TOO_REQUESTS',
			'TOO_REQUESTS',
			'OK',
		]);
		expect(t.sandbox.messages(DEMO_USERS.sara.chat_id)).toHaveLength(1);
	});
});

describe('a bot that stays rate limited', () => {
	test('fails after Rate Limit Wait with an error that says so, and nothing is sent', async () => {
		t.sandbox.injectFault({ kind: 'status', status: 'TOO_REQUESTS', method: 'sendMessage', times: -1 });
		const chatIds = recipients(3);
		const result = await broadcast(chatIds, { concurrency: 3, rateLimitWaitSeconds: 2 });

		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe('Rubika sendMessage failed: TOO_REQUESTS – injected fault');
		expect(error.description).toMatch(
			/^Rubika is rate limiting this bot\. .*Rubika kept refusing this request \(for \d+(\.\d)? s\), and the next try would come later than Request Options → Rate Limit Wait allows \(2 s\)\./,
		);
		expect((error as unknown as { errorResponse: object }).errorResponse).toMatchObject({
			status: 'TOO_REQUESTS',
			rate_limited_ms: expect.any(Number),
		});
		// It kept trying (more than once per item) before it gave up.
		expect(t.sandbox.requestsFor('sendMessage').length).toBeGreaterThan(3);
		for (const chatId of chatIds) expect(t.sandbox.messages(chatId)).toEqual([]);
	});

	test('a Retry-After longer than Rate Limit Wait fails at once instead of waiting', async () => {
		t.sandbox.injectFault({ kind: 'status', status: 'TOO_REQUESTS', httpStatus: 429, retryAfterSeconds: 600, method: 'sendMessage' });
		const result = await broadcast([DEMO_USERS.sara.chat_id], { rateLimitWaitSeconds: 5 });

		// The status is named whether it comes with HTTP 429 or 200.
		expect(result.error?.message).toBe('Rubika sendMessage failed: TOO_REQUESTS (HTTP 429) – injected fault');
		expect(result.error?.description).toMatch(/Rubika asked to wait 600 s \(Retry-After\), longer than Request Options → Rate Limit Wait allows \(5 s\)/);
		expect((result.error as unknown as { errorResponse: object }).errorResponse).toMatchObject({ http_code: 429, retry_after_ms: 600_000 });
		expect(t.sandbox.requestsFor('sendMessage')).toHaveLength(1);
	});
});

/**
 * Rate limits through the Rubika node as a user runs it (nodes/shared/transport/rateLimit.ts): parallel
 * broadcasts against the sandbox's rate limit, the pace one execution learns used by the next, two broadcasts of
 * one bot at once, Retry-After, the wait budget and its error. Each test sends from a bot of its own (broadcast.ts).
 */
import type { NodeApiError } from 'n8n-workflow';

import type { RequestLogEntry } from '../../sandbox/api';
import { useSandbox } from '../support/sandbox';
import type { TestBot } from './broadcast';
import { newBot } from './broadcast';

const t = useSandbox();
let bot: TestBot;
beforeEach(() => {
	bot = newBot(t.sandbox);
});

const refusals = () => bot.sends().filter((entry) => entry.status === 'TOO_REQUESTS');
const chatOf = (entry: RequestLogEntry) => (entry.body as { chat_id: string }).chat_id;
const answeredAt = (entry: RequestLogEntry) => entry.at + (entry.durationMs ?? 0);

/** Every chat got exactly the one message meant for it, from this bot. */
function expectEachOnce(chatIds: string[], texts = chatIds.map((_, index) => `Hello ${index + 1}`)) {
	for (const [index, chatId] of chatIds.entries()) {
		expect(t.sandbox.messages(chatId).map((message) => [message.sender_id, message.text])).toEqual([[bot.botId, texts[index]]]);
	}
}

describe('a parallel broadcast under a sustained rate limit', () => {
	test('reaches every recipient exactly once, in order, and the node succeeds', async () => {
		t.sandbox.configure({ rateLimit: { perSecond: 20 } });
		const chatIds = bot.recipients(150);
		const result = await bot.broadcast(chatIds, { concurrency: 5 });

		expect(result.error).toBeUndefined();
		// The limit did refuse requests, so the shared cool-down and the pace were what got the broadcast through.
		expect(refusals().length).toBeGreaterThan(0);
		expectEachOnce(chatIds);
		for (const [index, chatId] of chatIds.entries()) {
			expect(result.items[index].json.message_id).toBe(t.sandbox.messages(chatId)[0].message_id);
			expect(result.items[index].pairedItem).toEqual({ item: index });
		}
		expect(result.items).toHaveLength(150);
	});

	test('with Continue On Fail, a bad chat fails once (INVALID_INPUT is never retried) and the others arrive', async () => {
		t.sandbox.configure({ rateLimit: { perSecond: 10 } });
		const chatIds = bot.recipients(30);
		chatIds[7] = 'b0' + 'x'.repeat(30);
		const result = await bot.broadcast(chatIds, { concurrency: 4 }, { continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(refusals().length).toBeGreaterThan(0);
		expect(result.items[7].json).toMatchObject({ status: 'INVALID_INPUT' });
		const answersForBadChat = bot.sends().filter((entry) => chatOf(entry) === chatIds[7]);
		expect(answersForBadChat.filter((entry) => entry.status === 'INVALID_INPUT')).toHaveLength(1);
		expect(answersForBadChat.filter((entry) => entry.status !== 'TOO_REQUESTS')).toHaveLength(1);
		for (const [index, chatId] of chatIds.entries()) {
			if (index === 7) continue;
			expect(t.sandbox.messages(chatId)).toHaveLength(1);
			expect(result.items[index].json.message_id).toBeDefined();
		}
	});
});

describe('one gate per bot, for every execution in the process', () => {
	/** How long the first `count` requests took to start, from the first to the last (ms). */
	const spanOfFirst = (entries: RequestLogEntry[], count: number) => entries[count - 1].at - entries[0].at;

	test('the next execution for the bot starts at the pace the first one learned; another bot is not slowed', async () => {
		t.sandbox.configure({ rateLimit: { perSecond: 5 } });
		const first = await bot.broadcast(bot.recipients(15), { concurrency: 5 });
		expect(first.error).toBeUndefined();
		expect(refusals().length).toBeGreaterThan(0);
		const before = bot.sends().length;

		const chatIds = bot.recipients(5);
		const second = await bot.broadcast(chatIds, { concurrency: 5 });

		expect(second.error).toBeUndefined();
		expectEachOnce(chatIds);
		// Five at once would start within a few milliseconds; at the learned pace (a little under 5 per second)
		// they are about 200 ms apart. A request the sandbox notes late shortens one gap, by up to ~100 ms.
		const sends = bot.sends().slice(before);
		expect(spanOfFirst(sends, 5)).toBeGreaterThan(4 * 200 - 2 * 100);

		// A bot the process never saw refused is not paced: its five start at once (well under the 800 ms above,
		// even on a busy machine).
		bot = newBot(t.sandbox);
		const others = bot.recipients(5);
		expect((await bot.broadcast(others, { concurrency: 5 })).error).toBeUndefined();
		expect(spanOfFirst(bot.sends(), 5)).toBeLessThan(400);
	});

	test('two broadcasts of one bot at once: every recipient gets exactly one message, and both succeed', async () => {
		t.sandbox.configure({ rateLimit: { perSecond: 10 } });
		const audience = bot.recipients(50);
		const halves = [audience.slice(0, 25), audience.slice(25)];
		const results = await Promise.all(halves.map(async (chatIds) => await bot.broadcast(chatIds, { concurrency: 5 })));

		for (const result of results) {
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(25);
		}
		expect(refusals().length).toBeGreaterThan(0);
		expectEachOnce(halves[0]);
		expectEachOnce(halves[1]);
		// Both sent side by side: neither waited for the other to finish.
		const sentTo = (half: string[]) => bot.sends().filter((entry) => half.includes(chatOf(entry))).map((entry) => entry.at);
		expect(Math.min(...sentTo(halves[1]))).toBeLessThan(Math.max(...sentTo(halves[0])));
	});
});

describe('the shared cool-down', () => {
	test('Retry-After holds back every request of the execution, not just the refused one', async () => {
		const chatIds = bot.recipients(10);
		t.sandbox.injectFault({ kind: 'status', status: 'TOO_REQUESTS', httpStatus: 429, retryAfterSeconds: 1, method: 'sendMessage' });
		const result = await bot.broadcast(chatIds, { concurrency: 5 });

		expect(result.error).toBeUndefined();
		const [refused] = refusals();
		const coolDownEnds = answeredAt(refused) + 1000;
		const others = bot.sends().filter((entry) => entry !== refused);
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
		const chatIds = bot.recipients(1);
		const result = await bot.broadcast(chatIds, { retries: 0 });

		expect(result.error).toBeUndefined();
		expect(bot.sends().map((entry) => entry.status)).toEqual([
			'TOO_REQUESTS',
			'TOO_REQUESTS',
			'TOO_REQUESTS',
			'OK',
		]);
		expectEachOnce(chatIds);
	});
});

describe('a bot that stays rate limited', () => {
	test('fails after Rate Limit Wait with an error that says so, and nothing is sent', async () => {
		t.sandbox.injectFault({ kind: 'status', status: 'TOO_REQUESTS', method: 'sendMessage', times: -1 });
		const chatIds = bot.recipients(3);
		const result = await bot.broadcast(chatIds, { concurrency: 3, rateLimitWaitSeconds: 2 });

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
		expect(bot.sends().length).toBeGreaterThan(3);
		for (const chatId of chatIds) expect(t.sandbox.messages(chatId)).toEqual([]);
	});

	test('a Retry-After longer than Rate Limit Wait fails at once instead of waiting', async () => {
		t.sandbox.injectFault({ kind: 'status', status: 'TOO_REQUESTS', httpStatus: 429, retryAfterSeconds: 600, method: 'sendMessage' });
		const result = await bot.broadcast(bot.recipients(1), { rateLimitWaitSeconds: 5 });

		// The status is named whether it comes with HTTP 429 or 200.
		expect(result.error?.message).toBe('Rubika sendMessage failed: TOO_REQUESTS (HTTP 429) – injected fault');
		expect(result.error?.description).toMatch(/Rubika asked to wait 600 s \(Retry-After\), longer than Request Options → Rate Limit Wait allows \(5 s\)/);
		expect((result.error as unknown as { errorResponse: object }).errorResponse).toMatchObject({ http_code: 429, retry_after_ms: 600_000 });
		expect(bot.sends()).toHaveLength(1);
	});
});

/**
 * Request Options → Max Requests per Second, enforced in one place: the bot's rate-limit gate
 * (nodes/shared/transport/rateLimit.ts) gives every request a start slot on one schedule, shared by every
 * execution for the bot. Through the node, n8n's engine and the sandbox; the schedule on a fake clock:
 * rateLimitGate.test.ts.
 */
import { useProcessedItemsStore } from '../../tooling/harness/processedItems';
import { useSandbox } from '../support/sandbox';
import type { TestBot } from './broadcast';
import { newBot } from './broadcast';

describe('a broadcast through the node', () => {
	const t = useSandbox();
	let bot: TestBot;
	beforeEach(() => {
		bot = newBot(t.sandbox);
	});

	const sendTimes = () => bot.sends().map((entry) => entry.at);
	/**
	 * Requests start `intervalMs` apart. The sandbox notes a request when its event loop gets to it, and it shares
	 * the jest worker with n8n's engine; n8n's HTTP client also opens a new connection per request. On a loaded CI
	 * runner (2 cores, parallel jest workers) three requests were noted within 10 ms, so one arrival may be up to
	 * ~100 ms late. A late request shortens the gaps next to it, never a whole run: over k gaps the requests keep
	 * at least k × interval less twice that delay. A burst, or a pace twice too fast over a broadcast, still fails.
	 */
	function expectPace(times: number[], intervalMs: number) {
		const lateArrival = 100;
		for (let first = 0; first < times.length; first++) {
			for (let last = first + 1; last < times.length; last++) {
				expect(times[last] - times[first]).toBeGreaterThanOrEqual((last - first) * intervalMs - 2 * lateArrival);
			}
		}
	}

	test('parallel requests never go faster than Max Requests per Second together', async () => {
		const chatIds = bot.recipients(15);
		const result = await bot.broadcast(chatIds, { maxPerSecond: 20, concurrency: 4 });

		expect(result.error).toBeUndefined();
		const times = sendTimes();
		expect(times).toHaveLength(15);
		expectPace(times, 50);
	});

	test('two executions for one bot at once share its schedule: Max Requests per Second holds for both together', async () => {
		const audience = bot.recipients(16);
		const results = await Promise.all(
			[audience.slice(0, 8), audience.slice(8)].map(async (chatIds) => await bot.broadcast(chatIds, { maxPerSecond: 10, concurrency: 4 })),
		);

		for (const result of results) expect(result.error).toBeUndefined();
		const times = sendTimes();
		expect(times).toHaveLength(16);
		expectPace(times, 100);
	});

	test('chats skipped by Skip Chats Already Sent take no place in the pacing', async () => {
		await useProcessedItemsStore();
		const chatIds = bot.recipients(6);
		expect((await bot.broadcast(chatIds.slice(0, 3), {}, { sendOptions: { campaignId: 'news' } })).error).toBeUndefined();
		const before = bot.sends().length;

		const started = Date.now();
		const result = await bot.broadcast(chatIds, { maxPerSecond: 5 }, { sendOptions: { campaignId: 'news' } });

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.skipped === true)).toEqual([true, true, true, false, false, false]);
		const times = sendTimes().slice(before);
		expect(times).toHaveLength(3);
		// Had the three skipped items taken slots (200 ms each at 5/s), the first send would wait 600 ms.
		expect(times[0] - started).toBeLessThan(400);
		expectPace(times, 200);
	});
});

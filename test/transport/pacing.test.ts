/**
 * Request Options → Max Requests per Second, enforced in one place: the execution's rate-limit gate
 * (nodes/shared/rateLimit.ts) gives every request a start slot under one shared pace. First on a fake clock,
 * then through the node, n8n's engine and the sandbox.
 */
import type { INodeParameters } from 'n8n-workflow';

import { RateLimitGate } from '../../nodes/shared/rateLimit';
import { DEMO_BOT_ID } from '../../sandbox';
import { useProcessedItemsStore } from '../../tooling/harness/processedItems';
import { useActionSandbox } from '../actions/helpers';
import { FakeClock } from './fakeClock';

describe('the pace on a fake clock', () => {
	let clock: FakeClock;
	beforeEach(() => {
		clock = new FakeClock();
	});
	const gate = (maxPerSecond: number) =>
		new RateLimitGate({ maxPerSecond, maxWaitMs: 120_000, baseDelayMs: 400, maxDelayMs: 8_000 }, clock);
	const admitAll = async (limiter: RateLimitGate, count: number) =>
		(await clock.run(Promise.all(Array.from({ length: count }, async () => await limiter.admit())))).map((admission) => admission!);

	test('starts with the first request, and parallel requests share one pace', async () => {
		const admissions = await admitAll(gate(10), 5);
		expect(admissions.map(({ startedAt }) => startedAt)).toEqual([0, 100, 200, 300, 400]);
		expect(admissions.map(({ paced }) => paced)).toEqual([false, true, true, true, true]);
	});

	test('a pause in sending saves up no burst', async () => {
		const limiter = gate(10);
		await admitAll(limiter, 1);
		await clock.advance(1000);
		expect((await admitAll(limiter, 2)).map(({ startedAt }) => startedAt)).toEqual([1000, 1100]);
	});

	test('without Max Requests per Second (0), requests are not paced until Rubika refuses one', async () => {
		expect((await admitAll(gate(0), 5)).map(({ startedAt }) => startedAt)).toEqual([0, 0, 0, 0, 0]);
	});
});

describe('a broadcast through the node', () => {
	const t = useActionSandbox('message');

	function recipients(count: number): string[] {
		return Array.from({ length: count }, (_, index) => {
			const user = t.sandbox.addUser({ first_name: `Recipient ${index + 1}` });
			return t.sandbox.privateChat(DEMO_BOT_ID, user.user_id).chat_id;
		});
	}

	function broadcast(chatIds: string[], requestOptions: INodeParameters, sendOptions: INodeParameters = {}) {
		return t.run(
			{ operation: 'sendMessage', chatId: '={{ $json.chat_id }}', text: 'News', requestOptions, sendOptions },
			chatIds.map((chatId) => ({ json: { chat_id: chatId } })),
		);
	}

	const sendTimes = () => t.sandbox.requestsFor('sendMessage').map((entry) => entry.at);
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
		const chatIds = recipients(15);
		const result = await broadcast(chatIds, { maxPerSecond: 20, concurrency: 4 });

		expect(result.error).toBeUndefined();
		const times = sendTimes();
		expect(times).toHaveLength(15);
		expectPace(times, 50);
	});

	test('chats skipped by Skip Chats Already Sent take no place in the pacing', async () => {
		await useProcessedItemsStore();
		const chatIds = recipients(6);
		expect((await broadcast(chatIds.slice(0, 3), {}, { campaignId: 'news' })).error).toBeUndefined();
		const before = t.sandbox.requestsFor('sendMessage').length;

		const started = Date.now();
		const result = await broadcast(chatIds, { maxPerSecond: 5 }, { campaignId: 'news' });

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.skipped === true)).toEqual([true, true, true, false, false, false]);
		const times = sendTimes().slice(before);
		expect(times).toHaveLength(3);
		// Had the three skipped items taken slots (200 ms each at 5/s), the first send would wait 600 ms.
		expect(times[0] - started).toBeLessThan(400);
		expectPace(times, 200);
	});
});

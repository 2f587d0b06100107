/**
 * The rate-limit gate (nodes/shared/rateLimit.ts) on a fake clock: the shared cool-down, its backoff, the
 * adaptive pace (AIMD) and the wait budget, in microseconds. The same gate through the node and the sandbox:
 * rate-limit.test.ts; its pacing under Max Requests per Second: pacing.test.ts.
 */
import type { Admission, RateLimitSettings } from '../../nodes/shared/rateLimit';
import { RateLimitGate } from '../../nodes/shared/rateLimit';
import { FakeClock } from './fakeClock';

let clock: FakeClock;
beforeEach(() => {
	clock = new FakeClock();
	// Backoff without Retry-After takes the top of its jitter range, so cool-downs are exact.
	jest.spyOn(Math, 'random').mockReturnValue(1);
});
afterEach(() => jest.restoreAllMocks());

function gate(settings: Partial<RateLimitSettings> = {}): RateLimitGate {
	return new RateLimitGate({ maxPerSecond: 0, maxWaitMs: 120_000, baseDelayMs: 400, maxDelayMs: 8_000, ...settings }, clock);
}

/** `count` requests asking to start at once; when each started. */
async function starts(limiter: RateLimitGate, count: number): Promise<number[]> {
	const admissions = await clock.run(Promise.all(Array.from({ length: count }, async () => await limiter.admit())));
	return admissions.map((admission) => admission!.startedAt);
}

const at = (startedAt: number): Admission => ({ startedAt, paced: false });
/** Gaps between consecutive start times. */
const gaps = (times: number[]) => times.slice(1).map((time, index) => time - times[index]);

describe('the shared cool-down', () => {
	test('a refusal holds back every request until its Retry-After has passed', async () => {
		const limiter = gate();
		const [first] = await starts(limiter, 1);
		expect(limiter.refused(at(first), 1000)).toBe(1000);
		const after = await starts(limiter, 3);
		expect(Math.min(...after)).toBe(1000);
	});

	test('without Retry-After it grows with each refusal in a row, and a success starts it again from the base', async () => {
		const limiter = gate({ baseDelayMs: 400, maxDelayMs: 8_000 });
		const resumes: number[] = [];
		for (let refusal = 0; refusal < 3; refusal++) {
			const [started] = await starts(limiter, 1);
			resumes.push(limiter.refused(at(started), undefined) - started);
		}
		expect(resumes).toEqual([400, 800, 1600]);
		const [succeeded] = await starts(limiter, 1);
		limiter.succeeded(at(succeeded));
		const [refusedAgain] = await starts(limiter, 1);
		expect(limiter.refused(at(refusedAgain), undefined) - refusedAgain).toBe(400);
	});

	test('is never longer than the wait budget, even when Retry-After asks for more', async () => {
		const limiter = gate({ maxWaitMs: 5_000 });
		await clock.advance(100);
		expect(limiter.refused(at(100), 600_000)).toBe(5_100);
	});

	test('a refusal of a request sent before the cool-down began only lengthens it to its own Retry-After', async () => {
		const limiter = gate();
		const [a, b] = await starts(limiter, 2);
		await clock.advance(10);
		expect(limiter.refused(at(a), 1000)).toBe(1010);
		// No new strike and no further decrease: the request carries no news about the pace.
		expect(limiter.refused(at(b), undefined)).toBe(1010);
		expect(limiter.refused(at(b), 2000)).toBe(2010);
	});

	test('a cool-down declared while a request waits for its start slot holds that request back too', async () => {
		const limiter = gate({ maxPerSecond: 10 });
		const [first] = await starts(limiter, 1);
		const waiting = limiter.admit();
		await clock.advance(50);
		limiter.refused(at(first), 1000);
		const admission = await clock.run(waiting);
		expect(admission!.startedAt).toBe(1050);
	});
});

describe('the adaptive pace', () => {
	test('a refusal takes a quarter off the rate that met the limit', async () => {
		const limiter = gate();
		const burst = await starts(limiter, 8);
		expect(burst).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
		limiter.refused(at(0), 0);
		// 8 requests in the last second → 6 per second.
		for (const gap of gaps(await starts(limiter, 4))) expect(gap).toBeCloseTo(1000 / 6, 6);
	});

	test('under Max Requests per Second, the first decrease starts from the rate sent at', async () => {
		const limiter = gate({ maxPerSecond: 20 });
		const sent = await starts(limiter, 20);
		limiter.refused(at(sent[19]), 0);
		for (const gap of gaps(await starts(limiter, 4))) expect(gap).toBeCloseTo(1000 / 15, 6);
	});

	test('refusals within a second of a decrease lengthen the cool-down but lower the pace only once', async () => {
		const limiter = gate();
		await starts(limiter, 8);
		limiter.refused(at(0), 0);
		const [next] = await starts(limiter, 1);
		limiter.refused(at(next), 0);
		for (const gap of gaps(await starts(limiter, 3))) expect(gap).toBeCloseTo(1000 / 6, 6);
	});

	test('grows back by about one request per second for each second of paced successes, never above Max Requests per Second', async () => {
		const limiter = gate({ maxPerSecond: 20 });
		const sent = await starts(limiter, 20);
		limiter.refused(at(sent[19]), 0);
		const paces: number[] = [];
		let last = clock.now();
		for (let request = 0; request < 200; request++) {
			const admission = (await clock.run(limiter.admit()))!;
			if (request > 0) paces.push(1000 / (admission.startedAt - last));
			last = admission.startedAt;
			limiter.succeeded(admission);
		}
		// Each start reserves the next slot at the pace of its time; the first start after the refusal is not
		// held back, so the first growth comes from the second success and shows in the gap after the third.
		expect(paces.slice(0, 3)).toEqual([expect.closeTo(15, 6), expect.closeTo(15, 6), expect.closeTo(15 + 1 / 15, 6)]);
		// About one second of sending at 15–16 per second adds about one request per second.
		expect(paces[15]).toBeGreaterThan(15.9);
		expect(paces[15]).toBeLessThan(16.2);
		expect(Math.max(...paces)).toBeCloseTo(20, 6);
		expect(paces.at(-1)).toBeCloseTo(20, 6);
	});

	test('a success the pace did not hold back does not grow it', async () => {
		const limiter = gate();
		await starts(limiter, 8);
		limiter.refused(at(0), 0);
		const [slow] = await starts(limiter, 1);
		// Answers slower than the pace: the next start is not held back.
		await clock.advance(1000);
		limiter.succeeded({ startedAt: slow, paced: false });
		for (const gap of gaps(await starts(limiter, 3))) expect(gap).toBeCloseTo(1000 / 6, 6);
	});

	test('never drops below one request every five seconds', async () => {
		const limiter = gate({ maxDelayMs: 100 });
		for (let refusal = 0; refusal < 30; refusal++) {
			const [started] = await starts(limiter, 1);
			limiter.refused(at(started), 0);
			await clock.advance(1000);
		}
		const times = await starts(limiter, 3);
		expect(gaps(times)).toEqual([5000, 5000]);
	});
});

describe('the wait budget (admit with a deadline)', () => {
	test('refuses to wait for a cool-down that ends past the deadline', async () => {
		const limiter = gate();
		limiter.refused(at(0), 3000);
		expect(await clock.run(limiter.admit(2999))).toBeUndefined();
		expect(clock.now()).toBe(0);
		expect(await clock.run(limiter.admit(3000))).toEqual({ startedAt: 3000, paced: false });
	});

	test('refuses a start slot past the deadline, without reserving it', async () => {
		const limiter = gate({ maxPerSecond: 1 });
		await starts(limiter, 1);
		expect(await clock.run(limiter.admit(999))).toBeUndefined();
		expect(await starts(limiter, 2)).toEqual([1000, 2000]);
	});
});

/**
 * The bot's rate-limit gate (nodes/shared/transport/rateLimit.ts) on a fake clock: the one schedule, the shared
 * cool-down and its growth, the learned pace, the wait budget, and one gate per bot; seconds of pacing take
 * microseconds. The same gate through the node and the sandbox: rate-limit.test.ts and pacing.test.ts.
 */
import type { Admission, RateLimitSettings } from '../../nodes/shared/transport/rateLimit';
import { RateLimitGate, gateForBot } from '../../nodes/shared/transport/rateLimit';
import { FakeClock } from './fakeClock';

let clock: FakeClock;
beforeEach(() => {
	clock = new FakeClock();
	// A cool-down takes the top of its jitter range, so cool-downs are exact.
	jest.spyOn(Math, 'random').mockReturnValue(1);
});
afterEach(() => jest.restoreAllMocks());

const UNLIMITED: RateLimitSettings = { maxPerSecond: 0, maxWaitMs: 120_000 };
const limitedTo = (maxPerSecond: number): RateLimitSettings => ({ ...UNLIMITED, maxPerSecond });

/** `count` requests of one execution asking to start at once; when each started. */
async function starts(gate: RateLimitGate, count: number, settings = UNLIMITED): Promise<number[]> {
	const admissions = await clock.run(Promise.all(Array.from({ length: count }, async () => await gate.admit(settings))));
	return admissions.map((admission) => admission!.startedAt);
}

/** `count` requests one after the other, each succeeding; the admissions. */
async function succeedInTurn(gate: RateLimitGate, count: number): Promise<Admission[]> {
	const admissions: Admission[] = [];
	for (let request = 0; request < count; request++) {
		const admission = (await clock.run(gate.admit(UNLIMITED)))!;
		gate.succeeded(admission);
		admissions.push(admission);
	}
	return admissions;
}

/** The pace the next requests start at, in requests per second: the gap between two that ask at once. */
async function paceOf(gate: RateLimitGate): Promise<number> {
	const [first, second] = await starts(gate, 2);
	return 1000 / (second - first);
}

const at = (startedAt: number, paced = false): Admission => ({ startedAt, paced });
/** Gaps between consecutive start times. */
const gaps = (times: number[]) => times.slice(1).map((time, index) => time - times[index]);

describe('the schedule', () => {
	test('without a refusal and without Max Requests per Second nothing is paced', async () => {
		expect(await starts(new RateLimitGate(clock), 5)).toEqual([0, 0, 0, 0, 0]);
	});

	test('Max Requests per Second spaces requests from the first, and a pause saves up no burst', async () => {
		const gate = new RateLimitGate(clock);
		expect(await starts(gate, 5, limitedTo(10))).toEqual([0, 100, 200, 300, 400]);
		await clock.advance(1000);
		expect(await starts(gate, 2, limitedTo(10))).toEqual([1400, 1500]);
	});

	test('two executions at 10 per second each share the bot\'s schedule: 10 per second together', async () => {
		const gate = new RateLimitGate(clock);
		const both = await clock.run(
			Promise.all([...Array.from({ length: 3 }, () => gate.admit(limitedTo(10))), ...Array.from({ length: 3 }, () => gate.admit(limitedTo(10)))]),
		);
		expect(both.map((admission) => admission!.startedAt).sort((a, b) => a - b)).toEqual([0, 100, 200, 300, 400, 500]);
	});

	test('each request keeps its own execution\'s interval from the one before it', async () => {
		const gate = new RateLimitGate(clock);
		const slow = gate.admit(limitedTo(2));
		const fast = gate.admit(limitedTo(20));
		const slowAgain = gate.admit(limitedTo(2));
		const times = (await clock.run(Promise.all([slow, fast, slowAgain]))).map((admission) => admission!.startedAt);
		// The 20/s request follows 50 ms after the one before it; the 2/s one keeps 500 ms after that.
		expect(times).toEqual([0, 50, 550]);
	});
});

describe('the shared cool-down', () => {
	test('a refusal holds back every request until its Retry-After has passed', async () => {
		const gate = new RateLimitGate(clock);
		await succeedInTurn(gate, 10);
		expect(gate.refused(at(0), 1000, 120_000)).toBe(1000);
		expect(Math.min(...(await starts(gate, 3)))).toBe(1000);
	});

	test('without Retry-After, refusals in a row double it from one interval of the pace, past any fixed cap, up to the wait budget', async () => {
		const gate = new RateLimitGate(clock);
		await succeedInTurn(gate, 1);
		const coolDowns: number[] = [];
		for (let refusal = 0; refusal < 9; refusal++) {
			const [started] = await starts(gate, 1);
			coolDowns.push(gate.refused(at(started), undefined, 60_000) - started);
		}
		// One success in the second before the first refusal: a pace of 0.85/s, one interval 1176 ms. Each later
		// refusal also takes 15 % off the pace, so the cool-down more than doubles.
		expect(coolDowns[0]).toBe(Math.round(1000 / 0.85));
		for (const [index, coolDown] of coolDowns.slice(1).entries()) {
			expect(coolDown).toBeGreaterThanOrEqual(Math.min(2 * coolDowns[index], 60_000));
		}
		expect(coolDowns.filter((coolDown) => coolDown > 8_000).length).toBeGreaterThan(2);
		expect(coolDowns.at(-1)).toBe(60_000);
	});

	test('a refusal before anything went through learns no pace: the cool-down starts at 400 ms and doubles', async () => {
		const gate = new RateLimitGate(clock);
		const coolDowns: number[] = [];
		for (let refusal = 0; refusal < 4; refusal++) {
			const [started] = await starts(gate, 1);
			coolDowns.push(gate.refused(at(started), undefined, 60_000) - started);
		}
		expect(coolDowns).toEqual([400, 800, 1600, 3200]);
		expect(await starts(gate, 3)).toEqual([6000, 6000, 6000]);
	});

	test('a success ends the run of refusals: the next cool-down is one interval of the pace again', async () => {
		const gate = new RateLimitGate(clock);
		await succeedInTurn(gate, 1);
		for (let refusal = 0; refusal < 2; refusal++) {
			const [started] = await starts(gate, 1);
			gate.refused(at(started), undefined, 120_000);
		}
		await succeedInTurn(gate, 1);
		await clock.advance(1000);
		const [third] = await starts(gate, 1);
		const coolDown = gate.refused(at(third), undefined, 120_000) - third;
		// Cool-downs are whole milliseconds.
		expect(Math.abs(coolDown - 1000 / (await paceOf(gate)))).toBeLessThanOrEqual(0.5);
	});

	test('is never longer than the wait budget of the request it refused, even when Retry-After asks for more', async () => {
		const gate = new RateLimitGate(clock);
		await clock.advance(100);
		expect(gate.refused(at(100), 600_000, 5_000)).toBe(5_100);
	});

	test('a refusal of a request sent before the cool-down began only lengthens it to its own Retry-After', async () => {
		const gate = new RateLimitGate(clock);
		const [a, b] = await starts(gate, 2);
		await clock.advance(10);
		expect(gate.refused(at(a), 1000, 120_000)).toBe(1010);
		// No new strike and no further decrease: the request carries no news about the pace.
		expect(gate.refused(at(b), undefined, 120_000)).toBe(1010);
		expect(gate.refused(at(b), 2000, 120_000)).toBe(2010);
	});

	test('a cool-down declared while a request waits for its start slot holds that request back too', async () => {
		const gate = new RateLimitGate(clock);
		await succeedInTurn(gate, 10);
		const waiting = gate.admit(limitedTo(10));
		await clock.advance(50);
		gate.refused(at(0), 1000, 120_000);
		expect((await clock.run(waiting))!.startedAt).toBe(1050);
	});
});

describe('the learned pace', () => {
	test('the first refusal counts the requests that went through in the second before it; the pace is 85 % of that', async () => {
		const gate = new RateLimitGate(clock);
		await succeedInTurn(gate, 8);
		gate.refused(at(clock.now()), 0, 120_000);
		for (const gap of gaps(await starts(gate, 4))) expect(gap).toBeCloseTo(1000 / (8 * 0.85), 6);
	});

	test('climbs back to 98 % of the refused rate, then probes above it, slowly and then faster', async () => {
		const gate = new RateLimitGate(clock);
		await succeedInTurn(gate, 20);
		gate.refused(at(clock.now()), 0, 120_000);
		expect(await paceOf(gate)).toBeCloseTo(17, 6);
		const settled = 20 * 0.98;
		// One request at a time, each held back by the pace: the pace each one started at.
		const sent = await succeedInTurn(gate, 1000);
		const paces = gaps(sent.map(({ startedAt }) => startedAt)).map((gap) => 1000 / gap);
		for (const [index, pace] of paces.slice(1).entries()) expect(pace).toBeGreaterThanOrEqual(paces[index] - 1e-9);
		const settledAt = paces.findIndex((pace) => Math.abs(pace - settled) < 1e-9);
		expect(settledAt).toBeGreaterThan(0);
		expect(settledAt).toBeLessThan(200);
		// From there, +1 % after 30 successes and 10 seconds, +4 % after 20 seconds.
		const after = (seconds: number) => paces[settledAt + Math.round(seconds * settled)] / settled;
		expect(after(5)).toBeLessThan(1.003);
		expect(after(10)).toBeCloseTo(1.01, 2);
		expect(after(20)).toBeCloseTo(1.04, 2);
	});

	test('a refusal while the pace held the request back takes 85 % of the pace', async () => {
		const gate = new RateLimitGate(clock);
		await succeedInTurn(gate, 10);
		gate.refused(at(clock.now()), 0, 120_000);
		await clock.advance(1000);
		const [first, held] = (await clock.run(Promise.all([gate.admit(UNLIMITED), gate.admit(UNLIMITED)]))).map((admission) => admission!);
		expect(held.paced).toBe(true);
		const pace = 1000 / (held.startedAt - first.startedAt);
		expect(pace).toBeCloseTo(8.5, 6);
		gate.refused(held, 0, 120_000);
		expect(await paceOf(gate)).toBeCloseTo(pace * 0.85, 6);
	});

	test('refusals within a second of a decrease lengthen the cool-down but lower the pace only once', async () => {
		const gate = new RateLimitGate(clock);
		await succeedInTurn(gate, 8);
		gate.refused(at(clock.now()), 0, 120_000);
		const [next] = await starts(gate, 1);
		gate.refused(at(next), 0, 120_000);
		for (const gap of gaps(await starts(gate, 3))) expect(gap).toBeCloseTo(1000 / 6.8, 6);
	});

	test('a success the pace did not hold back does not grow it', async () => {
		const gate = new RateLimitGate(clock);
		await succeedInTurn(gate, 8);
		gate.refused(at(clock.now()), 0, 120_000);
		const [slow] = await starts(gate, 1);
		// An answer slower than the pace: the next start is not held back.
		await clock.advance(1000);
		gate.succeeded(at(slow, false));
		for (const gap of gaps(await starts(gate, 3))) expect(gap).toBeCloseTo(1000 / 6.8, 6);
	});

	test('Max Requests per Second below the pace is what holds requests back: the pace does not grow', async () => {
		const gate = new RateLimitGate(clock);
		await succeedInTurn(gate, 20);
		gate.refused(at(clock.now()), 0, 120_000);
		for (let request = 0; request < 50; request++) {
			const admission = (await clock.run(gate.admit(limitedTo(5))))!;
			expect(admission.paced).toBe(false);
			gate.succeeded(admission);
		}
		expect(await paceOf(gate)).toBeCloseTo(17, 6);
	});

	test('never drops below one request a minute', async () => {
		const gate = new RateLimitGate(clock);
		await succeedInTurn(gate, 10);
		for (let refusal = 0; refusal < 40; refusal++) {
			const [started] = await starts(gate, 1);
			gate.refused(at(started), 0, 120_000);
			await clock.advance(1000);
		}
		expect(gaps(await starts(gate, 3))).toEqual([60_000, 60_000]);
	});

	test.each([1, 2, 5, 30])('finds a limit of %i a second it was never told, and settles just under it', async (limit) => {
		// A bot limited as the sandbox limits it: at most `limit` accepted requests in any second, five requests
		// in parallel, each answered after 20 ms. The first burst is refused; then the pace settles.
		const gate = new RateLimitGate(clock);
		const accepted: number[] = [];
		const send = async (): Promise<void> => {
			for (;;) {
				const admission = (await gate.admit(UNLIMITED))!;
				const now = clock.now();
				const allowed = accepted.filter((time) => now - time < 1000).length < limit;
				if (allowed) accepted.push(now);
				await clock.sleep(20);
				if (allowed) {
					gate.succeeded(admission);
					return;
				}
				gate.refused(admission, undefined, 120_000);
			}
		};
		const worker = async (count: number) => {
			for (let request = 0; request < count; request++) await send();
		};
		await clock.run(Promise.all(Array.from({ length: 5 }, () => worker(4 * limit))));
		expect(accepted).toHaveLength(20 * limit);
		expect(gaps(accepted)).toContainEqual(expect.closeTo(1000 / (limit * 0.98), 6));
	});
});

describe('the wait budget (admit with a deadline)', () => {
	test('refuses to wait for a cool-down that ends past the deadline', async () => {
		const gate = new RateLimitGate(clock);
		gate.refused(at(0), 3000, 120_000);
		expect(await clock.run(gate.admit(UNLIMITED, 2999))).toBeUndefined();
		expect(clock.now()).toBe(0);
		expect(await clock.run(gate.admit(UNLIMITED, 3000))).toEqual({ startedAt: 3000, paced: false });
	});

	test('refuses a start slot past the deadline, without taking it', async () => {
		const gate = new RateLimitGate(clock);
		await starts(gate, 1, limitedTo(1));
		expect(await clock.run(gate.admit(limitedTo(1), 999))).toBeUndefined();
		expect(await starts(gate, 2, limitedTo(1))).toEqual([1000, 2000]);
	});
});

describe('one gate per bot', () => {
	test('the same bot gets the same gate in every execution, another bot another one', () => {
		expect(gateForBot('bot-a')).toBe(gateForBot('bot-a'));
		expect(gateForBot('bot-b')).not.toBe(gateForBot('bot-a'));
	});

	test('beyond 1,000 bots the least recently used is forgotten, so memory stays bounded', () => {
		const first = gateForBot('the first bot');
		for (let bot = 0; bot < 999; bot++) gateForBot(`bot ${bot}`);
		expect(gateForBot('the first bot')).toBe(first);
		for (let bot = 999; bot < 2000; bot++) gateForBot(`bot ${bot}`);
		expect(gateForBot('the first bot')).not.toBe(first);
	});
});

/**
 * Rubika's rate limit, handled per bot for every execution of this n8n process: the one pacer.
 *
 * Rubika says how much a bot may send only by refusing with TOO_REQUESTS, without a number and without
 * Retry-After (facts §1). A request that backs off on its own does not help: the other requests keep hitting the
 * limit meanwhile, and two broadcasts of one bot that each learn the limit on their own send twice the rate
 * together. So every Bot API call of every execution for one bot passes one gate (`gateForBot`, keyed by a hash
 * of the base URL and token, never the token), which lives as long as the n8n process (each worker of queue mode
 * has its own) and
 *
 * - gives every attempt a start slot on one schedule: each request starts at least one interval after the one
 *   before it, the interval of the bot's learned pace or of its own execution's Max Requests per Second,
 *   whichever is slower; items that send nothing take no slot;
 * - learns the pace from the refusals: the first one measures how many requests went through in the second
 *   before it (the limit, when Rubika counts per second); every refusal takes the pace below the rate that was
 *   refused, and while nothing is refused the pace climbs back to just under that rate, then probes above it,
 *   slowly at first and faster the longer nothing is refused, so a limit that rose is found again;
 * - after a refusal holds every request until a cool-down ends (Retry-After when Rubika sends one); while
 *   refusals go on without a success between them the cool-down doubles, with no cap but the wait budget;
 * - tries a refused request again until it has been refused for longer than its execution's wait budget (Rate
 *   Limit Wait), not a fixed number of times: a limit the gate has adapted to costs time, not items, while a
 *   bot that stays limited still fails after a bounded time.
 *
 * Without a refusal and without Max Requests per Second nothing is paced: a bot that is never limited is never
 * slowed.
 */
import { LruMap } from '../lru';
import type { Clock } from '../pause';
import { SYSTEM_CLOCK } from '../pause';
import { backoffDelay } from './retryPolicy';

/** One execution's Request Options for the gate. */
export interface RateLimitSettings {
	/** Max Requests per Second; 0 means none. Applies to this execution's requests, on the bot's one schedule. */
	maxPerSecond: number;
	/** Rate Limit Wait: how long one request may keep being refused before it fails; also the longest cool-down. */
	maxWaitMs: number;
}

/** One attempt let through the gate: when it started, and whether the learned pace held it back. */
export interface Admission {
	startedAt: number;
	paced: boolean;
}

/**
 * A refusal takes the pace to 85 % of the rate that was refused. A deeper cut (TCP halves) costs more while the
 * pace climbs back; a shallower one keeps refusals coming while a burst above the limit ends.
 */
const DECREASE_FACTOR = 0.85;
/**
 * The pace climbs back to this share of the rate that was refused, and stays there before it probes above. A
 * limit counted per second refuses the (n+1)th request within a second; at 98 % the starts of one second keep
 * 20 ms in hand, for starts that reach Rubika closer together than they left (the network, a busy sandbox).
 */
const SETTLED_SHARE = 0.98;
/** Below the settled pace, each success closes this share of the gap per second of sending. */
const CLIMB_PER_SECOND = 0.7;
/**
 * Above the settled pace, the pace grows by PROBE_GROWTH × x², x = min(successes / PROBE_SUCCESSES, seconds /
 * PROBE_SECONDS) since it settled: +1 % after 30 successes and 10 seconds, +4 % after twice both, +100 % after
 * ten times. Both counts, because a probe that ends in a refusal costs a slot, which is a second at 1 request/s.
 */
const PROBE_GROWTH = 0.01;
const PROBE_SUCCESSES = 30;
const PROBE_SECONDS = 10;
/**
 * Limits are counted over a second or more, so refusals within a second of a decrease may still be caused by
 * the requests sent before it: they lengthen the cool-down, but do not lower the pace again.
 */
const DECREASE_SPACING_MS = 1000;
/** The slowest pace: one request a minute; cool-downs and the wait budget handle anything slower. */
const MIN_PACE = 1 / 60;
/** The first cool-down while no pace is learned; it doubles with each refusal in a row. */
const FIRST_COOL_DOWN_MS = 400;
/** The window the first refusal counts the requests that went through in. */
const WINDOW_MS = 1000;

export class RateLimitGate {
	/** No attempt starts before this time (ms since the epoch): the cool-down. */
	private notBefore = 0;
	/**
	 * When the latest cool-down was declared: requests started before it, or in the same millisecond, were let
	 * through before it was known, and carry no news when refused.
	 */
	private coolDownDeclaredAt = -Infinity;
	/** Refusals in a row without a success in between: the exponent of the cool-down. */
	private strikes = 0;
	/** The learned pace, in requests per second; undefined until the bot is first refused. */
	private pace: number | undefined;
	/** The rate the latest decrease was measured at: the pace settles just under it. */
	private refusedRate = 0;
	/** Successes and seconds of sending the pace held back since it settled: how far it probes above. */
	private probe = { successes: 0, seconds: 0 };
	private lastDecreaseAt = -Infinity;
	/** The latest start time handed out; the next request's slot is one interval after it. */
	private lastSlot = -Infinity;
	private lastStart = -Infinity;
	/** Grows with every cool-down: a slot handed out before one is void, and its holder takes a new one. */
	private epoch = 0;
	/** Start times of the attempts that succeeded in the last second: what the first refusal counts. */
	private readonly recentSuccesses: number[] = [];

	/** `clock`: time and waiting; tests pass a fake one. */
	constructor(readonly clock: Clock = SYSTEM_CLOCK) {}

	/**
	 * Waits for the cool-down and a start slot. Undefined when the attempt could not start by `deadline`: the
	 * caller's wait budget would run out first, so it should fail now instead of waiting.
	 */
	async admit(settings: RateLimitSettings, deadline = Infinity): Promise<Admission | undefined> {
		for (;;) {
			const now = this.clock.now();
			const cap = settings.maxPerSecond > 0 ? settings.maxPerSecond : Infinity;
			const rate = Math.min(this.pace ?? Infinity, cap);
			const slot = Math.max(now, this.notBefore, this.lastSlot + 1000 / rate);
			if (slot > deadline) return undefined;
			this.lastSlot = slot;
			// Held back by the learned pace (not by Max Requests per Second, not by a cool-down): a success then
			// says the pace could go faster.
			const paced = this.pace !== undefined && this.pace <= cap && slot > now && slot > this.notBefore;
			const epoch = this.epoch;
			if (slot > now) await this.clock.sleep(slot - now);
			// A timer that fired late, or a busy process, delays a start; the next one must still keep its interval
			// from the start as it happened, or the two reach Rubika closer together than the pace allows.
			while (epoch === this.epoch && this.clock.now() < this.lastStart + 1000 / rate) {
				await this.clock.sleep(this.lastStart + 1000 / rate - this.clock.now());
			}
			// A cool-down declared while this request waited voids its slot.
			if (epoch !== this.epoch) continue;
			const startedAt = this.clock.now();
			this.lastStart = Math.max(this.lastStart, startedAt);
			return { startedAt, paced };
		}
	}

	succeeded(admission: Admission): void {
		if (admission.startedAt > this.coolDownDeclaredAt) this.strikes = 0;
		const now = this.clock.now();
		this.recentSuccesses.push(admission.startedAt);
		while (this.recentSuccesses.length > 0 && this.recentSuccesses[0] <= now - 2 * WINDOW_MS) this.recentSuccesses.shift();
		// Grow only when the pace held this request back: a pace that is not what limits the sending (slow
		// answers, few parallel requests) would otherwise grow far past anything tried.
		if (this.pace === undefined || !admission.paced) return;
		const seconds = 1 / this.pace;
		const settled = this.refusedRate * SETTLED_SHARE;
		if (this.pace < settled * 0.999) {
			this.pace += (settled - this.pace) * Math.min(1, seconds * CLIMB_PER_SECOND);
			if (this.pace >= settled * 0.995) this.pace = settled;
			return;
		}
		this.probe.successes++;
		this.probe.seconds += seconds;
		const x = Math.min(this.probe.successes / PROBE_SUCCESSES, this.probe.seconds / PROBE_SECONDS);
		this.pace = settled * (1 + PROBE_GROWTH * x * x);
	}

	/**
	 * Records a refusal and returns when the request may try again. Retry-After, when given, is honoured as it
	 * is (up to the wait budget); a refusal of a request sent before the latest cool-down began only ever
	 * lengthens that cool-down to its own Retry-After.
	 */
	refused(admission: Admission, retryAfterMs: number | undefined, maxWaitMs: number): number {
		const now = this.clock.now();
		if (admission.startedAt <= this.coolDownDeclaredAt) {
			if (retryAfterMs !== undefined) this.coolDownUntil(now + retryAfterMs, maxWaitMs);
			return Math.max(this.notBefore, now);
		}
		this.strikes++;
		const window = this.successesBefore(admission);
		if (now - this.lastDecreaseAt >= DECREASE_SPACING_MS) {
			const refusedRate = this.rateAtRefusal(admission, window.length);
			if (refusedRate !== undefined) {
				this.lastDecreaseAt = now;
				this.refusedRate = refusedRate;
				this.pace = Math.max(MIN_PACE, refusedRate * DECREASE_FACTOR);
				this.probe = { successes: 0, seconds: 0 };
			}
		}
		// The first refusal in a row waits one interval of the pace, which the schedule adds anyway, and at least
		// until a second has passed since the first request of the second that met the limit (after a burst, the
		// pace alone would send again while the limit still counts the burst); each further refusal in a row
		// doubles it. Without a pace (nothing went through yet) it starts from a short base.
		const base = this.pace === undefined ? FIRST_COOL_DOWN_MS : 1000 / this.pace;
		const windowFrees = window.length > 0 ? Math.min(...window) + WINDOW_MS - now : 0;
		this.coolDownDeclaredAt = now;
		this.coolDownUntil(now + (retryAfterMs ?? Math.max(windowFrees, backoffDelay(base, Infinity, this.strikes))), maxWaitMs);
		return this.notBefore;
	}

	/** Start times of the successes in the second before the refused request. */
	private successesBefore(admission: Admission): number[] {
		const since = admission.startedAt - WINDOW_MS;
		return this.recentSuccesses.filter((time) => time > since && time <= admission.startedAt);
	}

	/**
	 * The rate a refusal came at. For the bot's first, the successes in the second before the refused request (a
	 * sending faster than the limit for a second meets it exactly there); none at all says nothing about a rate,
	 * so no pace is learned from it. Later, the pace when it held the request back, else what went through in
	 * that second when that was less (the limit is below what was sent), else the pace.
	 */
	private rateAtRefusal(admission: Admission, succeeded: number): number | undefined {
		if (this.pace === undefined) return succeeded > 0 ? succeeded : undefined;
		if (admission.paced || succeeded === 0) return this.pace;
		return Math.min(this.pace, succeeded);
	}

	/** The shared cool-down, never longer than the wait budget, so no request is held beyond it. */
	private coolDownUntil(time: number, maxWaitMs: number): void {
		const until = Math.min(time, this.clock.now() + maxWaitMs);
		if (until <= this.notBefore) return;
		this.notBefore = until;
		// Slots handed out before the cool-down are void: the schedule starts again from the latest real start.
		this.epoch++;
		this.lastSlot = this.lastStart;
	}
}

/**
 * The gates of the bots this process sends for, keyed by `credentialFingerprint` (./credential.ts). An entry is a few
 * numbers and the start times of at most a second of successes; the least recently used goes beyond this many
 * bots, and an execution that still holds its gate keeps using it.
 */
const GATES = new LruMap<string, RateLimitGate>(1000);

/** The bot's gate in this process, shared by every execution that sends for it. */
export function gateForBot(fingerprint: string): RateLimitGate {
	let gate = GATES.get(fingerprint);
	if (!gate) {
		gate = new RateLimitGate();
		GATES.set(fingerprint, gate);
	}
	return gate;
}

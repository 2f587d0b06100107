/**
 * Rubika's rate limit, handled for one node execution as a whole.
 *
 * With parallel requests, a request that backs off on its own after TOO_REQUESTS does not help: the other
 * requests keep hitting the limit meanwhile, the same requests are refused again and again, and items fail
 * once their few attempts are used up (BENCHMARKS.md, B2). So all requests of one execution share a gate:
 *
 * - a refusal starts a cool-down (Retry-After when Rubika sends one, else a growing backoff) that every
 *   request of the execution waits out before its next attempt, or its first;
 * - it also lowers the execution's pace, in requests per second (AIMD, as TCP does with its window: a
 *   quarter off on a refusal, then +1 request/s for each second of successful sending), never above the
 *   user's Max Requests per Second;
 * - and it is the one place that enforces Max Requests per Second: from the first request on, every attempt
 *   of the execution (parallel ones, retries) takes a start slot under one shared pace, so items that send
 *   nothing (skipped, refused before sending) take no place in it;
 * - a refused request is tried again until it has been refused for longer than a wait budget, not for a
 *   fixed number of attempts: a limit the execution has adapted to costs time, not items, while a bot that
 *   stays limited still fails after a bounded time.
 */
import { backoffDelay } from './transport/retryPolicy';
import type { Clock } from './pause';
import { SYSTEM_CLOCK } from './pause';

export interface RateLimitSettings {
	/** The user's Max Requests per Second; 0 means none. The adaptive pace never goes above it. */
	maxPerSecond: number;
	/** How long one request may keep being refused before it fails; also the longest cool-down. */
	maxWaitMs: number;
	/** The first cool-down without Retry-After; it doubles while refusals go on. */
	baseDelayMs: number;
	maxDelayMs: number;
}

/** One attempt let through the gate: when it started, and whether the pace held it back. */
export interface Admission {
	startedAt: number;
	paced: boolean;
}

/**
 * A refusal takes a quarter off the pace. Halving, as TCP does, measured slower against the sandbox's limit
 * (400 recipients, 5 parallel requests, limit 30/s: 22 against 25.5 delivered per second): the first pace
 * comes from the rate that just met the limit, so it is close to it, and growing back from half takes long.
 */
const DECREASE_FACTOR = 0.75;
/**
 * Limits are counted over windows of a second or more, so refusals within a second of a decrease may still
 * be caused by the requests sent before it: they lengthen the cool-down, but do not lower the pace again.
 */
const DECREASE_SPACING_MS = 1000;
/** The slowest pace: one request every five seconds; cool-downs and the wait budget handle the rest. */
const MIN_PACE = 0.2;
/** At a low pace, +1 request/s per second would be a leap (0.2 to 5.2): grow by at most half per success. */
const MAX_GROWTH_PER_SUCCESS = 0.5;

export class RateLimitGate {
	/** No attempt starts before this time (ms since the epoch). */
	private notBefore = 0;
	/** When the latest cool-down was declared: requests sent before it carry no news when refused. */
	private coolDownDeclaredAt = -Infinity;
	/** Refusals in a row without a success in between: the exponent of the backoff. */
	private strikes = 0;
	/**
	 * The adaptive pace, in requests per second; undefined until the first refusal, so that a bot that is never
	 * limited is not slowed below the user's Max Requests per Second (or at all, without one).
	 */
	private pace: number | undefined;
	private lastDecreaseAt = -Infinity;
	/** The next free start time under the pace; reserved before waiting, so parallel requests space out. */
	private nextSlot = 0;
	/** Start times of the attempts in the last second: the rate that met the limit, for the first decrease. */
	private readonly recentStarts: number[] = [];

	constructor(
		readonly settings: RateLimitSettings,
		/** Time and waiting; tests pass a fake one. */
		readonly clock: Clock = SYSTEM_CLOCK,
	) {}

	/**
	 * Waits for the cool-down and for a start slot under the pace. Undefined when the attempt could not start
	 * by `deadline`: the caller's wait budget would run out first, so it should fail now instead of waiting.
	 */
	async admit(deadline = Infinity): Promise<Admission | undefined> {
		let paced = false;
		for (;;) {
			const now = this.clock.now();
			if (now < this.notBefore) {
				if (this.notBefore > deadline) return undefined;
				await this.clock.sleep(this.notBefore - now);
				continue;
			}
			const pace = this.currentPace();
			if (pace !== undefined) {
				const slot = Math.max(this.nextSlot, now);
				if (slot > deadline) return undefined;
				this.nextSlot = slot + 1000 / pace;
				if (slot > now) {
					paced = true;
					await this.clock.sleep(slot - now);
				}
			}
			// A cool-down declared while this request waited for its slot holds it back too.
			const startedAt = this.clock.now();
			if (startedAt >= this.notBefore) {
				this.recentStarts.push(startedAt);
				while (this.recentStarts[0] <= startedAt - 1000) this.recentStarts.shift();
				return { startedAt, paced };
			}
		}
	}

	succeeded(admission: Admission): void {
		if (admission.startedAt >= this.coolDownDeclaredAt) this.strikes = 0;
		// Grow only when the pace held this request back: a pace that is not what limits the sending (slow
		// answers, few parallel requests) would otherwise grow far past anything tried.
		if (this.pace !== undefined && admission.paced) {
			const growth = Math.min(1 / this.pace, this.pace * MAX_GROWTH_PER_SUCCESS);
			this.pace = Math.min(this.pace + growth, this.ceiling());
		}
	}

	/**
	 * Records a refusal and returns when the request may try again. Retry-After, when given, is honoured
	 * as it is (up to the wait budget); a refusal of a request sent before the latest cool-down began only
	 * ever lengthens that cool-down to its own Retry-After.
	 */
	refused(admission: Admission, retryAfterMs: number | undefined): number {
		const now = this.clock.now();
		if (admission.startedAt >= this.coolDownDeclaredAt) {
			this.strikes++;
			this.coolDownUntil(now + (retryAfterMs ?? backoffDelay(this.settings.baseDelayMs, this.settings.maxDelayMs, this.strikes)));
			this.coolDownDeclaredAt = now;
			if (now - this.lastDecreaseAt >= DECREASE_SPACING_MS) {
				this.lastDecreaseAt = now;
				const reference = this.pace ?? Math.max(1, this.recentStarts.filter((time) => time > now - 1000).length);
				this.pace = Math.max(MIN_PACE, Math.min(reference * DECREASE_FACTOR, this.ceiling()));
			}
		} else if (retryAfterMs !== undefined) {
			this.coolDownUntil(now + retryAfterMs);
		}
		return this.notBefore;
	}

	/** The shared cool-down, never longer than the wait budget, so no request is held beyond it. */
	private coolDownUntil(time: number): void {
		const until = Math.min(time, this.clock.now() + this.settings.maxWaitMs);
		if (until <= this.notBefore) return;
		this.notBefore = until;
		// Slots reserved before the cool-down are void: the pace starts again when it ends.
		this.nextSlot = until;
	}

	/** The adaptive pace once Rubika refused, else the user's Max Requests per Second; undefined: no pacing. */
	private currentPace(): number | undefined {
		return this.pace ?? (this.settings.maxPerSecond > 0 ? this.settings.maxPerSecond : undefined);
	}

	private ceiling(): number {
		return this.settings.maxPerSecond > 0 ? this.settings.maxPerSecond : Infinity;
	}
}

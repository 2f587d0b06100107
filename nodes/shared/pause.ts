/**
 * Waiting without leaving timers behind.
 *
 * n8n forbids timers in nodes; n8n-workflow's sleeps are the way to wait. Which of them can be cut short
 * depends on the n8n running the node: `sleepWithAbort(ms, signal)` (n8n 2.8), `sleep(ms, signal)` (n8n 2.41),
 * neither in some versions between. `pause` uses the one this n8n has, so a wait of a second costs one timer:
 * an idle reading trigger wakes once per read instead of ten times (each wake of an idle process costs CPU;
 * BENCHMARKS.md B8). Where n8n has none, the wait is cut into short sleeps that check the stop signal in
 * between. Either way whoever stops the waiter (the reading trigger's close function) waits at most
 * PAUSE_SLICE_MS, and when `pause` returns no timer of ours is left running.
 */
import * as workflow from 'n8n-workflow';

/** Longest single sleep when this n8n has no sleep that can be cut short: how late a stop can be noticed. */
const PAUSE_SLICE_MS = 100;

type AbortableSleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** This n8n's sleep that ends when a signal fires, if it has one. */
function abortableSleep(): AbortableSleep | undefined {
	const helpers = workflow as unknown as { sleepWithAbort?: AbortableSleep; sleep: (...args: unknown[]) => Promise<void> };
	if (typeof helpers.sleepWithAbort === 'function') return helpers.sleepWithAbort;
	return helpers.sleep.length >= 2 ? (helpers.sleep as AbortableSleep) : undefined;
}

const ABORTABLE_SLEEP = abortableSleep();

/** Waits `ms` milliseconds, or less when `signal` fires; never throws. */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	if (signal === undefined) return await workflow.sleep(Math.max(0, ms));
	if (signal.aborted || ms <= 0) return;
	if (ABORTABLE_SLEEP !== undefined) return await abortableWait(ABORTABLE_SLEEP, ms, signal);
	const end = Date.now() + ms;
	while (!signal.aborted) {
		const left = end - Date.now();
		if (left <= 0) return;
		await workflow.sleep(Math.min(left, PAUSE_SLICE_MS));
	}
}

/**
 * One abortable sleep on a signal of its own: n8n 2.8's sleepWithAbort never removes its listener from the
 * signal, and the trigger's signal lives as long as the activation (a listener per read would pile up for
 * months). The own signal is dropped with the wait; only a relay sits on the long-lived one, and is removed.
 */
async function abortableWait(sleepUntil: AbortableSleep, ms: number, signal: AbortSignal): Promise<void> {
	const own = new AbortController();
	const relay = () => own.abort();
	signal.addEventListener('abort', relay, { once: true });
	try {
		await sleepUntil(ms, own.signal);
	} catch {
		// Stopped early: that is what the signal is for.
	} finally {
		signal.removeEventListener('abort', relay);
	}
}

/** Time and waiting, injectable so that the rate-limit gate and its pace can be tested with a fake clock. */
export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

export const SYSTEM_CLOCK: Clock = { now: () => Date.now(), sleep: async (ms) => await workflow.sleep(ms) };

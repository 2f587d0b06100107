/**
 * `pause` (nodes/shared/pause.ts): the continuous trigger's wait between reads and the transport's wait
 * between attempts. It must end when stopped, leave nothing on the trigger's long-lived stop signal, and cost
 * one timer per wait on the n8n versions that offer an abortable sleep: n8n 2.41's `sleep(ms, signal)` (the
 * real one, from the n8n-workflow the tests run with), n8n 2.8's `sleepWithAbort` (which never removes its listener; imitated
 * below as 2.8.4 ships it), and neither (the slices).
 */
import { getEventListeners } from 'node:events';

type Pause = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Imitations of the n8n-workflow sleeps of the versions that lack 2.41's `sleep(ms, signal)`. */
const N8N_2_8_SLEEPS = {
	sleep: async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms)),
	// As in n8n-workflow 2.8.4: the abort listener stays on the signal when the sleep ends normally.
	sleepWithAbort: async (ms: number, signal?: AbortSignal) =>
		await new Promise<void>((resolve, reject) => {
			if (signal?.aborted) return reject(new Error('cancelled'));
			const timer = setTimeout(resolve, ms);
			signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('cancelled'))), { once: true });
		}),
};
const NO_ABORTABLE_SLEEP = { sleep: N8N_2_8_SLEEPS.sleep };
/** The real n8n-workflow, loaded once: loading it again for every test took most of this file's time. */
const N8N_WORKFLOW = jest.requireActual('n8n-workflow') as { sleep: unknown };
const N8N_2_41_SLEEPS = { sleep: N8N_WORKFLOW.sleep as (ms: number, signal?: AbortSignal) => Promise<void> };

/** `pause` as loaded with the given n8n-workflow sleeps, counting the sleeps it starts. */
function pauseWith(sleeps: object): { pause: Pause; timers: () => number } {
	let created = 0;
	const count = <T extends (...args: never[]) => unknown>(sleep: T) =>
		((...args: Parameters<T>) => {
			created++;
			return sleep(...args);
		}) as T;
	let loaded: Pause | undefined;
	jest.isolateModules(() => {
		const counted = Object.fromEntries(Object.entries(sleeps).map(([name, fn]) => [name, count(fn)]));
		// `length` tells pause which sleep takes a signal; keep it as the original's.
		for (const [name, fn] of Object.entries(sleeps)) Object.defineProperty(counted[name], 'length', { value: fn.length });
		jest.doMock('n8n-workflow', () => ({ ...N8N_WORKFLOW, sleepWithAbort: undefined, ...counted }));
		loaded = (require('../../nodes/shared/pause') as { pause: Pause }).pause;
	});
	jest.dontMock('n8n-workflow');
	return { pause: loaded!, timers: () => created };
}

describe.each([
	['n8n 2.41 (sleep with a signal)', N8N_2_41_SLEEPS, 1],
	['n8n 2.8 (sleepWithAbort)', N8N_2_8_SLEEPS, 1],
	['no abortable sleep (slices)', NO_ABORTABLE_SLEEP, 5],
])('pause on %s', (_name, sleeps, timersPerWait) => {
	it(`starts ${timersPerWait === 1 ? 'one timer per wait' : 'a timer per 100 ms slice'}`, async () => {
		const { pause, timers } = pauseWith(sleeps);
		await pause(450, new AbortController().signal);
		// A timer may fire a millisecond early, which costs the slices one more.
		expect(timers()).toBeGreaterThanOrEqual(timersPerWait);
		expect(timers()).toBeLessThanOrEqual(timersPerWait === 1 ? 1 : timersPerWait + 1);
	});

	it('waits the whole time when nobody stops it', async () => {
		const { pause } = pauseWith(sleeps);
		const started = Date.now();
		await pause(300, new AbortController().signal);
		expect(Date.now() - started).toBeGreaterThanOrEqual(295);
	});

	it('ends soon after the stop signal instead of at the end of the wait', async () => {
		const { pause } = pauseWith(sleeps);
		const stop = new AbortController();
		const started = Date.now();
		setTimeout(() => stop.abort(), 50);
		await pause(20_000, stop.signal);
		expect(Date.now() - started).toBeLessThan(10_000);
		await pause(20_000, stop.signal); // already stopped: returns at once instead of waiting 20 s
	});

	it('leaves no listener on the long-lived stop signal, however many waits it served', async () => {
		const { pause } = pauseWith(sleeps);
		const stop = new AbortController();
		for (let i = 0; i < 50; i++) await pause(1, stop.signal);
		expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
	});
});

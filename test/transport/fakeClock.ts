/**
 * A fake clock for the rate-limit gate (nodes/shared/pause.ts `Clock`): time moves only when every pending
 * promise has settled and someone sleeps, straight to the next wake-up, so seconds of pacing and cool-downs
 * take microseconds.
 */
import type { Clock } from '../../nodes/shared/pause';

export class FakeClock implements Clock {
	time = 0;
	private sleepers: Array<{ at: number; order: number; wake: () => void }> = [];
	private counter = 0;

	now = (): number => this.time;

	sleep = async (ms: number): Promise<void> =>
		await new Promise<void>((wake) => {
			this.sleepers.push({ at: this.time + Math.max(0, ms), order: this.counter++, wake });
		});

	/** Moves time forward by `ms`, waking every sleeper due by then in order. */
	async advance(ms: number): Promise<void> {
		await this.runUntil(this.time + ms);
	}

	/** Runs `work` to its end, moving time forward whenever nothing but sleepers are left. */
	async run<T>(work: Promise<T>): Promise<T> {
		let done = false;
		const result = work.finally(() => {
			done = true;
		});
		while (!done) {
			await settle();
			if (done) break;
			const next = this.nextSleeper();
			if (!next) throw new Error('FakeClock: the work waits for something other than the clock');
			this.wake(next);
		}
		return await result;
	}

	private async runUntil(end: number): Promise<void> {
		for (;;) {
			await settle();
			const next = this.nextSleeper();
			if (!next || next.at > end) break;
			this.wake(next);
		}
		this.time = Math.max(this.time, end);
		await settle();
	}

	private nextSleeper() {
		return [...this.sleepers].sort((a, b) => a.at - b.at || a.order - b.order)[0];
	}

	private wake(sleeper: { at: number; wake: () => void }): void {
		this.sleepers = this.sleepers.filter((entry) => entry !== sleeper);
		this.time = Math.max(this.time, sleeper.at);
		sleeper.wake();
	}
}

/** Lets every promise that can go on do so. */
async function settle(): Promise<void> {
	for (let round = 0; round < 5; round++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * The interactive probe's side of the conversation with the person at the keyboard: lines shown, lines typed.
 * Built over any pair of streams, so tests drive it without a TTY (process.stdin/stdout in the CLI).
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

export interface Terminal {
	/** Whether a person can type answers (a TTY, or a test playing one). */
	readonly canAsk: boolean;
	say(text: string): void;
	/**
	 * The next line typed (without its line end), or undefined when `timeoutMs` passes, the input ends or
	 * `signal` aborts. A line typed while nobody waits is kept for the next call.
	 */
	nextLine(timeoutMs: number, signal?: AbortSignal): Promise<string | undefined>;
	/** Forgets what was typed before now (an Enter meant for a step that is over). */
	discardTyped(): void;
	close(): void;
}

export function streamTerminal(input: Readable, output: Writable, canAsk: boolean): Terminal {
	const lines: string[] = [];
	const waiters = new Set<(line: string | undefined) => void>();
	let ended = false;
	const reader = createInterface({ input, terminal: false });
	reader.on('line', (line) => {
		const [waiter] = waiters;
		if (waiter) waiter(line);
		else lines.push(line);
	});
	reader.on('close', () => {
		ended = true;
		for (const waiter of [...waiters]) waiter(undefined);
	});
	return {
		canAsk,
		say: (text) => {
			output.write(`${text}\n`);
		},
		nextLine: (timeoutMs, signal) => {
			if (lines.length > 0) return Promise.resolve(lines.shift());
			if (ended || signal?.aborted) return Promise.resolve(undefined);
			return new Promise((resolve) => {
				const finish = (line: string | undefined) => {
					waiters.delete(finish);
					clearTimeout(timer);
					signal?.removeEventListener('abort', onAbort);
					resolve(line);
				};
				const onAbort = () => finish(undefined);
				const timer = setTimeout(() => finish(undefined), timeoutMs);
				signal?.addEventListener('abort', onAbort, { once: true });
				waiters.add(finish);
			});
		},
		discardTyped: () => {
			lines.length = 0;
		},
		close: () => reader.close(),
	};
}

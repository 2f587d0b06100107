/**
 * The request log: every request the sandbox received (API methods, plus 'upload' and 'download'), oldest
 * first, the token never stored. A route starts an entry when the request arrives and finishes it when the
 * answer goes out (or the connection is dropped).
 */

export interface RequestLogEntry {
	seq: number;
	/** The API method from the path, or 'upload' / 'download' for the file addresses. */
	method: string;
	/** The request path with the token replaced by "<token>". */
	path: string;
	/** Parsed JSON; the raw text when it is not JSON; null for an empty body; a summary for uploads. */
	body: unknown;
	/** Whether the path held a known token (null for uploads and downloads, which carry none). */
	tokenValid: boolean | null;
	botId: string | null;
	/** null while unanswered, and for dropped connections. */
	httpStatus: number | null;
	/** The envelope status answered, or null when the answer was no envelope. */
	status: string | null;
	/** When it arrived (ms since the epoch). */
	at: number;
	durationMs: number | null;
	fault?: string;
	/** A download: the bytes of the file's body that went out before it ended, or the client stopped it. */
	sentBytes?: number;
}

export type NewRequestLogEntry = Pick<RequestLogEntry, 'method' | 'path' | 'body' | 'tokenValid' | 'botId' | 'at'>;

export class RequestLog {
	readonly #entries: RequestLogEntry[] = [];
	#seq = 0;

	/** `limit()`: how many entries are kept (the newest); read on every new entry, so it may change. */
	constructor(private readonly limit: () => number) {}

	/** Starts an entry for a request that has just arrived. */
	start(entry: NewRequestLogEntry): RequestLogEntry {
		const full: RequestLogEntry = { seq: ++this.#seq, ...entry, httpStatus: null, status: null, durationMs: null };
		this.#entries.push(full);
		const limit = this.limit();
		if (this.#entries.length > limit) this.#entries.splice(0, this.#entries.length - limit);
		return full;
	}

	/** Completes an entry when its answer goes out; `answer` null: the connection was dropped. */
	finish(entry: RequestLogEntry, answer: { httpStatus: number; status?: string | null } | null, fault?: string): void {
		entry.httpStatus = answer?.httpStatus ?? null;
		entry.status = answer?.status ?? null;
		entry.durationMs = Date.now() - entry.at;
		if (fault) entry.fault = fault;
	}

	/** Every entry, oldest first (a copy). */
	all(): RequestLogEntry[] {
		return this.#entries.slice();
	}

	forMethod(method: string): RequestLogEntry[] {
		return this.#entries.filter((entry) => entry.method === method);
	}

	clear(): void {
		this.#entries.length = 0;
	}

	/** Waits until `count` requests for `method` have been answered (or dropped); rejects after `timeoutMs`. */
	async waitFor(method: string, options: { count?: number; timeoutMs?: number } = {}): Promise<RequestLogEntry[]> {
		const count = options.count ?? 1;
		const deadline = Date.now() + (options.timeoutMs ?? 5_000);
		for (;;) {
			const done = this.forMethod(method).filter((entry) => entry.durationMs !== null);
			if (done.length >= count) return done;
			if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} ${method} request(s); saw ${done.length}`);
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
	}
}

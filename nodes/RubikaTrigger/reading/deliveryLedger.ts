/**
 * What the reading trigger has handed to n8n and not yet seen finished, page by page, and so how far the
 * saved cursor may move: past a page only once the whole page was read and every execution started from it
 * has finished. Whatever is not that far is read again after a stop (see updateEmitter.ts for why that is safe).
 */

/** A page being handed to n8n: the cursor may move to `end` once it is complete and nothing of it runs. */
export interface PageInFlight {
	end: string | undefined;
	complete: boolean;
	/** Updates of this page whose executions have not finished. */
	outstanding: number;
}

export class DeliveryLedger {
	/** Pages in the order they were read; only the oldest can move the cursor. */
	private readonly pages: PageInFlight[] = [];

	/** Keys handed to n8n whose executions have not finished, with the pages waiting for them. */
	private readonly running = new Map<string, PageInFlight[]>();

	/** @param moveCursor called with a page's end when everything before it is done */
	constructor(private readonly moveCursor: (end: string) => void) {}

	/** Executions handed to n8n and not finished. */
	get runningCount(): number {
		return this.running.size;
	}

	/** A page is about to be handed over; `end` is where reading continues after it. */
	open(end: string | undefined): PageInFlight {
		const page: PageInFlight = { end, complete: false, outstanding: 0 };
		this.pages.push(page);
		return page;
	}

	/** If `key` runs from an earlier page, this page waits for it too (true); else nothing changes (false). */
	joinIfRunning(key: string, page: PageInFlight): boolean {
		const waiting = this.running.get(key);
		if (waiting === undefined) return false;
		waiting.push(page);
		page.outstanding++;
		return true;
	}

	/** `key` was handed to n8n from `page`. */
	started(key: string, page: PageInFlight): void {
		this.running.set(key, [page]);
		page.outstanding++;
	}

	/** Every update of the page was handed over or passed by. */
	close(page: PageInFlight): void {
		page.complete = true;
		this.settle();
	}

	/** Reading the page failed halfway: it will be read again from the same cursor, so it moves nothing. */
	discard(page: PageInFlight): void {
		const index = this.pages.indexOf(page);
		if (index >= 0) this.pages.splice(index, 1);
	}

	/** The position these pages belong to is no longer valid: they cannot move the cursor; running keys still finish. */
	discardAll(): void {
		this.pages.length = 0;
	}

	/** n8n is done with `key`: false when it was not running (already finished, or never handed over here). */
	finished(key: string): boolean {
		const waiting = this.running.get(key);
		if (waiting === undefined) return false;
		this.running.delete(key);
		for (const page of waiting) page.outstanding--;
		this.settle();
		return true;
	}

	private settle(): void {
		while (this.pages.length > 0 && this.pages[0].complete && this.pages[0].outstanding === 0) {
			const done = this.pages.shift() as PageInFlight;
			if (done.end !== undefined) this.moveCursor(done.end);
		}
	}
}

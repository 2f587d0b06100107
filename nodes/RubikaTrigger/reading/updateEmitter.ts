/**
 * Handing updates to n8n, for the reading trigger (./reader.ts), and what was delivered:
 * - Each update is handed to n8n with `emit` and a deduplication key: the update's identity (update_key)
 *   scoped to this bot, workflow and node. n8n 2.41+ stores the key with the execution under a unique index
 *   and starts nothing for a second emit with the same key, whatever happened in between.
 * - The saved cursor only moves past a page once n8n has finished every execution started from it (the
 *   emit's done promise, ./deliveryLedger.ts). n8n saves static data only when a trigger emits (and at
 *   activation), so what is saved always lags behind the last emit: after any stop the next start reads that
 *   tail again, and n8n drops what it had already stored. Nothing lost, nothing twice.
 * - Before 2.41 there is no key (n8n's emit declares three parameters, not four), and the tail read again
 *   would run again on every restart. There an update's key is remembered as delivered when it is emitted,
 *   so that the save n8n makes at that emit already holds it: nothing runs twice, and an update emitted in
 *   the last moment before n8n died, whose execution n8n had not yet stored, is lost.
 * - Keys of finished updates are kept next to the cursor (RecentKeys), so that repeats from
 *   Rubika and pages read again do not even reach n8n.
 */
import type { INodeExecutionData, IRun, ITriggerFunctions } from 'n8n-workflow';

import { RecentKeys, hashKey, isUniqueKey } from '../../shared/updates/identity';
import type { PageInFlight } from './deliveryLedger';
import { DeliveryLedger } from './deliveryLedger';
import type { ReadingState } from './pages';

export class UpdateEmitter {
	/** What was handed to n8n and is not finished; moves the saved cursor. */
	readonly ledger: DeliveryLedger;

	/** Whether n8n takes a deduplication key: its emit declares it as a fourth parameter from 2.41 on. */
	private readonly deduplicates: boolean;

	private recent: RecentKeys;

	private bot = '';

	constructor(
		private readonly ctx: ITriggerFunctions,
		private readonly state: ReadingState,
		/** "Listen for test event": emit without a key, remember nothing. */
		private readonly testing: boolean,
	) {
		this.deduplicates = ctx.emit.length >= 4;
		this.recent = RecentKeys.load(state, 'recentKeys');
		this.ledger = new DeliveryLedger((end) => {
			if (end !== state.cursor) state.cursor = end;
		});
	}

	/**
	 * The update needs nothing more: handed to n8n from an earlier page (this page now waits for it to finish
	 * too), or delivered. `key` is its identity (update_key); `occurrence` tells apart the events whose identity
	 * Rubika does not make unique: a start or stop names the chat's new state and perhaps a time, the same for
	 * a start, a stop and a start again within a second, or always when Rubika sends no time. For those it is
	 * the key plus where the update was read (the cursor its page came from, its place in the page): the same
	 * when the same page is read again, different for a later event.
	 */
	handled(key: string, occurrence: string, entry: PageInFlight): boolean {
		return this.ledger.joinIfRunning(occurrence, entry) || this.recent.has(key);
	}

	/** An update's occurrence (see handled): its key, or for a start or stop the key and where it was read. */
	static occurrenceOf(key: string, position: string): string {
		return isUniqueKey(key) ? key : `${key}@${position}`;
	}

	/** An update that is not for this workflow (filtered out, an answer tap): not looked at again. */
	passOver(key: string): void {
		this.recent.observe(key);
	}

	/** Hands one update to n8n (`key` and `occurrence` as for handled). */
	emit(data: INodeExecutionData, key: string, occurrence: string, entry: PageInFlight): void {
		if (this.testing) {
			this.ctx.emit([[data]]);
			return;
		}
		this.ledger.started(occurrence, entry);
		// Saved by n8n at this very emit: after a restart the update is not read as new again. With n8n's
		// deduplication keys (2.41+) only a start or stop needs it: its state must be known at once, so that the
		// next event of the same page (a stop after a start) is told from a repeat.
		if (!this.deduplicates || occurrence !== key) {
			this.recent.remember(key);
			this.recent.save(this.state, 'recentKeys');
		}
		const done = deferred();
		// Settled both ways: a rejection means n8n is done with it too (finished earlier, or refused to start it).
		const finished = () => this.confirm(key, occurrence);
		done.promise.then(finished, finished);
		if (this.deduplicates) this.ctx.emit([[data]], undefined, done, this.deduplicationKey(occurrence));
		else this.ctx.emit([[data]], undefined, done);
	}

	/** The keys are now `bot`'s; `another`: the delivered keys saved belong to another bot and are forgotten. */
	adoptBot(bot: string, another: boolean): void {
		this.bot = bot;
		if (!another) return;
		this.state.recentKeys = [];
		this.recent = RecentKeys.load(this.state, 'recentKeys');
	}

	/** n8n finished the execution of `occurrence`: remember it as delivered, move the cursor past complete pages. */
	private confirm(key: string, occurrence: string): void {
		if (!this.ledger.finished(occurrence)) return;
		// A start or stop was remembered when it was handed over; remembering it again could bring back a state
		// a later event of its chat replaced.
		if (occurrence !== key) return;
		this.recent.remember(key);
		this.recent.save(this.state, 'recentKeys');
	}

	/**
	 * n8n keeps a deduplication key for good: it is made of the occurrence, so that a later start of a chat is
	 * not taken for its first. (A start or stop read again from an earlier position may land elsewhere in a page:
	 * the delivered keys the trigger keeps drop it, as before 2.41.)
	 */
	private deduplicationKey(occurrence: string): string {
		const workflowId = this.ctx.getWorkflow().id ?? '';
		return `rubika:${workflowId}:${this.ctx.getNode().id}:${hashKey(`${this.bot}:${occurrence}`)}`;
	}
}

type DonePromise = NonNullable<Parameters<ITriggerFunctions['emit']>[2]>;

function deferred(): DonePromise {
	let resolve!: (value: IRun | PromiseLike<IRun>) => void;
	let reject!: (error: Error) => void;
	const promise = new Promise<IRun>((onResolve, onReject) => {
		resolve = onResolve;
		reject = onReject;
	});
	return { promise, resolve, reject };
}

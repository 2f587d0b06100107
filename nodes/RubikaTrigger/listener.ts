/**
 * The continuous trigger's engine (Rubika Trigger v2): reads getUpdates in a loop while the workflow is
 * active, or while the editor listens for a test event, and starts one execution per update.
 *
 * Delivery rules, and why:
 * - Each update is handed to n8n with `emit` and a deduplication key: the update's identity (update_key)
 *   scoped to this bot, workflow and node. n8n 2.41+ stores the key with the execution under a unique index
 *   and starts nothing for a second emit with the same key, whatever happened in between.
 * - The saved cursor only moves past a page once n8n has finished every execution started from it (the
 *   emit's done promise). n8n saves static data only when a trigger emits (and at activation), so what is
 *   saved always lags behind the last emit: after any stop the next start reads that tail again, and n8n
 *   drops what it had already stored. Nothing lost, nothing twice.
 * - Before 2.41 there is no key (n8n's emit declares three parameters, not four), and the tail read again
 *   would run again on every restart. There an update's key is remembered as delivered when it is emitted,
 *   so that the save n8n makes at that emit already holds it: nothing runs twice, and an update emitted in
 *   the last moment before n8n died, whose execution n8n had not yet stored, is lost.
 * - Keys of finished updates are kept next to the cursor (RecentKeys, as in version 1), so that repeats from
 *   Rubika and pages read again do not even reach n8n.
 * - Reading waits for "Interval" only when Rubika had nothing new, slows to "Idle Interval" after five quiet
 *   minutes, and backs off up to a minute while requests fail. It pauses while MAX_UNCONFIRMED executions are
 *   running, so a long backlog cannot flood n8n.
 * - Stopping (deactivation, shutdown, the end of a test) aborts the request in flight; the close function
 *   returns when the loop has ended, at most PAUSE_SLICE_MS later, with no request and no timer left.
 * - The credential is resolved at the start and at each bot check, not per request (BOT_CHECK): n8n's
 *   resolving it per request was most of an idle trigger's cost.
 * - Nothing fails silently: a start-up or read problem becomes one failed execution per outage (report()),
 *   which runs the Error Workflow; an unattended start (n8n booting) keeps the trigger active and trying.
 */
import type { INodeExecutionData, IRun, ITriggerFunctions, ITriggerResponse, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { withDownloadedFile } from '../shared/downloads';
import { isRefusal, toNodeError } from '../shared/errors';
import { matchesFilters } from '../shared/updates/filters';
import { RecentKeys, hashKey } from '../shared/updates/identity';
import { updateToItem } from '../shared/updates/item';
import { SenderDirectory } from '../shared/updates/sender';
import type { ResolvedCredential } from '../shared/transport';
import { botFingerprint, resolveCredential } from '../shared/transport';
import { tokenOf } from '../shared/transport/credential';
import { answerButtonOf, handOnAnswerTap, waitingAddressOf } from '../shared/updates/answerTaps';
import { pause } from '../shared/wait';
import { addListener, removeListener } from './botIdentity';
import type { PageInFlight } from './deliveryLedger';
import { DeliveryLedger } from './deliveryLedger';
import type { ListenSettings } from './listenSettings';
import {
	BOT_CHECK,
	IDLE_AFTER_MS,
	MAX_ERROR_BACKOFF_MS,
	MAX_UNCONFIRMED,
	REPORT_AFTER_FAILURES,
	readListenSettings,
} from './listenSettings';
import type { ReadingState } from './pages';
import { SKIP_LIMIT_PER_POLL, assertPositionLost, cursorOf, fetchPage } from './pages';

/** Activations nobody watches in the editor: n8n starting up, or taking over as the leader in queue mode. */
const UNATTENDED_ACTIVATIONS: ReadonlySet<string> = new Set(['init', 'leadershipChange']);

/** Refusals that do not pass by waiting (a token Rubika refuses, a position it rejects): reported at once. */
const LASTING_REFUSALS = ['INVALID_ACCESS', 'INVALID_INPUT'];

/** What the continuous trigger keeps in `getWorkflowStaticData('node')`. */
interface ListenState extends ReadingState {
	/** Which bot the cursor belongs to: a hash of the credential's base URL and token, never the token. */
	bot?: string;
}

/** Starts reading; a problem found before the loop starts (bad filter, token, position) fails the activation. */
export async function startListening(ctx: ITriggerFunctions): Promise<ITriggerResponse> {
	const listener = new UpdateListener(ctx, readListenSettings(ctx));
	await listener.start();
	const loop = listener.run();
	return {
		closeFunction: async () => {
			listener.stop();
			await loop;
		},
	};
}

class UpdateListener {
	private readonly abort = new AbortController();

	/** "Listen for test event": emit the first matching new update, change nothing that is saved. */
	private readonly testing: boolean;

	/** Whether n8n takes a deduplication key: its emit declares it as a fourth parameter from 2.41 on. */
	private readonly deduplicates: boolean;

	private readonly state: ListenState;

	private recent: RecentKeys;

	private bot = '';

	/**
	 * The credential every request is sent with: resolved at the start and again at each bot check (once a
	 * minute, and when Rubika refuses), not per request, which is what keeps an idle trigger cheap.
	 */
	private credential: ResolvedCredential | undefined;

	private botCheckedAt = Date.now();

	/** Where the next page starts; runs ahead of the saved cursor by what is not confirmed. */
	private readCursor: string | undefined;

	/** A page read by start() to check the saved position, processed first by the loop. */
	private firstPage: Awaited<ReturnType<typeof fetchPage>> | undefined;

	/** What was handed to n8n and is not finished; moves the saved cursor. */
	private readonly ledger: DeliveryLedger;

	private lastUpdateAt = Date.now();

	private failures = 0;

	/** Whether the read position has been checked against Rubika since the start (or the last bot change). */
	private positioned = false;

	private reported = false;

	/** Where taps on Send and Wait's answer buttons go: read at the start, the one time n8n 2.41 can tell it. */
	private readonly waitingAddress: string | undefined;

	/** Options → Add Sender Details: the senders of this activation's updates, remembered in its memory. */
	private readonly senders: SenderDirectory | undefined;

	constructor(
		private readonly ctx: ITriggerFunctions,
		private readonly settings: ListenSettings,
	) {
		this.testing = ctx.getMode() === 'manual';
		this.deduplicates = ctx.emit.length >= 4;
		this.waitingAddress = waitingAddressOf(ctx);
		const saved = ctx.getWorkflowStaticData('node') as ListenState;
		// A test works on a copy, so that it cannot move the active workflow's position.
		this.state = this.testing ? { ...saved } : saved;
		this.recent = RecentKeys.load(this.state, 'recentKeys');
		this.senders = settings.addSenderDetails ? new SenderDirectory() : undefined;
		this.ledger = new DeliveryLedger((end) => {
			if (end !== this.state.cursor) this.state.cursor = end;
		});
	}

	private get stopped(): boolean {
		return this.abort.signal.aborted;
	}

	async start(): Promise<void> {
		this.bot = await this.identifyBot();
		if (this.testing) {
			// Only what arrives from now on: skip what is waiting, from the active workflow's position if it has one.
			const saved = this.state.bot === this.bot && this.state.started === true ? cursorOf(this.state.cursor) : undefined;
			this.readCursor = await this.skipToEnd(saved);
			this.positioned = true;
			return;
		}
		this.adoptBot();
		const others = addListener(this.bot);
		if (others > 0) {
			this.ctx.logger.warn(
				`Rubika Trigger: ${others} other active trigger(s) in this n8n read the same bot; each workflow receives every update`,
			);
		}
		try {
			await this.position();
		} catch (error) {
			const nodeError = toNodeError(this.ctx.getNode(), error);
			this.report(nodeError);
			// A person publishing the workflow sees the error at once. When n8n starts up unattended, a failed
			// activation would only show as a dot in the editor: the trigger stays active instead, the failed
			// execution (and the Error Workflow) tell what is wrong, and the loop keeps trying to start.
			if (!UNATTENDED_ACTIVATIONS.has(this.ctx.getActivationMode())) {
				this.stop();
				throw nodeError;
			}
			this.failures = 1;
		}
	}

	stop(): void {
		if (this.stopped) return;
		this.abort.abort();
		if (!this.testing) removeListener(this.bot);
	}

	async run(): Promise<void> {
		while (!this.stopped) {
			try {
				if (!this.positioned) await this.position();
				if (!this.testing && Date.now() - this.botCheckedAt >= BOT_CHECK.intervalMs && (await this.botChanged())) continue;
				let more = false;
				if (this.ledger.runningCount < MAX_UNCONFIRMED) more = await this.readAndEmit();
				this.recovered();
				if (!more) await pause(this.waitMs(), this.abort.signal);
			} catch (error) {
				if (this.stopped) break;
				await this.failed(error);
			}
		}
	}

	/** Reads one page and emits what passes; true when Rubika may have more right away. */
	private async readAndEmit(): Promise<boolean> {
		const from = this.readCursor;
		const page = this.firstPage ?? (await fetchPage(this.ctx, from, this.settings.pageSize, this.requestOptions()));
		this.firstPage = undefined;
		if (this.stopped) return false;
		if (page === 'rejected') {
			if (!this.testing && (await this.botChanged())) return true;
			await this.positionRejected();
			return true;
		}
		if (page.updates.length === 0) return false;
		this.lastUpdateAt = Date.now();
		const entry = this.ledger.open(page.next ?? from);
		try {
			for (const update of page.updates) {
				const item = updateToItem(update);
				const key = item.update_key;
				// Handed to n8n from an earlier page: this page too waits for it to finish.
				if (this.ledger.joinIfRunning(key, entry)) continue;
				if (this.recent.has(key)) continue;
				const answerButton = answerButtonOf(item);
				if (answerButton !== undefined) {
					// An answer to a waiting Send and Wait, not an update for this workflow.
					await handOnAnswerTap(this.ctx, this.waitingAddress, (await tokenOf(this.ctx, this.credential)) ?? '', item, answerButton);
					this.recent.observe(key);
					continue;
				}
				if (!matchesFilters(item, this.settings.filters)) {
					this.recent.observe(key);
					continue;
				}
				// A failed lookup does not throw: the item goes out without the sender's details.
				const emitted = this.senders ? await this.senders.addTo(this.ctx, item, this.requestOptions()) : item;
				// A download that may pass later throws: the page is read again, from the same cursor.
				const data = await withDownloadedFile(this.ctx, emitted, this.settings.download, 'final');
				if (this.stopped) return false;
				this.emit(data, key, entry);
				if (this.testing) {
					this.stop();
					return false;
				}
			}
		} catch (error) {
			this.ledger.discard(entry);
			throw toNodeError(this.ctx.getNode(), error);
		}
		this.readCursor = entry.end;
		this.ledger.close(entry);
		return page.next !== undefined && page.next !== from;
	}

	private emit(data: INodeExecutionData, key: string, entry: PageInFlight): void {
		if (this.testing) {
			this.ctx.emit([[data]]);
			return;
		}
		this.ledger.started(key, entry);
		if (!this.deduplicates) {
			// Saved by n8n at this very emit: after a restart the update is not read as new again.
			this.recent.remember(key);
			this.recent.save(this.state, 'recentKeys');
		}
		const done = deferred();
		// Settled both ways: a rejection means n8n is done with it too (finished earlier, or refused to start it).
		const finished = () => this.confirm(key);
		done.promise.then(finished, finished);
		if (this.deduplicates) this.ctx.emit([[data]], undefined, done, this.deduplicationKey(key));
		else this.ctx.emit([[data]], undefined, done);
	}

	/** n8n finished the execution of `key`: remember it as delivered, move the cursor past complete pages. */
	private confirm(key: string): void {
		if (!this.ledger.finished(key)) return;
		this.recent.remember(key);
		this.recent.save(this.state, 'recentKeys');
	}

	/**
	 * Where to start, checked against Rubika: at activation, so that a problem shows there, and again from the
	 * loop after an unattended start or a bot change could not check it.
	 */
	private async position(): Promise<void> {
		this.positioned = false;
		if (this.state.started !== true && this.settings.firstActivation === 'startFromNow') {
			this.state.cursor = await this.skipToEnd(undefined);
			this.state.started = true;
			this.readCursor = this.state.cursor;
			this.positioned = true;
			return;
		}
		this.readCursor = cursorOf(this.state.cursor);
		this.firstPage = await fetchPage(this.ctx, this.readCursor, this.settings.pageSize, this.requestOptions());
		if (this.firstPage === 'rejected') {
			this.firstPage = undefined;
			await this.positionRejected();
		}
		this.state.started = true;
		this.positioned = true;
	}

	/** Rubika refused the cursor: stop with the explanation, or go on the way the user chose. */
	private async positionRejected(): Promise<void> {
		await assertPositionLost(this.ctx, this.settings, this.credential);
		this.ctx.logger.warn(`Rubika Trigger: Rubika rejected the saved position; continuing as "${this.settings.onRejectedPosition}"`);
		// Pages of the refused position can no longer move the cursor; their executions still confirm their keys.
		this.ledger.discardAll();
		this.readCursor = this.settings.onRejectedPosition === 'skipToNow' ? await this.skipToEnd(undefined) : undefined;
		if (this.readCursor === undefined) delete this.state.cursor;
		else this.state.cursor = this.readCursor;
	}

	/** Reads pages from `from` without emitting, to where Rubika has nothing more; returns that position. */
	private async skipToEnd(from: string | undefined): Promise<string | undefined> {
		let cursor = from;
		for (let skipped = 0; skipped < SKIP_LIMIT_PER_POLL; ) {
			const page = await fetchPage(this.ctx, cursor, this.settings.pageSize, this.requestOptions());
			if (page === 'rejected') return await this.skipToEnd(undefined);
			skipped += page.updates.length;
			if (page.updates.length === 0 || page.next === undefined || page.next === cursor) return page.next ?? cursor;
			cursor = page.next;
		}
		return cursor;
	}

	/** The credential now belongs to another bot (or base URL): the saved position is not its position. */
	private async botChanged(): Promise<boolean> {
		this.botCheckedAt = Date.now();
		const bot = await this.identifyBot();
		if (bot === this.bot) return false;
		removeListener(this.bot);
		addListener(bot);
		this.bot = bot;
		this.adoptBot();
		this.ledger.discardAll();
		await this.position();
		return true;
	}

	/** Resolves the credential anew; returns the fingerprint of the bot it belongs to. */
	private async identifyBot(): Promise<string> {
		this.credential = await resolveCredential(this.ctx);
		return botFingerprint(this.credential);
	}

	private requestOptions(): { abortSignal: AbortSignal; credential: ResolvedCredential | undefined } {
		return { abortSignal: this.abort.signal, credential: this.credential };
	}

	/** Forgets the position and delivered keys saved for another bot. */
	private adoptBot(): void {
		if (this.state.bot !== undefined && this.state.bot !== this.bot) {
			this.ctx.logger.warn('Rubika Trigger: the credential now belongs to another bot; starting as on a first activation');
			delete this.state.cursor;
			delete this.state.started;
			this.state.recentKeys = [];
			this.recent = RecentKeys.load(this.state, 'recentKeys');
		}
		this.state.bot = this.bot;
	}

	private deduplicationKey(key: string): string {
		const workflowId = this.ctx.getWorkflow().id ?? '';
		return `rubika:${workflowId}:${this.ctx.getNode().id}:${hashKey(`${this.bot}:${key}`)}`;
	}

	private waitMs(): number {
		return Date.now() - this.lastUpdateAt > IDLE_AFTER_MS ? this.settings.idleIntervalMs : this.settings.intervalMs;
	}

	private async failed(error: unknown): Promise<void> {
		const nodeError = toNodeError(this.ctx.getNode(), error);
		if (this.testing) {
			this.ctx.emitError(nodeError);
			this.stop();
			return;
		}
		this.failures++;
		// A credential switched to another bot shows as failing reads (its token or the old position refused).
		if (await this.botChanged().catch(() => false)) return;
		const ceiling = Math.min(MAX_ERROR_BACKOFF_MS, this.settings.intervalMs * 2 ** this.failures);
		const delay = Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
		this.ctx.logger.warn(
			`Rubika Trigger: reading updates failed (${nodeError.message}); nothing was skipped, trying again in ${Math.round(delay / 100) / 10} s`,
		);
		// A refusal will not pass by itself: reported at once. A fault (Rubika down, the network) only once it
		// has lasted through a few retries.
		if (this.failures >= REPORT_AFTER_FAILURES || isRefusal(nodeError, ...LASTING_REFUSALS)) this.report(nodeError);
		await pause(delay, this.abort.signal);
	}

	/**
	 * Tells the user, once per outage, that the trigger cannot read: a failed execution with the whole
	 * explanation, which also starts the workflow's Error Workflow (n8n 2.8.4 and 2.41 alike).
	 */
	private report(nodeError: NodeApiError | NodeOperationError): void {
		if (this.reported) return;
		this.reported = true;
		nodeError.description = `${nodeError.description ? `${nodeError.description} ` : ''}The trigger stays active, keeps its position and keeps trying; nothing is skipped.`;
		this.ctx.logger.error(`Rubika Trigger: ${nodeError.message}`);
		this.ctx.saveFailedExecution(nodeError);
	}

	private recovered(): void {
		if (this.failures >= REPORT_AFTER_FAILURES) this.ctx.logger.info('Rubika Trigger: reading updates works again');
		this.failures = 0;
		this.reported = false;
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

/**
 * The continuous trigger's engine (Rubika Trigger v2): reads getUpdates in a loop while the workflow is
 * active, or while the editor listens for a test event, and starts one execution per update.
 *
 * How each update is handed to n8n exactly once, and how the saved cursor moves: ./updateEmitter.ts.
 * Reading, and why:
 * - Reading waits for "Interval" only when Rubika had nothing new, slows to "Idle Interval" after five quiet
 *   minutes, and backs off up to a minute while requests fail (./readFailures.ts). It pauses while
 *   MAX_UNCONFIRMED executions are running, so a long backlog cannot flood n8n.
 * - Stopping (deactivation, shutdown, the end of a test) aborts the request in flight; the close function
 *   returns when the loop has ended, at most PAUSE_SLICE_MS later, with no request and no timer left.
 * - The credential is resolved at the start and at each bot check, not per request (BOT_CHECK): n8n's
 *   resolving it per request was most of an idle trigger's cost.
 * - Nothing fails silently: a start-up or read problem becomes one failed execution per outage
 *   (./readFailures.ts); an unattended start (n8n booting) keeps the trigger active and trying.
 */
import type { ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';

import { withDownloadedFile } from '../shared/downloads';
import { toNodeError } from '../shared/errors';
import { matchesFilters } from '../shared/updates/filters';
import { updateToItem } from '../shared/updates/item';
import { SenderDirectory } from '../shared/updates/sender';
import type { ResolvedCredential } from '../shared/transport';
import { botFingerprint, resolveCredential } from '../shared/transport';
import { tokenOf } from '../shared/transport/credential';
import { answerButtonOf, handOnAnswerTap, waitingAddressOf } from '../shared/updates/answerTaps';
import { pause } from '../shared/pause';
import { addReader, removeReader } from './botIdentity';
import type { ContinuousSettings } from './continuousSettings';
import { BOT_CHECK, IDLE_AFTER_MS, MAX_UNCONFIRMED, readContinuousSettings } from './continuousSettings';
import type { ReadingState } from './pages';
import { assertPositionLost, cursorOf, fetchPage, skipToEnd } from './pages';
import { ReadFailures } from './readFailures';
import { UpdateEmitter } from './updateEmitter';

/** Activations nobody watches in the editor: n8n starting up, or taking over as the leader in queue mode. */
const UNATTENDED_ACTIVATIONS: ReadonlySet<string> = new Set(['init', 'leadershipChange']);

/** What the continuous trigger keeps in `getWorkflowStaticData('node')`. */
interface ContinuousState extends ReadingState {
	/** Which bot the cursor belongs to: a hash of the credential's base URL and token, never the token. */
	bot?: string;
}

/** Starts reading; a problem found before the loop starts (bad filter, token, position) fails the activation. */
export async function startContinuousReading(ctx: ITriggerFunctions): Promise<ITriggerResponse> {
	const reader = new ContinuousReader(ctx, readContinuousSettings(ctx));
	await reader.start();
	const loop = reader.run();
	return {
		closeFunction: async () => {
			reader.stop();
			await loop;
		},
	};
}

class ContinuousReader {
	private readonly abort = new AbortController();

	/** "Listen for test event": emit the first matching new update, change nothing that is saved. */
	private readonly testing: boolean;

	private readonly state: ContinuousState;

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

	/** Hands updates to n8n and keeps what was delivered (its ledger moves the saved cursor). */
	private readonly emitter: UpdateEmitter;

	private lastUpdateAt = Date.now();

	private readonly failures: ReadFailures;

	/** Whether the read position has been checked against Rubika since the start (or the last bot change). */
	private positioned = false;

	/** Where taps on Send and Wait's answer buttons go: read at the start, the one time n8n 2.41 can tell it. */
	private readonly waitingAddress: string | undefined;

	/** Options → Add Sender Details: the senders of this activation's updates, remembered in its memory. */
	private readonly senders: SenderDirectory | undefined;

	constructor(
		private readonly ctx: ITriggerFunctions,
		private readonly settings: ContinuousSettings,
	) {
		this.testing = ctx.getMode() === 'manual';
		this.waitingAddress = waitingAddressOf(ctx);
		const saved = ctx.getWorkflowStaticData('node') as ContinuousState;
		// A test works on a copy, so that it cannot move the active workflow's position.
		this.state = this.testing ? { ...saved } : saved;
		this.senders = settings.addSenderDetails ? new SenderDirectory() : undefined;
		this.emitter = new UpdateEmitter(ctx, this.state, this.testing);
		this.failures = new ReadFailures(ctx, settings.intervalMs);
	}

	private get stopped(): boolean {
		return this.abort.signal.aborted;
	}

	async start(): Promise<void> {
		this.bot = await this.identifyBot();
		if (this.testing) {
			// Only what arrives from now on: skip what is waiting, from the active workflow's position if it has one.
			const saved = this.state.bot === this.bot && this.state.started === true ? cursorOf(this.state.cursor) : undefined;
			this.readCursor = await this.skipFrom(saved);
			this.positioned = true;
			return;
		}
		this.adoptBot();
		const others = addReader(this.bot);
		if (others > 0) {
			this.ctx.logger.warn(
				`Rubika Trigger: ${others} other active trigger(s) in this n8n read the same bot; each workflow receives every update`,
			);
		}
		try {
			await this.position();
		} catch (error) {
			const nodeError = toNodeError(this.ctx.getNode(), error);
			this.failures.startFailed(nodeError);
			// A person publishing the workflow sees the error at once. When n8n starts up unattended, a failed
			// activation would only show as a dot in the editor: the trigger stays active instead, the failed
			// execution (and the Error Workflow) tell what is wrong, and the loop keeps trying to start.
			if (!UNATTENDED_ACTIVATIONS.has(this.ctx.getActivationMode())) {
				this.stop();
				throw nodeError;
			}
		}
	}

	stop(): void {
		if (this.stopped) return;
		this.abort.abort();
		if (!this.testing) removeReader(this.bot);
	}

	async run(): Promise<void> {
		while (!this.stopped) {
			try {
				if (!this.positioned) await this.position();
				if (!this.testing && Date.now() - this.botCheckedAt >= BOT_CHECK.intervalMs && (await this.botChanged())) continue;
				let more = false;
				if (this.emitter.ledger.runningCount < MAX_UNCONFIRMED) more = await this.readAndEmit();
				this.failures.recovered();
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
		const { ledger } = this.emitter;
		const entry = ledger.open(page.next ?? from);
		try {
			for (const update of page.updates) {
				const item = updateToItem(update);
				const key = item.update_key;
				if (this.emitter.handled(key, entry)) continue;
				const answerButton = answerButtonOf(item);
				if (answerButton !== undefined) {
					// An answer to a waiting Send and Wait, not an update for this workflow.
					await handOnAnswerTap(this.ctx, this.waitingAddress, (await tokenOf(this.ctx, this.credential)) ?? '', item, answerButton, this.requestOptions());
					this.emitter.passOver(key);
					continue;
				}
				if (!matchesFilters(item, this.settings.filters)) {
					this.emitter.passOver(key);
					continue;
				}
				// A failed lookup does not throw: the item goes out without the sender's details.
				const emitted = this.senders ? await this.senders.addTo(this.ctx, item, this.requestOptions()) : item;
				// A download that may pass later throws: the page is read again, from the same cursor.
				const data = await withDownloadedFile(this.ctx, emitted, this.settings.download, 'final');
				if (this.stopped) return false;
				this.emitter.emit(data, key, entry);
				if (this.testing) {
					this.stop();
					return false;
				}
			}
		} catch (error) {
			ledger.discard(entry);
			throw toNodeError(this.ctx.getNode(), error);
		}
		this.readCursor = entry.end;
		ledger.close(entry);
		return page.next !== undefined && page.next !== from;
	}

	/**
	 * Where to start, checked against Rubika: at activation, so that a problem shows there, and again from the
	 * loop after an unattended start or a bot change could not check it.
	 */
	private async position(): Promise<void> {
		this.positioned = false;
		if (this.state.started !== true && this.settings.firstActivation === 'startFromNow') {
			this.state.cursor = await this.skipFrom(undefined);
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
		this.emitter.ledger.discardAll();
		this.readCursor = this.settings.onRejectedPosition === 'skipToNow' ? await this.skipFrom(undefined) : undefined;
		if (this.readCursor === undefined) delete this.state.cursor;
		else this.state.cursor = this.readCursor;
	}

	/** The position after everything Rubika has now, from `from` (./pages.ts skipToEnd). */
	private async skipFrom(from: string | undefined): Promise<string | undefined> {
		return await skipToEnd(this.ctx, from, this.settings.pageSize, this.requestOptions());
	}

	/** The credential now belongs to another bot (or base URL): the saved position is not its position. */
	private async botChanged(): Promise<boolean> {
		this.botCheckedAt = Date.now();
		const bot = await this.identifyBot();
		if (bot === this.bot) return false;
		removeReader(this.bot);
		addReader(bot);
		this.bot = bot;
		this.adoptBot();
		this.emitter.ledger.discardAll();
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
		const another = this.state.bot !== undefined && this.state.bot !== this.bot;
		if (another) {
			this.ctx.logger.warn('Rubika Trigger: the credential now belongs to another bot; starting as on a first activation');
			delete this.state.cursor;
			delete this.state.started;
		}
		this.emitter.adoptBot(this.bot, another);
		this.state.bot = this.bot;
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
		this.failures.failed();
		// A credential switched to another bot shows as failing reads (its token or the old position refused).
		if (await this.botChanged().catch(() => false)) return;
		await pause(this.failures.retryDelay(nodeError), this.abort.signal);
	}
}

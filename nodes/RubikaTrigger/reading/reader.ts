/**
 * Rubika Trigger's engine when it receives by reading: reads getUpdates in a loop while the workflow is
 * active, or while the editor listens for a test event, and starts one execution per update.
 *
 * How each update is handed to n8n exactly once, and how the saved cursor moves: ./updateEmitter.ts.
 * Reading, and why:
 * - Reading waits only when Rubika had nothing new: "Interval", or "Interval During a Conversation" for a minute
 *   after an update and after the bot posted in a chat from this n8n (../../shared/conversations.ts: an answer
 *   is likely then, a tap on a Send and Wait question above all; such a post also cuts a longer wait short),
 *   or "Idle Interval" once the bot has had no update for "Idle After" (fifteen minutes by default: a chat's next
 *   message after a pause of some minutes is still read within about Interval; a bot at rest costs what it did
 *   before issue 33). It backs off up to a minute while requests fail (./readFailures.ts), and pauses while
 *   MAX_UNCONFIRMED executions are running, so a long backlog cannot flood n8n.
 * - Stopping (deactivation, shutdown, the end of a test) aborts the request in flight; the close function
 *   returns when the loop has ended, at most PAUSE_SLICE_MS later, with no request and no timer left.
 * - The credential is resolved at the start, at each bot check (BOT_CHECK) and after a failed read, not per
 *   request: n8n's resolving it per request was most of an idle trigger's cost.
 * - The position belongs to a bot as Rubika names it (getMe's bot id, ../shared/updates/botIdentity.ts), asked
 *   whenever the credential has changed: a rotated or corrected token, a new Base URL, anything that still
 *   reaches the same bot keeps the position; a token Rubika refuses leaves the bot unknown and nothing is
 *   read or dropped until it is known again; only a credential that reaches another bot starts anew, and
 *   says so.
 * - Nothing fails silently, and nothing Rubika or the network does fails the activation: a start-up or read
 *   problem becomes one failed execution per outage (./readFailures.ts), the workflow stays published and
 *   the loop keeps trying, whoever activated it (a person publishing, n8n starting up).
 */
import type { INodeExecutionData, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../../shared/errors';
import { LruMap } from '../../shared/lru';
import { matchesFilters } from '../../shared/updates/filters';
import type { UpdateItem } from '../../shared/updates/item';
import { updateToItem } from '../../shared/updates/item';
import { SenderDirectory } from '../../shared/updates/sender';
import type { ResolvedCredential } from '../../shared/transport';
import { resolveCredential } from '../../shared/transport';
import { tokenOf } from '../../shared/transport/credential';
import { answerButtonOf, handOnAnswerTap, waitingAddressOf } from '../../shared/updates/answerTaps';
import type { BotIdentity } from '../../shared/updates/botIdentity';
import { identifyBot } from '../../shared/updates/botIdentity';
import { credentialFingerprint } from '../../shared/transport/credential';
import { whenBotPosts } from '../../shared/conversations';
import { pause } from '../../shared/pause';
import { downloadItemFile, fileToDownload, itemWithFile } from '../downloadFiles';
import type { ReadingSettings, TriggerSettings } from '../settings';
import { BOT_CHECK, DOWNLOAD_TRIES, MAX_UNCONFIRMED, PACE } from './limits';
import type { ReadingState } from './pages';
import { assertPositionLost, cursorOf, fetchPage, skipToEnd } from './pages';
import { ReadFailures } from './readFailures';
import { addReader, removeReader } from './readersPerBot';
import { UpdateEmitter } from './updateEmitter';

/** What the trigger keeps while it reads, in `getWorkflowStaticData('node')`. */
interface ContinuousState extends ReadingState {
	/** The bot the cursor and the delivered keys belong to: getMe's bot id. */
	botId?: string;
	/**
	 * What the deduplication keys are scoped by (./updateEmitter.ts): the bot id. A state written before bot ids
	 * were kept has a hash of the credential of then here (and no botId): it is kept, so that the keys of the
	 * updates read again after the upgrade are the ones n8n already holds.
	 */
	bot?: string;
}

/**
 * Starts reading. Only a setting that is not valid (a filter) fails the activation; a problem on Rubika's side
 * (token, position, network) becomes a failed execution while the loop keeps trying.
 */
export async function startReading(ctx: ITriggerFunctions, settings: TriggerSettings, reading: ReadingSettings): Promise<ITriggerResponse> {
	const reader = new ContinuousReader(ctx, { ...settings, ...reading });
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

	/** The bot the credential reaches; undefined until getMe has answered for the credential as it is now. */
	private bot: BotIdentity | undefined;

	/** The bot counted in readersPerBot for this activation. */
	private countedBot: string | undefined;

	/**
	 * The credential every request is sent with: resolved at the start and again at each bot check (once a
	 * minute, and after a failed read), not per request, which is what keeps an idle trigger cheap.
	 */
	private credential: ResolvedCredential | undefined;

	/** credentialFingerprint of `credential`: a change means asking Rubika again which bot it reaches. */
	private credentialPrint = '';

	private botCheckedAt = Date.now();

	/** A read failed: the next try resolves the credential first, so that a corrected one is used at once. */
	private checkDue = false;

	/** Where the next page starts; runs ahead of the saved cursor by what is not confirmed. */
	private readCursor: string | undefined;

	/** A page read by start() to check the saved position, processed first by the loop. */
	private firstPage: Awaited<ReturnType<typeof fetchPage>> | undefined;

	/** Hands updates to n8n and keeps what was delivered (its ledger moves the saved cursor). */
	private readonly emitter: UpdateEmitter;

	private lastUpdateAt = Date.now();

	/** Until when a conversation is on (an update, or the bot's post in a chat): reads are "During a Conversation". */
	private conversationUntil = 0;

	/** The wait between reads in progress: how long, and how to end it early. */
	private waiting: { ms: number; end: () => void } | undefined;

	/** Stops listening for the bot's posts in this process (whenBotPosts), for the credential as it was. */
	private stopHearingPosts: (() => void) | undefined;

	private readonly failures: ReadFailures;

	/** Whether the read position has been checked against Rubika since the start (or the last bot change). */
	private positioned = false;

	/** Where taps on Send and Wait's answer buttons go: read at the start, the one time n8n 2.41 can tell it. */
	private readonly waitingAddress: string | undefined;

	/** Options → Add Sender Details: the senders of this activation's updates, remembered in its memory. */
	private readonly senders: SenderDirectory | undefined;

	/** Updates whose file failed to download for a reason that may pass (by occurrence): the tries so far. */
	private readonly downloadTries = new LruMap<string, number>(MAX_UNCONFIRMED);

	constructor(
		private readonly ctx: ITriggerFunctions,
		private readonly settings: TriggerSettings & ReadingSettings,
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
		if (this.testing) {
			await this.checkBot();
			// Only what arrives from now on: skip what is waiting, from the active workflow's position if it is
			// this bot's (a state without a bot id is from before they were kept: the same bot).
			const sameBot = (this.state.botId ?? this.bot?.id) === this.bot?.id;
			const saved = sameBot && this.state.started === true ? cursorOf(this.state.cursor) : undefined;
			this.readCursor = await this.skipFrom(saved);
			this.positioned = true;
			return;
		}
		try {
			await this.checkBot();
			await this.position();
		} catch (error) {
			// Whoever activates (a person publishing, n8n starting up), failing the activation would not help: n8n
			// 2.41 would retry it four times and give up ("Partial publish"), 2.8.4 would leave it off until someone
			// publishes again. The workflow stays published instead, the failed execution (and the Error Workflow)
			// tell what is wrong, and the loop keeps trying from the saved position.
			this.failures.startFailed(toNodeError(this.ctx.getNode(), error));
		}
	}

	stop(): void {
		if (this.stopped) return;
		this.abort.abort();
		this.stopHearingPosts?.();
		if (this.countedBot !== undefined) removeReader(this.countedBot);
	}

	async run(): Promise<void> {
		while (!this.stopped) {
			try {
				if (!this.testing && (this.bot === undefined || this.checkDue || Date.now() - this.botCheckedAt >= BOT_CHECK.intervalMs)) {
					await this.checkBot();
				}
				if (!this.positioned) await this.position();
				let more = false;
				if (this.emitter.ledger.runningCount < MAX_UNCONFIRMED) more = await this.readAndEmit();
				this.failures.recovered();
				if (!more) await this.waitBeforeNextRead();
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
			// What a changed credential causes too: ask which bot it reaches before taking the position as lost.
			if (!this.testing) await this.checkBot();
			if (this.positioned) await this.positionRejected();
			return true;
		}
		if (page.updates.length === 0) return false;
		if (!this.testing && Date.now() - this.botCheckedAt >= BOT_CHECK.beforeHandingOverMs) {
			// A credential changed to reach another bot: this page is the old bot's, the loop starts anew.
			await this.checkBot();
			if (!this.positioned) return true;
		}
		this.lastUpdateAt = Date.now();
		this.conversationUntil = this.lastUpdateAt + PACE.conversationMs;
		const { ledger } = this.emitter;
		const entry = ledger.open(page.next ?? from);
		try {
			for (const [index, update] of page.updates.entries()) {
				const item = updateToItem(update);
				const key = item.update_key;
				const occurrence = UpdateEmitter.occurrenceOf(key, `${from ?? ''}#${index}`);
				if (this.emitter.handled(key, occurrence, entry)) continue;
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
				const data = await this.withFile(emitted, occurrence);
				if (this.stopped) return false;
				this.emitter.emit(data, key, occurrence, entry);
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
	 * The item with its file, when Options → Download Files asks for it (../downloadFiles.ts). A download that
	 * failed for a reason that may pass throws, so that the page is read again from the same cursor, for
	 * DOWNLOAD_TRIES tries in all (one while testing); then the update goes out with file_error, and the
	 * updates behind it follow. A file over a limit goes out with file_error at once.
	 */
	private async withFile(item: UpdateItem, occurrence: string): Promise<INodeExecutionData> {
		const { download } = this.settings;
		const fileId = fileToDownload(item, download);
		if (fileId === undefined) return { json: item };
		const outcome = await downloadItemFile(this.ctx, item, fileId, download, this.requestOptions());
		if ('notDownloaded' in outcome && outcome.mayPassLater) {
			const tries = (this.downloadTries.get(occurrence) ?? 0) + 1;
			if (tries < (this.testing ? 1 : DOWNLOAD_TRIES)) {
				this.downloadTries.set(occurrence, tries);
				throw outcome.error ?? new NodeOperationError(this.ctx.getNode(), outcome.notDownloaded);
			}
			this.downloadTries.delete(occurrence);
			const tried = tries > 1 ? ` (tried ${tries} times)` : '';
			return itemWithFile(item, download, { ...outcome, notDownloaded: `${outcome.notDownloaded}${tried}` });
		}
		this.downloadTries.delete(occurrence);
		return itemWithFile(item, download, outcome);
	}

	/**
	 * Where to start, checked against Rubika: at activation, so that a problem shows there, and again from the
	 * loop after a start or a bot change could not check it.
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

	/**
	 * Resolves the credential anew and, when it changed (or the bot is not known yet), asks Rubika which bot it
	 * reaches. Throws when Rubika does not say (a refused token, a fault): the bot is then unknown, nothing is
	 * read and nothing saved is touched until it answers.
	 */
	private async checkBot(): Promise<void> {
		this.botCheckedAt = Date.now();
		this.checkDue = false;
		// From now on requests go with the credential as it is now, even if Rubika refuses it below: a token the
		// user has replaced is not used any more.
		this.credential = await resolveCredential(this.ctx);
		const print = credentialFingerprint(this.credential);
		if (print === this.credentialPrint && this.bot !== undefined) return;
		if (print !== this.credentialPrint) this.hearPostsOf(print);
		this.credentialPrint = print;
		this.bot = undefined;
		this.adoptBot(await identifyBot(this.ctx, this.credential, { abortSignal: this.abort.signal }));
	}

	private requestOptions(): { abortSignal: AbortSignal; credential: ResolvedCredential | undefined } {
		return { abortSignal: this.abort.signal, credential: this.credential };
	}

	/**
	 * The credential reaches `bot`. The same bot as the saved position's keeps everything; another bot
	 * starts as on a first activation: the position and delivered keys saved for the old one are dropped, and
	 * the log and a failed execution say so.
	 */
	private adoptBot(bot: BotIdentity): void {
		this.bot = bot;
		if (this.testing) return;
		this.countReader(bot.id);
		const before = this.state.botId;
		const another = before !== undefined && before !== bot.id;
		if (another) {
			delete this.state.cursor;
			delete this.state.started;
			this.state.bot = bot.id;
			this.emitter.ledger.discardAll();
			this.positioned = false;
			this.toldAnotherBot(before, bot);
		}
		this.state.botId = bot.id;
		this.state.bot ??= bot.id;
		this.emitter.adoptBot(this.state.bot, another);
	}

	private toldAnotherBot(before: string, bot: BotIdentity): void {
		const message = `The Rubika credential now reaches another bot, ${bot.name} (${bot.id}), not the bot this trigger read before (${before}): the trigger starts anew for ${bot.name}`;
		this.ctx.logger.warn(`Rubika Trigger: ${message}`);
		this.ctx.saveFailedExecution(
			new NodeOperationError(this.ctx.getNode(), message, {
				description: `The position and delivered updates saved for ${before} were dropped, and the trigger reads ${bot.name} as on a first activation (On First Activation). If this is not the bot you meant, choose the right credential and publish again. The workflow stays published and keeps reading.`,
			}),
		);
	}

	/** Counts this activation as a reader of `bot` (and no other), warning when others read it too. */
	private countReader(bot: string): void {
		if (this.countedBot === bot) return;
		if (this.countedBot !== undefined) removeReader(this.countedBot);
		this.countedBot = bot;
		const others = addReader(bot);
		if (others > 0) {
			this.ctx.logger.warn(
				`Rubika Trigger: ${others} other active trigger(s) in this n8n read the same bot; each workflow receives every update`,
			);
		}
	}

	/** How long to wait before the next read when Rubika had nothing new. */
	private waitMs(): number {
		const now = Date.now();
		if (now < this.conversationUntil) return this.settings.conversationIntervalMs;
		return now - this.lastUpdateAt > this.settings.idleAfterMs ? this.settings.idleIntervalMs : this.settings.intervalMs;
	}

	/** Waits waitMs(), or until the trigger stops, or until the bot's post in a chat starts a conversation. */
	private async waitBeforeNextRead(): Promise<void> {
		const early = new AbortController();
		const end = () => early.abort();
		this.abort.signal.addEventListener('abort', end, { once: true });
		this.waiting = { ms: this.waitMs(), end };
		try {
			await pause(this.waiting.ms, early.signal);
		} finally {
			this.waiting = undefined;
			this.abort.signal.removeEventListener('abort', end);
		}
	}

	/**
	 * Listens for the posts of the bot this credential reaches (credential fingerprint `print`) from this process:
	 * each starts or extends a conversation, and the first cuts a longer wait short, so that reading fast begins
	 * at once. A broadcast's many posts cost one early read, not one each.
	 */
	private hearPostsOf(print: string): void {
		this.stopHearingPosts?.();
		if (this.stopped) return;
		this.stopHearingPosts = whenBotPosts(print, () => {
			this.conversationUntil = Date.now() + PACE.conversationMs;
			if (this.waiting !== undefined && this.waiting.ms > this.settings.conversationIntervalMs) this.waiting.end();
		});
	}

	private async failed(error: unknown): Promise<void> {
		const nodeError = toNodeError(this.ctx.getNode(), error);
		if (this.testing) {
			this.ctx.emitError(nodeError);
			this.stop();
			return;
		}
		this.failures.failed();
		// A token refused or a position rejected may be a changed credential: the next try looks at it first.
		this.checkDue = true;
		await pause(this.failures.retryDelay(nodeError), this.abort.signal);
	}
}

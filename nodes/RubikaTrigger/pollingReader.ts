/**
 * The polling trigger's engine: drains getUpdates from a cursor kept in the workflow's static data.
 *
 * Delivery rules, and why:
 * - Nothing in static data changes until the poll has everything it will return. Pages are read into
 *   local variables; the cursor and the recent-keys set are written in one synchronous step at the very
 *   end. A poll that fails anywhere (a page after retries, a malformed answer, a download, running out of
 *   time) throws and leaves the stored cursor where the last emitting poll put it: the updates it had read
 *   are read again next time. Nothing is skipped, nothing was emitted, and n8n records the error (a failed
 *   activation for the first poll, an error execution and the error workflow later).
 * - The cursor only ever moves to the end of a page that was fully processed, and a poll reads at most
 *   "Max Updates per Poll" updates, so memory is bounded however long the backlog is.
 * - n8n writes static data to its database when a poll emits (newer versions also after a poll that emits
 *   nothing). Updates read again after a restart, and updates Rubika sends twice, are dropped by a bounded
 *   set of recently delivered update keys stored next to the cursor.
 */
import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withDownloadedFile } from '../shared/downloads';
import { toNodeError } from '../shared/errors';
import { resolveCredential } from '../shared/transport';
import type { Update } from '../shared/types';
import type { UpdateItem } from '../shared/updates/item';
import { matchesFilters } from '../shared/updates/filters';
import { RecentKeys } from '../shared/updates/identity';
import { updateToItem } from '../shared/updates/item';
import { directoryFor } from '../shared/updates/sender';
import type { ReadingSettings, ReadingState } from './reading/pages';
import {
	SKIP_LIMIT_PER_POLL,
	assertPositionLost,
	clampInteger,
	cursorOf,
	fetchPage,
	readReadingSettings,
} from './reading/pages';

interface TriggerSettings extends ReadingSettings {
	maxUpdatesPerPoll: number;
}

/** What the polling trigger keeps in `getWorkflowStaticData('node')`. */
type TriggerState = ReadingState;

export const DEFAULT_MAX_UPDATES_PER_POLL = 1000;
export const MAX_UPDATES_PER_POLL_LIMIT = 5000;
/** How far the manual test scans for the newest matching update. Only one update is kept in memory. */
const MANUAL_SCAN_LIMIT = 10_000;
/** Share of n8n's poll budget spent reading pages; the rest is headroom for downloads and the hand-off. */
const FETCH_SHARE_OF_BUDGET = 0.4;
const FALLBACK_BUDGET_MS = 5 * 60_000;

/** Polls whose static data object is being worked on, so that an overlapping tick cannot read the same window. */
const inFlight = new WeakSet<object>();

function readSettings(ctx: IPollFunctions): TriggerSettings {
	const { options, ...shared } = readReadingSettings(ctx);
	return {
		...shared,
		maxUpdatesPerPoll: clampInteger(options.maxUpdatesPerPoll, 1, MAX_UPDATES_PER_POLL_LIMIT, DEFAULT_MAX_UPDATES_PER_POLL),
	};
}

/** One poll: the newest matching update in manual mode, otherwise everything pending since the cursor. */
export async function runPoll(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(ctx);
	const state = ctx.getWorkflowStaticData('node') as TriggerState;
	if (ctx.getMode() === 'manual') return await fetchTestEvent(ctx, settings, state);
	if (inFlight.has(state)) {
		ctx.logger.warn('Rubika Trigger: the previous poll is still running; skipping this one');
		return null;
	}
	inFlight.add(state);
	try {
		return await pollOnce(ctx, settings, state);
	} finally {
		inFlight.delete(state);
	}
}

async function pollOnce(
	ctx: IPollFunctions,
	settings: TriggerSettings,
	state: TriggerState,
): Promise<INodeExecutionData[][] | null> {
	const budget = startPollBudget(ctx);
	// On the first activation with "Start From Now", the backlog is read only to learn where it ends.
	let skipping = state.started !== true && settings.firstActivation === 'startFromNow';
	const recent = RecentKeys.load(state, 'recentKeys', recentCapacity(settings));
	const matched: UpdateItem[] = [];
	let duplicates = 0;
	const collect = (update: Update) => {
		const item = updateToItem(update);
		if (recent.has(item.update_key)) {
			duplicates++;
			return;
		}
		if (matchesFilters(item, settings.filters)) {
			recent.remember(item.update_key);
			matched.push(item);
		} else {
			recent.observe(item.update_key);
		}
	};
	const read = async (from: string | undefined) =>
		skipping
			? await drainOrExplain(ctx, from, SKIP_LIMIT_PER_POLL, settings.pageSize, budget, () => {})
			: await drainOrExplain(ctx, from, settings.maxUpdatesPerPoll, settings.pageSize, budget, collect);

	let result = await read(cursorOf(state.cursor));
	if (result.rejected) {
		await assertPositionLost(ctx, settings);
		ctx.logger.warn(`Rubika Trigger: Rubika rejected the saved position; continuing as "${settings.onRejectedPosition}"`);
		if (settings.onRejectedPosition === 'skipToNow') skipping = true;
		result = await read(undefined);
	}

	if (skipping) {
		budget.assertWithinBudget();
		if (result.cursor !== undefined) state.cursor = result.cursor;
		// A backlog longer than one poll can skip is skipped over the next polls, still emitting nothing.
		state.started = result.ended;
		ctx.logger.debug(`Rubika Trigger: skipped ${result.fetched} old updates`);
		return null;
	}

	const output: INodeExecutionData[] = [];
	const addSender = matched.length > 0 ? await senderAdder(ctx, settings) : undefined;
	for (const item of matched) output.push(await toExecutionData(ctx, item, settings, addSender));
	budget.assertWithinBudget();

	// The commit: one synchronous step, after everything that can fail.
	if (result.cursor !== undefined) state.cursor = result.cursor;
	state.started = true;
	recent.save(state, 'recentKeys');

	if (duplicates > 0) ctx.logger.debug(`Rubika Trigger: dropped ${duplicates} repeated updates`);
	if (result.stalled) {
		ctx.logger.warn('Rubika Trigger: Rubika did not move the cursor past a page of updates; they will be read again');
	}
	return output.length > 0 ? [output] : null;
}

/** Manual "Fetch Test Event": the newest matching update, read-only towards static data. */
async function fetchTestEvent(
	ctx: IPollFunctions,
	settings: TriggerSettings,
	state: TriggerState,
): Promise<INodeExecutionData[][]> {
	const budget = startPollBudget(ctx);
	const stored = state.started === true ? cursorOf(state.cursor) : undefined;
	let newest: UpdateItem | undefined;
	const keep = (update: Update) => {
		const item = updateToItem(update);
		if (matchesFilters(item, settings.filters)) newest = item;
	};
	await drainOrExplain(ctx, stored, MANUAL_SCAN_LIMIT, settings.pageSize, budget, keep);
	// Also when Rubika no longer accepts the saved position (drain reports it instead of failing).
	if (newest === undefined && stored !== undefined) {
		// Everything pending was already delivered: a sample from what Rubika still keeps will do for a test.
		await drainOrExplain(ctx, undefined, MANUAL_SCAN_LIMIT, settings.pageSize, budget, keep);
	}
	if (newest === undefined) {
		throw new NodeOperationError(ctx.getNode(), 'No matching update from Rubika yet', {
			description:
				'Send your bot a message that passes this trigger\'s Update Types and Filters, then fetch a test event again.',
		});
	}
	return [[await toExecutionData(ctx, newest, settings, await senderAdder(ctx, settings))]];
}

interface DrainResult {
	/** Cursor after the last page read, or the starting one when nothing moved. */
	cursor: string | undefined;
	fetched: number;
	/** An empty page was reached, or Rubika stopped moving the cursor. */
	ended: boolean;
	stalled: boolean;
	/** Rubika refused the starting cursor (INVALID_INPUT) before anything was read. */
	rejected?: boolean;
}

/**
 * Reads pages from `start` until an empty page, a cursor that does not move, `maxUpdates` updates or the
 * fetch deadline. Each update is handed to `onUpdate` and then dropped, so memory is what `onUpdate` keeps.
 */
async function drain(
	ctx: IPollFunctions,
	start: string | undefined,
	maxUpdates: number,
	pageSize: number,
	budget: PollBudget,
	onUpdate: (update: Update) => void,
): Promise<DrainResult> {
	let cursor = start;
	let fetched = 0;
	while (fetched < maxUpdates) {
		if (budget.fetchTimeIsUp()) return { cursor, fetched, ended: false, stalled: false };
		const limit = Math.min(pageSize, maxUpdates - fetched);
		const page = await fetchPage(ctx, cursor, limit, { savedCursor: fetched === 0 && cursor === start });
		if (page === 'rejected') return { cursor: start, fetched, ended: false, stalled: false, rejected: true };
		if (page.updates.length === 0) return { cursor, fetched, ended: true, stalled: false };
		for (const update of page.updates) onUpdate(update);
		fetched += page.updates.length;
		if (page.next === undefined || page.next === cursor) {
			return { cursor, fetched, ended: true, stalled: true };
		}
		cursor = page.next;
	}
	return { cursor, fetched, ended: false, stalled: false };
}

/** drain(), with a failure explained in terms of what happened to the updates. */
async function drainOrExplain(...args: Parameters<typeof drain>): Promise<DrainResult> {
	try {
		return await drain(...args);
	} catch (error) {
		const nodeError = toNodeError(args[0].getNode(), error);
		const note =
			'No update was skipped: the trigger keeps its position and reads these updates again on the next poll.';
		nodeError.description = nodeError.description ? `${nodeError.description} ${note}` : note;
		throw nodeError;
	}
}

/**
 * The item as n8n wants it, with the sender's details and the attached file as binary data when asked for. A
 * file Rubika refuses outright will never download and must not hold back every later update, so that comes
 * out on the item; a failure that may pass on a later try fails the poll instead (nothing is emitted or
 * skipped). A failed sender lookup never fails the poll: the item goes out without the details.
 */
async function toExecutionData(
	ctx: IPollFunctions,
	item: UpdateItem,
	settings: TriggerSettings,
	addSender: SenderAdder | undefined,
): Promise<INodeExecutionData> {
	return await withDownloadedFile(ctx, addSender ? await addSender(item) : item, settings.download, 'final');
}

type SenderAdder = (item: UpdateItem) => Promise<UpdateItem>;

/**
 * Options → Add Sender Details for one poll: the senders this process remembers for the bot, asked with the
 * credential resolved once for the poll. Undefined when the option is off.
 */
async function senderAdder(ctx: IPollFunctions, settings: TriggerSettings): Promise<SenderAdder | undefined> {
	if (!settings.addSenderDetails) return undefined;
	const credential = await resolveCredential(ctx);
	const directory = directoryFor(credential);
	return async (item) => await directory.addTo(ctx, item, { credential });
}

/** A poll's time budget, counted from its start (n8n gives up on a poll that runs longer). */
interface PollBudget {
	fetchTimeIsUp(): boolean;
	/** Throws when the poll ran past n8n's budget: n8n may have given up on it, so it must not commit. */
	assertWithinBudget(): void;
}

function startPollBudget(ctx: IPollFunctions): PollBudget {
	const startedAt = Date.now();
	// getPollBudgetMs exists from n8n 2.41 on; older versions have no budget we could read.
	const budgetMs =
		typeof ctx.getPollBudgetMs === 'function' ? Number(ctx.getPollBudgetMs()) || FALLBACK_BUDGET_MS : FALLBACK_BUDGET_MS;
	return {
		fetchTimeIsUp: () => Date.now() - startedAt > budgetMs * FETCH_SHARE_OF_BUDGET,
		assertWithinBudget: () => {
			const elapsed = Date.now() - startedAt;
			if (elapsed <= budgetMs) return;
			throw new NodeOperationError(ctx.getNode(), `The poll took ${Math.round(elapsed / 1000)} s, longer than n8n allows`, {
				description:
					'Nothing was emitted and the trigger kept its position. Lower "Max Updates per Poll" or turn off "Download Files" for large files.',
			});
		},
	};
}

/** The recent-keys set must cover at least one full poll, so that a replayed poll is recognised whole. */
function recentCapacity(settings: Pick<TriggerSettings, 'maxUpdatesPerPoll'>): number {
	return Math.max(RecentKeys.DEFAULT_CAPACITY, settings.maxUpdatesPerPoll);
}

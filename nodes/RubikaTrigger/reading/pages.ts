/**
 * Reading getUpdates: one page at a time with the answer checked, and what a refused position means.
 *
 * A cursor is Rubika's opaque `next_offset_id` (facts §5): passed back as it came, never computed with.
 */
import type { IDataObject, ITriggerFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isRefusal, toNodeError } from '../../shared/errors';
import { isPlainObject } from '../../shared/json';
import type { ResolvedCredential } from '../../shared/transport';
import { callRubika } from '../../shared/transport';
import type { Update } from '../../shared/types';
import type { ReadingSettings } from '../settings';

type TriggerFunctions = ITriggerFunctions;

/** What the trigger keeps in `getWorkflowStaticData('node')` while it reads. */
export interface ReadingState extends IDataObject {
	/** The `next_offset_id` to ask with next; absent until Rubika has given one. */
	cursor?: string;
	/** Set once the first activation has done what "On First Activation" asks. */
	started?: boolean;
	/** Hashed keys of recently delivered updates, oldest first (see RecentKeys). */
	recentKeys?: string[];
}

const PAGE_TIMEOUT_MS = 30_000;
/** How far one pass skips an old backlog; a longer one is skipped over the next passes. */
const SKIP_LIMIT_PER_PASS = 100_000;

export interface Page {
	updates: Update[];
	/** Where the next page starts; undefined when Rubika gave no cursor. */
	next: string | undefined;
}

/**
 * One getUpdates request from `cursor`. `'rejected'` when Rubika refused a saved cursor (INVALID_INPUT for
 * a request that carried one, when `savedCursor` says the cursor came from static data rather than from the
 * page before); any other failure is thrown as the node error n8n shows.
 */
export async function fetchPage(
	ctx: TriggerFunctions,
	cursor: string | undefined,
	limit: number,
	{
		savedCursor = true,
		abortSignal,
		credential,
	}: { savedCursor?: boolean; abortSignal?: AbortSignal; credential?: ResolvedCredential } = {},
): Promise<Page | 'rejected'> {
	const body: IDataObject = { limit };
	if (cursor !== undefined) body.offset_id = cursor;
	let data: unknown;
	try {
		data = await callRubika(ctx, 'getUpdates', body, { timeoutMs: PAGE_TIMEOUT_MS, retry: { maxAttempts: 3 }, abortSignal, credential });
	} catch (error) {
		if (savedCursor && cursor !== undefined && isRefusal(error, 'INVALID_INPUT')) return 'rejected';
		throw toNodeError(ctx.getNode(), error);
	}
	return readPage(ctx, data);
}

/**
 * Reads pages from `from` without emitting, to where Rubika has nothing more (or SKIP_LIMIT_PER_PASS updates
 * on); returns that position. A `from` Rubika refuses is dropped: the skipping starts over from the start.
 */
export async function skipToEnd(
	ctx: TriggerFunctions,
	from: string | undefined,
	pageSize: number,
	options: { abortSignal?: AbortSignal; credential?: ResolvedCredential },
): Promise<string | undefined> {
	let cursor = from;
	for (let skipped = 0; skipped < SKIP_LIMIT_PER_PASS; ) {
		const page = await fetchPage(ctx, cursor, pageSize, options);
		if (page === 'rejected') return await skipToEnd(ctx, undefined, pageSize, options);
		skipped += page.updates.length;
		if (page.updates.length === 0 || page.next === undefined || page.next === cursor) return page.next ?? cursor;
		cursor = page.next;
	}
	return cursor;
}

/** A getUpdates answer we can trust, or a NodeApiError saying what is wrong with it. */
function readPage(ctx: TriggerFunctions, data: unknown): Page {
	const malformed = (what: string) =>
		new NodeApiError(
			ctx.getNode(),
			{ method: 'getUpdates', body_start: JSON.stringify(data ?? null).slice(0, 200) },
			{
				message: `Rubika getUpdates answered with ${what}`,
				description: 'The answer does not look like the Bot API\'s; check the Base URL in the Rubika credential.',
			},
		);
	if (!isPlainObject(data)) throw malformed('no data object');
	const { updates, next_offset_id: next } = data as { updates?: unknown; next_offset_id?: unknown };
	if (updates === undefined || updates === null) {
		// Some servers leave the list out when there is nothing new; a cursor without updates is not that.
		if (cursorOf(next) === undefined) return { updates: [], next: undefined };
		throw malformed('a cursor but no updates list');
	}
	if (!Array.isArray(updates)) throw malformed('an updates field that is not a list');
	for (const update of updates) {
		if (!isPlainObject(update)) {
			throw malformed('an update that is not an object');
		}
	}
	return { updates: updates as Update[], next: cursorOf(next) };
}

/**
 * Called when getUpdates refused the saved cursor. Tells a lost position (Rubika answers without one) from
 * a refused bot token (it does not), and stops with an explanation unless the user chose how to go on.
 */
export async function assertPositionLost(
	ctx: TriggerFunctions,
	settings: ReadingSettings,
	credential?: ResolvedCredential,
): Promise<void> {
	try {
		await callRubika(ctx, 'getUpdates', { limit: 1 }, { timeoutMs: PAGE_TIMEOUT_MS, retry: { maxAttempts: 3 }, credential });
	} catch (error) {
		throw toNodeError(ctx.getNode(), error);
	}
	if (settings.onRejectedPosition !== 'error') return;
	throw new NodeApiError(
		ctx.getNode(),
		{ method: 'getUpdates', status: 'INVALID_INPUT' },
		{
			// n8n shows only the message where an activation fails: it says what to do, the description why.
			message: `${POSITION_REJECTED}: choose how to go on in the trigger's Options → If Rubika Rejects the Saved Position`,
			description:
				'This happens when the credential now belongs to another bot, or Rubika has forgotten the position. Nothing was read or skipped. Choose how to go on in Options → If Rubika Rejects the Saved Position: restart from the oldest update Rubika keeps (recently delivered ones are recognised and dropped), or skip to now.',
		},
	);
}

const POSITION_REJECTED = 'Rubika no longer accepts the position this trigger saved';

/** Whether `error` is assertPositionLost's: Rubika rejects the saved position and the user chose to stop. */
export function isPositionRejected(error: unknown): boolean {
	return error instanceof NodeApiError && error.message.startsWith(POSITION_REJECTED);
}

export function cursorOf(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	return value;
}

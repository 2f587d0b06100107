/**
 * Skip Chats Already Sent (Send Options → Campaign ID): which chats this node has delivered to under a
 * campaign, kept in n8n's processed-items store (its database), so that re-running a broadcast that died
 * halfway sends only to the chats still missing. A queue-mode worker killed mid-broadcast leaves no run
 * data at all, so the record has to be written while the broadcast goes on, not at its end.
 *
 * The store keeps one row per workflow and node (scope 'node') holding md5 hashes of the recorded values.
 * Every call reads the whole row, changes it and writes it back, and nothing makes that atomic: two calls
 * at once can each overwrite what the other added. Hence:
 * - calls on one row never overlap within this process (`oneAtATime`), whichever execution makes them;
 * - each recording call carries every chat this execution has delivered so far, not only the new ones, so
 *   entries that an overlapping call from another process (another queue worker) overwrote are written
 *   again by the next call.
 *
 * What a user can rely on: a re-run after a crash skips every chat that was recorded; at most the messages
 * delivered since the last recording call finished (the ones in flight, typically 1 to a few with Parallel
 * Requests) are sent twice; executions of the same workflow and node running at once share one record.
 *
 * An item that sends several messages (a long text) records its chat only once all of them went. When one
 * fails, those sent before it are recorded under the chat's key and their content (`partsOf`), and a re-run
 * of the item sends only the rest; a crash between two of them records nothing of the item.
 */
import type { DeduplicationHelperFunctions, ICheckProcessedOptions, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { InputError } from '../shared/errors';
import { CAMPAIGN_FIELD } from './actions/message/common';
import type { SentParts } from '../shared/transport';
import type { RubikaOperation } from './actions/types';
import { readString } from './helpers/params';

/**
 * How many (campaign, chat) entries the store keeps for one node; past it n8n drops the oldest, so old
 * campaigns make room for new ones. Every call reads and writes the whole row (about 27 bytes per entry,
 * 2.7 MB at this size), which argues for less; a whole campaign must fit, or its first chats would be
 * forgotten while it is still being sent, which argues for more. 100,000 chats covers any broadcast one
 * execution of a Rubika bot can reasonably make; a run over more distinct chats is refused before sending.
 * Exported for the test that checks n8n's store is handed this limit (a run past it would take 100,000 sends).
 */
export const MAX_RECORDED_CHATS = 100_000;

const RECORD: ICheckProcessedOptions = { mode: 'entries', maxEntries: MAX_RECORDED_CHATS };
const ENTRIES: ICheckProcessedOptions = { mode: 'entries' };

/**
 * The value recorded for one chat in one campaign (n8n stores its md5 hash). Chat IDs hold no NUL and
 * campaign IDs may not, so two different pairs never make the same key.
 */
function keyOf(campaign: string, chatId: string): string {
	return `${campaign}\u0000${chatId}`;
}

/** The item's campaign ID, trimmed; '' when Skip Chats Already Sent is not used for it. */
function readCampaign(context: IExecuteFunctions, itemIndex: number): string {
	const campaign = readString(context, 'sendOptions.campaignId', itemIndex, CAMPAIGN_FIELD).trim();
	if (campaign.includes('\u0000')) throw new InputError(CAMPAIGN_FIELD, 'must not contain a NUL character');
	return campaign;
}

/**
 * Store calls waiting or in flight, per store row (workflow and node), in this process. n8n runs several
 * executions of one workflow at once (in regular mode, and a queue worker up to its concurrency); one call
 * at a time means that only executions in other processes can overwrite each other's entries.
 */
const storeQueues = new Map<string, Promise<void>>();

async function oneAtATime<T>(row: string, call: () => Promise<T>): Promise<T> {
	const previous = storeQueues.get(row) ?? Promise.resolve();
	const result = previous.then(call);
	const settled = result.then(
		() => undefined,
		() => undefined,
	);
	storeQueues.set(row, settled);
	try {
		return await result;
	} finally {
		if (storeQueues.get(row) === settled) storeQueues.delete(row);
	}
}

interface PlannedSend {
	campaign: string;
	chatId: string;
	key: string;
}

/**
 * One execution's use of the record: which items to skip (decided before anything is sent) and the
 * recording of each delivery as it happens. `open` returns none when no item has a campaign ID.
 */
export class SentRecord {
	/** Every key this execution delivered, recorded again by each call (see the module comment). */
	private readonly deliveredKeys = new Set<string>();
	/** A delivery arrived after the current (or last) recording call took its keys. */
	private unrecorded = false;
	private recording: Promise<void> | undefined;
	private failure: NodeOperationError | undefined;

	private constructor(
		private readonly context: IExecuteFunctions,
		/** Absent when no item is to be sent under a campaign (only unusable campaign IDs were found). */
		private readonly store: DeduplicationHelperFunctions | undefined,
		private readonly row: string,
		/** Items to send whose delivery is recorded. */
		private readonly toSend: Map<number, PlannedSend>,
		/** Output of the items not sent: already delivered, or a repeat of an earlier item's chat. */
		private readonly skips: Map<number, IDataObject>,
		/** A campaign ID that cannot be used: the item fails with it when its turn comes. */
		private readonly problems: Map<number, Error>,
	) {}

	/**
	 * Reads every item's campaign and chat, then asks the store in one call which of them were delivered
	 * before. A chat whose recipient cannot be read is left to the operation, which reports the error.
	 */
	static async open(context: IExecuteFunctions, operation: RubikaOperation, itemCount: number): Promise<SentRecord | undefined> {
		if (!operation.recipient) return undefined;
		const planned = new Map<number, PlannedSend>();
		const problems = new Map<number, Error>();
		for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
			let campaign: string;
			try {
				campaign = readCampaign(context, itemIndex);
			} catch (error) {
				problems.set(itemIndex, error as Error);
				continue;
			}
			if (campaign === '') continue;
			let chatId: string;
			try {
				chatId = operation.recipient(context, itemIndex);
			} catch {
				continue;
			}
			planned.set(itemIndex, { campaign, chatId, key: keyOf(campaign, chatId) });
		}
		if (planned.size === 0 && problems.size === 0) return undefined;

		const node = context.getNode();
		const firstItemOf = new Map<string, number>();
		for (const [itemIndex, { key }] of planned) if (!firstItemOf.has(key)) firstItemOf.set(key, itemIndex);
		if (firstItemOf.size > MAX_RECORDED_CHATS) {
			throw new NodeOperationError(
				node,
				`${CAMPAIGN_FIELD}: this run would send to ${firstItemOf.size} chats, more than the ${MAX_RECORDED_CHATS} that can be recorded; split the broadcast over several nodes or runs`,
			);
		}
		const store = planned.size > 0 ? storeOf(context) : undefined;
		const row = `${context.getWorkflow().id ?? ''}\u0000${node.id}`;
		const alreadySent = store ? await findAlreadySent(context, store, row, [...firstItemOf.keys()]) : new Set<string>();

		const toSend = new Map<number, PlannedSend>();
		const skips = new Map<number, IDataObject>();
		for (const [itemIndex, send] of planned) {
			const { campaign, chatId, key } = send;
			const firstItem = firstItemOf.get(key)!;
			if (alreadySent.has(key)) {
				skips.set(itemIndex, { chat_id: chatId, campaign, skipped: true, reason: `already sent in campaign ${campaign}` });
			} else if (firstItem !== itemIndex) {
				// The same chat twice in one broadcast gets one message, as it would over two runs. Should that
				// send fail, the repeat does not stand in for it: a re-run sends it.
				skips.set(itemIndex, { chat_id: chatId, campaign, skipped: true, reason: `same chat as item ${firstItem} in campaign ${campaign}` });
			} else {
				toSend.set(itemIndex, send);
			}
		}
		return new SentRecord(context, store, row, toSend, skips, problems);
	}

	/** The output of an item that is not sent, or undefined when it is to be sent. */
	skippedItem(itemIndex: number): IDataObject | undefined {
		return this.skips.get(itemIndex);
	}

	/** Throws the item's unusable campaign ID, as the operation throws its other bad fields. */
	checkItem(itemIndex: number): void {
		const problem = this.problems.get(itemIndex);
		if (problem) throw problem;
	}

	/**
	 * The record of the messages of one item that sends several (SentParts), or undefined when the item is not
	 * sent under a campaign. A message is recorded under its chat's key and its label, so another campaign, chat
	 * or text never matches it.
	 */
	partsOf(itemIndex: number): SentParts | undefined {
		const send = this.toSend.get(itemIndex);
		const { store } = this;
		if (!send || !store) return undefined;
		const keyOf = (label: string) => `${send.key}\u0000${label}`;
		return {
			sentBefore: async (labels) => {
				const found = await findAlreadySent(this.context, store, this.row, labels.map(keyOf));
				return new Set(labels.filter((label) => found.has(keyOf(label))));
			},
			delivered: (labels) => this.record(labels.map(keyOf)),
		};
	}

	/** Recording failed: sending more would deliver messages a re-run sends again, so the run stops. */
	stopReason(): NodeOperationError | undefined {
		return this.failure;
	}

	/**
	 * The item's message arrived: record its chat. Calls never overlap: while one is in flight, deliveries
	 * wait for the next, which then takes all of them.
	 */
	delivered(itemIndex: number): void {
		const send = this.toSend.get(itemIndex);
		if (send) this.record([send.key]);
	}

	private record(keys: string[]): void {
		for (const key of keys) this.deliveredKeys.add(key);
		this.unrecorded = true;
		if (!this.recording && !this.failure) this.recording = this.recordUntilDone();
	}

	/**
	 * Waits until every delivery is recorded; call it before the node returns or throws, so a finished
	 * execution leaves a complete record. Returns the error that stopped recording, if any.
	 */
	async finish(): Promise<NodeOperationError | undefined> {
		while (this.recording) await this.recording;
		if (this.unrecorded) {
			// Only after a failed call: one last attempt, in case the database is back, so that a re-run
			// skips everything delivered.
			try {
				await this.recordDelivered();
				this.unrecorded = false;
			} catch (error) {
				this.failure ??= this.recordingFailed(error);
			}
		}
		if (this.failure) {
			this.failure.description = this.unrecorded
				? 'Chats delivered since the last successful recording are not recorded: re-running the workflow sends to them again.'
				: 'Every chat delivered before sending stopped is recorded: re-running the workflow sends only to the others.';
		}
		return this.failure;
	}

	/**
	 * Records until no delivery waits. Started with a delivery waiting, so it reaches an `await` before it
	 * returns; `recording` is cleared in the same step as the last check, so a delivery arriving after that
	 * starts a new round and none is left waiting. Never rejects: a failure is kept for `stopReason`.
	 */
	private async recordUntilDone(): Promise<void> {
		while (this.unrecorded && !this.failure) {
			this.unrecorded = false;
			try {
				await this.recordDelivered();
			} catch (error) {
				this.unrecorded = true;
				this.failure = this.recordingFailed(error);
			}
		}
		this.recording = undefined;
	}

	private recordingFailed(error: unknown): NodeOperationError {
		return new NodeOperationError(
			this.context.getNode(),
			`${CAMPAIGN_FIELD}: could not record deliveries in n8n's database, so sending stopped: ${(error as Error).message}`,
		);
	}

	/** Records every chat delivered so far (cumulative: repairs entries another process overwrote). */
	private async recordDelivered(): Promise<void> {
		const { store } = this;
		if (!store) return;
		const keys = [...this.deliveredKeys];
		await oneAtATime(this.row, async () => await store.checkProcessedAndRecord(keys, 'node', RECORD));
	}
}

function storeOf(context: IExecuteFunctions): DeduplicationHelperFunctions {
	const helpers = context.helpers as Partial<DeduplicationHelperFunctions>;
	if (typeof helpers.checkProcessedAndRecord !== 'function' || typeof helpers.removeProcessed !== 'function') {
		throw new NodeOperationError(
			context.getNode(),
			`${CAMPAIGN_FIELD} needs n8n's processed-items store, which is not available here; leave the option empty`,
		);
	}
	return helpers as DeduplicationHelperFunctions;
}

/**
 * Which keys were recorded before. The store has no call that only reads: checkProcessedAndRecord reads
 * and records the new keys too, so they are removed again at once. For those few milliseconds the row
 * holds chats not sent yet; within this process nothing else reads the row meanwhile (`oneAtATime`), but a
 * call from another process could see them as sent, or write them back after their removal. The check
 * passes no maxEntries: near the limit, its short-lived entries would push out as many old ones for good.
 */
async function findAlreadySent(
	context: IExecuteFunctions,
	store: DeduplicationHelperFunctions,
	row: string,
	keys: string[],
): Promise<Set<string>> {
	return await oneAtATime(row, async () => {
		let checked;
		try {
			checked = await store.checkProcessedAndRecord(keys, 'node', ENTRIES);
		} catch (error) {
			throw new NodeOperationError(
				context.getNode(),
				`${CAMPAIGN_FIELD}: could not read the chats already sent from n8n's database: ${(error as Error).message}`,
			);
		}
		if (checked.new.length > 0) {
			try {
				await store.removeProcessed(checked.new, 'node', ENTRIES);
			} catch (error) {
				throw new NodeOperationError(
					context.getNode(),
					`${CAMPAIGN_FIELD}: checking left this run's chats recorded as sent before sending them, and undoing that failed: ${(error as Error).message}`,
					{ description: 'Nothing was sent. Use a new campaign ID for this broadcast, or those chats would be skipped.' },
				);
			}
		}
		return new Set(checked.processed.map(String));
	});
}

/**
 * Options → Add Sender Details (both triggers): the name and username of the person an update comes from,
 * asked of Rubika once per new sender and kept in the process's memory.
 *
 * What Rubika can tell (facts §2, §9), and so what is filled where:
 * - A private chat (b0…) is the person: getChat, which is documented, answers their user_id, first_name,
 *   last_name and username. Every update of such a chat gets them, Bot Started and Bot Stopped included,
 *   which carry no sender_id. Should the chat's person not be the update's sender, nothing is filled.
 * - In a group or channel getChat names the chat, not the member. A member's names come from getChatMember
 *   (chat and sender), which Rubika's documentation does not list and two client libraries call; its answer
 *   is read as tolerantly as the action node reads it (../members.ts). A Rubika that refuses it (the bot is
 *   not an admin, say) leaves the error on the item; one that does not know the method is not asked it
 *   again while the answer is remembered.
 * - An update with no chat, or a group update without a sender (a removal), has nobody to look up.
 * Rubika keeps no language for a user, so there is none to add.
 *
 * Only memory, never static data: names change and are personal. Bounded (SENDER_CACHE.capacity lookups,
 * the least recently used go first), a found sender kept for an hour, a failed lookup for a minute. A lookup
 * is one request, not retried, with a short timeout, and never fails the update: it goes out after that one
 * request either way, with `sender: null` and `sender_details_error` when the lookup failed.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { isPlainObject } from '../json';
import { LruMap } from '../lru';
import { memberFromAnswer } from '../members';
import type { CallOptions, ResolvedCredential } from '../transport';
import { callRubika } from '../transport';
import type { RubikaContext } from '../transport/credential';
import { unknownMethodMessage } from '../transport/unknownMethod';
import { credentialFingerprint } from '../transport/credential';
import type { UpdateItem } from './item';
import { idOrNull, stringOrNull } from './raw';

/** The person behind an update, as far as Rubika tells. */
export interface SenderDetails extends IDataObject {
	user_id: string | null;
	first_name: string | null;
	last_name: string | null;
	/** First and last name, with a space between them where both are given. */
	full_name: string | null;
	username: string | null;
}

/** An item with Add Sender Details on. */
export type ItemWithSender = UpdateItem & { sender: SenderDetails | null; sender_details_error?: string };

/** How much is remembered, and for how long. An object, so that a test can shrink it. */
export const SENDER_CACHE = { capacity: 1000, ttlMs: 60 * 60_000, failureTtlMs: 60_000 };

/** One request, abandoned after this long: the update waits for it. */
const SENDER_LOOKUP_TIMEOUT_MS = 10_000;

/** Options → Add Sender Details. */
export const addSenderDetailsOption: INodeProperties = {
	displayName: 'Add Sender Details',
	name: 'addSenderDetails',
	type: 'boolean',
	default: false,
	description:
		'Whether to add "sender" to each item: the first name, last name, full name and username of the person it comes from. Costs one request to Rubika per new sender (remembered for an hour). Private chats: from getChat. Groups: from getChatMember, which Rubika does not document.',
};

interface Lookup {
	method: 'getChat' | 'getChatMember';
	body: IDataObject;
	/** What the answer is remembered under. */
	key: string;
}

interface Remembered {
	expiresAt: number;
	sender?: SenderDetails;
	error?: string;
}

/** What there is to ask for this item, if anything. */
function lookupFor(item: UpdateItem): Lookup | undefined {
	const chatId = item.chat_id;
	if (chatId === null) return undefined;
	if (item.chat_type === 'private') return { method: 'getChat', body: { chat_id: chatId }, key: chatId };
	if (item.sender_id === null) return undefined;
	return { method: 'getChatMember', body: { chat_id: chatId, user_id: item.sender_id }, key: `${chatId}:${item.sender_id}` };
}

/** Where "Rubika does not know this method" is remembered. */
const methodKey = (method: string) => `method:${method}`;

/** The person in a getChat or getChatMember answer; fields Rubika leaves out or sends empty become null. */
export function senderOf(person: Record<string, unknown>): SenderDetails {
	const text = (value: unknown) => {
		const string = stringOrNull(value)?.trim();
		return string ? string : null;
	};
	const firstName = text(person.first_name);
	const lastName = text(person.last_name);
	const fullName = [firstName, lastName].filter((part) => part !== null).join(' ');
	return {
		user_id: idOrNull(person.user_id),
		first_name: firstName,
		last_name: lastName,
		full_name: fullName === '' ? null : fullName,
		username: text(person.username),
	};
}

/** The senders one bot's updates came from, remembered. */
export class SenderDirectory {
	private readonly remembered = new LruMap<string, Remembered>(SENDER_CACHE.capacity);

	constructor(private readonly now: () => number = Date.now) {}

	/** Whether adding the sender to this item takes a request (nothing remembered for it). */
	mustAsk(item: UpdateItem): boolean {
		const lookup = lookupFor(item);
		return lookup !== undefined && this.recall(lookup.key) === undefined && this.recall(methodKey(lookup.method)) === undefined;
	}

	/** The item with `sender` (and `sender_details_error` when the lookup failed); at most one request. */
	async addTo(context: RubikaContext, item: UpdateItem, call: CallOptions): Promise<ItemWithSender> {
		const lookup = lookupFor(item);
		if (lookup === undefined) return { ...item, sender: null };
		const known = this.recall(lookup.key) ?? this.recall(methodKey(lookup.method)) ?? (await this.ask(context, lookup, call));
		if (known.error !== undefined) return { ...item, sender: null, sender_details_error: known.error };
		const sender = known.sender as SenderDetails;
		if (item.sender_id !== null && sender.user_id !== null && sender.user_id !== item.sender_id) {
			return { ...item, sender: null, sender_details_error: `The person of chat ${lookup.key} is not the sender ${item.sender_id}` };
		}
		return { ...item, sender };
	}

	private recall(key: string): Remembered | undefined {
		const entry = this.remembered.get(key);
		if (entry === undefined) return undefined;
		if (entry.expiresAt > this.now()) return entry;
		this.remembered.delete(key);
		return undefined;
	}

	private async ask(context: RubikaContext, lookup: Lookup, call: CallOptions): Promise<Remembered> {
		const options: CallOptions = { ...call, timeoutMs: SENDER_LOOKUP_TIMEOUT_MS, retry: { maxAttempts: 1 } };
		let entry: Remembered;
		try {
			const data: unknown = await callRubika(context, lookup.method, lookup.body, options);
			entry = { expiresAt: this.now() + SENDER_CACHE.ttlMs, sender: this.read(lookup, data) };
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			entry = { expiresAt: this.now() + SENDER_CACHE.failureTtlMs, error: message };
			// A lookup the trigger abandoned (it is stopping) says nothing about the sender.
			if (call.abortSignal?.aborted) return entry;
			if (message === unknownMethodMessage(lookup.method)) {
				this.remembered.set(methodKey(lookup.method), { ...entry, expiresAt: this.now() + SENDER_CACHE.ttlMs });
				return entry;
			}
		}
		this.remembered.set(lookup.key, entry);
		return entry;
	}

	private read(lookup: Lookup, data: unknown): SenderDetails {
		const answer = isPlainObject(data) ? data : {};
		if (lookup.method === 'getChat') return senderOf(isPlainObject(answer.chat) ? answer.chat : answer);
		const { chat_id: chatId, user_id: userId } = lookup.body as { chat_id: string; user_id: string };
		return senderOf(memberFromAnswer(data, chatId, userId));
	}
}

/** Bots whose senders are remembered at most, for the triggers that keep them per bot (below). */
const MAX_BOTS = 100;

const directories = new LruMap<string, SenderDirectory>(MAX_BOTS);

/**
 * The directory this process keeps for a bot, for triggers whose calls share no object: the webhook trigger
 * (each delivery is a call of its own). The trigger reading getUpdates keeps one
 * of its own per activation.
 */
export function directoryFor(credential: ResolvedCredential): SenderDirectory {
	const bot = credentialFingerprint(credential);
	let directory = directories.get(bot);
	if (directory === undefined) {
		directory = new SenderDirectory();
		directories.set(bot, directory);
	}
	return directory;
}

/**
 * How the interactive probe reads what the person does: getUpdates from a cursor of its own (facts §5:
 * `next_offset_id` is opaque and passed back as it came), starting after the backlog that was there before the
 * run, keeping only the tested chat's updates (mask.ts). Whether reading moves anything for another reader of
 * the same bot is unknown, which is why the person must agree first and stop any trigger of the bot.
 */
import { isPlainObject } from '../nodes/shared/json';
import type { ProbeChat } from './chat';
import { textOf } from './chat';
import { keptUpdatesBody, updatesOfChat } from './mask';

/** Updates asked for per request; a fuller page means more are waiting. */
const PAGE = 100;
/** How many pages of old updates are skipped at most before the first step (at the pace, a minute or so). */
const MAX_BACKLOG_PAGES = 100;
/** A message older than this when the run starts is not the person's answer, even if the backlog was too long to skip. */
const OLDEST_ANSWER_SECONDS = 600;

export type ChatUpdate = Record<string, unknown>;

export class UpdateWatch {
	#cursor: string | undefined;
	readonly #seen = new Set<string>();
	readonly #oldest = Math.floor(Date.now() / 1000) - OLDEST_ANSWER_SECONDS;

	constructor(private readonly chat: ProbeChat) {}

	/** Reads past the updates that were waiting before the run, keeping none; how many there were. */
	async skipBacklog(): Promise<{ skipped: number; complete: boolean }> {
		let skipped = 0;
		for (let page = 1; page <= MAX_BACKLOG_PAGES; page++) {
			const answer = await this.chat.call('getUpdates', this.#position(), {
				step: 'getUpdates (skipping the old updates)',
				kind: 'experiment',
				keep: (body) => (isPlainObject(body) && isPlainObject(body.data) && Array.isArray(body.data.updates) ? { ...body, data: { ...body.data, updates: [], updatesNotKept: body.data.updates.length } } : body),
			});
			if (!answer.ok) return { skipped, complete: false };
			const updates = Array.isArray(answer.data.updates) ? answer.data.updates : [];
			skipped += updates.length;
			this.#cursor = textOf(answer.data.next_offset_id) ?? this.#cursor;
			if (updates.length < PAGE) return { skipped, complete: true };
		}
		return { skipped, complete: false };
	}

	/** One read from where the last stopped: the chat's updates not seen before. */
	async poll(): Promise<ChatUpdate[]> {
		const answer = await this.chat.call('getUpdates', this.#position(), {
			step: 'getUpdates (watching the chat)',
			kind: 'experiment',
			unpaired: true,
			keep: keptUpdatesBody(this.chat.chatId),
		});
		if (!answer.ok) return [];
		this.#cursor = textOf(answer.data.next_offset_id) ?? this.#cursor;
		return updatesOfChat(answer.data, this.chat.chatId).filter((update) => {
			// Updates may come twice (facts §5); and an old message is no answer.
			const key = JSON.stringify(update);
			if (this.#seen.has(key)) return false;
			this.#seen.add(key);
			const message = isPlainObject(update.new_message) ? update.new_message : isPlainObject(update.updated_message) ? update.updated_message : undefined;
			return !(message && Number(message.time) < this.#oldest);
		});
	}

	#position(): Record<string, unknown> {
		return { limit: PAGE, ...(this.#cursor === undefined ? {} : { offset_id: this.#cursor }) };
	}
}

/** The message an update carries (a NewMessage's or an UpdatedMessage's), if any. */
export function messageOf(update: ChatUpdate): Record<string, unknown> | undefined {
	const message = update.new_message ?? update.updated_message;
	return isPlainObject(message) ? message : undefined;
}

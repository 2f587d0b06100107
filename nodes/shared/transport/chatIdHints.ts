/**
 * What a refusal of a request may be about, when the request shows it, added to Rubika's own words: both are
 * facts the service does not say in its answer (facts §2 and §7), and neither is certain enough to refuse the
 * request before sending it.
 *
 * - A `u0…` id where a chat id goes: `u0` is the prefix of a user id, and a person's chat with a bot has an id
 *   of its own (`b0…`, one per bot). Nothing documents that a user id is never taken as a chat id, and the
 *   package uses prefixes only as hints (facts §2), so it says so only once Rubika has refused.
 * - A keypad sent to a group (`g0…`) or channel (`c0…`): one library reports that Rubika refuses keypads
 *   there with INVALID_INPUT; not confirmed.
 */
import type { IDataObject } from 'n8n-workflow';

/** The body fields that name the chat a request is about. */
const CHAT_ID_FIELDS = ['chat_id', 'to_chat_id', 'from_chat_id'] as const;
const KEYPAD_FIELDS = ['inline_keypad', 'chat_keypad'] as const;

/** The hints for a refusal with `status` of a request with `body`; '' when there is none. */
export function chatIdHints(body: IDataObject | undefined, status: string): string {
	if (!body) return '';
	let hints = '';
	const userIdField = CHAT_ID_FIELDS.find((field) => typeof body[field] === 'string' && (body[field] as string).startsWith('u0'));
	if (userIdField) {
		hints +=
			` Note: ${userIdField} ${body[userIdField] as string} is a user ID (u0…), not a chat ID. A bot writes to a person in their private chat with it,` +
			' whose ID starts with b0 and is different for every bot: take chat_id from a message the person sent this bot (the Rubika Trigger\'s output), not sender_id.';
	}
	const chatId = typeof body.chat_id === 'string' ? body.chat_id : '';
	const keypad = KEYPAD_FIELDS.some((field) => body[field] !== undefined && body[field] !== null);
	if (status === 'INVALID_INPUT' && keypad && /^(g0|c0)/.test(chatId)) {
		const where = chatId.startsWith('g0') ? 'groups' : 'channels';
		hints +=
			` Note: one of Rubika's client libraries reports that Rubika refuses keypads in groups and channels with INVALID_INPUT (not confirmed); this chat is one of its ${where}. Try the message without its keypad.`;
	}
	return hints;
}

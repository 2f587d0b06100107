/**
 * JSON as the sandbox writes it. With `bareNumericIds`, message ids go out as bare JSON numbers, like
 * the official sample `"message_id": 204215121115944300` — larger than 2^53, so a client that parses them
 * with plain JSON.parse silently corrupts them. JSON.stringify cannot write such a number, so ids are first
 * replaced by a marked string (the marker holds a per-process random nonce, so message text can never
 * forge one) and the quotes are then removed.
 */
import { randomBytes } from 'node:crypto';

const MESSAGE_ID_KEYS = new Set(['message_id', 'new_message_id', 'reply_to_message_id', 'removed_message_id']);
const MARKER = `~bare${randomBytes(6).toString('hex')}~`;
const MARKED = new RegExp(`"${MARKER}(\\d+)"`, 'g');

export function toWireJson(value: unknown, bareNumericIds: boolean): string {
	if (!bareNumericIds) return JSON.stringify(value);
	const json = JSON.stringify(value, (key, item: unknown) =>
		MESSAGE_ID_KEYS.has(key) && typeof item === 'string' && /^\d+$/.test(item) ? MARKER + item : item,
	);
	return json.replace(MARKED, '$1');
}

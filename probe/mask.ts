/**
 * What the interactive probe keeps of the updates it reads. A bot's updates hold other people's messages and a
 * person's phone number and whereabouts, so the report keeps only the tested chat's updates, and of a phone
 * number or a place only the shape: every digit becomes 0 and every letter x, so the fields, their types, the
 * number of digits and the punctuation stay (`+98 912 123 4567` → `+00 000 000 0000`, `35.6892` → `00.0000`).
 */
import { isPlainObject } from '../nodes/shared/json';
import { shapeOf } from './shapes';

export const PRIVACY_NOTE =
	'Only the tested chat\'s updates are kept. Phone numbers and places (contact_message, location, live_location, and a message text that looks like a phone number or coordinates) are masked: every digit is 0, every letter x, the rest kept. Other texts are kept as typed.';

/** Keys whose whole content is personal. */
const PERSONAL_KEYS = new Set(['contact_message', 'location', 'live_location', 'current_location']);
/** A text that is a phone number, or a pair of coordinates. */
const PERSONAL_TEXT = [/^\+?\p{Nd}[\p{Nd} ]{6,}$/u, /^-?\p{Nd}+[.,]\p{Nd}+\s*[,،]\s*-?\p{Nd}+[.,]\p{Nd}+$/u];

function maskValue(value: string): string {
	return value.replace(/\p{Nd}/gu, '0').replace(/\p{L}/gu, 'x');
}

/** The value with its personal parts masked, and the paths that were. */
export function masked(value: unknown): { value: unknown; paths: string[] } {
	const paths: string[] = [];
	const visit = (item: unknown, path: string, key: string, personal: boolean): unknown => {
		if (Array.isArray(item)) return item.map((element) => visit(element, `${path}[]`, key, personal));
		if (isPlainObject(item)) {
			return Object.fromEntries(
				Object.entries(item).map(([name, child]) => [name, visit(child, path === '' ? name : `${path}.${name}`, name, personal || PERSONAL_KEYS.has(name))]),
			);
		}
		const personalText = key === 'text' && typeof item === 'string' && PERSONAL_TEXT.some((pattern) => pattern.test(item.trim()));
		if (personalText || (personal && (typeof item === 'string' || typeof item === 'number'))) {
			paths.push(path);
			return typeof item === 'string' ? maskValue(item) : 0;
		}
		return item;
	};
	return { value: visit(value, '', '', false), paths: [...new Set(paths)] };
}

/** The updates of one chat among those a getUpdates answer holds. */
export function updatesOfChat(data: Record<string, unknown>, chatId: string): Array<Record<string, unknown>> {
	const updates = Array.isArray(data.updates) ? data.updates : [];
	return updates.filter((update): update is Record<string, unknown> => isPlainObject(update) && update.chat_id === chatId);
}

/**
 * What the report keeps of a getUpdates answer's body: the chat's updates, masked, and how many others were
 * left out. An answer without updates of the chat is not kept at all (an empty poll says nothing).
 */
export function keptUpdatesBody(chatId: string): (body: unknown) => unknown {
	return (body) => {
		if (!isPlainObject(body) || !isPlainObject(body.data) || !Array.isArray(body.data.updates)) return body;
		const ours = updatesOfChat(body.data, chatId);
		if (ours.length === 0) return undefined;
		const others = body.data.updates.length - ours.length;
		return { ...body, data: { ...body.data, updates: masked(ours).value, ...(others > 0 ? { otherChatsLeftOut: others } : {}) } };
	};
}

/** What the elements of a list hold: each path in them (`new_message.text`) with the kinds of value seen there. */
export function elementShape(list: unknown[]): Record<string, string> {
	return Object.fromEntries(
		[...shapeOf(list)].filter(([path]) => path.startsWith('[].')).map(([path, kinds]) => [path.slice(3), [...kinds].sort().join(' or ')]),
	);
}

/** Every path at which `value` holds exactly `text`. */
export function pathsHolding(value: unknown, text: string, path = ''): string[] {
	if (value === text) return [path];
	if (Array.isArray(value)) return value.flatMap((element) => pathsHolding(element, text, `${path}[]`));
	if (isPlainObject(value)) return Object.entries(value).flatMap(([key, child]) => pathsHolding(child, text, path === '' ? key : `${path}.${key}`));
	return [];
}

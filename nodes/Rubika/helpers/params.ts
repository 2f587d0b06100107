/**
 * Reading plain parameters the same way in every operation. Values may come from expressions, so they
 * can be numbers, null or padded with spaces; these helpers turn them into what Rubika expects and throw
 * `InputError(<field as the user sees it>, …)`, which the node reports with the item index.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputError, toNodeError } from '../../shared/errors';
import { isPlainObject, parseJsonField } from '../../shared/json';

/**
 * A parameter's value (expressions resolved for the item), without n8n's check against the description:
 * these helpers check every value themselves with messages naming the field, and n8n's check looks through
 * the node's whole description on every read (its parameters repeat once per operation), which was most of
 * what the node added per item of a broadcast over a bare helper call (benchmark B1).
 */
export function parameter(context: IExecuteFunctions, name: string, itemIndex: number, fallback: unknown): unknown {
	return context.getNodeParameter(name, itemIndex, fallback, { skipValidation: true }) as unknown;
}

/** Runs pure reading code; an `InputError` it throws becomes the node error naming the field and the item. */
export function withInputErrors<T>(context: IExecuteFunctions, itemIndex: number, read: () => T): T {
	try {
		return read();
	} catch (error) {
		throw toNodeError(context.getNode(), error, itemIndex);
	}
}

/** A parameter as text: numbers and booleans become their text, null and undefined become ''. */
export function readString(context: IExecuteFunctions, name: string, itemIndex: number, field: string): string {
	return textOf(parameter(context, name, itemIndex, ''), field);
}

/** A value already read (e.g. from a collection) as text, by readString's rules. */
function textOf(value: unknown, field: string): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value;
	if (typeof value === 'number') {
		// Rubika ids reach 19 digits; a number that large has already lost digits on its way here.
		if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
			throw new InputError(
				field,
				`${value} is a number too large to be exact; keep the ID as text (as Rubika returns it) instead of converting it to a number`,
			);
		}
		return String(value);
	}
	if (typeof value === 'boolean') return String(value);
	throw new InputError(field, `must be text, got ${Array.isArray(value) ? 'a list' : typeof value}`);
}

/** Required text; surrounding spaces removed unless `keepSpaces` (message texts keep them). */
export function requireString(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	field: string,
	options: { keepSpaces?: boolean } = {},
): string {
	const value = readString(context, name, itemIndex, field);
	if (value.trim() === '') throw new InputError(field, 'is required');
	return options.keepSpaces ? value : value.trim();
}

/** A required chat, message or user id: trimmed, and one token (Rubika ids never hold spaces). */
export function requireId(context: IExecuteFunctions, name: string, itemIndex: number, field: string): string {
	const value = requireString(context, name, itemIndex, field);
	if (/\s/.test(value)) throw new InputError(field, `must be a single ID without spaces, got "${value}"`);
	return value;
}

/** An optional id: undefined when empty. */
export function optionalId(context: IExecuteFunctions, name: string, itemIndex: number, field: string): string | undefined {
	return optionalIdOf(parameter(context, name, itemIndex, ''), field);
}

/** A value already read as an optional id, by optionalId's rules. */
export function optionalIdOf(raw: unknown, field: string): string | undefined {
	const value = textOf(raw, field).trim();
	if (value === '') return undefined;
	if (/\s/.test(value)) throw new InputError(field, `must be a single ID without spaces, got "${value}"`);
	return value;
}

/**
 * A JSON parameter: n8n hands over the text typed into a JSON field, or the value itself when an expression
 * returns an object or list. Text is parsed keeping big integer ids exact; `undefined` when left empty.
 */
export function readJson(context: IExecuteFunctions, name: string, itemIndex: number, field: string): unknown {
	return parseJsonField(parameter(context, name, itemIndex, ''), field);
}

/** A JSON object parameter (`{}` when left empty); lists and plain values are refused. */
export function readJsonObject(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	field: string,
): Record<string, unknown> {
	const value = readJson(context, name, itemIndex, field);
	if (value === undefined) return {};
	if (!isPlainObject(value)) {
		const kind = Array.isArray(value) ? 'a list' : value === null ? 'null' : typeof value;
		throw new InputError(field, `must be a JSON object such as {"chat_id": "b0…"}, got ${kind}`);
	}
	return value as Record<string, unknown>;
}

/** A whole number within bounds; expressions may deliver it as text. */
export function readInteger(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	field: string,
	bounds: { min?: number; max?: number; fallback: number },
): number {
	const raw = parameter(context, name, itemIndex, bounds.fallback);
	const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : raw;
	if (typeof value !== 'number' || !Number.isInteger(value)) {
		throw new InputError(field, `must be a whole number, got ${JSON.stringify(raw)}`);
	}
	if (bounds.min !== undefined && value < bounds.min) throw new InputError(field, `must be at least ${bounds.min}, got ${value}`);
	if (bounds.max !== undefined && value > bounds.max) throw new InputError(field, `must be at most ${bounds.max}, got ${value}`);
	return value;
}

/** A switch; expressions may deliver it as "true"/"false". Anything else is refused rather than guessed. */
export function readSwitch(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	field: string,
	fallback: boolean,
): boolean {
	const value = parameter(context, name, itemIndex, fallback);
	if (value === undefined || value === null || value === '') return fallback;
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
	if (text === 'true' || text === 'false') return text === 'true';
	throw new InputError(field, `must be true or false, got ${JSON.stringify(value)}`);
}

/**
 * A required id field (chat, message, user…). Always a string field: Rubika's ids are strings and some
 * outgrow JavaScript's exact integers, so a number field would silently change them.
 */
export function idProperty(displayName: string, name: string, placeholder: string, description: string): INodeProperties {
	return { displayName, name, type: 'string', required: true, default: '', placeholder, description };
}

const CHAT_ID_FIELD = 'Chat ID';

/** The "Chat ID" field (parameter `chatId`) of every operation that acts on one chat. */
export function chatIdProperty(description: string, placeholder = 'b0…'): INodeProperties {
	return idProperty(CHAT_ID_FIELD, 'chatId', placeholder, description);
}

export function readChatId(context: IExecuteFunctions, itemIndex: number): string {
	return requireId(context, 'chatId', itemIndex, CHAT_ID_FIELD);
}

/**
 * Formatting metadata (`metadata.meta_data_parts`): parsing what users type and checking it against the text.
 *
 * Rubika rejects the whole message when one part is bad (facts §7), and its error says little, so every rule
 * the service is known to apply is checked here first, with a message naming the part.
 */
import { InputError } from '../../shared/errors';
import { isPlainObject, parseJsonField } from '../../shared/json';
import { MAX_METADATA_PARTS, METADATA_TYPES } from '../../shared/types';
import type { MetadataPart, MetadataType } from '../../shared/types';

/**
 * Length of a string as Rubika counts it: UTF-16 code units, the same unit as JavaScript's `length`
 * (an emoji outside the Basic Multilingual Plane counts 2). Named so that callers say which unit they mean.
 */
export function utf16Length(text: string): number {
	return text.length;
}

/**
 * A link target Rubika clients can open: `scheme://something` without spaces, e.g. `https://…`, `http://…`,
 * or an app link such as `tg://resolve?domain=…` / `rubika://…`. Bare domains and `mailto:` are refused:
 * we have no evidence the clients turn them into links.
 */
export function isLinkUrl(value: string): boolean {
	return /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#]\S*$/.test(value);
}

const TYPE_BY_LOWER_CASE = new Map<string, MetadataType>(METADATA_TYPES.map((type) => [type.toLowerCase(), type]));

function describe(value: unknown): string {
	if (typeof value === 'string') return `"${value}"`;
	if (value === undefined) return 'missing';
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}

/** True when `index` falls between the two halves of a surrogate pair, i.e. inside one emoji. */
function splitsSurrogatePair(text: string, index: number): boolean {
	if (index <= 0 || index >= text.length) return false;
	return isHighSurrogate(text.charCodeAt(index - 1)) && isLowSurrogate(text.charCodeAt(index));
}

/**
 * Checks parts against the text they format. Throws `InputError(field, "part N: …")` (N counted from 1)
 * on the first problem; returns nothing when all parts are fine. No parts at all is valid. `oneMessage`
 * false leaves out the count of parts: a text that is split into several messages may carry more in all.
 */
export function validateMetadataParts(
	text: string,
	parts: unknown,
	field: string,
	{ oneMessage = true } = {},
): asserts parts is MetadataPart[] {
	if (!Array.isArray(parts)) {
		throw new InputError(field, 'formatting parts must be a list');
	}
	if (oneMessage && parts.length > MAX_METADATA_PARTS) {
		throw new InputError(
			field,
			`has ${parts.length} formatting parts; Rubika allows at most ${MAX_METADATA_PARTS} per message`,
		);
	}
	const textLength = utf16Length(text);
	parts.forEach((part: unknown, index) => {
		const where = `part ${index + 1}`;
		if (!isPlainObject(part)) {
			throw new InputError(field, `${where} must be an object with type, from_index and length`);
		}
		const { type, from_index: from, length, link_url: linkUrl, mention_text_user_id: userId } =
			part as Record<string, unknown>;
		if (typeof type !== 'string' || !(METADATA_TYPES as readonly string[]).includes(type)) {
			throw new InputError(
				field,
				`${where}: type ${describe(type)} is not valid; allowed: ${METADATA_TYPES.join(', ')}`,
			);
		}
		if (typeof from !== 'number' || !Number.isInteger(from) || from < 0) {
			throw new InputError(field, `${where}: from_index must be a whole number of 0 or more, got ${describe(from)}`);
		}
		if (typeof length !== 'number' || !Number.isInteger(length) || length <= 0) {
			throw new InputError(field, `${where}: length must be a whole number above 0, got ${describe(length)}`);
		}
		if (from + length > textLength) {
			throw new InputError(
				field,
				`${where}: from_index ${from} + length ${length} = ${from + length} goes past the end of the text, ` +
					`which is ${textLength} UTF-16 code units long (emoji count 2)`,
			);
		}
		if (splitsSurrogatePair(text, from)) {
			throw new InputError(
				field,
				`${where}: from_index ${from} falls inside an emoji or other character that takes 2 UTF-16 code units`,
			);
		}
		if (splitsSurrogatePair(text, from + length)) {
			throw new InputError(
				field,
				`${where}: the range ends at ${from + length}, inside an emoji or other character that takes 2 UTF-16 code units`,
			);
		}
		if (type === 'Link' && (typeof linkUrl !== 'string' || !isLinkUrl(linkUrl))) {
			throw new InputError(
				field,
				`${where}: a Link needs link_url with an address such as https://example.com, got ${describe(linkUrl)}`,
			);
		}
		if (type === 'MentionText' && (typeof userId !== 'string' || userId.trim() === '')) {
			throw new InputError(field, `${where}: a MentionText needs mention_text_user_id (a user ID such as u0…)`);
		}
	});
}

/**
 * Reads parts written by hand or produced by an expression. Accepts `{meta_data_parts: […]}`,
 * `{metadata: {meta_data_parts: […]}}` (a copied request body), a bare parts array, a single part object,
 * or a JSON string of any of these; an empty string means no parts.
 *
 * Forgiving where expressions commonly differ from the API's spelling: type names in any letter case
 * ("bold"), numeric strings for from_index/length, numeric user ids. Anything else is left for
 * `validateMetadataParts`, which must still be called with the text.
 */
export function parseMetadataJson(input: unknown, field: string): MetadataPart[] {
	let value = parseJsonField(input, field);
	if (value === undefined || value === null) return [];
	if (typeof value === 'object' && !Array.isArray(value)) {
		const object = value as Record<string, unknown>;
		if ('metadata' in object && !('meta_data_parts' in object) && !('type' in object)) {
			return parseMetadataJson(object.metadata, field);
		}
		if ('meta_data_parts' in object) {
			value = object.meta_data_parts ?? [];
		} else if ('type' in object) {
			value = [object];
		} else {
			throw new InputError(field, 'must be {"meta_data_parts": [...]} or a list of parts');
		}
	}
	if (!Array.isArray(value)) {
		throw new InputError(field, 'must be {"meta_data_parts": [...]} or a list of parts');
	}
	return value.map((part: unknown, index) => normalizePart(part, index, field));
}

function toNumberIfNumeric(value: unknown): unknown {
	if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return Number(value);
	return value;
}

function normalizePart(part: unknown, index: number, field: string): MetadataPart {
	if (!isPlainObject(part)) {
		throw new InputError(field, `part ${index + 1} must be an object with type, from_index and length`);
	}
	const normalized: Record<string, unknown> = { ...(part as Record<string, unknown>) };
	if (typeof normalized.type === 'string') {
		normalized.type = TYPE_BY_LOWER_CASE.get(normalized.type.trim().toLowerCase()) ?? normalized.type;
	}
	normalized.from_index = toNumberIfNumeric(normalized.from_index);
	normalized.length = toNumberIfNumeric(normalized.length);
	if (typeof normalized.mention_text_user_id === 'number') {
		normalized.mention_text_user_id = String(normalized.mention_text_user_id);
	}
	return normalized as unknown as MetadataPart;
}

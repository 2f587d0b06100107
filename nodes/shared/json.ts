import { InputError } from './errors';

/** A JSON object: an object that is neither null nor a list. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSON parsing that keeps big integers exact.
 *
 * Rubika ids are documented as strings, but an official sample shows `message_id` as a bare number above
 * 2^53, which `JSON.parse` would silently round. Any bare integer that is not a safe JS integer is turned
 * into a string of its digits before parsing; everything else parses exactly as `JSON.parse` would.
 */
export function parseJsonKeepingBigIntegers(text: string): unknown {
	return JSON.parse(quoteUnsafeIntegers(text));
}

function quoteUnsafeIntegers(text: string): string {
	// Fast path: no bare run of 16+ digits, nothing can be unsafe. A bare number in JSON follows ':', ',' or
	// '[' (or starts the text), so answers whose ids are strings, as Rubika documents them, skip the
	// character-by-character scan below. A match inside a string only costs time, never correctness.
	if (!/(?:^|[:,[])\s*-?\d{16}/.test(text)) return text;
	let out = '';
	let index = 0;
	let copiedUpTo = 0;
	while (index < text.length) {
		const char = text[index];
		if (char === '"') {
			// Skip a string literal, honouring escapes.
			index++;
			while (index < text.length && text[index] !== '"') {
				index += text[index] === '\\' ? 2 : 1;
			}
			index++;
			continue;
		}
		if (char === '-' || (char >= '0' && char <= '9')) {
			const start = index;
			index++;
			while (index < text.length && /[0-9eE+\-.]/.test(text[index])) index++;
			const token = text.slice(start, index);
			if (/^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token))) {
				out += text.slice(copiedUpTo, start) + `"${token}"`;
				copiedUpTo = index;
			}
			continue;
		}
		index++;
	}
	return out + text.slice(copiedUpTo);
}

/**
 * The one reader of a JSON field of a node. n8n hands over the text typed into the field, or the value
 * itself when an expression produced an object, list or number; text is parsed keeping big integer ids exact.
 * Returns `undefined` for an empty field (undefined, null, or only spaces); anything else that is not text
 * is returned as it is, for the caller to check its shape.
 *
 * Text that does not parse throws `InputError(field, "<subject> is not valid JSON: <parser's reason>")`,
 * `subject` saying which part of the field is meant when it is not the whole field (e.g. "the keypad").
 */
export function parseJsonField(value: unknown, field: string, subject?: string): unknown {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	let problem: string;
	try {
		return parseJsonKeepingBigIntegers(value);
	} catch (error) {
		problem = (error as Error).message;
	}
	// Thrown outside the catch: this is the user's input, not a failed parse of an answer.
	throw new InputError(field, `${subject === undefined ? '' : `${subject} `}is not valid JSON: ${problem}`);
}

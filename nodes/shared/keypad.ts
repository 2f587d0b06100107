/**
 * Keypads (inline keypads under a message and chat keypads replacing the phone keyboard): reading every
 * shape users write in n8n expressions, building one from the node's builder UI, and checking it before
 * anything is sent, with messages that point at the row and button.
 */
import { buttonLinkProblems } from './buttonLink';
import type { ButtonLinkProblem } from './buttonLink';
import { InputError } from './errors';
import { parseJsonField } from './json';
import { BUTTON_LINK_TYPES, BUTTON_TYPES } from './types';
import type { Button, ButtonLink, Keypad, KeypadRow } from './types';

export type KeypadKind = 'inline' | 'chat';

/** One button as the builder UI stores it (see `keypadBuilderProperty` in nodes/Rubika/helpers/keypadRows.ts). */
export interface BuilderButton {
	/** Empty → generated as `r<row>b<column>`, counted from 1. */
	id?: string | number;
	/** One of BUTTON_TYPES; empty → `Simple`. */
	type?: string;
	text?: string;
	/** Button Options; `extra` is a JSON object with type-specific sub-objects, e.g. `{"button_calendar": {...}}`. */
	options?: { extra?: string | Record<string, unknown> };
	/** Link buttons: what they open, and the address or channel. */
	linkType?: string;
	url?: string;
	channelUsername?: string;
}

/**
 * One row as the builder UI stores it. n8n wraps the inner list of a nested fixedCollection in an object
 * keyed by the option name (`{ button: [...] }`); a plain array is accepted too.
 */
export interface BuilderRow {
	buttons?: BuilderButton[] | { button?: BuilderButton[] };
}

/** Chat-keypad flags as the builder UI names them. */
export interface ChatKeypadFlags {
	resizeKeyboard?: boolean;
	oneTimeKeyboard?: boolean;
}

const CHAT_ONLY_FIELDS = ['resize_keyboard', 'one_time_keyboard', 'on_time_keyboard'] as const;
/** Keys the builder's "extra fields" may not set, because they have their own field. */
const RESERVED_BUTTON_FIELDS = ['id', 'type', 'button_text', 'text'];
const BUTTON_TYPE_BY_LOWER_CASE = new Map<string, string>(BUTTON_TYPES.map((type) => [type.toLowerCase(), type]));
const ALLOWED_TYPES_TEXT = BUTTON_TYPES.join(', ');

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function place(row: number, column?: number): string {
	return column === undefined ? `row ${row + 1}` : `row ${row + 1}, button ${column + 1}`;
}

/** The id a button gets when the user left it empty: stable across runs, so taps can be routed by id. */
export function generatedButtonId(row: number, column: number): string {
	return `r${row + 1}b${column + 1}`;
}

/**
 * Reads a keypad from whatever the user supplied:
 * - a Keypad object `{rows: [{buttons: [...]}], ...}`, also wrapped as `{inline_keypad: {...}}` or
 *   `{chat_keypad: {...}}` (a copied request body);
 * - a rows array `[{buttons: [...]}, ...]`;
 * - an array of button arrays `[[{...}, {...}], [{...}]]`;
 * - a JSON string of any of these.
 * Buttons may use `text` for `button_text`, omit `type` (→ Simple, any letter case accepted), give numeric
 * ids (→ strings) or no id (→ `r<row>b<column>`). Type-specific sub-objects and unknown keys pass through.
 * The result is validated (see `validateKeypad`).
 */
export function parseKeypad(input: unknown, field: string, kind: KeypadKind): Keypad {
	let value = input;
	if (typeof value === 'string') {
		if (value.trim() === '') {
			throw new InputError(field, 'is empty; enter a keypad such as {"rows": [{"buttons": [{"id": "yes", "button_text": "Yes"}]}]}');
		}
		value = parseJsonField(value, field, 'the keypad');
	}
	if (isPlainObject(value) && !('rows' in value)) {
		const wrapped = kind === 'chat' ? value.chat_keypad ?? value.inline_keypad : value.inline_keypad ?? value.chat_keypad;
		if (wrapped !== undefined) return parseKeypad(wrapped, field, kind);
	}

	let rawRows: unknown;
	const keypad: Keypad = { rows: [] };
	if (Array.isArray(value)) {
		rawRows = value;
	} else if (isPlainObject(value) && 'rows' in value) {
		rawRows = value.rows;
		for (const flag of CHAT_ONLY_FIELDS) {
			if (value[flag] === undefined || value[flag] === null) continue;
			if (kind === 'inline') {
				throw new InputError(field, `${flag} is only allowed on a chat keypad, not on an inline keypad`);
			}
			keypad[flag] = toFlag(value[flag], field, flag);
		}
		// Copy other keypad-level keys untouched: the service ignores what it does not know.
		for (const [key, extra] of Object.entries(value)) {
			if (key !== 'rows' && !(CHAT_ONLY_FIELDS as readonly string[]).includes(key)) {
				(keypad as unknown as Record<string, unknown>)[key] = extra;
			}
		}
	} else {
		throw new InputError(
			field,
			'must be a keypad {"rows": [{"buttons": [...]}]}, a list of rows, or a list of button lists',
		);
	}
	if (!Array.isArray(rawRows)) {
		throw new InputError(field, '"rows" must be a list of rows');
	}

	keypad.rows = rawRows.map((rawRow: unknown, rowIndex) => {
		let rawButtons: unknown;
		if (Array.isArray(rawRow)) rawButtons = rawRow;
		else if (isPlainObject(rawRow) && 'buttons' in rawRow) rawButtons = rawRow.buttons;
		else throw new InputError(field, `${place(rowIndex)} must be {"buttons": [...]} or a list of buttons`);
		if (!Array.isArray(rawButtons)) {
			throw new InputError(field, `${place(rowIndex)}: "buttons" must be a list of buttons`);
		}
		const row: KeypadRow = {
			buttons: rawButtons.map((raw: unknown, column) => normalizeButton(raw, rowIndex, column, field)),
		};
		return row;
	});

	if (kind === 'chat') syncOneTimeFlag(keypad, field);
	validateKeypad(keypad, field, kind);
	return keypad;
}

function toFlag(value: unknown, field: string, name: string): boolean {
	if (typeof value === 'boolean') return value;
	if (value === 'true') return true;
	if (value === 'false') return false;
	throw new InputError(field, `${name} must be true or false, got ${JSON.stringify(value)}`);
}

/**
 * The one-time flag is `one_time_keyboard` in the current docs and `on_time_keyboard` in the older docs and
 * in most libraries (facts §2, [conflict]). The service ignores fields it does not know, so sending both
 * spellings with the same value works whichever one it reads. Differing values are a user mistake.
 */
function syncOneTimeFlag(keypad: Keypad, field: string): void {
	const { one_time_keyboard: current, on_time_keyboard: older } = keypad;
	if (current !== undefined && older !== undefined && current !== older) {
		throw new InputError(field, 'one_time_keyboard and on_time_keyboard disagree; set only one of them');
	}
	const value = current ?? older;
	if (value !== undefined) {
		keypad.one_time_keyboard = value;
		keypad.on_time_keyboard = value;
	}
}

function normalizeButton(raw: unknown, row: number, column: number, field: string): Button {
	if (!isPlainObject(raw)) {
		throw new InputError(field, `${place(row, column)} must be an object such as {"id": "1", "button_text": "Yes"}`);
	}
	const { text, ...rest } = raw;
	const button: Record<string, unknown> = { ...rest };
	if (button.button_text === undefined || button.button_text === null) button.button_text = text;
	if (typeof button.button_text === 'number') button.button_text = String(button.button_text);

	if (button.id === undefined || button.id === null || button.id === '') {
		button.id = generatedButtonId(row, column);
	} else if (typeof button.id === 'number' && Number.isFinite(button.id)) {
		button.id = String(button.id);
	}

	if (button.type === undefined || button.type === null || button.type === '') {
		button.type = 'Simple';
	} else if (typeof button.type === 'string') {
		button.type = BUTTON_TYPE_BY_LOWER_CASE.get(button.type.trim().toLowerCase()) ?? button.type;
	}
	// Known fields first, so requests read naturally in logs; everything else follows untouched.
	const { id, type, button_text: buttonText, ...others } = button;
	return { id, type, button_text: buttonText, ...others } as Button;
}

/**
 * Builds a keypad from the builder UI's rows. `flags` only applies to chat keypads; the one-time flag is
 * sent in both spellings (see `syncOneTimeFlag`). Empty ids become `r<row>b<column>`.
 */
export function buildKeypadFromRows(
	rows: BuilderRow[] | undefined,
	field: string,
	kind: KeypadKind,
	flags: ChatKeypadFlags = {},
): Keypad {
	const keypad: Keypad = {
		rows: (rows ?? []).map((row, rowIndex) => {
			const list = Array.isArray(row?.buttons) ? row.buttons : row?.buttons?.button ?? [];
			return {
				buttons: list.map((entry, column) => {
					const extra = parseExtra(entry.options?.extra, field, rowIndex, column);
					const id = entry.id === undefined || entry.id === null ? '' : String(entry.id).trim();
					const type = (entry.type ?? '').trim();
					const button: Button = {
						...extra,
						id: id === '' ? generatedButtonId(rowIndex, column) : id,
						type: type === '' ? 'Simple' : BUTTON_TYPE_BY_LOWER_CASE.get(type.toLowerCase()) ?? type,
						button_text: entry.text ?? '',
					};
					if (button.type === 'Link' && extra.button_link === undefined) button.button_link = builderLink(entry);
					return button;
				}),
			};
		}),
	};
	if (kind === 'chat') {
		if (flags.resizeKeyboard !== undefined) keypad.resize_keyboard = flags.resizeKeyboard;
		if (flags.oneTimeKeyboard !== undefined) {
			keypad.one_time_keyboard = flags.oneTimeKeyboard;
			keypad.on_time_keyboard = flags.oneTimeKeyboard;
		}
	}
	validateKeypad(keypad, field, kind);
	return keypad;
}

/** A Link button's target from the builder's fields (Opens, URL, Channel Username). */
function builderLink(entry: BuilderButton): ButtonLink {
	if (entry.linkType === 'joinchannel') {
		return { type: 'joinchannel', joinchannel_data: { username: String(entry.channelUsername ?? '').trim().replace(/^@/, '') } };
	}
	return { type: 'url', link_url: String(entry.url ?? '').trim() };
}

function parseExtra(extra: string | Record<string, unknown> | undefined, field: string, row: number, column: number): Record<string, unknown> {
	if (extra === undefined || extra === null) return {};
	let value: unknown = extra;
	if (typeof extra === 'string') {
		if (extra.trim() === '') return {};
		value = parseJsonField(extra, field, `${place(row, column)}: extra fields`);
	}
	if (!isPlainObject(value)) {
		throw new InputError(
			field,
			`${place(row, column)}: extra fields must be a JSON object such as {"button_calendar": {...}}`,
		);
	}
	for (const key of RESERVED_BUTTON_FIELDS) {
		if (key in value) {
			throw new InputError(
				field,
				`${place(row, column)}: extra fields may not set "${key}"; use the button's own field for it`,
			);
		}
	}
	return value;
}

/**
 * Checks a keypad: at least one row, no empty row, every button with a non-empty id (unique in the
 * keypad, since taps are reported by id), non-empty button_text and a known type. When `kind` is given,
 * chat-only flags on an inline keypad are refused and the flags must be booleans.
 */
export function validateKeypad(keypad: unknown, field: string, kind?: KeypadKind): asserts keypad is Keypad {
	if (!isPlainObject(keypad) || !Array.isArray(keypad.rows)) {
		throw new InputError(field, 'must be a keypad with a "rows" list');
	}
	if (keypad.rows.length === 0) {
		throw new InputError(field, 'must have at least one row with at least one button');
	}
	for (const flag of CHAT_ONLY_FIELDS) {
		const value = keypad[flag];
		if (value === undefined) continue;
		if (kind === 'inline') {
			throw new InputError(field, `${flag} is only allowed on a chat keypad, not on an inline keypad`);
		}
		if (typeof value !== 'boolean') {
			throw new InputError(field, `${flag} must be true or false, got ${JSON.stringify(value)}`);
		}
	}
	const seen = new Map<string, string>();
	keypad.rows.forEach((row: unknown, rowIndex) => {
		if (!isPlainObject(row) || !Array.isArray(row.buttons)) {
			throw new InputError(field, `${place(rowIndex)} must have a "buttons" list`);
		}
		if (row.buttons.length === 0) {
			throw new InputError(field, `${place(rowIndex)} has no buttons; remove the row or add a button`);
		}
		row.buttons.forEach((button: unknown, column) => {
			const where = place(rowIndex, column);
			if (!isPlainObject(button)) {
				throw new InputError(field, `${where} must be an object`);
			}
			const { id, type, button_text: text } = button;
			if (typeof id !== 'string' || id.trim() === '') {
				throw new InputError(field, `${where}: button id must be a non-empty text`);
			}
			const first = seen.get(id);
			if (first !== undefined) {
				throw new InputError(field, `${where}: button id "${id}" is used twice (first at ${first}); ids must be unique in a keypad`);
			}
			seen.set(id, where);
			if (typeof text !== 'string' || text.trim() === '') {
				throw new InputError(field, `${where}: button text is empty`);
			}
			if (typeof type !== 'string' || !(BUTTON_TYPES as readonly string[]).includes(type)) {
				throw new InputError(
					field,
					`${where}: button type ${JSON.stringify(type)} is not valid; allowed: ${ALLOWED_TYPES_TEXT}`,
				);
			}
			validateButtonLink(button, field, where);
		});
	});
}

/**
 * A Link button's `button_link`, by the rules shared with the sandbox (nodes/shared/buttonLink.ts): the first
 * problem, worded for the person filling in the node.
 */
function validateButtonLink(button: Record<string, unknown>, field: string, where: string): void {
	const [problem] = buttonLinkProblems(button);
	if (problem) throw new InputError(field, `${where}: ${buttonLinkMessage(problem)}`);
}

function buttonLinkMessage({ code, path, value }: ButtonLinkProblem): string {
	switch (code) {
		case 'notLinkButton':
			return 'button_link is only for Link buttons';
		case 'urlMissing':
		case 'urlNotHttp':
			return `the URL ${JSON.stringify(typeof value === 'string' ? value : '')} is not a web address (http:// or https://)`;
		case 'unknownLinkType':
			return `button_link.type must be ${BUTTON_LINK_TYPES.join(' or ')}`;
		case 'required':
		case 'notObject':
			if (path === 'button_link') return 'a Link button needs a web address or a channel to join (button_link)';
			// A joinchannel link without its data names no channel: said as for an empty username.
			if (path === 'button_link.joinchannel_data') return badUsername('');
			return `${path} must be an object`;
		case 'badUsername':
			return badUsername(value);
		case 'otherLinkTypeField':
			return `${path} is only for ${path.endsWith('link_url') ? 'url' : 'joinchannel'} links`;
		case 'notBoolean':
			return `${path} must be true or false, got ${JSON.stringify(value)}`;
		case 'emptyText':
			return `${path} must be a non-empty text`;
	}
}

function badUsername(value: unknown): string {
	return `the channel username ${JSON.stringify(typeof value === 'string' ? value : '')} is not valid (letters, digits and _, 3 to 32)`;
}

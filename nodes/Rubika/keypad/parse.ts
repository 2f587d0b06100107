/**
 * Reading a keypad from what users write in n8n expressions and JSON fields: every usual shape, then the checks.
 */
import { InputError } from '../../shared/errors';
import { isPlainObject, parseJsonField } from '../../shared/json';
import type { Button, Keypad, KeypadRow } from '../../shared/types';
import type { KeypadKind } from './common';
import { CHAT_ONLY_FIELDS, canonicalButtonType, generatedButtonId, place, syncOneTimeFlag, useAppLink } from './common';
import { validateKeypad } from './validate';

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
		button.type = canonicalButtonType(button.type);
	}
	useAppLink(button);
	// Known fields first, so requests read naturally in logs; everything else follows untouched.
	const { id, type, button_text: buttonText, ...others } = button;
	return { id, type, button_text: buttonText, ...others } as Button;
}

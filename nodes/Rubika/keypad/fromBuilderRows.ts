/** Building a keypad from the node's builder UI (rows of buttons with their fields), then the checks. */
import { InputError } from '../../shared/errors';
import { isPlainObject, parseJsonField } from '../../shared/json';
import type { Button, ButtonLink, Keypad } from '../../shared/types';
import type { KeypadKind } from './common';
import { canonicalButtonType, generatedButtonId, place, syncOneTimeFlag, useAppLink } from './common';
import type { ButtonSettingsFields } from './settings';
import { buttonSettings, buttonSettingsKey } from './settings';
import { validateKeypad } from './validate';

/** Keys the builder's "extra fields" may not set, because they have their own field. */
const RESERVED_BUTTON_FIELDS = ['id', 'type', 'button_text', 'text'];

/**
 * One button as the builder UI stores it (see `keypadBuilderProperty` in nodes/Rubika/helpers/keypadRows.ts).
 */
interface BuilderButton extends ButtonSettingsFields {
	/** Empty → generated as `r<row>b<column>`, counted from 1. */
	id?: string | number;
	/** One of BUTTON_TYPES; empty → `Simple`. */
	type?: string;
	text?: string;
	/**
	 * `extra`: a JSON object merged into the button, e.g. `{"button_calendar": {...}}`; a settings object it
	 * names replaces the one the settings fields would build. Version 1 offers it for every type, 1.1 only
	 * for the types that have settings.
	 */
	options?: { extra?: string | Record<string, unknown> };
	/** Link buttons: what they open, and the address or channel. */
	linkType?: string;
	url?: string;
	channelUsername?: string;
	/** Channel to Join: the app asks the person before joining (`ask_join`). */
	askJoin?: boolean;
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

/**
 * Builds a keypad from the builder UI's rows. `flags` only applies to chat keypads; the one-time flag is
 * sent in both spellings (see `syncOneTimeFlag`). Empty ids become `r<row>b<column>`.
 */
export function keypadFromBuilderRows(
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
						type: type === '' ? 'Simple' : canonicalButtonType(type),
						button_text: entry.text ?? '',
					};
					if (button.type === 'Link' && extra.button_link === undefined) button.button_link = builderLink(entry);
					useAppLink(button);
					const key = buttonSettingsKey(button.type);
					if (key !== undefined && extra[key] === undefined) {
						const problem = (message: string) => new InputError(field, `${place(rowIndex, column)}: ${message}`);
						const settings = buttonSettings(button.type, entry, problem);
						if (settings) button[key] = settings;
					}
					return button;
				}),
			};
		}),
	};
	if (kind === 'chat') {
		if (flags.resizeKeyboard !== undefined) keypad.resize_keyboard = flags.resizeKeyboard;
		if (flags.oneTimeKeyboard !== undefined) keypad.one_time_keyboard = flags.oneTimeKeyboard;
		syncOneTimeFlag(keypad, field);
	}
	validateKeypad(keypad, field, kind);
	return keypad;
}

/** A Link button's target from the builder's fields (Opens, URL, Channel Username). */
function builderLink(entry: BuilderButton): ButtonLink {
	if (entry.linkType === 'joinchannel') {
		const username = String(entry.channelUsername ?? '').trim().replace(/^@/, '');
		// Sent only when asked for, so a button saved before the field existed sends what it sent.
		return { type: 'joinchannel', joinchannel_data: { username, ...(entry.askJoin === true ? { ask_join: true } : {}) } };
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

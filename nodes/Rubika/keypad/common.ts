/** What the keypad readers (JSON and builder) and the checks share. */
import { appLinkOf } from './buttonLink';
import { InputError } from '../../shared/errors';
import { isPlainObject } from '../../shared/json';
import { BUTTON_TYPES } from '../../shared/types';
import type { Keypad } from '../../shared/types';

export type KeypadKind = 'inline' | 'chat';

/** Keypad-level flags only a chat keypad has (the one-time flag in both of its spellings). */
export const CHAT_ONLY_FIELDS = ['resize_keyboard', 'one_time_keyboard', 'on_time_keyboard'] as const;

const BUTTON_TYPE_BY_LOWER_CASE = new Map<string, string>(BUTTON_TYPES.map((type) => [type.toLowerCase(), type]));

/** Where in the keypad, as messages name it: rows and buttons counted from 1. */
export function place(row: number, column?: number): string {
	return column === undefined ? `row ${row + 1}` : `row ${row + 1}, button ${column + 1}`;
}

/** The id a button gets when the user left it empty: stable across runs, so taps can be routed by id. */
export function generatedButtonId(row: number, column: number): string {
	return `r${row + 1}b${column + 1}`;
}

/** A button type in any letter case, with spaces around, as Rubika spells it; an unknown one unchanged. */
export function canonicalButtonType(type: string): string {
	return BUTTON_TYPE_BY_LOWER_CASE.get(type.trim().toLowerCase()) ?? type;
}

/**
 * The one-time flag is `one_time_keyboard` in the current docs and `on_time_keyboard` in the older docs and
 * in most libraries (facts §2, [conflict]). The service ignores fields it does not know, so sending both
 * spellings with the same value works whichever one it reads. Differing values are a user mistake.
 */
export function syncOneTimeFlag(keypad: Keypad, field: string): void {
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

/**
 * A url Link button carrying a rubika.ir join or post address gets the app link the client libraries send
 * instead (buttonLink.ts `appLinkOf`); the button is changed in place, its link object replaced.
 */
export function useAppLink(button: Record<string, unknown>): void {
	const link = button.button_link;
	if (isPlainObject(link) && link.type === 'url' && typeof link.link_url === 'string') {
		button.button_link = { ...link, link_url: appLinkOf(link.link_url) };
	}
}

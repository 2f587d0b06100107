/**
 * The checks every keypad passes before it is sent, however it was written: rows, buttons, unique ids, known
 * types, chat-only flags, and Link buttons by the rules shared with the sandbox.
 */
import { buttonLinkProblems } from './buttonLink';
import type { ButtonLinkProblem } from './buttonLink';
import { InputError } from '../../shared/errors';
import { isPlainObject } from '../../shared/json';
import { BUTTON_LINK_TYPES, BUTTON_TYPES } from '../../shared/types';
import type { Keypad } from '../../shared/types';
import type { KeypadKind } from './common';
import { CHAT_ONLY_FIELDS, place } from './common';

const ALLOWED_TYPES_TEXT = BUTTON_TYPES.join(', ');

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
		case 'badUrl':
			return `the URL ${JSON.stringify(typeof value === 'string' ? value : '')} is not a web address (http:// or https://) or a Rubika link (rubika://)`;
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

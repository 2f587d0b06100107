/**
 * Strict input checks, as strict as the facts allow: a sandbox that accepts what the real service
 * rejects would let node bugs through. Every failure is an INVALID_INPUT ApiError whose dev_message names
 * the field. Optional fields sent as JSON null count as absent, as several libraries send them that way.
 */
import type { BotCommand, Keypad, Metadata, MetadataPart } from '../nodes/shared/types';
import { buttonLinkProblems } from '../nodes/Rubika/keypad/buttonLink';
import type { ButtonLinkProblem } from '../nodes/Rubika/keypad/buttonLink';
import { BUTTON_LINK_TYPES, BUTTON_TYPES, METADATA_TYPES } from '../nodes/shared/types';
import type { LinkButtonsMode, OneTimeKeyboardSpelling, SandboxConfig } from './config';
import { invalidInput } from './errors';
import type { ChatKind } from './state';

export type Body = Record<string, unknown>;

/** Whether the body carries the field: JSON null counts as not sent. */
export function present(body: Body, field: string): boolean {
	return body[field] !== undefined && body[field] !== null;
}

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return `a ${typeof value}`;
}

export function requireString(body: Body, field: string, options: { allowEmpty?: boolean } = {}): string {
	const value = body[field];
	if (!present(body, field)) throw invalidInput(`${field} is required`);
	if (typeof value !== 'string') throw invalidInput(`${field} must be a string, got ${describe(value)}`);
	if (!options.allowEmpty && value.trim() === '') throw invalidInput(`${field} must not be empty`);
	return value;
}

export function optionalString(body: Body, field: string): string | undefined {
	if (!present(body, field)) return undefined;
	const value = body[field];
	if (typeof value !== 'string') throw invalidInput(`${field} must be a string, got ${describe(value)}`);
	return value;
}

/** Ids are strings everywhere (facts §2); a number would have lost digits on the way already. */
export function requireId(body: Body, field: string): string {
	const value = requireString(body, field);
	if (/\s/.test(value)) throw invalidInput(`${field} must not contain spaces`);
	return value;
}

export function optionalId(body: Body, field: string): string | undefined {
	if (!present(body, field)) return undefined;
	if (body[field] === '') return undefined;
	return requireId(body, field);
}

/** `disable_notification` is typed bool in some methods and string in others in the documentation: take both. */
/**
 * A boolean field. By default "true" and "false" as text count too (clients send disable_notification so);
 * `strict` takes JSON booleans only, for fields no client sends as text.
 */
export function optionalBoolean(body: Body, field: string, { strict = false } = {}): boolean | undefined {
	if (!present(body, field)) return undefined;
	const value = body[field];
	if (typeof value === 'boolean') return value;
	if (!strict && value === 'true') return true;
	if (!strict && value === 'false') return false;
	throw invalidInput(`${field} must be true or false, got ${JSON.stringify(value)}`);
}

export function requireEnum<T extends string>(body: Body, field: string, values: readonly T[]): T {
	const value = requireString(body, field);
	if (!values.includes(value as T)) throw invalidInput(`${field} must be one of ${values.join(', ')}; got "${value}"`);
	return value as T;
}

export function optionalEnum<T extends string>(body: Body, field: string, values: readonly T[]): T | undefined {
	if (!present(body, field)) return undefined;
	return requireEnum(body, field, values);
}

/** `limit`: an int, or a numeric string (an official curl sample sends one); at least 1; clamped to `max`. */
export function parseLimit(body: Body, fallback: number, max: number): number {
	if (!present(body, 'limit')) return Math.min(fallback, max);
	const value = body.limit;
	let limit: number;
	if (typeof value === 'number') limit = value;
	else if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) limit = Number(value);
	else throw invalidInput(`limit must be an integer, got ${JSON.stringify(value)}`);
	if (!Number.isInteger(limit) || limit < 1) throw invalidInput(`limit must be a positive integer, got ${JSON.stringify(value)}`);
	return Math.min(limit, max);
}

/** Latitude and longitude are strings (facts §2) holding a number in range. */
export function requireCoordinate(body: Body, field: 'latitude' | 'longitude'): string {
	const value = requireString(body, field);
	const number = Number(value);
	const bound = field === 'latitude' ? 90 : 180;
	if (!/^\s*-?\d+(\.\d+)?\s*$/.test(value) || !Number.isFinite(number) || Math.abs(number) > bound) {
		throw invalidInput(`${field} must be a number between -${bound} and ${bound} written as a string; got "${value}"`);
	}
	return value;
}

function asObject(value: unknown, path: string): Record<string, unknown> {
	if (!value || typeof value !== 'object' || Array.isArray(value)) {
		throw invalidInput(`${path} must be an object, got ${describe(value)}`);
	}
	return value as Record<string, unknown>;
}

/** Which spellings of the one-time flag the sandbox is configured to read. */
function honouredSpellings(spelling: OneTimeKeyboardSpelling): Array<'one_time_keyboard' | 'on_time_keyboard'> {
	return spelling === 'both' ? ['one_time_keyboard', 'on_time_keyboard'] : [spelling];
}

export function isOneTime(keypad: Keypad, spelling: OneTimeKeyboardSpelling): boolean {
	return honouredSpellings(spelling).some((key) => keypad[key] === true);
}

/** A problem of a `button_link` as the service words it: the JSON path, then what is wrong. */
function buttonLinkMessage(problem: ButtonLinkProblem, buttonPath: string, buttonType: unknown): string {
	const path = `${buttonPath}.${problem.path}`;
	const { value } = problem;
	switch (problem.code) {
		case 'notLinkButton':
			return `${path} is only allowed on buttons of type Link, not ${JSON.stringify(buttonType)}`;
		case 'required':
			return problem.path === 'button_link' ? `${path} is required for a Link button` : `${path} is required for type joinchannel`;
		case 'notObject':
			return `${path} must be an object, got ${describe(value)}`;
		case 'unknownLinkType':
			return `${path} must be one of ${BUTTON_LINK_TYPES.join(', ')}; got ${JSON.stringify(value)}`;
		case 'urlMissing':
			return `${path} is required for type url and must be a non-empty string, got ${describe(value)}`;
		case 'badUrl':
			return `${path} must be an absolute http(s) URL or a rubika:// link; got ${JSON.stringify(value)}`;
		case 'otherLinkTypeField':
			return `${path} is only allowed for type ${problem.path.endsWith('link_url') ? 'url' : 'joinchannel'}`;
		case 'badUsername':
			return `${path} must be a channel username (a letter, then letters, digits or _, 3-32 long, without @); got ${JSON.stringify(value)}`;
		case 'notBoolean':
			return `${path} must be a boolean, got ${describe(value)}`;
		case 'emptyText':
			return `${path} must be a non-empty string, got ${describe(value)}`;
	}
}

/**
 * `button_link`, by the shared rules (nodes/shared/buttonLink.ts); the first problem is INVALID_INPUT. With
 * `linkButtons: 'reject'` any button_link is refused, as a service that does not know link buttons would.
 */
function validateButtonLink(button: Record<string, unknown>, buttonPath: string, mode: LinkButtonsMode): void {
	if (mode === 'reject' && button.button_link !== undefined && button.button_link !== null) {
		throw invalidInput(`${buttonPath}.button_link: link buttons are not supported (button_link is unknown to this service)`);
	}
	const [problem] = buttonLinkProblems(button);
	if (problem) throw invalidInput(buttonLinkMessage(problem, buttonPath, button.type));
}

/** The knobs that decide what a keypad may hold. */
export type KeypadRules = Pick<SandboxConfig, 'oneTimeKeyboardSpelling' | 'linkButtons' | 'maxButtonIdLength'>;

/**
 * A keypad: `{rows: [{buttons: [{id, type, button_text, …}]}]}`. Button types are the union of both
 * official lists; type-specific sub-objects pass through. For chat keypads `resize_keyboard` and the
 * honoured one-time spelling must be booleans; the other spelling is ignored, not rejected.
 */
export function validateKeypad(value: unknown, path: string, kind: 'inline' | 'chat', rules: KeypadRules): Keypad {
	const keypad = asObject(value, path);
	if (!Array.isArray(keypad.rows)) throw invalidInput(`${path}.rows must be an array, got ${describe(keypad.rows)}`);
	keypad.rows.forEach((rowValue, rowIndex) => {
		const rowPath = `${path}.rows[${rowIndex}]`;
		const row = asObject(rowValue, rowPath);
		if (!Array.isArray(row.buttons)) throw invalidInput(`${rowPath}.buttons must be an array, got ${describe(row.buttons)}`);
		if (row.buttons.length === 0) throw invalidInput(`${rowPath}.buttons must not be empty`);
		row.buttons.forEach((buttonValue, buttonIndex) => {
			const buttonPath = `${rowPath}.buttons[${buttonIndex}]`;
			const button = asObject(buttonValue, buttonPath);
			if (typeof button.id !== 'string' || button.id.trim() === '') {
				throw invalidInput(`${buttonPath}.id must be a non-empty string`);
			}
			if (rules.maxButtonIdLength !== null && button.id.length > rules.maxButtonIdLength) {
				throw invalidInput(`${buttonPath}.id is ${button.id.length} characters long; at most ${rules.maxButtonIdLength} are allowed`);
			}
			if (typeof button.type !== 'string' || !(BUTTON_TYPES as readonly string[]).includes(button.type)) {
				throw invalidInput(`${buttonPath}.type must be one of ${BUTTON_TYPES.join(', ')}; got ${JSON.stringify(button.type)}`);
			}
			if (typeof button.button_text !== 'string') {
				throw invalidInput(`${buttonPath}.button_text must be a string, got ${describe(button.button_text)}`);
			}
			validateButtonLink(button, buttonPath, rules.linkButtons);
		});
	});
	if (kind === 'chat') {
		const flags = ['resize_keyboard', ...honouredSpellings(rules.oneTimeKeyboardSpelling)];
		for (const flag of flags) {
			if (keypad[flag] !== undefined && keypad[flag] !== null && typeof keypad[flag] !== 'boolean') {
				throw invalidInput(`${path}.${flag} must be a boolean, got ${describe(keypad[flag])}`);
			}
		}
	}
	return structuredClone(keypad) as unknown as Keypad;
}

/** A message's text (or caption) within `maxTextLength`, counted in `textLengthUnit` (facts §7: both unknown). */
export function checkTextLength(text: string | undefined, field: string, rules: Pick<SandboxConfig, 'maxTextLength' | 'textLengthUnit'>): void {
	if (text === undefined || rules.maxTextLength === null) return;
	const length = rules.textLengthUnit === 'utf16' ? text.length : [...text].length;
	if (length > rules.maxTextLength) {
		const unit = rules.textLengthUnit === 'utf16' ? 'UTF-16 code units' : 'characters';
		throw invalidInput(`${field} is ${length} ${unit} long; at most ${rules.maxTextLength} are allowed`);
	}
}

/** Length in UTF-16 code units, which is what the service counts (an emoji is 2) and what JS strings use. */
function utf16Length(text: string): number {
	return text.length;
}

/** The knobs that decide what formatting a message may carry. */
type MetadataRules = Pick<SandboxConfig, 'maxMetadataParts' | 'mentionsOutsideGroups'>;

/**
 * Formatting metadata (facts §7): at most `maxMetadataParts` parts (30 documented); each has a known type, an
 * integer from_index ≥ 0, an integer length > 0, and ends within the text in UTF-16 units; Link needs
 * link_url, MentionText needs mention_text_user_id and is only allowed in groups (unless
 * `mentionsOutsideGroups` is 'accept'). One bad part rejects the whole request.
 */
export function validateMetadata(value: unknown, text: string | undefined, chatKind: ChatKind, rules: MetadataRules): Metadata {
	const metadata = asObject(value, 'metadata');
	const parts = metadata.meta_data_parts;
	if (!Array.isArray(parts)) throw invalidInput(`metadata.meta_data_parts must be an array, got ${describe(parts)}`);
	if (parts.length > rules.maxMetadataParts) {
		throw invalidInput(`metadata.meta_data_parts has ${parts.length} parts; at most ${rules.maxMetadataParts} are allowed`);
	}
	if (parts.length > 0 && text === undefined) throw invalidInput('metadata needs a text to format');
	const textLength = utf16Length(text ?? '');
	parts.forEach((partValue, index) => {
		const path = `metadata.meta_data_parts[${index}]`;
		const part = asObject(partValue, path) as Partial<Record<keyof MetadataPart, unknown>>;
		if (typeof part.type !== 'string' || !(METADATA_TYPES as readonly string[]).includes(part.type)) {
			throw invalidInput(`${path}.type must be one of ${METADATA_TYPES.join(', ')}; got ${JSON.stringify(part.type)}`);
		}
		if (typeof part.from_index !== 'number' || !Number.isInteger(part.from_index) || part.from_index < 0) {
			throw invalidInput(`${path}.from_index must be an integer >= 0, got ${JSON.stringify(part.from_index)}`);
		}
		if (typeof part.length !== 'number' || !Number.isInteger(part.length) || part.length <= 0) {
			throw invalidInput(`${path}.length must be an integer > 0, got ${JSON.stringify(part.length)}`);
		}
		if (part.from_index + part.length > textLength) {
			throw invalidInput(
				`${path} ends at ${part.from_index + part.length}, beyond the text length of ${textLength} (UTF-16 code units)`,
			);
		}
		if (part.type === 'Link') {
			if (typeof part.link_url !== 'string' || part.link_url.trim() === '') throw invalidInput(`${path}.link_url is required for Link`);
		} else if (part.link_url !== undefined && part.link_url !== null) {
			throw invalidInput(`${path}.link_url is only allowed for Link`);
		}
		if (part.type === 'MentionText') {
			if (typeof part.mention_text_user_id !== 'string' || part.mention_text_user_id.trim() === '') {
				throw invalidInput(`${path}.mention_text_user_id is required for MentionText`);
			}
			if (chatKind !== 'Group' && rules.mentionsOutsideGroups === 'reject') throw invalidInput(`${path}: MentionText is only allowed in group chats`);
		} else if (part.mention_text_user_id !== undefined && part.mention_text_user_id !== null) {
			throw invalidInput(`${path}.mention_text_user_id is only allowed for MentionText`);
		}
	});
	return structuredClone(metadata) as unknown as Metadata;
}

/** `bot_commands`: an array of {command, description}; the command is written without its leading "/". */
export function validateCommands(body: Body): BotCommand[] {
	const value = body.bot_commands;
	if (!Array.isArray(value)) throw invalidInput(`bot_commands must be an array, got ${describe(value)}`);
	return value.map((entry, index) => {
		const path = `bot_commands[${index}]`;
		const command = asObject(entry, path);
		if (typeof command.command !== 'string' || command.command.trim() === '') {
			throw invalidInput(`${path}.command must be a non-empty string`);
		}
		if (command.command.startsWith('/')) throw invalidInput(`${path}.command must not start with "/"`);
		if (/\s/.test(command.command)) throw invalidInput(`${path}.command must not contain spaces`);
		if (typeof command.description !== 'string') throw invalidInput(`${path}.description must be a string`);
		return { command: command.command, description: command.description };
	});
}

/** Whether updateBotEndpoints accepts a URL (else it answers status "InvalidUrl"). */
export function isAcceptableEndpointUrl(url: string, requireHttps: boolean): boolean {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return false;
	}
	if (parsed.protocol !== 'https:' && (requireHttps || parsed.protocol !== 'http:')) return false;
	return parsed.hostname !== '';
}

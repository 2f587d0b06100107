/**
 * The filters both triggers offer: their parameters validated (parseUpdateFilters) and an item checked
 * against them (matchesFilters). Pure: bad input throws InputError naming the field as the user sees it; the
 * node turns it into a NodeOperationError.
 */
import { InputError } from '../errors';
import type { ChatKind, ContentKind, UpdateItem } from './item';
import { CHAT_KINDS, CONTENT_KINDS } from './item';

export interface UpdateFilters {
	/** Update types to keep; empty keeps every type. */
	types: string[];
	chatIds: string[];
	senderIds: string[];
	/** Keep only messages whose text is a command. */
	onlyCommands: boolean;
	/** Command names without the slash, lower case; empty means any command. */
	commands: string[];
	textPattern?: RegExp;
	ignoreBots: boolean;
	/** Button ids (chat keypad and inline taps); empty keeps every update. */
	buttonIds: string[];
	chatKinds: ChatKind[];
	contentKinds: ContentKind[];
	/** Drop updates whose time is older than this many seconds when they are read; 0 keeps every update. */
	maxAgeSeconds: number;
}

/** Raw values of the `filters` collection (filterFields.ts), as n8n hands them over. */
export interface UpdateFilterParameters {
	chatIds?: string;
	senderIds?: string;
	onlyCommands?: boolean;
	commands?: string;
	textPattern?: string;
	ignoreBots?: boolean;
	buttonIds?: string;
	chatTypes?: string[];
	contentKinds?: string[];
	maxAgeSeconds?: number;
}

/** Validates and normalises the filter parameters. Throws InputError naming the field on bad input. */
export function parseUpdateFilters(types: unknown, raw: UpdateFilterParameters = {}): UpdateFilters {
	const typeList = Array.isArray(types) ? types.map(String) : splitList(types);
	const commands = splitList(raw.commands).map((command) => {
		const name = command.replace(/^\/+/, '').toLowerCase();
		if (!/^[^\s/]+$/.test(name)) {
			throw new InputError('Command List', `"${command}" is not a command (expected something like /start)`);
		}
		return name;
	});
	return {
		types: typeList,
		chatIds: splitList(raw.chatIds),
		senderIds: splitList(raw.senderIds),
		onlyCommands: raw.onlyCommands === true || commands.length > 0,
		commands,
		textPattern: parsePattern(raw.textPattern),
		ignoreBots: raw.ignoreBots === true,
		buttonIds: splitList(raw.buttonIds),
		chatKinds: pickList(raw.chatTypes, CHAT_KINDS, 'Chat Types'),
		contentKinds: pickList(raw.contentKinds, CONTENT_KINDS, 'Content Types'),
		maxAgeSeconds: parseMaxAge(raw.maxAgeSeconds),
	};
}

function pickList<T extends string>(value: unknown, allowed: readonly T[], field: string): T[] {
	const list = splitList(value);
	for (const entry of list) {
		if (!(allowed as readonly string[]).includes(entry)) throw new InputError(field, `"${entry}" is not one of ${allowed.join(', ')}`);
	}
	return list as T[];
}

function parseMaxAge(value: unknown): number {
	if (value === undefined || value === null || value === '') return 0;
	const seconds = Number(value);
	if (!Number.isFinite(seconds) || seconds < 0) throw new InputError('Ignore Updates Older Than (Seconds)', 'must be 0 or more');
	return seconds;
}

/** Whether an item (from updateToItem) passes the filters. Pure and cheap: run it before any download. */
export function matchesFilters(item: UpdateItem, filters: UpdateFilters, now = Date.now()): boolean {
	if (filters.types.length > 0 && !filters.types.includes(item.type)) return false;
	if (filters.buttonIds.length > 0 && !filters.buttonIds.includes(item.button_id ?? '')) return false;
	if (filters.chatKinds.length > 0 && (item.chat_type === null || !filters.chatKinds.includes(item.chat_type))) return false;
	if (filters.contentKinds.length > 0 && (item.content_kind === null || !filters.contentKinds.includes(item.content_kind))) return false;
	if (filters.maxAgeSeconds > 0 && item.time_iso !== null && now - Date.parse(item.time_iso) > filters.maxAgeSeconds * 1000) return false;
	if (filters.chatIds.length > 0 && !filters.chatIds.includes(item.chat_id ?? '')) return false;
	if (filters.senderIds.length > 0 && !filters.senderIds.includes(item.sender_id ?? '')) return false;
	if (filters.ignoreBots && item.sender_type === 'Bot') return false;
	if (filters.onlyCommands) {
		const command = commandOf(item.text);
		if (command === undefined) return false;
		if (filters.commands.length > 0 && !filters.commands.includes(command)) return false;
	}
	if (filters.textPattern) {
		if (item.text === null) return false;
		// A fresh lastIndex each time: a /g or /y pattern would otherwise remember where it stopped.
		filters.textPattern.lastIndex = 0;
		if (!filters.textPattern.test(item.text)) return false;
	}
	return true;
}

/** `/Start@MyBot payload` → `start`; undefined when the text is not a command. */
function commandOf(text: string | null | undefined): string | undefined {
	if (typeof text !== 'string') return undefined;
	const match = /^\/([^\s@/]+)(?:@\S*)?(?:\s|$)/.exec(text.trimStart());
	return match ? match[1].toLowerCase() : undefined;
}

function parsePattern(pattern: string | undefined): RegExp | undefined {
	if (typeof pattern !== 'string' || pattern.trim() === '') return undefined;
	const literal = /^\/(.+)\/([a-z]*)$/s.exec(pattern.trim());
	let problem: string | undefined;
	try {
		return literal ? new RegExp(literal[1], literal[2]) : new RegExp(pattern);
	} catch (error) {
		problem = (error as Error).message;
	}
	// Thrown outside the catch: this is the user's input, not a failed request.
	throw new InputError('Text Pattern', `is not a valid regular expression: ${problem}`);
}

/** Splits a comma/space/newline separated list, dropping empty entries. Arrays (from expressions) are accepted. */
function splitList(value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap(splitList);
	if (value === undefined || value === null) return [];
	return String(value)
		.split(/[\s,;]+/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}


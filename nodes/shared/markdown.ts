/**
 * The "Rubika Markdown" dialect shared by the Rubika bot libraries (facts §8), converted into plain text plus
 * metadata parts:
 *
 *   **bold**  __italic__  --underline--  ~~strike~~  ||spoiler||  `mono`  ```pre```
 *   > quote lines          [text](https://…) → Link      [text](u0…) → MentionText
 *
 * Offsets and lengths are UTF-16 code units of the output text, which is what JavaScript strings count,
 * so emoji (surrogate pairs, ZWJ sequences) and Persian text need no special care beyond never splitting
 * a range inside a character — ranges only ever start or end next to an ASCII marker.
 *
 * Rules chosen so that ordinary text is left alone (the top complaint about n8n's Telegram node is text
 * mangled by forced Markdown):
 * - A marker is exactly two characters; longer runs (`***`, `----`, `||||`) are literal.
 * - An opening marker must be followed by a non-space, a closing one preceded by a non-space, so
 *   `2 ** 3` and `a -- b` stay as they are. `__` must in addition not touch a letter or digit on its outer
 *   side, so identifiers like `my__var__name` stay literal (single `_` is never a marker).
 * - Markers without a partner stay literal. When marks cross (`**a __b** c__`), the outer close wins and
 *   the inner opener becomes literal.
 * - Marks do not reach across a blank line, nor between quoted and unquoted lines.
 * - Nothing inside `mono` or ```pre``` is parsed. Mono ends on the same line; pre may span lines, the first
 *   line is dropped when it is empty or a language tag (```js), and so is the newline before the closing
 *   fence. Other backtick runs (`` and ````+) are literal.
 * - `\` before any ASCII punctuation makes it literal (`\*\*`, `\_\_`, `\[`, `\\`, `\>`).
 * - A quote line starts with `> ` (or is a lone `>`); consecutive quote lines form one Quote part.
 * - A link target must be an address with a scheme (https://, tg://, …) or a user id starting with `u0`;
 *   anything else, and an empty `[]`, stays literal. Links do not nest.
 */
import { isLinkUrl } from './metadata';
import { METADATA_TYPES } from './types';
import type { MetadataPart, MetadataType } from './types';

type Marker = '**' | '__' | '--' | '~~' | '||';

const MARK_TYPES: Record<Marker, MetadataType> = {
	'**': 'Bold',
	__: 'Italic',
	'--': 'Underline',
	'~~': 'Strike',
	'||': 'Spoiler',
};

const MARKER_CHARS = new Set(['*', '_', '-', '~', '|']);
const ASCII_PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
const LANGUAGE_TAG = /^[A-Za-z0-9_+#.-]+$/;

type Token =
	| { kind: 'text'; text: string }
	/** A two-character marker; `role` is set once it is paired. */
	| { kind: 'delim'; marker: Marker; canOpen: boolean; canClose: boolean; role?: 'open' | 'close' }
	| { kind: 'code'; type: 'Mono' | 'Pre'; text: string }
	| { kind: 'linkOpen'; matched?: boolean }
	| { kind: 'linkClose'; raw: string; part: LinkPart; matched?: boolean }
	| { kind: 'newline'; raw: string }
	| { kind: 'quoteStart' }
	| { kind: 'quoteEnd' }
	/** Marks may not be paired across this point. */
	| { kind: 'blockBreak' };

export interface MarkdownResult {
	text: string;
	parts: MetadataPart[];
}

/** Converts Rubika Markdown into plain text and formatting parts sorted by from_index. */
export function markdownToRubika(markdown: string): MarkdownResult {
	const tokens = new Tokenizer(markdown).run();
	pairLinks(tokens);
	pairMarkers(tokens);
	return render(tokens);
}

function isWhitespace(char: string | undefined): boolean {
	return char === undefined || /\s/u.test(char);
}

function isWordChar(char: string | undefined): boolean {
	return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}

/** The whole code point ending just before `index` (both halves of a surrogate pair). */
function codePointBefore(text: string, index: number): string | undefined {
	if (index <= 0) return undefined;
	const low = text.charCodeAt(index - 1);
	if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
		const high = text.charCodeAt(index - 2);
		if (high >= 0xd800 && high <= 0xdbff) return text.slice(index - 2, index);
	}
	return text[index - 1];
}

function codePointAt(text: string, index: number): string | undefined {
	const codePoint = text.codePointAt(index);
	return codePoint === undefined ? undefined : String.fromCodePoint(codePoint);
}

function runLength(text: string, index: number): number {
	let end = index;
	while (end < text.length && text[end] === text[index]) end++;
	return end - index;
}

/** Where the line containing `index` ends (index of its `\n`, or the end of the text). */
function lineEnd(text: string, index: number): number {
	const newline = text.indexOf('\n', index);
	return newline === -1 ? text.length : newline;
}

/** Cuts the source into tokens: text, markers, code, link brackets and line structure. */
class Tokenizer {
	private readonly tokens: Token[] = [];
	private index = 0;
	private pendingText = '';
	private inQuote = false;
	private previousLineBlank = false;
	private previousLineQuoted = false;
	private lineBlank = false;
	private lineQuoted = false;

	constructor(private readonly source: string) {}

	run(): Token[] {
		const source = this.source;
		this.beginLine(true);
		while (this.index < source.length) {
			const char = source[this.index];
			if (char === '\n' || (char === '\r' && source[this.index + 1] === '\n')) {
				this.endLine(char === '\n' ? '\n' : '\r\n');
			} else if (char === '\\') {
				this.escape();
			} else if (char === '`') {
				this.backticks();
			} else if (MARKER_CHARS.has(char)) {
				this.marker();
			} else if (char === '[') {
				this.push({ kind: 'linkOpen' });
				this.index++;
			} else if (char === ']') {
				this.closingBracket();
			} else {
				this.pendingText += char;
				this.index++;
			}
		}
		if (this.inQuote) this.push({ kind: 'quoteEnd' });
		this.flushText();
		return this.tokens;
	}

	private flushText(): void {
		if (this.pendingText !== '') {
			this.tokens.push({ kind: 'text', text: this.pendingText });
			this.pendingText = '';
		}
	}

	private push(token: Token): void {
		this.flushText();
		this.tokens.push(token);
	}

	/** Length of a quote marker at `index`: 2 for `> `, 1 for a lone `>` ending its line, else 0. */
	private quoteMarkerLength(index: number): number {
		const source = this.source;
		if (source[index] !== '>') return 0;
		const next = source[index + 1];
		if (next === ' ') return 2;
		if (next === undefined || next === '\n' || (next === '\r' && source[index + 2] === '\n')) return 1;
		return 0;
	}

	private beginLine(first: boolean): void {
		const markerLength = this.quoteMarkerLength(this.index);
		const quoted = markerLength > 0;
		const blank = this.source.slice(this.index + markerLength, lineEnd(this.source, this.index)).trim() === '';
		if (!first && (blank || this.previousLineBlank || quoted !== this.previousLineQuoted)) {
			this.push({ kind: 'blockBreak' });
		}
		if (quoted && !this.inQuote) {
			this.push({ kind: 'quoteStart' });
			this.inQuote = true;
		}
		this.index += markerLength;
		this.lineQuoted = quoted;
		this.lineBlank = blank;
	}

	private endLine(raw: string): void {
		// A quote ends with the last quoted line; its newline is not part of the Quote range.
		if (this.inQuote && this.quoteMarkerLength(this.index + raw.length) === 0) {
			this.push({ kind: 'quoteEnd' });
			this.inQuote = false;
		}
		this.push({ kind: 'newline', raw });
		this.index += raw.length;
		this.previousLineBlank = this.lineBlank;
		this.previousLineQuoted = this.lineQuoted;
		this.beginLine(false);
	}

	private escape(): void {
		const next = this.source[this.index + 1];
		if (next !== undefined && ASCII_PUNCTUATION.has(next)) {
			this.pendingText += next;
			this.index += 2;
		} else {
			this.pendingText += '\\';
			this.index++;
		}
	}

	private backticks(): void {
		const source = this.source;
		const length = runLength(source, this.index);
		if (length === 1 || length === 3) {
			const contentStart = this.index + length;
			// Mono must close on its own line; pre may run over several lines.
			const limit = length === 1 ? lineEnd(source, contentStart) : source.length;
			let search = contentStart;
			while (search < limit) {
				if (source[search] === '`') {
					const found = runLength(source, search);
					if (found === length) {
						const raw = source.slice(contentStart, search);
						this.push(
							length === 1 ? { kind: 'code', type: 'Mono', text: raw } : { kind: 'code', type: 'Pre', text: preContent(raw) },
						);
						this.index = search + length;
						return;
					}
					search += found;
				} else {
					search++;
				}
			}
		}
		this.pendingText += source.slice(this.index, this.index + length);
		this.index += length;
	}

	private marker(): void {
		const source = this.source;
		const length = runLength(source, this.index);
		if (length !== 2) {
			this.pendingText += source.slice(this.index, this.index + length);
			this.index += length;
			return;
		}
		const marker = source.slice(this.index, this.index + 2) as Marker;
		const before = codePointBefore(source, this.index);
		const after = codePointAt(source, this.index + 2);
		let canOpen = !isWhitespace(after);
		let canClose = !isWhitespace(before);
		if (marker === '__') {
			canOpen &&= !isWordChar(before);
			canClose &&= !isWordChar(after);
		}
		if (canOpen || canClose) {
			this.push({ kind: 'delim', marker, canOpen, canClose });
		} else {
			this.pendingText += marker;
		}
		this.index += 2;
	}

	/** `](target)` with a usable target closes a link; any other `]` is text. */
	private closingBracket(): void {
		const source = this.source;
		const target = this.linkTarget(this.index + 1);
		const part = target === undefined ? undefined : linkPart(target.value);
		if (target !== undefined && part !== undefined) {
			this.push({ kind: 'linkClose', raw: source.slice(this.index, target.end), part });
			this.index = target.end;
			return;
		}
		this.pendingText += ']';
		this.index++;
	}

	/** Reads `(target)` at `index`: no spaces inside, balanced parentheses allowed (Wikipedia URLs). */
	private linkTarget(index: number): { value: string; end: number } | undefined {
		const source = this.source;
		if (source[index] !== '(') return undefined;
		let depth = 0;
		for (let position = index + 1; position < source.length; position++) {
			const char = source[position];
			if (/\s/.test(char)) return undefined;
			if (char === '(') depth++;
			else if (char === ')') {
				if (depth === 0) {
					const value = source.slice(index + 1, position);
					return value === '' ? undefined : { value, end: position + 1 };
				}
				depth--;
			}
		}
		return undefined;
	}
}

type LinkPart = Pick<MetadataPart, 'type' | 'link_url' | 'mention_text_user_id'>;

/** A user id (`u0…`, no scheme) makes a mention, an address with a scheme a link, anything else nothing. */
function linkPart(target: string): LinkPart | undefined {
	if (target.startsWith('u0') && !target.includes(':')) return { type: 'MentionText', mention_text_user_id: target };
	if (isLinkUrl(target)) return { type: 'Link', link_url: target };
	return undefined;
}

/** Drops a first line that is empty or a language tag, and the newline before the closing fence. */
function preContent(raw: string): string {
	const newline = raw.indexOf('\n');
	if (newline === -1) return raw;
	let content = raw;
	const firstLine = raw.slice(0, newline).replace(/\r$/, '');
	if (firstLine.trim() === '' || LANGUAGE_TAG.test(firstLine)) content = raw.slice(newline + 1);
	if (content.endsWith('\r\n')) content = content.slice(0, -2);
	else if (content.endsWith('\n')) content = content.slice(0, -1);
	return content;
}

/**
 * Pairs `[` with the nearest `](target)` after it. Links never nest: once one closes, older `[` stay text.
 * A `[` directly followed by its `]` (empty link text) does not make a link.
 */
function pairLinks(tokens: Token[]): void {
	let openers: number[] = [];
	tokens.forEach((token, index) => {
		if (token.kind === 'blockBreak') {
			openers = [];
		} else if (token.kind === 'linkOpen') {
			openers.push(index);
		} else if (token.kind === 'linkClose') {
			const opener = openers.pop();
			if (opener === undefined || opener === index - 1) return;
			(tokens[opener] as { matched?: boolean }).matched = true;
			token.matched = true;
			openers = [];
		}
	});
}

/**
 * Pairs markers with a stack. A closer takes the nearest open marker of its kind; markers opened after
 * that one are dropped (they stay literal). Matched links act as walls: a marker inside a link's text
 * only pairs inside it.
 */
function pairMarkers(tokens: Token[]): void {
	const WALL = -1;
	let stack: number[] = [];
	tokens.forEach((token, index) => {
		if (token.kind === 'blockBreak') {
			stack = [];
		} else if (token.kind === 'linkOpen' && token.matched) {
			stack.push(WALL);
		} else if (token.kind === 'linkClose' && token.matched) {
			const wall = stack.lastIndexOf(WALL);
			stack = stack.slice(0, Math.max(wall, 0));
		} else if (token.kind === 'delim') {
			if (token.canClose) {
				for (let position = stack.length - 1; position >= 0 && stack[position] !== WALL; position--) {
					const opener = tokens[stack[position]];
					if (opener.kind === 'delim' && opener.marker === token.marker) {
						opener.role = 'open';
						token.role = 'close';
						stack = stack.slice(0, position);
						return;
					}
				}
			}
			if (token.canOpen) stack.push(index);
		}
	});
}

/** Writes the output text and turns paired tokens into parts, measured in the output's UTF-16 units. */
function render(tokens: Token[]): MarkdownResult {
	let text = '';
	const parts: MetadataPart[] = [];
	const starts: number[] = [];
	let linkStart = 0;
	let quoteStart = 0;
	// Empty ranges are invalid for Rubika; they can only come from empty code or link text, which are dropped.
	const addPart = (part: LinkPart, from: number) => {
		if (text.length <= from) return;
		const { type, ...target } = part;
		parts.push({ type, from_index: from, length: text.length - from, ...target });
	};
	for (const token of tokens) {
		switch (token.kind) {
			case 'text':
				text += token.text;
				break;
			case 'newline':
				text += token.raw;
				break;
			case 'delim':
				if (token.role === 'open') starts.push(text.length);
				else if (token.role === 'close') addPart({ type: MARK_TYPES[token.marker] }, starts.pop() ?? 0);
				else text += token.marker;
				break;
			case 'code': {
				const from = text.length;
				text += token.text;
				addPart({ type: token.type }, from);
				break;
			}
			case 'linkOpen':
				if (token.matched) linkStart = text.length;
				else text += '[';
				break;
			case 'linkClose':
				if (token.matched) addPart(token.part, linkStart);
				else text += token.raw;
				break;
			case 'quoteStart':
				quoteStart = text.length;
				break;
			case 'quoteEnd':
				addPart({ type: 'Quote' }, quoteStart);
				break;
			case 'blockBreak':
				break;
		}
	}
	const typeOrder = (type: MetadataType) => METADATA_TYPES.indexOf(type);
	parts.sort((a, b) => a.from_index - b.from_index || b.length - a.length || typeOrder(a.type) - typeOrder(b.type));
	return { text, parts };
}

/**
 * The "Rubika Markdown" dialect shared by the Rubika bot libraries (facts §8), converted into plain text plus
 * metadata parts:
 *
 *   **bold**  __italic__  --underline--  ~~strike~~  ||spoiler||  `mono`  ```pre```
 *   > quote lines          [text](https://…) → Link      [text](u0…) → MentionText
 *
 * This file cuts the source into tokens; pairing them and measuring the parts (in UTF-16 units) is shared
 * with the HTML reader (formattedText.ts).
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
import { formatTokens, linkPart } from './formattedText';
import type { FormattedText, FormatToken } from './formattedText';
import type { MetadataType } from '../../shared/types';

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

/** Converts Rubika Markdown into plain text and formatting parts sorted by from_index. */
export function markdownToRubika(markdown: string): FormattedText {
	return formatTokens(new Tokenizer(markdown).run());
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
	private readonly tokens: FormatToken[] = [];
	private index = 0;
	private pendingText = '';
	private inQuote = false;
	private previousLineBlank = false;
	private previousLineQuoted = false;
	private lineBlank = false;
	private lineQuoted = false;

	constructor(private readonly source: string) {}

	run(): FormatToken[] {
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
				this.push({ kind: 'linkOpen', raw: '[' });
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

	private push(token: FormatToken): void {
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
		this.pendingText += raw;
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
			this.push({ kind: 'mark', type: MARK_TYPES[marker], key: marker, raw: marker, canOpen, canClose });
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

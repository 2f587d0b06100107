/**
 * Reading HTML's pieces at a position: a tag with its attributes, a character reference (`&amp;`, `&#39;`).
 * Hand-written scanners rather than one big regular expression, so a long run of `<` or spaces costs linear
 * time. What does not read as a tag or a reference is the caller's to keep as text.
 */

export interface HtmlTag {
	/** Lower case. */
	name: string;
	closing: boolean;
	/** Ends in `/>`. */
	selfClosing: boolean;
	/** Names in lower case, values with references decoded; the first of a repeated name wins, as in browsers. */
	attributes: Map<string, string>;
	/** Index just after the `>`. */
	end: number;
}

const TAG_NAME = /[A-Za-z][A-Za-z0-9-]*/y;
const ATTRIBUTE_NAME = /[^\s"'<>/=]+/y;
const UNQUOTED_VALUE = /[^\s"'<>=`]+/y;
const WHITESPACE = /\s*/y;

/** Matches `pattern` (sticky) at `index`; the matched text, or undefined. */
function matchAt(pattern: RegExp, source: string, index: number): string | undefined {
	pattern.lastIndex = index;
	return pattern.exec(source)?.[0];
}

/**
 * The tag starting with the `<` at `start`: `<name attr="v" attr='v' attr=v attr>`, `<name/>`, `</name>`.
 * Undefined when the text there is not a tag (`a < b`, `<3`, `<!-- … -->`, an unclosed quote).
 */
export function readTag(source: string, start: number): HtmlTag | undefined {
	let index = start + 1;
	const closing = source[index] === '/';
	if (closing) index++;
	const name = matchAt(TAG_NAME, source, index);
	if (name === undefined) return undefined;
	index += name.length;
	const attributes = new Map<string, string>();
	for (;;) {
		const space = matchAt(WHITESPACE, source, index) ?? '';
		index += space.length;
		if (source[index] === '>') return { name: name.toLowerCase(), closing, selfClosing: false, attributes, end: index + 1 };
		if (source.startsWith('/>', index)) return { name: name.toLowerCase(), closing, selfClosing: true, attributes, end: index + 2 };
		const attributeName = space === '' ? undefined : matchAt(ATTRIBUTE_NAME, source, index);
		if (attributeName === undefined) return undefined;
		index += attributeName.length;
		let value = '';
		const beforeEquals = index + (matchAt(WHITESPACE, source, index) ?? '').length;
		if (source[beforeEquals] === '=') {
			index = beforeEquals + 1;
			index += (matchAt(WHITESPACE, source, index) ?? '').length;
			const quote = source[index];
			if (quote === '"' || quote === "'") {
				const close = source.indexOf(quote, index + 1);
				if (close === -1) return undefined;
				value = source.slice(index + 1, close);
				index = close + 1;
			} else {
				const unquoted = matchAt(UNQUOTED_VALUE, source, index);
				if (unquoted === undefined) return undefined;
				value = unquoted;
				index += unquoted.length;
			}
		}
		const key = attributeName.toLowerCase();
		if (!attributes.has(key)) attributes.set(key, decodeReferences(value));
	}
}

/** Where `</name>` (any letter case, spaces before `>` allowed) next occurs from `from`: its start and end. */
export function findClosingTag(source: string, name: string, from: number): { start: number; end: number } | undefined {
	const pattern = new RegExp(`</${name}\\s*>`, 'gi');
	pattern.lastIndex = from;
	const found = pattern.exec(source);
	return found === null ? undefined : { start: found.index, end: found.index + found[0].length };
}

/** The named references people and AI models write; any other name stays as written. */
const NAMED_REFERENCES = new Map([
	['amp', '&'],
	['lt', '<'],
	['gt', '>'],
	['quot', '"'],
	['apos', "'"],
	['nbsp', '\u00a0'],
]);

const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z]+));/y;

/** A code point a reference may stand for: not NUL, not half of a surrogate pair, within Unicode. */
function isCharacter(codePoint: number): boolean {
	return codePoint > 0 && codePoint <= 0x10ffff && !(codePoint >= 0xd800 && codePoint <= 0xdfff);
}

/**
 * The character reference starting with the `&` at `start`: `&name;`, `&#NNN;`, `&#xHH;`. Undefined for an
 * unknown name, a number that is no character, or a missing `;`: the `&` is then text.
 */
export function readReference(source: string, start: number): { text: string; end: number } | undefined {
	REFERENCE.lastIndex = start;
	const found = REFERENCE.exec(source);
	if (found === null) return undefined;
	const [whole, decimal, hex, name] = found;
	const end = start + whole.length;
	if (name !== undefined) {
		const text = NAMED_REFERENCES.get(name);
		return text === undefined ? undefined : { text, end };
	}
	const codePoint = decimal !== undefined ? Number(decimal) : parseInt(hex, 16);
	return isCharacter(codePoint) ? { text: String.fromCodePoint(codePoint), end } : undefined;
}

/** `text` with every reference `readReference` knows decoded; everything else as it was. */
export function decodeReferences(text: string): string {
	let decoded = '';
	let index = 0;
	for (let amp = text.indexOf('&'); amp !== -1; amp = text.indexOf('&', index)) {
		const reference = readReference(text, amp);
		decoded += text.slice(index, amp) + (reference?.text ?? '&');
		index = reference?.end ?? amp + 1;
	}
	return decoded + text.slice(index);
}

/**
 * A formatted text too long for one message (or with more formatting parts than one message may carry) cut
 * into pieces that each fit, every piece with its own formatting parts measured from its own start.
 *
 * Where a piece ends, in order of preference: a blank line (paragraph), a line break, the end of a sentence,
 * a space between words; only a text with no such place in reach is cut inside a word, and then between two
 * whole characters as a reader sees them (grapheme clusters: an emoji with its skin tone or a ZWJ family, a
 * letter with its marks), never inside a surrogate pair. The separator itself (the blank lines, the line
 * break, the spaces) is dropped at the cut; the indentation of the next line is kept.
 *
 * A place that leaves the piece at least half full is preferred over a better kind of place nearer its start,
 * so pieces are few. Places inside a link, a mention or inline code are used only when nothing else is in
 * reach: such an entity split in two would make two links or two mentions. Bold, italic, quotes and code
 * blocks may be cut: each piece keeps its share of them.
 *
 * Lengths are UTF-16 code units (`utf16Length`), the unit of formatting offsets; see MAX_TEXT_LENGTH for why
 * that also keeps a piece within a limit counted in code points.
 */
import { InputError } from '../../shared/errors';
import type { FormattedText } from './formattedText';
import { utf16Length } from './metadata';
import type { MetadataPart, MetadataType } from '../../shared/types';

export interface PieceLimits {
	/** Most UTF-16 code units one piece may hold. */
	maxLength: number;
	/** Most formatting parts one piece may carry. */
	maxParts: number;
	/** The field the text came from, for the one error a split can end in. */
	field: string;
}

/** Where one piece ends (`cut`) and the next begins (`next`, after the dropped separator). */
interface Boundary {
	cut: number;
	next: number;
}

/**
 * The kinds of places a piece may end, best first. Each match is a separator: the piece ends where it starts
 * and the next one begins where it ends.
 */
const SEPARATORS: RegExp[] = [
	// A paragraph break: a line break followed by one or more blank (or only-space) lines.
	/\r?\n(?:[^\S\n]*\n)+/g,
	// A line break.
	/\r?\n/g,
	// The spaces after a sentence's end: . ! ? … and their Persian and CJK forms, closing quotes or brackets allowed.
	/(?<=[.!?…؟۔。！？][)\]"'»”’]*)[^\S\n\u00a0\u2007\u202f]+/g,
	// The spaces between two words (not no-break spaces, which join what they stand between).
	/[^\S\n\u00a0\u2007\u202f]+/g,
];

/** Parts whose text is one thing to the reader: cut in two they would become two links, mentions or codes. */
const WHOLE_ENTITIES: ReadonlySet<MetadataType> = new Set<MetadataType>(['Link', 'MentionText', 'Mono']);

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Cuts `formatted` into pieces within `limits`; a text that fits is returned as it is, as its only piece.
 * Pieces that would hold only spaces are left out. Throws InputError when more formatting parts than one
 * message may carry cover a single position, which no cut can part.
 */
export function splitFormattedText(formatted: FormattedText, limits: PieceLimits): FormattedText[] {
	const { text } = formatted;
	if (utf16Length(text) <= limits.maxLength && formatted.parts.length <= limits.maxParts) return [formatted];
	const parts = [...formatted.parts].sort((a, b) => a.from_index - b.from_index);
	const pieces: FormattedText[] = [];
	let start = 0;
	while (start < text.length) {
		const { cut, next } = pieceEnd(text, parts, start, limits);
		const piece = pieceOf(text, parts, start, cut);
		if (piece.text.trim() !== '') pieces.push(piece);
		start = next;
	}
	return pieces;
}

/** Where the piece starting at `start` ends. */
function pieceEnd(text: string, parts: MetadataPart[], start: number, limits: PieceLimits): Boundary {
	const limit = Math.min(start + limits.maxLength, text.length, partsLimit(parts, start, limits));
	if (limit === text.length) return { cut: limit, next: limit };
	const wholeEntities = parts.filter((part) => WHOLE_ENTITIES.has(part.type));
	const partsEntity = (boundary: Boundary) =>
		wholeEntities.some((part) => part.from_index < boundary.cut && part.from_index + part.length > boundary.next);
	const halfFull = start + Math.ceil((limit - start) / 2);
	const passes: Array<(boundary: Boundary) => boolean> = [
		(boundary) => boundary.cut >= halfFull && !partsEntity(boundary),
		(boundary) => !partsEntity(boundary),
		() => true,
	];
	for (const acceptable of passes) {
		for (const separator of SEPARATORS) {
			const boundary = lastSeparator(text, separator, start, limit, acceptable);
			if (boundary) return boundary;
		}
	}
	const cut = lastGraphemeBoundary(text, start, limit);
	return { cut, next: cut };
}

/**
 * The furthest the piece starting at `start` may reach and carry at most `maxParts` parts: the start of the
 * first part beyond them, among the parts not over before `start`.
 */
function partsLimit(parts: MetadataPart[], start: number, limits: PieceLimits): number {
	const reaching = parts.filter((part) => part.from_index + part.length > start);
	if (reaching.length <= limits.maxParts) return Number.POSITIVE_INFINITY;
	const limit = reaching[limits.maxParts].from_index;
	if (limit <= start) {
		throw new InputError(
			limits.field,
			`more than ${limits.maxParts} formatting parts cover position ${start}; Rubika allows at most ${limits.maxParts} per message, so the text cannot be split to fit`,
		);
	}
	return limit;
}

/** The last match of `separator` that starts after `start`, at or before `limit`, and is `acceptable`. */
function lastSeparator(
	text: string,
	separator: RegExp,
	start: number,
	limit: number,
	acceptable: (boundary: Boundary) => boolean,
): Boundary | undefined {
	let found: Boundary | undefined;
	separator.lastIndex = start;
	for (let match = separator.exec(text); match !== null && match.index <= limit; match = separator.exec(text)) {
		const boundary = { cut: match.index, next: match.index + match[0].length };
		if (boundary.cut > start && acceptable(boundary)) found = boundary;
	}
	return found;
}

/**
 * The last boundary between two grapheme clusters after `start` and at or before `limit`. A cluster longer
 * than a whole piece (nothing a person writes) is cut between code points.
 */
function lastGraphemeBoundary(text: string, start: number, limit: number): number {
	let cut = start;
	// The cluster that straddles `limit` is only whole when read past it.
	for (const { index } of graphemes.segment(text.slice(start, Math.min(text.length, limit + 64)))) {
		const position = start + index;
		if (position > limit) break;
		cut = position;
	}
	if (cut > start) return cut;
	const high = text.charCodeAt(limit - 1);
	return high >= 0xd800 && high <= 0xdbff ? limit - 1 : limit;
}

/** The text from `start` to `cut` with the parts that reach into it, measured from `start`. */
function pieceOf(text: string, parts: MetadataPart[], start: number, cut: number): FormattedText {
	const pieceParts: MetadataPart[] = [];
	for (const part of parts) {
		const from = Math.max(part.from_index, start);
		const end = Math.min(part.from_index + part.length, cut);
		if (end > from) pieceParts.push({ ...part, from_index: from - start, length: end - from });
	}
	return { text: text.slice(start, cut), parts: pieceParts };
}

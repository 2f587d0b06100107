/**
 * Random formatted documents written twice, as Rubika Markdown and as HTML, for the test that both readers
 * agree. A document is a tree (paragraphs, quotes, code blocks; marks, links, mentions, code inside), so what
 * it means is known before either reader sees it: its plain text and how many parts it makes.
 *
 * It stays within what both dialects can say the same way: same-type marks never nest (Markdown would pair
 * `**a __**b**__**` wrongly), marks stay inside one paragraph or quote (Markdown ends them at a blank line),
 * neighbouring pieces are separated by a space or a line break (Markdown's `__` must not touch a letter), and
 * no two quotes follow each other on consecutive lines (Markdown joins them into one).
 */
import type { MetadataType } from '../../nodes/shared/types';

export type Random = () => number;

/** A small seeded generator (mulberry32): the same seed gives the same documents on every run. */
export function seededRandom(seed: number): Random {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let mixed = Math.imul(state ^ (state >>> 15), state | 1);
		mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
		return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
	};
}

type MarkType = 'Bold' | 'Italic' | 'Underline' | 'Strike' | 'Spoiler';

type Inline =
	| { kind: 'word'; text: string }
	/** Text that looks like markup but is none in HTML, so the HTML carries it exactly as written. */
	| { kind: 'literal'; text: string }
	| { kind: 'mark'; type: MarkType; children: Sequence }
	| { kind: 'code'; type: 'Mono' | 'Pre'; text: string }
	| { kind: 'link'; target: string; children: Sequence };

/** Inline pieces and, between each two, the space or line break that separates them. */
interface Sequence {
	items: Inline[];
	separators: string[];
}

type Block =
	| { kind: 'paragraph'; content: Sequence }
	| { kind: 'quote'; content: Sequence }
	| { kind: 'codeBlock'; language: string; text: string };

export interface Document {
	blocks: Block[];
	/** Between each two blocks: a line break or a blank line. */
	separators: string[];
}

const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
const RAINBOW_FLAG = '\u{1F3F3}\u{FE0F}\u200D\u{1F308}';
const PIECES = ['Order', 'x', '42', 'سلام', 'دنیا', 'کد', '\u{1F389}', '\u{1F600}', FAMILY, RAINBOW_FLAG, ...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];
const CODE_CHARS = ['a', 'Z', '1', ' ', 'ی', '\u{1F600}', ...'!"#$%&\'()*+,-./:;<=>?@[\\]^_{|}~'];
const LITERALS = ['<p>', '</p>', '<div class="note">', '<foo>', '<b/>', '<i />', '</b x="1">', '<a>', '<a href="example.com">', '<span>', 'a < b', '<3', '<!-- note -->', '&copy;', '&#0;', '&amp', '&', '< b>'];
const TARGETS = ['https://rubika.ir', 'https://x.io/a?b=1&c=2', 'https://en.wikipedia.org/wiki/Foo_(bar)', 'tg://resolve?domain=x', 'u0HXkpO07ea05449373fa9cfa8b81b65'];
const MARK_TYPES: MarkType[] = ['Bold', 'Italic', 'Underline', 'Strike', 'Spoiler'];

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];
const count = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));

function word(random: Random): string {
	const pieces = Array.from({ length: count(random, 1, 3) }, () => pick(random, PIECES));
	// A no-break space only between pieces: Markdown counts it as a space next to a marker.
	return pieces.join(random() < 0.15 ? '\u00a0' : '');
}

function codeText(random: Random, lines: number): string {
	const line = () => Array.from({ length: count(random, 1, 8) }, () => pick(random, CODE_CHARS)).join('');
	return Array.from({ length: lines }, line).join('\n');
}

function sequence(random: Random, depth: number, open: ReadonlySet<string>, lineBreaks: boolean): Sequence {
	const items = Array.from({ length: count(random, 1, 4) }, () => inline(random, depth, open, lineBreaks));
	const separators = items.slice(1).map(() => (lineBreaks && random() < 0.2 ? '\n' : ' '));
	return { items, separators };
}

/** One inline piece; `open` holds the mark types and links it sits inside, which may not repeat. */
function inline(random: Random, depth: number, open: ReadonlySet<string>, lineBreaks: boolean): Inline {
	const roll = random();
	if (depth < 3 && roll < 0.35) {
		const type = pick(random, MARK_TYPES.filter((candidate) => !open.has(candidate)));
		return { kind: 'mark', type, children: sequence(random, depth + 1, new Set([...open, type]), lineBreaks) };
	}
	if (depth < 3 && roll < 0.45 && !open.has('link')) {
		return { kind: 'link', target: pick(random, TARGETS), children: sequence(random, depth + 1, new Set([...open, 'link']), lineBreaks) };
	}
	if (roll < 0.55) return { kind: 'code', type: random() < 0.7 ? 'Mono' : 'Pre', text: codeText(random, 1) };
	if (roll < 0.62) return { kind: 'literal', text: pick(random, LITERALS) };
	return { kind: 'word', text: word(random) };
}

export function randomDocument(random: Random): Document {
	const blocks: Block[] = Array.from({ length: count(random, 1, 4) }, (): Block => {
		const roll = random();
		if (roll < 0.2) return { kind: 'codeBlock', language: pick(random, ['', 'js', 'python']), text: codeText(random, count(random, 1, 3)) };
		if (roll < 0.45) return { kind: 'quote', content: sequence(random, 0, new Set(), true) };
		return { kind: 'paragraph', content: sequence(random, 0, new Set(), true) };
	});
	const separators = blocks.slice(1).map((block, index) =>
		block.kind === 'quote' && blocks[index].kind === 'quote' ? '\n\n' : random() < 0.3 ? '\n\n' : '\n',
	);
	return { blocks, separators };
}

/** Joins rendered pieces with their separators, each rendered by `separator`. */
function joined(pieces: string[], separators: string[], separator: (text: string) => string): string {
	return pieces.map((piece, index) => (index === 0 ? piece : separator(separators[index - 1]) + piece)).join('');
}

// ---- What the document means -------------------------------------------------------------------------------

function plainInline(item: Inline): string {
	if (item.kind === 'mark' || item.kind === 'link') return plainSequence(item.children);
	return item.text;
}

function plainSequence(content: Sequence): string {
	return joined(content.items.map(plainInline), content.separators, (text) => text);
}

/** The text Rubika should get. */
export function plainText(document: Document): string {
	const blocks = document.blocks.map((block) => (block.kind === 'codeBlock' ? block.text : plainSequence(block.content)));
	return joined(blocks, document.separators, (text) => text);
}

function partsIn(items: Inline[]): MetadataType[] {
	return items.flatMap((item): MetadataType[] => {
		if (item.kind === 'mark') return [item.type, ...partsIn(item.children.items)];
		if (item.kind === 'link') return [item.target.startsWith('u0') ? 'MentionText' : 'Link', ...partsIn(item.children.items)];
		return item.kind === 'code' ? [item.type] : [];
	});
}

/** The type of every part the document should make (each piece of formatting makes exactly one). */
export function partTypes(document: Document): MetadataType[] {
	return document.blocks.flatMap((block): MetadataType[] => {
		if (block.kind === 'codeBlock') return ['Pre'];
		return block.kind === 'quote' ? ['Quote', ...partsIn(block.content.items)] : partsIn(block.content.items);
	});
}

// ---- Writing it as Markdown ---------------------------------------------------------------------------------

const MARKERS: Record<MarkType, string> = { Bold: '**', Italic: '__', Underline: '--', Strike: '~~', Spoiler: '||' };

/** Every ASCII punctuation character escaped, so text never reads as a marker. */
const escapeMarkdown = (text: string) => text.replace(/[!-/:-@[-`{-~]/g, '\\$&');

function markdownInline(item: Inline, quoted: boolean): string {
	switch (item.kind) {
		case 'word':
		case 'literal':
			return escapeMarkdown(item.text);
		case 'mark':
			return MARKERS[item.type] + markdownSequence(item.children, quoted) + MARKERS[item.type];
		case 'code':
			return item.type === 'Mono' ? `\`${item.text}\`` : `\`\`\`${item.text}\`\`\``;
		case 'link':
			return `[${markdownSequence(item.children, quoted)}](${item.target})`;
	}
}

/** In a quote every line starts with `> `. */
function markdownSequence(content: Sequence, quoted: boolean): string {
	return joined(
		content.items.map((item) => markdownInline(item, quoted)),
		content.separators,
		(text) => (quoted && text === '\n' ? '\n> ' : text),
	);
}

export function toMarkdown(document: Document): string {
	const blocks = document.blocks.map((block) => {
		if (block.kind === 'codeBlock') return `\`\`\`${block.language}\n${block.text}\n\`\`\``;
		return block.kind === 'quote' ? `> ${markdownSequence(block.content, true)}` : markdownSequence(block.content, false);
	});
	return joined(blocks, document.separators, (text) => text);
}

// ---- Writing it as HTML, each time a little differently ---------------------------------------------------

/** Ways to write each mark: opening and closing tag, in the spellings people and AI models use. */
const TAGS: Record<MarkType, Array<[string, string]>> = {
	Bold: [['<b>', '</b>'], ['<strong>', '</strong>'], ['<B>', '</b>'], ['<b class="x">', '</b >']],
	Italic: [['<i>', '</i>'], ['<em>', '</em>'], ['<I>', '</I>']],
	Underline: [['<u>', '</u>'], ['<ins>', '</ins>']],
	Strike: [['<s>', '</s>'], ['<strike>', '</strike>'], ['<del>', '</del>']],
	Spoiler: [['<tg-spoiler>', '</tg-spoiler>'], ['<spoiler>', '</spoiler>'], ['<span class="tg-spoiler">', '</span>'], ["<SPAN class='big tg-spoiler'>", '</span>']],
};

/** Characters HTML must (`<`, `&`) or may write as references. */
const REFERENCES: Record<string, string[]> = {
	'<': ['&lt;', '&#60;', '&#x3C;'],
	'&': ['&amp;', '&#38;'],
	'>': ['>', '&gt;'],
	'"': ['"', '&quot;'],
	"'": ["'", '&#39;', '&apos;'],
	'\u00a0': ['\u00a0', '&nbsp;', '&#160;'],
};

function escapeHtml(text: string, random: Random): string {
	let escaped = '';
	for (const char of text) {
		const references = REFERENCES[char];
		if (references) escaped += pick(random, references);
		else if (random() < 0.05) escaped += `&#x${char.codePointAt(0)!.toString(16)};`;
		else escaped += char;
	}
	return escaped;
}

function htmlBreak(text: string, random: Random): string {
	return text.replace(/\n/g, () => pick(random, ['\n', '<br>', '<br/>', '<BR />']));
}

function htmlInline(item: Inline, random: Random): string {
	switch (item.kind) {
		case 'word':
			return escapeHtml(item.text, random);
		case 'literal':
			return item.text;
		case 'mark': {
			const [open, close] = pick(random, TAGS[item.type]);
			return open + htmlSequence(item.children, random) + close;
		}
		case 'code':
			return item.type === 'Mono' ? `<code>${escapeHtml(item.text, random)}</code>` : `<pre>${escapeHtml(item.text, random)}</pre>`;
		case 'link': {
			const href = item.target.replace(/&/g, '&amp;');
			const open = random() < 0.5 ? `<a href="${href}">` : `<A HREF='${href}' target=_blank>`;
			return open + htmlSequence(item.children, random) + '</a>';
		}
	}
}

function htmlSequence(content: Sequence, random: Random): string {
	return joined(
		content.items.map((item) => htmlInline(item, random)),
		content.separators,
		(text) => htmlBreak(text, random),
	);
}

export function toHtml(document: Document, random: Random): string {
	const blocks = document.blocks.map((block) => {
		if (block.kind === 'quote') return `<blockquote>${htmlSequence(block.content, random)}</blockquote>`;
		if (block.kind === 'paragraph') return htmlSequence(block.content, random);
		const code = escapeHtml(block.text, random);
		const language = block.language === '' ? '' : ` class="language-${block.language}"`;
		return random() < 0.5 ? `<pre>${code}</pre>` : `<pre><code${language}>${code}</code></pre>`;
	});
	return joined(blocks, document.separators, (text) => htmlBreak(text, random));
}

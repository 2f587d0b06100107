/**
 * Cutting a formatted text into messages (nodes/shared/longText.ts): where the cuts fall, that nothing is lost
 * or broken (surrogate pairs, grapheme clusters, formatting), and that every piece fits in both units Rubika
 * might count.
 */
import type { FormattedText } from '../../nodes/Rubika/formatting/formattedText';
import { splitFormattedText } from '../../nodes/Rubika/formatting/longText';
import { markdownToRubika } from '../../nodes/Rubika/formatting/markdown';
import { validateMetadataParts } from '../../nodes/Rubika/formatting/metadata';
import type { MetadataPart } from '../../nodes/shared/types';
import { MAX_METADATA_PARTS, MAX_TEXT_LENGTH } from '../../nodes/shared/types';
import { inputError } from '../support/inputError';

const LIMITS = { maxLength: MAX_TEXT_LENGTH, maxParts: MAX_METADATA_PARTS, field: 'Text' };
const plain = (text: string): FormattedText => ({ text, parts: [] });
const split = (formatted: FormattedText, limits: Partial<typeof LIMITS> = {}) => splitFormattedText(formatted, { ...LIMITS, ...limits });
const texts = (pieces: FormattedText[]) => pieces.map((piece) => piece.text);
const codePoints = (text: string) => [...text].length;

/** A sentence of `length` UTF-16 units: words of Persian letters, ending with a full stop. */
function sentence(length: number, word = 'سلام'): string {
	let text = '';
	while (text.length < length - 1) text += (text === '' ? '' : ' ') + word;
	return `${text.slice(0, length - 1)}.`;
}

/** Two parts that format the same way: type and target. */
const sameKind = (a: MetadataPart, b: MetadataPart) =>
	a.type === b.type && a.link_url === b.link_url && a.mention_text_user_id === b.mention_text_user_id;

/**
 * What every split must keep: each piece fits (in UTF-16 units, hence in code points too) and carries at most
 * `maxParts` parts, each within it and not splitting a surrogate pair; the pieces are the text in order with
 * only spaces and line breaks between them; and every character an original part formatted is formatted the
 * same way in its piece.
 */
function expectSoundSplit(whole: FormattedText, pieces: FormattedText[], limits: typeof LIMITS = LIMITS): void {
	let position = 0;
	for (const piece of pieces) {
		expect(piece.text.length).toBeLessThanOrEqual(limits.maxLength);
		expect(codePoints(piece.text)).toBeLessThanOrEqual(limits.maxLength);
		expect(piece.parts.length).toBeLessThanOrEqual(limits.maxParts);
		expect(() => validateMetadataParts(piece.text, piece.parts, 'Text')).not.toThrow();
		expect(piece.text.trim()).not.toBe('');
		const start = whole.text.indexOf(piece.text, position);
		expect(start).toBeGreaterThanOrEqual(position);
		expect(whole.text.slice(position, start).trim()).toBe('');
		for (const part of whole.parts) {
			const from = Math.max(part.from_index, start);
			const end = Math.min(part.from_index + part.length, start + piece.text.length);
			if (end <= from) continue;
			const covering = piece.parts.filter((candidate) => sameKind(candidate, part));
			for (let index = from; index < end; index++) {
				expect(covering.some((candidate) => candidate.from_index <= index - start && index - start < candidate.from_index + candidate.length)).toBe(true);
			}
		}
		position = start + piece.text.length;
	}
	expect(whole.text.slice(position).trim()).toBe('');
}

describe('splitFormattedText', () => {
	test('a text that fits is its only piece, as it is', () => {
		const formatted = markdownToRubika('**سلام** 😀');
		expect(split(formatted)).toEqual([formatted]);
		expect(split(plain('x'.repeat(MAX_TEXT_LENGTH)))).toHaveLength(1);
	});

	test('paragraphs: cut at the blank lines, which are dropped', () => {
		const [a, b, c] = [sentence(3000), sentence(3000, 'کتاب'), sentence(3000, 'دفتر')];
		const whole = plain(`${a}\n\n${b}\n \n\n${c}`);
		const pieces = split(whole);
		expect(texts(pieces)).toEqual([a, b, c]);
		expectSoundSplit(whole, pieces);
	});

	test('a paragraph break nearer the start loses to a line break that leaves the piece at least half full', () => {
		const whole = plain(`${'a'.repeat(1000)}\n\n${'b'.repeat(2000)}\n${'c'.repeat(3000)}`);
		expect(texts(split(whole))).toEqual([`${'a'.repeat(1000)}\n\n${'b'.repeat(2000)}`, 'c'.repeat(3000)]);
	});

	test('lines, then sentences (Persian ؟ and . count), then words', () => {
		const lines = plain(`${'x'.repeat(3000)}\n${'y'.repeat(3000)}`);
		expect(texts(split(lines))).toEqual(['x'.repeat(3000), 'y'.repeat(3000)]);

		const question = `${sentence(2999).slice(0, -1)}؟`;
		const sentences = plain(`${question} ${sentence(3000)}`);
		expect(texts(split(sentences))).toEqual([question, sentence(3000)]);

		const words = plain(Array.from({ length: 2000 }, () => 'word').join(' '));
		const pieces = split(words);
		expect(pieces.map((piece) => piece.text.length)).toEqual([4094, 4094, 1809]);
		expect(pieces.every((piece) => /^word( word)*$/.test(piece.text))).toBe(true);
	});

	test('no space in reach: cut between whole characters, never inside an emoji or a family', () => {
		const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'; // 8 UTF-16 units, one character
		for (const text of ['😀'.repeat(5000), family.repeat(1000), `a${'😀'.repeat(3000)}`, 'ب'.repeat(9000)]) {
			const pieces = split(plain(text));
			expect(texts(pieces).join('')).toBe(text);
			for (const piece of pieces) {
				expect(piece.text.length).toBeLessThanOrEqual(MAX_TEXT_LENGTH);
				expect(piece.text).toBe(piece.text.normalize('NFC'));
				// A lone surrogate would show as an invalid character: encoding round-trips only without one.
				expect(Buffer.from(piece.text, 'utf8').toString('utf8')).toBe(piece.text);
				if (text.includes('\u200D')) expect(piece.text.length % family.length).toBe(0);
			}
		}
	});

	test('formatting follows its text: a bold run across the cut becomes one part in each piece, measured from each start', () => {
		const first = sentence(3000);
		const second = sentence(3000, 'کتاب');
		const whole: FormattedText = {
			text: `${first}\n\n${second}`,
			parts: [
				{ type: 'Bold', from_index: 2990, length: 20 },
				{ type: 'Italic', from_index: 3010, length: 5 },
				{ type: 'Link', from_index: 0, length: 4, link_url: 'https://rubika.ir' },
			],
		};
		const pieces = split(whole);
		expect(pieces).toEqual([
			{
				text: first,
				parts: [
					{ type: 'Link', from_index: 0, length: 4, link_url: 'https://rubika.ir' },
					{ type: 'Bold', from_index: 2990, length: 10 },
				],
			},
			{
				text: second,
				parts: [
					{ type: 'Bold', from_index: 0, length: 8 },
					{ type: 'Italic', from_index: 8, length: 5 },
				],
			},
		]);
		expectSoundSplit(whole, pieces);
	});

	test('a link or a mention is not cut when a place outside it is in reach', () => {
		const words = Array.from({ length: 1000 }, () => 'word').join(' ');
		// The last space in reach (at 4094) lies inside the link; the one before the link is taken instead.
		const link: MetadataPart = { type: 'Link', from_index: 4085, length: 20, link_url: 'https://rubika.ir' };
		const pieces = split({ text: words, parts: [link] });
		expect(pieces[0].text.length).toBe(4084);
		expect(pieces[1].parts).toEqual([{ ...link, from_index: 0 }]);
		expectSoundSplit({ text: words, parts: [link] }, pieces);
	});

	test('more than 30 parts in a short text: the next message starts before the 31st', () => {
		const whole = markdownToRubika(Array.from({ length: 45 }, (_, index) => `**${index}**`).join(' '));
		expect(whole.parts).toHaveLength(45);
		const pieces = split(whole);
		expect(pieces.map((piece) => piece.parts.length)).toEqual([30, 15]);
		expect(pieces[1].text.startsWith('30 31')).toBe(true);
		expectSoundSplit(whole, pieces);
	});

	test('31 parts over one position cannot be parted: refused naming the field', () => {
		const parts = Array.from({ length: 31 }, (_, index): MetadataPart => ({ type: 'Bold', from_index: 0, length: 40 + index }));
		const error = inputError(() => split({ text: 'x'.repeat(100), parts }));
		expect(error.field).toBe('Text');
		expect(error.message).toBe('more than 30 formatting parts cover position 0; Rubika allows at most 30 per message, so the text cannot be split to fit');
	});

	test('an AI answer in Markdown, Persian with emoji, 12,000 units: sound pieces that each fit', () => {
		const paragraph = (n: number) =>
			`بخش ${n}\n\n> نقل قول **مهم** از [منبع](https://rubika.ir/post/${n}) 😀\n\nاین یک متن __طولانی__ است که ||پنهان|| و \`کد\` دارد. ${'جمله‌ای دیگر با ایموجی 🎉 و کلمات بیشتر. '.repeat(30)}\n\n\`\`\`\nconst x = ${n};\n\`\`\``;
		const whole = markdownToRubika(Array.from({ length: 14 }, (_, index) => paragraph(index)).join('\n\n'));
		expect(whole.text.length).toBeGreaterThan(3 * MAX_TEXT_LENGTH);
		expect(whole.parts.length).toBeGreaterThan(MAX_METADATA_PARTS);
		const pieces = split(whole);
		expect(pieces.length).toBeGreaterThanOrEqual(4);
		expectSoundSplit(whole, pieces);
	});

	test('random texts and limits: every split is sound', () => {
		let seed = 11;
		const random = () => {
			seed = (seed * 1103515245 + 12345) & 0x7fffffff;
			return seed / 0x7fffffff;
		};
		const tokens = ['سلام', 'word', '😀', '\u{1F468}\u200D\u{1F469}', ' ', ' ', '\n', '\n\n', '. ', '؟ ', '**', '__', '`', '[a](https://x.io)', 'é'];
		let refused = 0;
		for (let round = 0; round < 300; round++) {
			let source = '';
			const size = 20 + Math.floor(random() * 400);
			while (source.length < size) source += tokens[Math.floor(random() * tokens.length)];
			const whole = markdownToRubika(source);
			const limits = { ...LIMITS, maxLength: 12 + Math.floor(random() * 60), maxParts: 2 + Math.floor(random() * 5) };
			let pieces: FormattedText[];
			try {
				pieces = splitFormattedText(whole, limits);
			} catch {
				// Refused only when no split can do: more parts than one message may carry cover one position.
				const covered = (position: number) => whole.parts.filter((part) => part.from_index <= position && position < part.from_index + part.length).length;
				expect(Array.from({ length: whole.text.length }, (_unused, position) => covered(position)).some((count) => count > limits.maxParts)).toBe(true);
				refused++;
				continue;
			}
			expectSoundSplit(whole, pieces, limits);
		}
		// Most rounds split; the few refused had nested parts beyond the limit.
		expect(refused).toBeLessThan(30);
	});
});

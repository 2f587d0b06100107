/**
 * The HTML and Markdown readers agree: random documents (deterministic seed), each written as Markdown and as
 * HTML with varied tag spellings, references and line breaks, give the same text and the same parts — and that
 * text and those parts are what the document means, so the two cannot agree on a shared mistake unseen.
 */
import { htmlToRubika } from '../../nodes/Rubika/formatting/html';
import { markdownToRubika } from '../../nodes/Rubika/formatting/markdown';
import { METADATA_TYPES } from '../../nodes/shared/types';
import { partTypes, plainText, randomDocument, seededRandom, toHtml, toMarkdown } from './randomFormatting';

const SEED = 24_05;
const CASES = 400;

const random = seededRandom(SEED);
const documents = Array.from({ length: CASES }, (_, index) => {
	const document = randomDocument(random);
	return { index, document, markdown: toMarkdown(document), html: toHtml(document, random) };
});

describe('Markdown and HTML written from the same random document', () => {
	test.each(documents)('document $index', ({ document, markdown, html }) => {
		const fromMarkdown = markdownToRubika(markdown);
		// The inputs travel with the results, so a failure shows what was read.
		expect({ markdown, html, result: htmlToRubika(html) }).toEqual({ markdown, html, result: fromMarkdown });
		expect(fromMarkdown.text).toBe(plainText(document));
		expect(fromMarkdown.parts.map((part) => part.type).sort()).toEqual(partTypes(document).sort());
	});

	test('the documents use every part type, and the HTML every tag and reference the reader knows', () => {
		expect(new Set(documents.flatMap(({ document }) => partTypes(document)))).toEqual(new Set(METADATA_TYPES));
		const html = documents.map((document) => document.html).join('');
		const tags = ['<b>', '<strong>', '<i>', '<em>', '<u>', '<ins>', '<s>', '<strike>', '<del>', '<tg-spoiler>', '<spoiler>', '<span class="tg-spoiler">', '<code>', '<pre>', '<pre><code class="language-', '<blockquote>', '<a href=', '<br>', '<br/>'];
		const references = ['&lt;', '&gt;', '&amp;', '&quot;', '&#39;', '&apos;', '&nbsp;', '&#160;', '&#x'];
		expect([...tags, ...references].filter((piece) => !html.includes(piece))).toEqual([]);
	});
});

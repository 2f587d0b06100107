import { htmlToRubika } from '../../nodes/Rubika/formatting/html';
import { validateMetadataParts } from '../../nodes/Rubika/formatting/metadata';
import type { MetadataPart } from '../../nodes/shared/types';

/**
 * Every expected text and offset below was counted by hand (UTF-16 code units: an emoji outside the BMP
 * counts 2, ZWJ and variation selectors count 1, each Persian letter counts 1). That Markdown and HTML agree
 * on random documents is htmlMarkdownAgree.test.ts; here is what only HTML has, and its edges.
 */
type Case = [name: string, input: string, text: string, parts: MetadataPart[]];

const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'; // 2 + 1 + 2 + 1 + 2 = 8 units
const RAINBOW_FLAG = '\u{1F3F3}\u{FE0F}\u200D\u{1F308}'; // 2 + 1 + 1 + 2 = 6 units
const USER = 'u0HXkpO07ea05449373fa9cfa8b81b65';
const bold = (from_index: number, length: number): MetadataPart => ({ type: 'Bold', from_index, length });

const tags: Case[] = [
	['plain text is untouched', 'hello world', 'hello world', []],
	['empty input', '', '', []],
	['b', '<b>x</b>', 'x', [bold(0, 1)]],
	['strong', '<strong>x</strong>', 'x', [bold(0, 1)]],
	['i and em', '<i>a</i> <em>b</em>', 'a b', [{ type: 'Italic', from_index: 0, length: 1 }, { type: 'Italic', from_index: 2, length: 1 }]],
	['u and ins', '<u>a</u><ins>b</ins>', 'ab', [{ type: 'Underline', from_index: 0, length: 1 }, { type: 'Underline', from_index: 1, length: 1 }]],
	[
		's, strike and del',
		'<s>a</s><strike>b</strike><del>c</del>',
		'abc',
		[0, 1, 2].map((from_index) => ({ type: 'Strike', from_index, length: 1 }) as MetadataPart),
	],
	[
		'tg-spoiler, spoiler and a span with the tg-spoiler class',
		'<tg-spoiler>a</tg-spoiler><spoiler>b</spoiler><span class="big tg-spoiler">c</span>',
		'abc',
		[0, 1, 2].map((from_index) => ({ type: 'Spoiler', from_index, length: 1 }) as MetadataPart),
	],
	['code', 'run <code>ls -la</code>', 'run ls -la', [{ type: 'Mono', from_index: 4, length: 6 }]],
	['pre', '<pre>line1\nline2</pre>', 'line1\nline2', [{ type: 'Pre', from_index: 0, length: 11 }]],
	['pre with code and a language', '<pre><code class="language-python">print(1)\n</code></pre>', 'print(1)\n', [{ type: 'Pre', from_index: 0, length: 9 }]],
	['pre whose code does not wrap it all keeps the tags', '<pre><code>a</code> b</pre>', '<code>a</code> b', [{ type: 'Pre', from_index: 0, length: 16 }]],
	['blockquote over two lines', '<blockquote>one\ntwo</blockquote>\nafter', 'one\ntwo\nafter', [{ type: 'Quote', from_index: 0, length: 7 }]],
	['link', '<a href="https://rubika.ir">Rubika</a>', 'Rubika', [{ type: 'Link', from_index: 0, length: 6, link_url: 'https://rubika.ir' }]],
	['app link, single quotes', "<a href='tg://resolve?domain=x'>chat</a>", 'chat', [{ type: 'Link', from_index: 0, length: 4, link_url: 'tg://resolve?domain=x' }]],
	['unquoted href, other attributes, spaces trimmed', '<a target=_blank href = " https://x.io ">x</a>', 'x', [{ type: 'Link', from_index: 0, length: 1, link_url: 'https://x.io' }]],
	['mention', `Hi <a href="${USER}">Ali</a>!`, 'Hi Ali!', [{ type: 'MentionText', from_index: 3, length: 3, mention_text_user_id: USER }]],
	['tag and attribute names in any case', '<B>a</b> <A HREF="https://x.io">b</A>', 'a b', [bold(0, 1), { type: 'Link', from_index: 2, length: 1, link_url: 'https://x.io' }]],
	['attributes of a formatting tag are ignored', '<b class="x" style="color:red">a</b >', 'a', [bold(0, 1)]],
	['br in each spelling', 'a<br>b<br/>c<BR />d', 'a\nb\nc\nd', []],
	['spaces and line breaks are kept as written', '<b>a</b>\n\n   <i>b</i>', 'a\n\n   b', [bold(0, 1), { type: 'Italic', from_index: 6, length: 1 }]],
	['CRLF is kept', '<b>a\r\nb</b>', 'a\r\nb', [bold(0, 4)]],
];

const references: Case[] = [
	['the five common references', '&lt;b&gt; &amp; &quot;q&quot; &#39;s&apos;', '<b> & "q" \'s\'', []],
	['nbsp', 'a&nbsp;b&#160;c', 'a\u00a0b\u00a0c', []],
	['decimal and hex references to Persian letters', '&#1587;&#x644;&#x627;&#X645;', 'سلام', []],
	['a reference to an emoji counts 2', '&#x1F600; <b>x</b>', '\u{1F600} x', [bold(3, 1)]],
	['references inside a range move its end', '<b>&lt;tag&gt;</b> x', '<tag> x', [bold(0, 5)]],
	['references in href are decoded', '<a href="https://x.io/?a=1&amp;b=2">x</a>', 'x', [{ type: 'Link', from_index: 0, length: 1, link_url: 'https://x.io/?a=1&b=2' }]],
	['unknown or malformed references stay', '&copy; &#0; &#xD800; &#1114112; &amp &unknown; a & b', '&copy; &#0; &#xD800; &#1114112; &amp &unknown; a & b', []],
];

const keptAsText: Case[] = [
	['unknown tags', '<p>Hello</p> <foo bar="1">', '<p>Hello</p> <foo bar="1">', []],
	['formatting inside an unknown tag', '<div class="x"><b>a</b></div>', '<div class="x">a</div>', [bold(15, 1)]],
	['a < that starts no tag', 'a < b, 2<3, x<y, < b>, <!-- note -->', 'a < b, 2<3, x<y, < b>, <!-- note -->', []],
	['a span without the spoiler class', '<span class="x">a</span>', '<span class="x">a</span>', []],
	['self-closing formatting tags and closing tags with attributes', '<b/>a<i />b</b x="1">', '<b/>a<i />b</b x="1">', []],
	['a link without a usable href', '<a>a</a> <a href="example.com">b</a> <a href="">c</a>', '<a>a</a> <a href="example.com">b</a> <a href="">c</a>', []],
	['a link with no text', '<a href="https://x.io"></a>', '<a href="https://x.io"></a>', []],
	['an unclosed quote in an attribute: no tag', '<a href="https://x.io>x</a>', '<a href="https://x.io>x</a>', []],
	['tags inside code are text, references are decoded', '<code><b>x</b> &amp;</code>', '<b>x</b> &', [{ type: 'Mono', from_index: 0, length: 10 }]],
];

const malformed: Case[] = [
	['an unclosed tag stays', '<b>never closed', '<b>never closed', []],
	['a stray closing tag stays', 'a</i> b', 'a</i> b', []],
	['unclosed code and pre stay, what follows is read', '<code>a <pre>b <b>c</b>', '<code>a <pre>b c', [bold(15, 1)]],
	['crossing tags: the outer close wins', '<b>a <i>b</b> c</i>', 'a <i>b c</i>', [bold(0, 6)]],
	['tags of other names do not pair', '<b>a</strong>', '<b>a</strong>', []],
	[
		'a tag may not leave a link',
		'<a href="https://x.io">a <b>b</a> c</b>',
		'a <b>b c</b>',
		[{ type: 'Link', from_index: 0, length: 6, link_url: 'https://x.io' }],
	],
	[
		'links do not nest: the inner one wins',
		'<a href="https://c.io">a <a href="https://b.io">b</a> c</a>',
		'<a href="https://c.io">a b c</a>',
		[{ type: 'Link', from_index: 25, length: 1, link_url: 'https://b.io' }],
	],
	['empty formatting tags vanish', '<b></b>x<code></code>', 'x', []],
	['a nested tag of the same kind', '<b>a <b>b</b> c</b>', 'a b c', [bold(0, 5), bold(2, 1)]],
];

const nesting: Case[] = [
	['nested', '<b>bold <i>both</i></b>', 'bold both', [bold(0, 9), { type: 'Italic', from_index: 5, length: 4 }]],
	[
		'link inside bold inside a quote',
		'<blockquote><b>see <a href="https://x.io">docs</a></b></blockquote>',
		'see docs',
		[bold(0, 8), { type: 'Quote', from_index: 0, length: 8 }, { type: 'Link', from_index: 4, length: 4, link_url: 'https://x.io' }],
	],
	['marks may span a blank line (Markdown ends them there)', '<b>a\n\nb</b>', 'a\n\nb', [bold(0, 4)]],
];

const unicode: Case[] = [
	['emoji before a tag', '\u{1F389} <b>تبریک</b>', '\u{1F389} تبریک', [bold(3, 5)]],
	['emoji inside a tag', '<b>a\u{1F600}b</b>', 'a\u{1F600}b', [bold(0, 4)]],
	['ZWJ family before a tag', `${FAMILY} <i>x</i>`, `${FAMILY} x`, [{ type: 'Italic', from_index: 9, length: 1 }]],
	['ZWJ flag inside a spoiler', `<tg-spoiler>${RAINBOW_FLAG}</tg-spoiler>`, RAINBOW_FLAG, [{ type: 'Spoiler', from_index: 0, length: 6 }]],
	['Persian mention', `سلام <a href="${USER}">کاربر</a> عزیز`, 'سلام کاربر عزیز', [{ type: 'MentionText', from_index: 5, length: 5, mention_text_user_id: USER }]],
];

const cases = [...tags, ...references, ...keptAsText, ...malformed, ...nesting, ...unicode];

describe('htmlToRubika', () => {
	test.each(cases)('%s', (_name, input, text, parts) => {
		expect(htmlToRubika(input)).toEqual({ text, parts });
	});

	test('parts are sorted by from_index', () => {
		const { parts } = htmlToRubika('<tg-spoiler>a</tg-spoiler> <b>b</b> <i>c</i> <code>d</code>');
		expect(parts.map((part) => part.from_index)).toEqual([0, 2, 4, 6]);
	});
});

describe('htmlToRubika output is valid Rubika metadata', () => {
	test.each(cases)('%s', (_name, input) => {
		const { text, parts } = htmlToRubika(input);
		expect(() => validateMetadataParts(text, parts, 'Formatting (HTML)')).not.toThrow();
	});
});

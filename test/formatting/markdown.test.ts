import { markdownToRubika } from '../../nodes/Rubika/formatting/markdown';
import { validateMetadataParts } from '../../nodes/Rubika/formatting/metadata';
import type { MetadataPart } from '../../nodes/shared/types';

/**
 * Every expected text and offset below was counted by hand (UTF-16 code units: an emoji outside the BMP
 * counts 2, ZWJ and variation selectors count 1, each Persian letter counts 1).
 */
type Case = [name: string, input: string, text: string, parts: MetadataPart[]];

const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'; // 2 + 1 + 2 + 1 + 2 = 8 units
const RAINBOW_FLAG = '\u{1F3F3}\u{FE0F}\u200D\u{1F308}'; // 2 + 1 + 1 + 2 = 6 units
const USER = 'u0HXkpO07ea05449373fa9cfa8b81b65';

const cases: Case[] = [
	['plain text is untouched', 'hello world', 'hello world', []],
	['empty input', '', '', []],
	['bold', '**bold**', 'bold', [{ type: 'Bold', from_index: 0, length: 4 }]],
	['italic', '__italic__', 'italic', [{ type: 'Italic', from_index: 0, length: 6 }]],
	['underline', '--underline--', 'underline', [{ type: 'Underline', from_index: 0, length: 9 }]],
	['strike', '~~strike~~', 'strike', [{ type: 'Strike', from_index: 0, length: 6 }]],
	['spoiler', '||spoiler||', 'spoiler', [{ type: 'Spoiler', from_index: 0, length: 7 }]],
	['mono', '`mono`', 'mono', [{ type: 'Mono', from_index: 0, length: 4 }]],
	['inline pre', '```pre```', 'pre', [{ type: 'Pre', from_index: 0, length: 3 }]],
	['pre inside a sentence', 'Run ```ls -la``` now', 'Run ls -la now', [{ type: 'Pre', from_index: 4, length: 6 }]],
	['pre drops the language tag and the last newline', '```python\nprint(1)\n```', 'print(1)', [{ type: 'Pre', from_index: 0, length: 8 }]],
	['pre drops an empty first line', '```\nline1\nline2\n```', 'line1\nline2', [{ type: 'Pre', from_index: 0, length: 11 }]],
	['text after a pre block', 'Intro\n```js\nx\n```\nOutro', 'Intro\nx\nOutro', [{ type: 'Pre', from_index: 6, length: 1 }]],
	['unterminated pre stays literal', '```js\nx', '```js\nx', []],
	['quote', '> quoted', 'quoted', [{ type: 'Quote', from_index: 0, length: 6 }]],
	['consecutive quote lines make one part', '> one\n> two\nafter', 'one\ntwo\nafter', [{ type: 'Quote', from_index: 0, length: 7 }]],
	[
		'a lone > continues a quote, a blank line ends it',
		'before\n> a\n>\n> b\n\n> c',
		'before\na\n\nb\n\nc',
		[
			{ type: 'Quote', from_index: 7, length: 4 },
			{ type: 'Quote', from_index: 13, length: 1 },
		],
	],
	['quote with CRLF line ends', '> a\r\n> b', 'a\r\nb', [{ type: 'Quote', from_index: 0, length: 4 }]],
	['> without a space is not a quote', '>not a quote', '>not a quote', []],
	[
		'quote with bold inside',
		'> **hi** there',
		'hi there',
		[
			{ type: 'Quote', from_index: 0, length: 8 },
			{ type: 'Bold', from_index: 0, length: 2 },
		],
	],
	['link', '[Rubika](https://rubika.ir)', 'Rubika', [{ type: 'Link', from_index: 0, length: 6, link_url: 'https://rubika.ir' }]],
	['app link', '[chat](tg://resolve?domain=x)', 'chat', [{ type: 'Link', from_index: 0, length: 4, link_url: 'tg://resolve?domain=x' }]],
	[
		'link target with balanced parentheses',
		'[w](https://en.wikipedia.org/wiki/Foo_(bar))',
		'w',
		[{ type: 'Link', from_index: 0, length: 1, link_url: 'https://en.wikipedia.org/wiki/Foo_(bar)' }],
	],
	['mention', `Hi [Ali](${USER})!`, 'Hi Ali!', [{ type: 'MentionText', from_index: 3, length: 3, mention_text_user_id: USER }]],
	['target without a scheme stays literal', '[a](example.com)', '[a](example.com)', []],
	['target with spaces stays literal', '[a](not a url)', '[a](not a url)', []],
	['empty link text stays literal', '[](https://x.io)', '[](https://x.io)', []],
	[
		'links do not nest: the inner one wins',
		'[a [b](https://b.io) c](https://c.io)',
		'[a b c](https://c.io)',
		[{ type: 'Link', from_index: 3, length: 1, link_url: 'https://b.io' }],
	],
	[
		'bold inside link text',
		'[**bold link**](https://x.io)',
		'bold link',
		[
			{ type: 'Bold', from_index: 0, length: 9 },
			{ type: 'Link', from_index: 0, length: 9, link_url: 'https://x.io' },
		],
	],
	[
		'link inside bold',
		'**see [docs](https://x.io)**',
		'see docs',
		[
			{ type: 'Bold', from_index: 0, length: 8 },
			{ type: 'Link', from_index: 4, length: 4, link_url: 'https://x.io' },
		],
	],
	[
		'a marker may not leave a link',
		'[a **b](https://x.io) c**',
		'a **b c**',
		[{ type: 'Link', from_index: 0, length: 5, link_url: 'https://x.io' }],
	],
	[
		'nested marks',
		'**bold __both__**',
		'bold both',
		[
			{ type: 'Bold', from_index: 0, length: 9 },
			{ type: 'Italic', from_index: 5, length: 4 },
		],
	],
	[
		'adjacent marks',
		'**a**__b__',
		'ab',
		[
			{ type: 'Bold', from_index: 0, length: 1 },
			{ type: 'Italic', from_index: 1, length: 1 },
		],
	],
	[
		'several marks in a row',
		'**a** ~~b~~ ||c||',
		'a b c',
		[
			{ type: 'Bold', from_index: 0, length: 1 },
			{ type: 'Strike', from_index: 2, length: 1 },
			{ type: 'Spoiler', from_index: 4, length: 1 },
		],
	],
	['crossing marks: the outer close wins', '**a __b** c__', 'a __b c__', [{ type: 'Bold', from_index: 0, length: 5 }]],
	['marks span a line break', '**a\nb**', 'a\nb', [{ type: 'Bold', from_index: 0, length: 3 }]],
	['marks do not span a blank line', '**a\n\nb**', '**a\n\nb**', []],
	['underline inside a word', 'un--der--line', 'underline', [{ type: 'Underline', from_index: 2, length: 3 }]],
	['escaped markers', '\\*\\*not bold\\*\\*', '**not bold**', []],
	['escaped underscores, brackets and backslash', '\\_\\_x\\_\\_ \\[a\\](https://b.c) \\\\', '__x__ [a](https://b.c) \\', []],
	['escaped quote marker', '\\> not quoted', '> not quoted', []],
	['backslash before a letter stays', 'C:\\Users\\new', 'C:\\Users\\new', []],
	['unmatched marker stays', '**not closed', '**not closed', []],
	['math with spaces', '2 ** 3 = 8', '2 ** 3 = 8', []],
	['math without spaces', '2**3', '2**3', []],
	['snake_case names', 'my_var_name and __init', 'my_var_name and __init', []],
	['double underscores inside a word', 'snake__case__name', 'snake__case__name', []],
	['dashes between words', 'a -- b and a--b', 'a -- b and a--b', []],
	['pipes between words', 'x || y', 'x || y', []],
	['markers need a non-space inside', '** not bold **', '** not bold **', []],
	['runs longer than two are literal', '--- title --- ****', '--- title --- ****', []],
	['triple stars are literal', '***x***', '***x***', []],
	['Persian bold', '**سلام** دنیا', 'سلام دنیا', [{ type: 'Bold', from_index: 0, length: 4 }]],
	['Persian mention', `سلام [کاربر](${USER}) عزیز`, 'سلام کاربر عزیز', [{ type: 'MentionText', from_index: 5, length: 5, mention_text_user_id: USER }]],
	['emoji before a mark', '\u{1F600} **hi**', '\u{1F600} hi', [{ type: 'Bold', from_index: 3, length: 2 }]],
	['emoji inside a mark', '**a\u{1F600}b**', 'a\u{1F600}b', [{ type: 'Bold', from_index: 0, length: 4 }]],
	['ZWJ family before a mark', `${FAMILY} **x**`, `${FAMILY} x`, [{ type: 'Bold', from_index: 9, length: 1 }]],
	['ZWJ flag inside a spoiler', `||${RAINBOW_FLAG}||`, RAINBOW_FLAG, [{ type: 'Spoiler', from_index: 0, length: 6 }]],
	[
		'markers inside mono are not parsed',
		'`**not bold**` and **bold**',
		'**not bold** and bold',
		[
			{ type: 'Mono', from_index: 0, length: 12 },
			{ type: 'Bold', from_index: 17, length: 4 },
		],
	],
	['markers inside pre are not parsed', '```\n**x** [a](https://b.c)\n```', '**x** [a](https://b.c)', [{ type: 'Pre', from_index: 0, length: 22 }]],
	[
		'mono inside bold',
		'**a `b` c**',
		'a b c',
		[
			{ type: 'Bold', from_index: 0, length: 5 },
			{ type: 'Mono', from_index: 2, length: 1 },
		],
	],
	['unclosed backtick stays', 'a ` b', 'a ` b', []],
	['mono does not cross lines', '`a\nb`', '`a\nb`', []],
	['double backticks are literal', '``x``', '``x``', []],
];

describe('markdownToRubika', () => {
	test.each(cases)('%s', (_name, input, text, parts) => {
		expect(markdownToRubika(input)).toEqual({ text, parts });
	});

	test('parts are sorted by from_index', () => {
		const { parts } = markdownToRubika('||a|| **b** __c__ `d`');
		expect(parts.map((part) => part.from_index)).toEqual([0, 2, 4, 6]);
	});
});

describe('markdownToRubika output is valid Rubika metadata', () => {
	test.each(cases)('%s', (_name, input) => {
		const { text, parts } = markdownToRubika(input);
		expect(() => validateMetadataParts(text, parts, 'Formatting (Markdown)')).not.toThrow();
	});
});

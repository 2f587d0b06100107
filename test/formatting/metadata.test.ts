import { isLinkUrl, parseMetadataJson, utf16Length, validateMetadataParts } from '../../nodes/Rubika/formatting/metadata';

import { inputError } from '../support/inputError';

const SMILE = '\u{1F600}'; // 2 UTF-16 units

describe('utf16Length', () => {
	test.each<[string, number]>([
		['', 0],
		['hello', 5],
		['سلام', 4],
		[`a${SMILE}`, 3],
		['\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', 8],
	])('%j has %d units', (text, length) => {
		expect(utf16Length(text)).toBe(length);
	});
});

describe('isLinkUrl', () => {
	test.each(['https://rubika.ir', 'http://x.io/a?b=c', 'tg://resolve?domain=x', 'rubika://open'])('accepts %s', (url) => {
		expect(isLinkUrl(url)).toBe(true);
	});
	test.each(['', 'example.com', 'mailto:a@b.c', 'https://', 'https://a b', 'javascript:alert(1)'])('refuses %j', (url) => {
		expect(isLinkUrl(url)).toBe(false);
	});
});

describe('validateMetadataParts', () => {
	test('accepts valid parts of every kind', () => {
		const text = 'سلام کاربر عزیز!';
		expect(() =>
			validateMetadataParts(
				text,
				[
					{ type: 'Bold', from_index: 0, length: 16 },
					{ type: 'MentionText', from_index: 5, length: 11, mention_text_user_id: 'u0abc' },
					{ type: 'Link', from_index: 0, length: 4, link_url: 'https://rubika.ir' },
					{ type: 'Quote', from_index: 15, length: 1 },
				],
				'Formatting (JSON)',
			),
		).not.toThrow();
	});

	test('accepts no parts', () => {
		expect(() => validateMetadataParts('x', [], 'Formatting (JSON)')).not.toThrow();
	});

	test('accepts a range covering a whole emoji', () => {
		expect(() => validateMetadataParts(`a${SMILE}b`, [{ type: 'Bold', from_index: 1, length: 2 }], 'F')).not.toThrow();
	});

	test('accepts exactly 30 parts', () => {
		const parts = Array.from({ length: 30 }, (_, index) => ({ type: 'Bold', from_index: index, length: 1 }));
		expect(() => validateMetadataParts('x'.repeat(30), parts, 'F')).not.toThrow();
	});

	test.each<[string, string, unknown, string]>([
		['not a list', 'x', { type: 'Bold' }, 'formatting parts must be a list'],
		[
			'more than 30 parts',
			'x'.repeat(31),
			Array.from({ length: 31 }, (_, index) => ({ type: 'Bold', from_index: index, length: 1 })),
			'has 31 formatting parts; Rubika allows at most 30 per message',
		],
		['a part that is not an object', 'x', [null], 'part 1 must be an object with type, from_index and length'],
		[
			'an unknown type',
			'hello',
			[{ type: 'Bold', from_index: 0, length: 1 }, { type: 'Blink', from_index: 0, length: 1 }],
			'part 2: type "Blink" is not valid; allowed: Bold, Italic, Mono, Underline, Strike, Spoiler, Link, MentionText, Pre, Quote',
		],
		['a negative from_index', 'hello', [{ type: 'Bold', from_index: -1, length: 1 }], 'part 1: from_index must be a whole number of 0 or more, got -1'],
		['a fractional from_index', 'hello', [{ type: 'Bold', from_index: 1.5, length: 1 }], 'part 1: from_index must be a whole number of 0 or more, got 1.5'],
		['a string from_index', 'hello', [{ type: 'Bold', from_index: '1', length: 1 }], 'part 1: from_index must be a whole number of 0 or more, got "1"'],
		['a missing length', 'hello', [{ type: 'Bold', from_index: 0 }], 'part 1: length must be a whole number above 0, got missing'],
		['a zero length', 'hello', [{ type: 'Bold', from_index: 0, length: 0 }], 'part 1: length must be a whole number above 0, got 0'],
		[
			'a range past the end',
			'hello',
			[{ type: 'Bold', from_index: 3, length: 3 }],
			'part 1: from_index 3 + length 3 = 6 goes past the end of the text, which is 5 UTF-16 code units long (emoji count 2)',
		],
		[
			'a range past the end counted in UTF-16 units',
			SMILE,
			[{ type: 'Bold', from_index: 0, length: 3 }],
			'part 1: from_index 0 + length 3 = 3 goes past the end of the text, which is 2 UTF-16 code units long',
		],
		[
			'a range starting inside an emoji',
			`a${SMILE}b`,
			[{ type: 'Bold', from_index: 2, length: 2 }],
			'part 1: from_index 2 falls inside an emoji or other character that takes 2 UTF-16 code units',
		],
		[
			'a range ending inside an emoji',
			`a${SMILE}b`,
			[{ type: 'Bold', from_index: 0, length: 2 }],
			'part 1: the range ends at 2, inside an emoji or other character that takes 2 UTF-16 code units',
		],
		['a Link without link_url', 'hello', [{ type: 'Link', from_index: 0, length: 5 }], 'part 1: a Link needs link_url with an address such as https://example.com, got missing'],
		[
			'a Link with a bare domain',
			'hello',
			[{ type: 'Link', from_index: 0, length: 5, link_url: 'example.com' }],
			'part 1: a Link needs link_url with an address such as https://example.com, got "example.com"',
		],
		[
			'a MentionText without user id',
			'hello',
			[{ type: 'MentionText', from_index: 0, length: 5, mention_text_user_id: ' ' }],
			'part 1: a MentionText needs mention_text_user_id',
		],
	])('error: %s', (_name, text, parts, message) => {
		const error = inputError(() => validateMetadataParts(text, parts, 'Formatting (JSON)'));
		expect(error.field).toBe('Formatting (JSON)');
		expect(error.message).toContain(message);
	});
});

describe('parseMetadataJson', () => {
	const BOLD = { type: 'Bold', from_index: 0, length: 4 };

	test.each<[string, unknown]>([
		['{meta_data_parts: [...]}', { meta_data_parts: [BOLD] }],
		['a bare parts array', [BOLD]],
		['a JSON string of the object', JSON.stringify({ meta_data_parts: [BOLD] })],
		['a JSON string of the array', JSON.stringify([BOLD])],
		['{metadata: {meta_data_parts: [...]}} (a copied request body)', { metadata: { meta_data_parts: [BOLD] } }],
		['a single part object', BOLD],
	])('accepts %s', (_name, input) => {
		expect(parseMetadataJson(input, 'Formatting (JSON)')).toEqual([BOLD]);
	});

	test.each<[string, unknown]>([
		['an empty string', ''],
		['a blank string', '   '],
		['null', null],
		['undefined', undefined],
		['{meta_data_parts: null}', { meta_data_parts: null }],
	])('%s means no parts', (_name, input) => {
		expect(parseMetadataJson(input, 'Formatting (JSON)')).toEqual([]);
	});

	test('normalizes type case, numeric strings and numeric user ids', () => {
		expect(
			parseMetadataJson(
				[
					{ type: 'bold', from_index: '2', length: ' 3 ' },
					{ type: 'mentiontext', from_index: 0, length: 1, mention_text_user_id: 42 },
				],
				'F',
			),
		).toEqual([
			{ type: 'Bold', from_index: 2, length: 3 },
			{ type: 'MentionText', from_index: 0, length: 1, mention_text_user_id: '42' },
		]);
	});

	test('JSON text keeps the digits of a user id written as a bare number above 2^53', () => {
		const json = '[{"type": "MentionText", "from_index": 0, "length": 1, "mention_text_user_id": 12345678901234567891}]';
		expect(parseMetadataJson(json, 'F')).toEqual([
			{ type: 'MentionText', from_index: 0, length: 1, mention_text_user_id: '12345678901234567891' },
		]);
	});

	test('JSON text null means no parts', () => {
		expect(parseMetadataJson('null', 'F')).toEqual([]);
	});

	test('keeps link_url and unknown types for validation', () => {
		expect(parseMetadataJson([{ type: 'Blink', from_index: 0, length: 1, link_url: 'https://x.io' }], 'F')).toEqual([
			{ type: 'Blink', from_index: 0, length: 1, link_url: 'https://x.io' },
		]);
	});

	test.each<[string, unknown, string]>([
		['invalid JSON', '{"meta_data_parts": [', 'is not valid JSON'],
		['an object of another shape', { foo: 1 }, 'must be {"meta_data_parts": [...]} or a list of parts'],
		['a number', 5, 'must be {"meta_data_parts": [...]} or a list of parts'],
		['meta_data_parts that is not a list', { meta_data_parts: 'x' }, 'must be {"meta_data_parts": [...]} or a list of parts'],
		['a part that is not an object', [BOLD, 'x'], 'part 2 must be an object with type, from_index and length'],
	])('error: %s', (_name, input, message) => {
		const error = inputError(() => parseMetadataJson(input, 'Formatting (JSON)'));
		expect(error.field).toBe('Formatting (JSON)');
		expect(error.message).toContain(message);
	});
});

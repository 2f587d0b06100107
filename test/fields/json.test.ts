import { parseJsonField, parseJsonKeepingBigIntegers } from '../../nodes/shared/json';

import { inputError } from '../support/inputError';

describe('parseJsonKeepingBigIntegers', () => {
	it('keeps the digits of a bare integer above 2^53 and parses everything else as JSON.parse does', () => {
		expect(parseJsonKeepingBigIntegers('{"message_id": 9223372036854775807, "n": 12, "f": 1.5e3}')).toEqual({
			message_id: '9223372036854775807',
			n: 12,
			f: 1500,
		});
	});
});

describe('parseJsonField', () => {
	it.each([
		['undefined', undefined],
		['null', null],
		['an empty text', ''],
		['a text of spaces', '  \n\t '],
	])('returns undefined for %s', (_label, value) => {
		expect(parseJsonField(value, 'Body (JSON)')).toBeUndefined();
	});

	it('parses text, keeping the digits of big integer ids', () => {
		expect(parseJsonField(' [{"id": 1234567890123456789}, 7] ', 'Body (JSON)')).toEqual([{ id: '1234567890123456789' }, 7]);
	});

	it.each([
		['an object', { chat_id: 'b0' }],
		['a list', [1, 2]],
		['a number', 5],
		['a boolean', false],
	])('returns %s an expression produced as it is', (_label, value) => {
		expect(parseJsonField(value, 'Body (JSON)')).toBe(value);
	});

	it('names the field, and says what the parser found wrong', () => {
		const error = inputError(() => parseJsonField('{"chat_id": ', 'Body (JSON)'));
		expect(error.field).toBe('Body (JSON)');
		expect(error.message).toMatch(/^is not valid JSON: .+/);
	});

	it('names the part of the field when given one', () => {
		const error = inputError(() => parseJsonField('{oops', 'Inline Keypad', 'row 1, button 2: extra fields'));
		expect(error.field).toBe('Inline Keypad');
		expect(error.message).toMatch(/^row 1, button 2: extra fields is not valid JSON: .+/);
	});
});

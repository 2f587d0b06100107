/**
 * Reading what a person answers: Persian and Arabic digits, numbers, phone numbers, places, and dates in both
 * calendars, with the Persian ↔ Gregorian arithmetic checked against days everyone in Iran knows.
 */
import {
	gregorianToPersian,
	isPersianLeapYear,
	persianToGregorian,
	readDate,
	yearRange,
} from '../../nodes/Rubika/waiting/questions/dates';
import { plainDigits, readAnsweredCoordinate, readNumber, readPhoneNumber } from '../../nodes/Rubika/waiting/questions/normalise';

describe('digits', () => {
	it.each([
		['۰۱۲۳۴۵۶۷۸۹', '0123456789'],
		['٠١٢٣٤٥٦٧٨٩', '0123456789'],
		['۱۲٫۵', '12.5'],
		['\u200f۱۴۰۳/۰۱/۰۱\u200e', '1403/01/01'],
		['abc ۳ x', 'abc 3 x'],
	])('%s → %s', (written, plain) => {
		expect(plainDigits(written)).toBe(plain);
	});
});

describe('numbers', () => {
	it.each([
		['42', 42],
		['۴۲', 42],
		['٤٢', 42],
		['-7', -7],
		['−7', -7],
		['۳٫۵', 3.5],
		['3.5', 3.5],
		['.5', 0.5],
		['۱۲٬۰۰۰', 12000],
		[' 8 ', 8],
	])('%s reads as %d', (written, number) => {
		expect(readNumber(written)).toBe(number);
	});

	it.each(['', 'x', '1,5', '1.2.3', '۱e5', 'Infinity', '--1'])('%j is not a number', (written) => {
		expect(readNumber(written)).toBeUndefined();
	});
});

describe('phone numbers', () => {
	it.each([
		['+98 912 123 4567', '+989121234567'],
		['۰۹۱۲-۱۲۳-۴۵۶۷', '09121234567'],
		['(021) 8888.1234', '02188881234'],
		['\u202a+989121234567\u202c', '+989121234567'],
	])('%s → %s', (written, phone) => {
		expect(readPhoneNumber(written)).toBe(phone);
	});

	it.each(['', '12', '+98+912', 'call me', '0912 123 4567 890 1234'])('%j is not a phone number', (written) => {
		expect(readPhoneNumber(written)).toBeUndefined();
	});
});

describe('coordinates', () => {
	it('reads numbers and texts in any digits, within the bound', () => {
		expect(readAnsweredCoordinate('35.6892', 90)).toBe(35.6892);
		expect(readAnsweredCoordinate('۳۵٫۶۸۹۲', 90)).toBe(35.6892);
		expect(readAnsweredCoordinate(-122.4, 180)).toBe(-122.4);
		expect(readAnsweredCoordinate('91', 90)).toBeUndefined();
		expect(readAnsweredCoordinate('north', 90)).toBeUndefined();
		expect(readAnsweredCoordinate(null, 90)).toBeUndefined();
	});
});

describe('the Persian calendar', () => {
	it.each([
		// Nowruz of recent years, the last day of a leap year and of a common one, and days of history.
		[1403, 1, 1, '2024-03-20'],
		[1402, 1, 1, '2023-03-21'],
		[1404, 1, 1, '2025-03-21'],
		[1400, 1, 1, '2021-03-21'],
		[1399, 12, 30, '2021-03-20'],
		[1403, 12, 30, '2025-03-20'],
		[1402, 12, 29, '2024-03-19'],
		[1357, 11, 22, '1979-02-11'],
		[1370, 1, 1, '1991-03-21'],
		[1375, 1, 1, '1996-03-20'],
		[1403, 6, 31, '2024-09-21'],
		[1403, 7, 1, '2024-09-22'],
		[1300, 1, 1, '1921-03-21'],
		[1500, 1, 1, '2121-03-21'],
	])('%d-%d-%d is %s, and back', (year, month, day, gregorian) => {
		expect(persianToGregorian(year, month, day)).toBe(gregorian);
		expect(gregorianToPersian(gregorian)).toBe(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
	});

	it('leap years: 1399, 1403 and 1408 have an Esfand 30; 1400, 1401, 1402 and 1404 do not', () => {
		expect([1395, 1399, 1403, 1408, 1412].map(isPersianLeapYear)).toEqual([true, true, true, true, true]);
		expect([1400, 1401, 1402, 1404, 1407].map(isPersianLeapYear)).toEqual([false, false, false, false, false]);
		expect(persianToGregorian(1402, 12, 30)).toBeUndefined();
		expect(persianToGregorian(1404, 12, 30)).toBeUndefined();
	});

	it('every day from 1380 to 1420 maps to the next Gregorian day, and back', () => {
		let previous = persianToGregorian(1380, 1, 1)!;
		expect(previous).toBe('2001-03-21');
		for (let year = 1380; year <= 1420; year++) {
			for (let month = 1; month <= 12; month++) {
				for (let day = month === 1 && year === 1380 ? 2 : 1; day <= 31; day++) {
					const gregorian = persianToGregorian(year, month, day);
					if (gregorian === undefined) break;
					expect(Date.parse(gregorian) - Date.parse(previous)).toBe(86_400_000);
					expect(gregorianToPersian(gregorian)).toBe(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
					previous = gregorian;
				}
			}
		}
		expect(previous).toBe('2042-03-20');
	});

	it.each([
		[1403, 13, 1],
		[1403, 0, 1],
		[1403, 7, 31],
		[1403, 1, 0],
		[1100, 1, 1],
		[1700, 1, 1],
	])('%d-%d-%d is no day', (year, month, day) => {
		expect(persianToGregorian(year, month, day)).toBeUndefined();
	});
});

describe('dates as answered', () => {
	it.each([
		['1403-01-01', { date: '2024-03-20', calendar: 'persian', as_picked: '1403-01-01' }],
		['۱۴۰۳/۰۱/۰۱', { date: '2024-03-20', calendar: 'persian', as_picked: '1403-01-01' }],
		['١٣٩٩/١٢/٣٠', { date: '2021-03-20', calendar: 'persian', as_picked: '1399-12-30' }],
		['1403/7/1', { date: '2024-09-22', calendar: 'persian', as_picked: '1403-07-01' }],
		['2024-03-20', { date: '2024-03-20', calendar: 'gregorian', as_picked: '2024-03-20' }],
		['2024/2/29', { date: '2024-02-29', calendar: 'gregorian', as_picked: '2024-02-29' }],
		['20/3/2024', { date: '2024-03-20', calendar: 'gregorian', as_picked: '2024-03-20' }],
		['3/20/2024', { date: '2024-03-20', calendar: 'gregorian', as_picked: '2024-03-20' }],
		['5/5/2024', { date: '2024-05-05', calendar: 'gregorian', as_picked: '2024-05-05' }],
		['۲۲/۱۱/۱۳۵۷', { date: '1979-02-11', calendar: 'persian', as_picked: '1357-11-22' }],
		[' 2024.12.31 ', { date: '2024-12-31', calendar: 'gregorian', as_picked: '2024-12-31' }],
	])('%s', (written, read) => {
		expect(readDate(written)).toEqual(read);
	});

	it.each(['3/4/2024', '2023-02-29', '2024-13-01', '1402-12-30', 'tomorrow', '2024-03', '24-03-20', '2024-03/20', '3000-01-01'])('%j is not a date', (written) => {
		expect(readDate(written)).toBeUndefined();
	});

	it('a range of years in either calendar, as Gregorian days', () => {
		expect(yearRange('persian', 1380, 1403)).toEqual({ first: '2001-03-21', last: '2025-03-20' });
		expect(yearRange('gregorian', 2000, 2024)).toEqual({ first: '2000-01-01', last: '2024-12-31' });
		expect(yearRange('persian', undefined, 1402)).toEqual({ first: undefined, last: '2024-03-19' });
	});
});

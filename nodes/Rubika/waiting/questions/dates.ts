/**
 * Dates as a person picks them in Rubika's Calendar button (DatePersian or DateGregorian) or types them:
 * read into an ISO Gregorian date, with the calendar they were picked in and the date as picked.
 *
 * The Persian (Solar Hijri, Jalali) calendar: months 1–6 have 31 days, 7–11 have 30, Esfand (12) has 29, or
 * 30 in a leap year. Which years are leap follows the 33-year arithmetic rule — a year y is leap when
 * (25·y + 11) mod 33 < 8 — which gives the official calendar's leap years for 1178–1633 (1799–2254), far wider
 * than any Calendar button's years; outside them the node refuses the date rather than guess. Days are
 * counted from one known day, 1 Farvardin 1400 = 21 March 2021, so the arithmetic is only "count the days of
 * the years in between" and can be checked by hand.
 */
import { plainDigits } from './normalise';

export type CalendarName = 'persian' | 'gregorian';

/** A date read from an answer: ISO Gregorian, the calendar it was picked in, and the date as picked (YYYY-MM-DD). */
export interface ReadDate {
	date: string;
	calendar: CalendarName;
	as_picked: string;
}

/** The Persian years this node converts (see above). */
export const PERSIAN_YEARS = { min: 1178, max: 1633 } as const;
/** Years below this are Persian, from it on Gregorian: the two calendars' years in use are 600 apart. */
const FIRST_GREGORIAN_YEAR = 1700;
const DAY_MS = 86_400_000;
/** 1 Farvardin 1400. */
const PERSIAN_ANCHOR = { year: 1400, utc: Date.UTC(2021, 2, 21) };

export function isPersianLeapYear(year: number): boolean {
	return (((25 * year + 11) % 33) + 33) % 33 < 8;
}

function persianYearLength(year: number): number {
	return isPersianLeapYear(year) ? 366 : 365;
}

function persianMonthLength(year: number, month: number): number {
	if (month <= 6) return 31;
	if (month <= 11) return 30;
	return isPersianLeapYear(year) ? 30 : 29;
}

function gregorianMonthLength(year: number, month: number): number {
	return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const pad = (number: number, width = 2) => String(number).padStart(width, '0');
const iso = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`;

/** The Gregorian date (ISO) of a Persian date; undefined when there is no such day or the year is out of range. */
export function persianToGregorian(year: number, month: number, day: number): string | undefined {
	if (year < PERSIAN_YEARS.min || year > PERSIAN_YEARS.max || month < 1 || month > 12 || day < 1 || day > persianMonthLength(year, month)) return undefined;
	let days = month <= 6 ? (month - 1) * 31 : 186 + (month - 7) * 30;
	days += day - 1;
	for (let y = PERSIAN_ANCHOR.year; y < year; y++) days += persianYearLength(y);
	for (let y = year; y < PERSIAN_ANCHOR.year; y++) days -= persianYearLength(y);
	return new Date(PERSIAN_ANCHOR.utc + days * DAY_MS).toISOString().slice(0, 10);
}

/** The Persian date (YYYY-MM-DD) of a Gregorian one (ISO); undefined outside the years converted. */
export function gregorianToPersian(isoDate: string): string | undefined {
	const [year, month, day] = isoDate.split('-').map(Number);
	let days = Math.round((Date.UTC(year, month - 1, day) - PERSIAN_ANCHOR.utc) / DAY_MS);
	let persianYear = PERSIAN_ANCHOR.year;
	while (days < 0) days += persianYearLength(--persianYear);
	while (days >= persianYearLength(persianYear)) days -= persianYearLength(persianYear++);
	if (persianYear < PERSIAN_YEARS.min || persianYear > PERSIAN_YEARS.max) return undefined;
	const persianMonth = days < 186 ? Math.floor(days / 31) + 1 : Math.floor((days - 186) / 30) + 7;
	const persianDay = days < 186 ? (days % 31) + 1 : ((days - 186) % 30) + 1;
	return iso(persianYear, persianMonth, persianDay);
}

/** The year, month and day a text names, year first or (when unambiguous) last; undefined otherwise. */
function dateParts(text: string): [number, number, number] | undefined {
	const plain = plainDigits(text.trim()).replace(/\s+/g, '');
	const yearFirst = /^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})$/.exec(plain);
	if (yearFirst) return [Number(yearFirst[1]), Number(yearFirst[3]), Number(yearFirst[4])];
	const yearLast = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{4})$/.exec(plain);
	if (!yearLast) return undefined;
	const [first, second, year] = [Number(yearLast[1]), Number(yearLast[3]), Number(yearLast[4])];
	// Day/month/year as in Iran and most of the world, month/day/year where the second cannot be a month. When
	// both could be the month and they differ, which is the day is not known: the date is not taken.
	if (first <= 12 && second <= 12 && first !== second) return undefined;
	return second > 12 ? [year, first, second] : [year, second, first];
}

/**
 * Reads a date: `YYYY-MM-DD`, `YYYY/MM/DD` (or dots), or D/M/YYYY where day and month cannot be mixed up, in
 * any digits. A year below 1700 is a Persian one. Undefined for anything that is not a real day.
 */
export function readDate(text: string): ReadDate | undefined {
	const parts = dateParts(text);
	if (!parts) return undefined;
	const [year, month, day] = parts;
	const asPicked = iso(year, month, day);
	if (year < FIRST_GREGORIAN_YEAR) {
		const date = persianToGregorian(year, month, day);
		return date === undefined ? undefined : { date, calendar: 'persian', as_picked: asPicked };
	}
	if (year > 2999 || month < 1 || month > 12 || day < 1 || day > gregorianMonthLength(year, month)) return undefined;
	return { date: asPicked, calendar: 'gregorian', as_picked: asPicked };
}

/**
 * The first and last day (ISO Gregorian) of a range of years of a calendar, for checking an answer against a
 * Calendar button's From Year and To Year whichever calendar the answer came in.
 */
export function yearRange(calendar: CalendarName, fromYear: number | undefined, toYear: number | undefined): { first?: string; last?: string } {
	if (calendar === 'gregorian') {
		return { first: fromYear === undefined ? undefined : iso(fromYear, 1, 1), last: toYear === undefined ? undefined : iso(toYear, 12, 31) };
	}
	return {
		first: fromYear === undefined ? undefined : persianToGregorian(fromYear, 1, 1),
		last: toYear === undefined ? undefined : persianToGregorian(toYear, 12, persianMonthLength(toYear, 12)),
	};
}

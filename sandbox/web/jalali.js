/**
 * The Persian (Jalali, Solar Hijri) calendar for the chat page's date picker and its jest tests (one file,
 * loaded by a <script> tag in the browser and by require() in Node, like render.js).
 *
 * Leap years follow the 33-year arithmetic rule: year y is leap when (25·y + 11) mod 33 < 8, eight leap years
 * in every 33 (1399, 1403, 1408, 1412…). Any 33 consecutive years hold exactly eight, because 25 and 33 are
 * coprime, so counting them needs no table. Months 1–6 have 31 days, 7–11 have 30, Esfand 29 (30 in a leap
 * year). Days are counted from 1 Farvardin of year 1; the link to the Gregorian calendar is one known date,
 * 1 Farvardin 1403 = 20 March 2024, and JavaScript's Date (proleptic Gregorian, UTC) does the Gregorian side.
 * The jest test checks known dates and that it agrees with ICU's Persian calendar (Node's Intl) on every day of
 * 1300–1500. Measured once: they agree from the year 1000 to 1501; from 1502 ICU moves a leap day (1503 instead
 * of 1502) where the 33-year rule drifts from the astronomical calendar, years no demo reaches.
 */
(function (root, factory) {
	'use strict';
	if (typeof module === 'object' && module.exports) module.exports = factory();
	else root.RubikaJalali = factory();
})(typeof self !== 'undefined' ? self : this, function () {
	'use strict';

	var MONTH_NAMES = ['فروردین', 'اردیبهشت', 'خرداد', 'تیر', 'مرداد', 'شهریور', 'مهر', 'آبان', 'آذر', 'دی', 'بهمن', 'اسفند'];
	/** The Persian week starts on Saturday (شنبه) and ends on Friday (جمعه). */
	var WEEKDAY_NAMES = ['شنبه', 'یکشنبه', 'دوشنبه', 'سه‌شنبه', 'چهارشنبه', 'پنجشنبه', 'جمعه'];
	var DIGITS = '۰۱۲۳۴۵۶۷۸۹';
	var DAY_MS = 86400000;

	function mod(a, b) {
		return ((a % b) + b) % b;
	}

	function isLeapYear(year) {
		return mod(25 * year + 11, 33) < 8;
	}

	function monthLength(year, month) {
		if (month <= 6) return 31;
		if (month <= 11) return 30;
		return isLeapYear(year) ? 30 : 29;
	}

	/** Leap years among 1 … year − 1: eight per whole 33 years, the rest counted one by one. */
	function leapYearsBefore(year) {
		var cycles = Math.floor((year - 1) / 33);
		var count = cycles * 8;
		for (var y = cycles * 33 + 1; y < year; y++) if (isLeapYear(y)) count++;
		return count;
	}

	function daysBeforeYear(year) {
		return 365 * (year - 1) + leapYearsBefore(year);
	}

	function daysBeforeMonth(month) {
		return month <= 7 ? (month - 1) * 31 : 186 + (month - 7) * 30;
	}

	/** Days since 1 Farvardin 1 (day 0). */
	function jalaliDay(year, month, day) {
		return daysBeforeYear(year) + daysBeforeMonth(month) + day - 1;
	}

	/** Days since 1 January 1970 (UTC) of a Gregorian date; setUTCFullYear keeps years below 100 as they are. */
	function gregorianDay(year, month, day) {
		var date = new Date(0);
		date.setUTCFullYear(year, month - 1, day);
		return Math.round(date.getTime() / DAY_MS);
	}

	/** 1 Farvardin 1403 was 20 March 2024: the offset between the two day counts. */
	var OFFSET = gregorianDay(2024, 3, 20) - jalaliDay(1403, 1, 1);

	/** A Jalali date as days since 1 January 1970 (UTC), the page's one day count for both calendars. */
	function toEpochDay(year, month, day) {
		return jalaliDay(year, month, day) + OFFSET;
	}

	/** The Jalali date of a day counted from 1 January 1970 (UTC). */
	function fromEpochDay(epochDay) {
		var days = epochDay - OFFSET;
		var year = Math.floor(days / 365.2424) + 1;
		while (daysBeforeYear(year) > days) year--;
		while (daysBeforeYear(year + 1) <= days) year++;
		var inYear = days - daysBeforeYear(year);
		var month = inYear < 186 ? Math.floor(inYear / 31) + 1 : Math.floor((inYear - 186) / 30) + 7;
		return { year: year, month: month, day: inYear - daysBeforeMonth(month) + 1 };
	}

	function toGregorian(year, month, day) {
		var date = new Date(toEpochDay(year, month, day) * DAY_MS);
		return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
	}

	function toJalali(year, month, day) {
		return fromEpochDay(gregorianDay(year, month, day));
	}

	/** Latin digits written as Persian ones (۱۴۰۳). */
	function persianDigits(value) {
		return String(value).replace(/[0-9]/g, function (digit) {
			return DIGITS[digit];
		});
	}

	/** Persian (۱۴۰۳) and Arabic-Indic (١٤٠٣) digits written as Latin ones, for reading what a bot wrote. */
	function latinDigits(value) {
		return String(value).replace(/[۰-۹٠-٩]/g, function (digit) {
			var code = digit.charCodeAt(0);
			return String(code >= 0x06f0 ? code - 0x06f0 : code - 0x0660);
		});
	}

	return {
		MONTH_NAMES: MONTH_NAMES,
		WEEKDAY_NAMES: WEEKDAY_NAMES,
		isLeapYear: isLeapYear,
		monthLength: monthLength,
		toEpochDay: toEpochDay,
		fromEpochDay: fromEpochDay,
		toGregorian: toGregorian,
		toJalali: toJalali,
		persianDigits: persianDigits,
		latinDigits: latinDigits,
	};
});

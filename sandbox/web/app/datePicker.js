/**
 * The date picker a Calendar button opens (`button_calendar {type, min_year, max_year, default_value}`): a month
 * of the button's calendar, the Persian (Jalali) one for DatePersian — Persian month names and digits, weeks
 * from Saturday, right to left — and the Gregorian one otherwise. As on a phone there is always a date picked
 * (the button's default value, else today, kept within its years); arrows, Page Up/Down and the month and year
 * lists move it. The Jalali arithmetic is ../jalali.js; every date here is a day count since 1 January 1970
 * (UTC), so both calendars share the moves.
 */

import { h } from './dom.js';

const jalali = window.RubikaJalali;
const DAY_MS = 86400000;

const mod = (a, b) => ((a % b) + b) % b;
const pad = (number) => String(number).padStart(2, '0');

function gregorianToEpochDay(year, month, day) {
	const date = new Date(0);
	date.setUTCFullYear(year, month - 1, day);
	return Math.round(date.getTime() / DAY_MS);
}

function gregorianFromEpochDay(epochDay) {
	const date = new Date(epochDay * DAY_MS);
	return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** 0 = Sunday … 6 = Saturday, as Date.getUTCDay counts; 1 January 1970 was a Thursday. */
const weekday = (epochDay) => mod(epochDay + 4, 7);

/**
 * The two calendars a Calendar button names. `weekdays` are listed from the first column of the grid
 * (`firstWeekday`, counted like getUTCDay); `write` is how the answer carries a date (answer-button's `date`):
 * Persian dates as Iranians write them, 1403/01/15, Gregorian ones as ISO 8601, 2024-04-03 — with Latin digits,
 * which is all the sandbox takes. How the real app writes them is unknown (docs/api-facts.md §11).
 */
const CALENDARS = {
	DatePersian: {
		name: 'Persian calendar',
		lang: 'fa',
		dir: 'rtl',
		monthNames: jalali.MONTH_NAMES,
		weekdays: jalali.WEEKDAY_NAMES,
		firstWeekday: 6,
		short: (name) => Array.from(name)[0],
		digits: jalali.persianDigits,
		monthLength: jalali.monthLength,
		toEpochDay: jalali.toEpochDay,
		fromEpochDay: jalali.fromEpochDay,
		write: (date) => `${date.year}/${pad(date.month)}/${pad(date.day)}`,
	},
	DateGregorian: {
		name: 'Gregorian calendar',
		lang: 'en',
		dir: 'ltr',
		monthNames: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
		weekdays: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
		firstWeekday: 1,
		short: (name) => name.slice(0, 2),
		digits: String,
		monthLength: (year, month) => gregorianFromEpochDay(gregorianToEpochDay(year, month + 1, 1) - 1).day,
		toEpochDay: gregorianToEpochDay,
		fromEpochDay: gregorianFromEpochDay,
		write: (date) => `${date.year}-${pad(date.month)}-${pad(date.day)}`,
	},
};

const column = (calendar, epochDay) => mod(weekday(epochDay) - calendar.firstWeekday, 7);

/** "۱۵ فروردین ۱۴۰۳" or "3 April 2024": a day's accessible name. */
function dayName(calendar, epochDay) {
	const date = calendar.fromEpochDay(epochDay);
	return `${calendar.digits(date.day)} ${calendar.monthNames[date.month - 1]} ${calendar.digits(date.year)}`;
}

/** The same day named in its calendar with its weekday, then in the other calendar: what the person picked. */
function longName(calendar, epochDay) {
	const other = calendar === CALENDARS.DatePersian ? CALENDARS.DateGregorian : CALENDARS.DatePersian;
	return [`${calendar.weekdays[column(calendar, epochDay)]} ${dayName(calendar, epochDay)}`, `${other.weekdays[column(other, epochDay)]} ${dayName(other, epochDay)}`];
}

/** A year setting (years are strings in the API): a whole number, or undefined. */
function yearSetting(value) {
	const text = jalali.latinDigits(String(value ?? '')).trim();
	return /^\d{1,4}$/.test(text) ? Number(text) : undefined;
}

/** The button's default_value read in its calendar (YYYY-MM-DD or YYYY/MM/DD, Persian digits too), or undefined. */
function readDate(calendar, value) {
	const match = /^(\d{1,4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(jalali.latinDigits(String(value ?? '')).trim());
	if (!match) return undefined;
	const [year, month, day] = match.slice(1).map(Number);
	if (month < 1 || month > 12 || day < 1 || day > calendar.monthLength(year, month)) return undefined;
	return calendar.toEpochDay(year, month, day);
}

/** Today where the person is (their clock's date, not UTC's), as days since 1970. */
function localToday() {
	const now = new Date();
	return gregorianToEpochDay(now.getFullYear(), now.getMonth() + 1, now.getDate());
}

/**
 * The picker for one Calendar button: `node` to show, `note` what it is, `value()` the answer's field,
 * `focusTarget()` what takes the focus when the sheet opens.
 */
export function datePicker(settings) {
	const today = localToday();
	const calendar = settings.type === 'DatePersian' ? CALENDARS.DatePersian : CALENDARS.DateGregorian;
	const thisYear = calendar.fromEpochDay(today).year;
	const minYear = yearSetting(settings.min_year) ?? Math.min(thisYear - 100, yearSetting(settings.max_year) ?? thisYear);
	const maxYear = Math.max(minYear, yearSetting(settings.max_year) ?? thisYear + 10);
	const first = calendar.toEpochDay(minYear, 1, 1);
	const last = calendar.toEpochDay(maxYear + 1, 1, 1) - 1;
	const clamp = (epochDay) => Math.min(last, Math.max(first, epochDay));
	let picked = clamp(readDate(calendar, settings.default_value) ?? today);

	const arrows = calendar.dir === 'rtl' ? ['›', '‹'] : ['‹', '›'];
	const previous = h('button', { type: 'button', class: 'icon-button date-step', 'aria-label': 'Previous month', onclick: () => moveMonths(-1) }, arrows[0]);
	const next = h('button', { type: 'button', class: 'icon-button date-step', 'aria-label': 'Next month', onclick: () => moveMonths(1) }, arrows[1]);
	const monthList = h(
		'select',
		{ 'aria-label': 'Month', onchange: () => setMonth(Number(yearList.value), Number(monthList.value)) },
		calendar.monthNames.map((name, index) => h('option', { value: String(index + 1) }, name)),
	);
	const years = Array.from({ length: maxYear - minYear + 1 }, (_, index) => minYear + index);
	const yearList = h(
		'select',
		{ 'aria-label': 'Year', onchange: () => setMonth(Number(yearList.value), Number(monthList.value)) },
		years.map((year) => h('option', { value: String(year) }, calendar.digits(year))),
	);
	const grid = h('table', { class: 'date-grid', role: 'grid', onkeydown: onGridKey });
	const chosen = h('p', { class: 'date-chosen', 'aria-live': 'polite' });
	const node = h(
		'div',
		{ class: 'date-picker', lang: calendar.lang, dir: calendar.dir, 'data-calendar': settings.type === 'DatePersian' ? 'DatePersian' : 'DateGregorian' },
		h('div', { class: 'date-nav' }, previous, monthList, yearList, next),
		grid,
		chosen,
	);

	function setMonth(year, month) {
		const day = Math.min(calendar.fromEpochDay(picked).day, calendar.monthLength(year, month));
		pick(calendar.toEpochDay(year, month, day));
	}

	function moveMonths(count) {
		const date = calendar.fromEpochDay(picked);
		const index = date.year * 12 + date.month - 1 + count;
		setMonth(Math.floor(index / 12), mod(index, 12) + 1);
	}

	function pick(epochDay, focus) {
		picked = clamp(epochDay);
		render();
		if (focus) focusPicked();
	}

	function focusPicked() {
		const button = grid.querySelector('button[aria-pressed="true"]');
		if (button) button.focus();
	}

	function onGridKey(event) {
		const forward = calendar.dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
		const back = calendar.dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
		const days = { [forward]: 1, [back]: -1, ArrowDown: 7, ArrowUp: -7, Home: -column(calendar, picked), End: 6 - column(calendar, picked) }[event.key];
		if (days !== undefined) pick(picked + days, true);
		else if (event.key === 'PageDown' || event.key === 'PageUp') {
			moveMonths((event.key === 'PageDown' ? 1 : -1) * (event.shiftKey ? 12 : 1));
			focusPicked();
		} else return;
		event.preventDefault();
	}

	function render() {
		const date = calendar.fromEpochDay(picked);
		monthList.value = String(date.month);
		yearList.value = String(date.year);
		const start = calendar.toEpochDay(date.year, date.month, 1);
		const length = calendar.monthLength(date.year, date.month);
		previous.disabled = start <= first;
		next.disabled = start + length - 1 >= last;
		const lead = column(calendar, start);
		const rows = [];
		for (let row = 0; row * 7 < lead + length; row++) {
			const cells = [];
			for (let col = 0; col < 7; col++) {
				const day = row * 7 + col - lead + 1;
				if (day < 1 || day > length) {
					cells.push(h('td', { role: 'gridcell' }));
					continue;
				}
				const epochDay = start + day - 1;
				const isPicked = epochDay === picked;
				cells.push(
					h(
						'td',
						{ role: 'gridcell', 'aria-selected': String(isPicked) },
						h(
							'button',
							{
								type: 'button',
								class: 'date-day' + (epochDay === today ? ' today' : ''),
								tabindex: isPicked ? '0' : '-1',
								'aria-pressed': String(isPicked),
								'aria-label': dayName(calendar, epochDay),
								'aria-current': epochDay === today ? 'date' : undefined,
								disabled: epochDay < first || epochDay > last,
								onclick: () => pick(epochDay, true),
							},
							calendar.digits(day),
						),
					),
				);
			}
			rows.push(h('tr', {}, cells));
		}
		grid.setAttribute('aria-label', `${calendar.monthNames[date.month - 1]} ${calendar.digits(date.year)}`);
		grid.replaceChildren(
			h('thead', {}, h('tr', {}, calendar.weekdays.map((name) => h('th', { scope: 'col', abbr: name, title: name }, calendar.short(name))))),
			h('tbody', {}, rows),
		);
		const [own, other] = longName(calendar, picked);
		chosen.replaceChildren(
			h('strong', { text: own }),
			h('span', { class: 'muted', lang: calendar.lang === 'fa' ? 'en' : 'fa', dir: 'auto', text: other }),
			h('span', { class: 'date-sent', lang: 'en', dir: 'ltr' }, 'sends ', h('code', { text: calendar.write(date) })),
		);
	}

	render();
	return {
		node,
		note: `${calendar.name}, ${minYear === maxYear ? minYear : `${minYear}–${maxYear}`}`,
		value: () => ({ date: calendar.write(calendar.fromEpochDay(picked)) }),
		focusTarget: () => grid.querySelector('button[aria-pressed="true"]'),
	};
}

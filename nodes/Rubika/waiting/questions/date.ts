/**
 * Date: in the chat a Calendar button (Persian or Gregorian, within From Year and To Year); on the web page a
 * date field. Output `{ date, calendar, as_picked }`: the ISO Gregorian date, the calendar the person used
 * (`persian` or `gregorian`), and the date as they picked it (YYYY-MM-DD in that calendar's years).
 */
import { InputError } from '../../../shared/errors';
import type { CalendarName } from './dates';
import { PERSIAN_YEARS, readDate, yearRange } from './dates';
import type { QuestionKind } from './types';
import { answerText, inputButton, oneFieldForm } from './types';

const CALENDARS: Record<string, CalendarName> = { DatePersian: 'persian', DateGregorian: 'gregorian' };

/** A year field: empty, or a whole number within the calendar's years. */
function year(value: unknown, field: string, calendar: CalendarName): number | undefined {
	const text = String(value ?? '').trim();
	if (text === '') return undefined;
	const number = Number(text);
	const [min, max] = calendar === 'persian' ? [PERSIAN_YEARS.min, PERSIAN_YEARS.max] : [1700, 2999];
	if (!/^\d{4}$/.test(text) || number < min || number > max) {
		throw new InputError(field, `must be a ${calendar === 'persian' ? 'Persian' : 'Gregorian'} year from ${min} to ${max}, got "${text}"`);
	}
	return number;
}

export const date: QuestionKind = {
	value: 'date',
	name: 'Date',
	description: 'The person picks a date (in the chat, in the Persian or the Gregorian calendar)',
	fields: [
		{
			displayName: 'Calendar',
			name: 'calendarType',
			type: 'options',
			default: 'DatePersian',
			options: [
				{ name: 'Persian (Solar Hijri)', value: 'DatePersian' },
				{ name: 'Gregorian', value: 'DateGregorian' },
			],
			description: 'The calendar the chat\'s date picker shows, and whose years From Year and To Year are. The output always has the Gregorian date too.',
		},
		{
			displayName: 'From Year',
			name: 'fromYear',
			type: 'string',
			default: '',
			placeholder: 'e.g. 1300',
			description: 'The earliest year that can be picked, in the calendar above. Empty: no limit.',
		},
		{
			displayName: 'To Year',
			name: 'toYear',
			type: 'string',
			default: '',
			placeholder: 'e.g. 1410',
			description: 'The latest year that can be picked, in the calendar above. Empty: no limit.',
		},
	],
	question(parameters) {
		const calendarType = String(parameters('calendarType', 'DatePersian'));
		const calendar = CALENDARS[calendarType];
		if (!calendar) throw new InputError('Calendar', `must be Persian or Gregorian, got "${calendarType}"`);
		const fromYear = year(parameters('fromYear', ''), 'From Year', calendar);
		const toYear = year(parameters('toYear', ''), 'To Year', calendar);
		const range = yearRange(calendar, fromYear, toYear);
		const years = `${fromYear ?? '…'} to ${toYear ?? '…'}`;
		return {
			rows: inputButton(parameters, 'Calendar', '📅 Pick a date', { fields: { calendarType, minYear: fromYear, maxYear: toYear }, field: 'From Year' }),
			web: oneFieldForm({ label: 'Date', type: 'date', required: true, options: [], min: range.first, max: range.last }),
			read(answer) {
				const read = answer.decision === 'input' ? readDate(answerText(answer)) : undefined;
				if (!read) return { ok: false, problem: 'that is not a date' };
				if ((range.first !== undefined && read.date < range.first) || (range.last !== undefined && read.date > range.last)) {
					return { ok: false, problem: `the date must be in the years ${years}` };
				}
				return { ok: true, data: { ...read }, shown: read.as_picked };
			},
		};
	},
};

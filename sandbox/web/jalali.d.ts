/** Types for jalali.js (plain JavaScript so the browser loads it without a build step). */
export interface CalendarDate {
	year: number;
	month: number;
	day: number;
}

export const MONTH_NAMES: readonly string[];
export const WEEKDAY_NAMES: readonly string[];
export function isLeapYear(year: number): boolean;
export function monthLength(year: number, month: number): number;
export function toEpochDay(year: number, month: number, day: number): number;
export function fromEpochDay(epochDay: number): CalendarDate;
export function toGregorian(year: number, month: number, day: number): CalendarDate;
export function toJalali(year: number, month: number, day: number): CalendarDate;
export function persianDigits(value: unknown): string;
export function latinDigits(value: unknown): string;

/**
 * Reading what Rubika sends as it comes: which kind of delivery a body is, and tolerant readers of its
 * fields. What Rubika leaves out or sends in an unexpected form becomes undefined or null, never an exception.
 */
import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../json';
import type { InlineMessage, RubikaFile, Update } from '../types';

/** The `type` given to an inline keypad tap, which Rubika sends without a type of its own. */
export const INLINE_MESSAGE_TYPE = 'InlineMessage';

/** An Update has a string `type`; an InlineMessage (an inline keypad tap) has none. */
export function isUpdate(value: Update | InlineMessage): value is Update {
	return typeof (value as Update).type === 'string';
}

export function objectOrUndefined<T>(value: T | null | undefined): T | undefined {
	return isPlainObject(value) ? value : undefined;
}

export function idOrNull(value: unknown): string | null {
	if (typeof value === 'string') return value === '' ? null : value;
	if (typeof value === 'number' || typeof value === 'bigint') return String(value);
	return null;
}

export function stringOrNull(value: unknown): string | null {
	return typeof value === 'string' ? value : null;
}

export function fileOrNull(file: RubikaFile | null | undefined): IDataObject | null {
	return isPlainObject(file) ? ({ ...file } as IDataObject) : null;
}

/** Rubika's time is Unix seconds as a string or a number; anything else has no ISO form. */
export function timeOf(value: unknown): { raw: string | number | null; iso: string | null } {
	if (typeof value !== 'string' && typeof value !== 'number') return { raw: null, iso: null };
	const seconds = Number(value);
	if (!Number.isFinite(seconds) || String(value).trim() === '') return { raw: value, iso: null };
	// Milliseconds sneak in from some gateways; a value that large cannot be seconds of this era.
	const millis = seconds > 1e11 ? seconds : seconds * 1000;
	const date = new Date(millis);
	return { raw: value, iso: Number.isNaN(date.getTime()) ? null : date.toISOString() };
}

/** A latitude or longitude as Rubika takes it (Send Location, Location buttons). */
import { InputError } from '../../shared/errors';

/**
 * Rubika types coordinates as strings (facts §2). The user's digits are kept as written (no rounding
 * through a float); numbers from expressions are written out without exponent notation. `fail` makes the
 * error for a problem, by default one naming `field`.
 */
export function readCoordinate(
	value: unknown,
	field: string,
	bound: number,
	fail: (problem: string) => Error = (problem) => new InputError(field, problem),
): string {
	let text: string;
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) throw fail(`must be a number, got ${value}`);
		text = /e/i.test(String(value)) ? value.toFixed(12).replace(/\.?0+$/, '') : String(value);
	} else if (typeof value === 'string') {
		text = value.trim();
	} else if (value === undefined || value === null) {
		text = '';
	} else {
		throw fail(`must be a number, got ${JSON.stringify(value)}`);
	}
	if (text === '') throw fail('is required');
	if (!/^-?\d+(\.\d+)?$/.test(text)) {
		throw fail(`must be a decimal number such as 35.6892 (with a dot), got "${text}"`);
	}
	if (Math.abs(Number(text)) > bound) {
		throw fail(`must be between -${bound} and ${bound}, got ${text}`);
	}
	return text;
}

/**
 * What a person types or picks, made plain before it is read: Persian (۰-۹) and Arabic (٠-٩) digits as ASCII
 * digits, the Arabic decimal separator (٫) as a dot, and the marks that only steer the direction of text
 * (left-to-right and right-to-left marks, which Persian keyboards and apps insert around numbers) removed.
 * Rubika's answers to input buttons are documented nowhere (facts §11), so every reader here takes what a
 * Persian phone may plausibly send.
 */

const PERSIAN_ZERO = 0x06f0;
const ARABIC_ZERO = 0x0660;
/** Left-to-right, right-to-left and Arabic letter marks, embeddings and isolates, zero-width (non-)joiners. */
const DIRECTION_MARKS = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]/g;

/** The text with Persian and Arabic digits as ASCII ones, the Arabic decimal separator as a dot, no direction marks. */
export function plainDigits(text: string): string {
	return text
		.replace(DIRECTION_MARKS, '')
		.replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - PERSIAN_ZERO))
		.replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - ARABIC_ZERO))
		.replace(/\u066b/g, '.');
}

/**
 * A number as written by a person: digits of any of the three scripts, an optional sign (also the minus sign
 * −), a decimal dot or Arabic decimal separator; spaces and the Arabic thousands separator (٬) are ignored.
 * Undefined for anything else (a comma is refused: it means thousands to some and decimals to others).
 */
export function readNumber(text: string): number | undefined {
	const plain = plainDigits(text).replace(/[\s\u066c]/g, '').replace(/\u2212/g, '-');
	if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(plain)) return undefined;
	const number = Number(plain);
	return Number.isFinite(number) ? number : undefined;
}

/**
 * A phone number kept as `+` and digits: spaces, dashes, dots, brackets and direction marks go; a `+` only
 * at the start. Undefined when what is left is not 5 to 16 digits (a shared contact's number, or one typed).
 */
export function readPhoneNumber(text: string): string | undefined {
	const plain = plainDigits(text.trim()).replace(/[\s\-.()\u2010-\u2015]/g, '');
	return /^\+?\d{5,16}$/.test(plain) ? plain : undefined;
}

/** A coordinate within ±bound (90 for latitude, 180 for longitude), from a number or its text. */
export function readAnsweredCoordinate(value: unknown, bound: number): number | undefined {
	const number = typeof value === 'number' ? value : typeof value === 'string' ? readNumber(value) : undefined;
	return number !== undefined && Math.abs(number) <= bound ? number : undefined;
}

/**
 * What a person's answer to an input button holds (facts §11): the value they typed, picked or shared, checked
 * against the button's own settings as the app would (a number picker offers only its range, a string picker
 * only its items), and the message content that carries it. How the answer reaches the bot (a NewMessage, an
 * inline_message) is actions.ts's part; where a phone number goes is the `phoneAnswer` knob.
 */
import type { Button, ContactMessage, Location } from '../nodes/shared/types';
import type { SandboxConfig } from './config';
import { ActionError } from './errors';
import type { UserRecord } from './state';

/** The kinds of answer, and the button types that ask for each (both ButtonType lists, facts §3). */
export const INPUT_BUTTON_TYPES = {
	text: ['Textbox'],
	date: ['Calendar'],
	number: ['NumberPicker'],
	item: ['StringPicker'],
	phoneNumber: ['AskMyPhoneNumber', 'MyPhoneNumber'],
	location: ['AskMyLocation', 'AskLocation', 'MyLocation', 'Location'],
} as const;
export type InputKind = keyof typeof INPUT_BUTTON_TYPES;

/** What the person answers with: the one field that matches the button's type. */
export interface InputAnswerValues {
	/** Textbox: what they typed. */
	text?: string;
	/**
	 * Calendar: the date they picked in the button's calendar (a Persian year for DatePersian), `YYYY-MM-DD` or
	 * `YYYY/MM/DD`; the answer carries it as written (how Rubika writes it is unknown, facts §11).
	 */
	date?: string;
	/** NumberPicker: the number they picked. */
	number?: string | number;
	/** StringPicker: the item they picked. */
	item?: string;
	/** AskMyPhoneNumber, MyPhoneNumber: their phone number, as the app shares it. */
	phoneNumber?: string;
	/** Location, AskMyLocation, AskLocation, MyLocation: the place they picked or are at. */
	location?: Location;
}

/** The message content an answer carries. */
export interface InputAnswerContent {
	text?: string;
	location?: Location;
	contact_message?: ContactMessage;
}

function inputKindOf(type: unknown): InputKind | undefined {
	return (Object.keys(INPUT_BUTTON_TYPES) as InputKind[]).find((kind) => (INPUT_BUTTON_TYPES[kind] as readonly unknown[]).includes(type));
}

/** The answer's content, or an ActionError saying what the button would not let the person answer. */
export function inputAnswerContent(
	button: Button,
	values: InputAnswerValues,
	user: UserRecord,
	config: Pick<SandboxConfig, 'phoneAnswer'>,
): InputAnswerContent {
	const kind = inputKindOf(button.type);
	if (!kind) {
		throw new ActionError(`button ${button.id} is a ${String(button.type)} button, not an input button (${Object.values(INPUT_BUTTON_TYPES).flat().join(', ')}): tap it instead`);
	}
	const given = (Object.keys(INPUT_BUTTON_TYPES) as InputKind[]).filter((name) => values[name] !== undefined);
	if (given.length !== 1 || given[0] !== kind) {
		throw new ActionError(`a ${String(button.type)} button is answered with ${kind} (and nothing else); got ${given.join(', ') || 'nothing'}`);
	}
	const settings = (name: string): Record<string, unknown> => {
		const value = button[name];
		return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
	};
	switch (kind) {
		case 'text':
			return { text: typedText(String(values.text), settings('button_textbox')) };
		case 'date':
			return { text: pickedDate(String(values.date), settings('button_calendar')) };
		case 'number':
			return { text: pickedNumber(values.number as string | number, settings('button_number_picker')) };
		case 'item':
			return { text: pickedItem(String(values.item), settings('button_string_picker')) };
		case 'phoneNumber': {
			const phone = String(values.phoneNumber);
			if (!/^\+?\d[\d ]{5,}$/.test(phone)) throw new ActionError(`phoneNumber must be digits with an optional leading +; got ${JSON.stringify(phone)}`);
			if (config.phoneAnswer === 'text') return { text: phone };
			return { contact_message: { phone_number: phone, first_name: user.first_name, ...(user.last_name ? { last_name: user.last_name } : {}) } };
		}
		case 'location':
			if (settings('button_location').type === 'View') throw new ActionError(`button ${button.id} only shows a place (button_location.type View)`);
			return { location: sharedLocation(values.location) };
	}
}

function typedText(text: string, textbox: Record<string, unknown>): string {
	if (text.trim() === '') throw new ActionError('text must not be empty');
	if (textbox.type_line !== 'MultiLine' && /[\r\n]/.test(text)) throw new ActionError('this Textbox is SingleLine: text must not contain a line break');
	if (textbox.type_keypad === 'Number' && !/^-?\d+(\.\d+)?$/.test(text)) throw new ActionError(`this Textbox has a Number keypad: text must be a number; got ${JSON.stringify(text)}`);
	return text;
}

/** The date with Persian (۰-۹) and Arabic (٠-٩) digits as ASCII ones, for checking it: a phone may write either. */
function asciiDigits(text: string): string {
	return text.replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - 0x06f0)).replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660));
}

function pickedDate(date: string, calendar: Record<string, unknown>): string {
	const match = /^(\d{4})([-/])(\d{1,2})\2(\d{1,2})$/.exec(asciiDigits(date));
	const [year, month, day] = match ? [match[1], match[3], match[4]].map(Number) : [];
	if (!match || month < 1 || month > 12 || day < 1 || day > 31) throw new ActionError(`date must be YYYY-MM-DD or YYYY/MM/DD (any digits); got ${JSON.stringify(date)}`);
	const [min, max] = [Number(calendar.min_year), Number(calendar.max_year)];
	if ((calendar.min_year !== undefined && year < min) || (calendar.max_year !== undefined && year > max)) {
		throw new ActionError(`this Calendar offers the years ${String(calendar.min_year ?? '…')} to ${String(calendar.max_year ?? '…')}; got ${year}`);
	}
	return date;
}

function pickedNumber(number: string | number, picker: Record<string, unknown>): string {
	const value = Number(number);
	if (String(number).trim() === '' || !Number.isFinite(value)) throw new ActionError(`number must be a number; got ${JSON.stringify(number)}`);
	const [min, max] = [Number(picker.min_value), Number(picker.max_value)];
	if ((picker.min_value !== undefined && value < min) || (picker.max_value !== undefined && value > max)) {
		throw new ActionError(`this NumberPicker offers ${String(picker.min_value ?? '…')} to ${String(picker.max_value ?? '…')}; got ${value}`);
	}
	return String(value);
}

function pickedItem(item: string, picker: Record<string, unknown>): string {
	const items = Array.isArray(picker.items) ? picker.items.map(String) : [];
	if (!items.includes(item)) throw new ActionError(`this StringPicker offers ${JSON.stringify(items)}; got ${JSON.stringify(item)}`);
	return item;
}

function sharedLocation(location: Location | undefined): Location {
	const inRange = (value: unknown, bound: number) => typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) && Math.abs(Number(value)) <= bound;
	if (!location || !inRange(location.latitude, 90) || !inRange(location.longitude, 180)) {
		throw new ActionError(`location must be { latitude, longitude } as strings of numbers in range; got ${JSON.stringify(location)}`);
	}
	return { latitude: location.latitude, longitude: location.longitude };
}

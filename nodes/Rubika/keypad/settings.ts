/**
 * The settings object of a button whose type has one (`button_calendar`, `button_textbox`, …), built from the
 * builder's own fields for it. Their names and shapes are documented (facts §2); the numbers among them
 * (years, picker bounds, column counts) are typed as strings there, so they are sent as strings.
 *
 * A button that has none of these fields filled in gets no
 * settings object is built: such a button sends exactly what it sent before (its JSON, if any).
 */
import { readCoordinate } from '../helpers/coordinates';
import type { InputError } from '../../shared/errors';
import {
	BUTTON_CALENDAR_TYPES,
	BUTTON_LOCATION_TYPES,
	BUTTON_SELECTION_SEARCH_TYPES,
	BUTTON_TEXTBOX_KEYPAD_TYPES,
	BUTTON_TEXTBOX_LINE_TYPES,
} from '../../shared/types';

/** The builder's settings fields as n8n stores them on a button (each shown only for its types). */
export interface ButtonSettingsFields {
	/** Selection, Calendar, NumberPicker, StringPicker, Textbox, Location. */
	title?: string;
	/** Calendar, NumberPicker, StringPicker, Textbox. */
	defaultValue?: string;
	calendarType?: string;
	minYear?: string | number;
	maxYear?: string | number;
	minValue?: string | number;
	maxValue?: string | number;
	/** StringPicker: one choice per line. */
	choices?: string;
	textboxLines?: string;
	textboxKeypad?: string;
	placeholderText?: string;
	locationType?: string;
	latitude?: string | number;
	longitude?: string | number;
	imageUrl?: string;
	selectionId?: string;
	selectionSearch?: string;
	/**
	 * Selection: where the items come from. No longer offered (always `Local`); the field is shown only while it
	 * holds `Api`, so that a workflow saved with it keeps it (n8n drops a parameter its node no longer describes)
	 * and is refused, not changed, until the person chooses Listed Here.
	 */
	selectionGet?: string;
	multiSelection?: boolean;
	columns?: string | number;
	/** Selection: one item per line. */
	selectionItems?: string;
}

type Fields = ButtonSettingsFields;
/** Makes the error for a problem of this button ("Inline Keypad: row 1, button 2: …"). */
type Problem = (message: string) => InputError;

interface SettingsType {
	/** The request key of the object. */
	key: string;
	/** The builder's fields it is made of: a button having none of them (version 1) gets no object. */
	fields: Array<keyof Fields>;
	build(fields: Fields, problem: Problem): Record<string, unknown>;
}

/** The types that have a settings object, with how the builder's fields make it. */
export const BUTTON_SETTINGS = {
	Selection: {
		key: 'button_selection',
		fields: ['selectionId', 'selectionSearch', 'selectionGet', 'multiSelection', 'columns', 'selectionItems', 'title'],
		build(fields, problem) {
			refuseAskingTheBot(fields, problem);
			const items = lines(fields.selectionItems);
			if (items.length === 0) throw problem('a list needs at least one item (Items, one per line)');
			return withoutEmpty({
				selection_id: text(fields.selectionId),
				search_type: oneOf(fields.selectionSearch, BUTTON_SELECTION_SEARCH_TYPES, 'None', 'Search', problem),
				// The items are in the button: Rubika needs nothing from the bot to show them (../../shared/types.ts).
				get_type: 'Local',
				items: items.map((item) => ({ text: item, type: 'TextOnly' })),
				is_multi_selection: fields.multiSelection === true,
				columns_count: whole(fields.columns, 'Columns', problem, 1) ?? '1',
				title: text(fields.title),
			});
		},
	},
	Calendar: {
		key: 'button_calendar',
		fields: ['calendarType', 'minYear', 'maxYear', 'title', 'defaultValue'],
		build(fields, problem) {
			const minYear = whole(fields.minYear, 'From Year', problem, 0);
			const maxYear = whole(fields.maxYear, 'To Year', problem, 0);
			if (minYear !== undefined && maxYear !== undefined && Number(minYear) > Number(maxYear)) {
				throw problem(`From Year ${minYear} is after To Year ${maxYear}`);
			}
			return withoutEmpty({
				type: oneOf(fields.calendarType, BUTTON_CALENDAR_TYPES, 'DatePersian', 'Calendar', problem),
				min_year: minYear,
				max_year: maxYear,
				title: text(fields.title),
				default_value: text(fields.defaultValue),
			});
		},
	},
	NumberPicker: {
		key: 'button_number_picker',
		fields: ['minValue', 'maxValue', 'title', 'defaultValue'],
		build(fields, problem) {
			const minValue = decimal(fields.minValue, 'Smallest Number', problem);
			const maxValue = decimal(fields.maxValue, 'Largest Number', problem);
			if (minValue === undefined || maxValue === undefined) {
				throw problem('a number picker needs its Smallest Number and Largest Number');
			}
			if (Number(minValue) > Number(maxValue)) throw problem(`Smallest Number ${minValue} is above Largest Number ${maxValue}`);
			return withoutEmpty({ min_value: minValue, max_value: maxValue, default_value: text(fields.defaultValue), title: text(fields.title) });
		},
	},
	StringPicker: {
		key: 'button_string_picker',
		fields: ['choices', 'title', 'defaultValue'],
		build(fields, problem) {
			const items = lines(fields.choices);
			if (items.length === 0) throw problem('a text picker needs at least one choice (Choices, one per line)');
			return withoutEmpty({ items, default_value: text(fields.defaultValue), title: text(fields.title) });
		},
	},
	Textbox: {
		key: 'button_textbox',
		fields: ['textboxLines', 'textboxKeypad', 'placeholderText', 'title', 'defaultValue'],
		build(fields, problem) {
			return withoutEmpty({
				type_line: oneOf(fields.textboxLines, BUTTON_TEXTBOX_LINE_TYPES, 'SingleLine', 'Lines', problem),
				type_keypad: oneOf(fields.textboxKeypad, BUTTON_TEXTBOX_KEYPAD_TYPES, 'String', 'Keyboard', problem),
				place_holder: text(fields.placeholderText),
				title: text(fields.title),
				default_value: text(fields.defaultValue),
			});
		},
	},
	Location: {
		key: 'button_location',
		fields: ['locationType', 'latitude', 'longitude', 'imageUrl', 'title'],
		build(fields, problem) {
			const place = point(fields.latitude, fields.longitude, problem);
			// One point from the builder: the pointer and the middle of the map. Two different ones need the JSON.
			return withoutEmpty({
				type: oneOf(fields.locationType, BUTTON_LOCATION_TYPES, 'Picker', 'Map', problem),
				default_pointer_location: place,
				default_map_location: place,
				title: text(fields.title),
				location_image_url: text(fields.imageUrl),
			});
		},
	},
} satisfies Record<string, SettingsType>;

/**
 * The settings object for a button of this type (sent under `buttonSettingsKey(type)`), or undefined when the
 * type has none or the button carries none of its fields (saved by version 1).
 */
export function buttonSettings(type: string, fields: Fields, problem: Problem): Record<string, unknown> | undefined {
	const settings: SettingsType | undefined = (BUTTON_SETTINGS as Record<string, SettingsType>)[type];
	if (!settings || settings.fields.every((name) => fields[name] === undefined)) return undefined;
	return settings.build(fields, problem);
}

/** The request key of a type's settings object, if it has one. */
export function buttonSettingsKey(type: string): string | undefined {
	return (BUTTON_SETTINGS as Record<string, SettingsType>)[type]?.key;
}

/** Drops what was left empty, so only what the user gave is sent. */
function withoutEmpty(object: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined && value !== ''));
}

/** A text as written; a number from an expression as its digits; empty (or only spaces) → undefined. */
function text(value: unknown): string | undefined {
	if (typeof value === 'number') return String(value);
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The non-empty lines of a text, each trimmed. */
function lines(value: unknown): string[] {
	return (text(value) ?? '')
		.split(/\r?\n/)
		.map((line) => line.trim())
		.filter((line) => line !== '');
}

/** A whole number at least `min`, as the string Rubika takes; empty → undefined. */
function whole(value: unknown, name: string, problem: Problem, min: number): string | undefined {
	const written = typeof value === 'number' ? String(value) : text(value)?.trim();
	if (written === undefined) return undefined;
	if (!/^\d+$/.test(written) || Number(written) < min) throw problem(`${name} must be a whole number${min > 0 ? ` of at least ${min}` : ''}, got "${written}"`);
	return written;
}

/** A number with a dot for decimals, as the string Rubika takes; empty → undefined. */
function decimal(value: unknown, name: string, problem: Problem): string | undefined {
	if (typeof value === 'number' && !Number.isFinite(value)) throw problem(`${name} must be a number, got ${value}`);
	const written = typeof value === 'number' ? String(value) : text(value)?.trim();
	if (written === undefined) return undefined;
	if (!/^-?\d+(\.\d+)?$/.test(written)) throw problem(`${name} must be a number such as 10 or 2.5, got "${written}"`);
	return written;
}

/**
 * A list saved when the builder still offered Items From: The Bot or Search: Ask the Bot (`Api`). Rubika would ask
 * the bot's GetSelectionItem / SearchSelectionItems endpoints for the items, and nothing answers them with items
 * (docs/rubika-node.md, Lists carry their own items), so the list would show nothing: refused, never changed.
 */
function refuseAskingTheBot(fields: Fields, problem: Problem): void {
	const why = "is no longer offered: Rubika would ask the bot for the list's items and nothing here answers it with them";
	if (text(fields.selectionGet)?.trim() === 'Api') {
		throw problem(`Items From "The Bot" (get_type Api) ${why}; choose Items From: Listed Here and write the items in Items, one per line`);
	}
	if (text(fields.selectionSearch)?.trim() === 'Api') {
		throw problem(`Search "Ask the Bot" (search_type Api) ${why}; choose No Search or Search the Items`);
	}
}

/** One of the values an enumeration allows; empty → its default. */
function oneOf(value: unknown, allowed: readonly string[], fallback: string, name: string, problem: Problem): string {
	const chosen = text(value)?.trim() ?? fallback;
	if (!allowed.includes(chosen)) throw problem(`${name} must be one of ${allowed.join(', ')}, got "${chosen}"`);
	return chosen;
}

/** A place from a latitude and a longitude given together, checked as Send Location checks them; none → undefined. */
function point(latitude: unknown, longitude: unknown, problem: Problem): { latitude: string; longitude: string } | undefined {
	const given = [latitude, longitude].map((value) => text(value) !== undefined);
	if (!given[0] && !given[1]) return undefined;
	if (given[0] !== given[1]) throw problem('give both Latitude and Longitude, or neither');
	const coordinate = (value: unknown, name: string, bound: number) =>
		readCoordinate(value, name, bound, (message) => problem(`${name} ${message}`));
	return { latitude: coordinate(latitude, 'Latitude', 90), longitude: coordinate(longitude, 'Longitude', 180) };
}

/**
 * The keypad builder's fields for a button type's settings object: the list, date,
 * number and text pickers, the text box and the map. Each is shown for the types whose settings object the
 * reader (nodes/shared/keypad/settings.ts) makes from it.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ButtonSettingsFields } from '../keypad';
import { BUTTON_SETTINGS } from '../keypad';
import * as rubika from '../../shared/types';

/** An option's words: its name in the panel and what it does. */
export type Choice = Pick<INodePropertyOptions, 'name' | 'description'>;

/** The choices of a settings enumeration, in Rubika's order (its default first). */
function choices<T extends string>(values: readonly T[], named: Record<T, Choice>): INodePropertyOptions[] {
	return values.map((value) => ({ value, ...named[value] }));
}

export const TYPES_WITH_SETTINGS = Object.keys(BUTTON_SETTINGS);

/**
 * A settings field, shown for the types whose settings object is made from it; which
 * those are is read from the reader's own list (BUTTON_SETTINGS), so the panel and the request agree.
 */
function settingsField(field: INodeProperties & { name: keyof ButtonSettingsFields }): INodeProperties {
	const types = Object.entries(BUTTON_SETTINGS)
		.filter(([, settings]) => (settings.fields as readonly string[]).includes(field.name))
		.map(([type]) => type);
	return { ...field, displayOptions: { show: { type: types } } };
}

/** In the order a person fills them in, after a button's Text, Type and ID (./keypadRows.ts). */
export const BUTTON_SETTINGS_FIELDS: INodeProperties[] = [
	// Shown only for a list saved with Items From: The Bot, no longer offered: n8n would drop a field its node no
	// longer describes, and the list would change silently. So it is kept, the list is refused
	// (../keypad/settings.ts), and here the person can choose Listed Here, after which the field is gone.
	{
		...settingsField({
			displayName: 'Items From',
			name: 'selectionGet',
			type: 'options',
			options: [
				{ name: 'Listed Here', value: 'Local', description: 'The items in Items' },
				{ name: 'The Bot (No Longer Offered)', value: 'Api', description: 'Refused: nothing can answer Rubika asking the bot for the items' },
			],
			default: 'Local',
			description: 'Only shown for a list saved with The Bot, which is no longer offered: choose Listed Here and write the items in Items',
		}),
		displayOptions: { show: { type: ['Selection'], selectionGet: ['Api'] } },
	},
	settingsField({
		displayName: 'Items',
		name: 'selectionItems',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		placeholder: 'Tehran\nShiraz\nTabriz',
		description: 'The items of the list, one per line (text only; items with images need Extra Fields)',
	}),
	settingsField({
		displayName: 'Selection ID',
		name: 'selectionId',
		type: 'string',
		default: '',
		description: 'A name for the list (selection_id)',
	}),
	settingsField({
		displayName: 'Search',
		name: 'selectionSearch',
		type: 'options',
		options: choices(rubika.BUTTON_SELECTION_SEARCH_TYPES, {
			None: { name: 'No Search', description: 'The list has no search box' },
			Local: { name: 'Search the Items', description: 'A search box that searches the items of the list (Local)' },
		}),
		default: 'None',
		description: 'Whether the list has a search box',
	}),
	settingsField({
		displayName: 'Allow Several Choices',
		name: 'multiSelection',
		type: 'boolean',
		default: false,
		description: 'Whether more than one item may be chosen',
	}),
	settingsField({
		displayName: 'Columns',
		name: 'columns',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description: 'How many items are shown side by side',
	}),
	settingsField({
		displayName: 'Calendar',
		name: 'calendarType',
		type: 'options',
		options: choices(rubika.BUTTON_CALENDAR_TYPES, {
			DatePersian: { name: 'Persian (Solar Hijri)', description: 'Dates of the Iranian calendar (DatePersian)' },
			DateGregorian: { name: 'Gregorian', description: 'Dates of the Gregorian calendar (DateGregorian)' },
		}),
		default: 'DatePersian',
		description: 'Which calendar the date picker shows',
	}),
	settingsField({
		displayName: 'From Year',
		name: 'minYear',
		type: 'string',
		default: '',
		placeholder: '1400',
		description: 'The first year that can be picked, in the chosen calendar',
	}),
	settingsField({
		displayName: 'To Year',
		name: 'maxYear',
		type: 'string',
		default: '',
		placeholder: '1410',
		description: 'The last year that can be picked, in the chosen calendar',
	}),
	settingsField({
		displayName: 'Smallest Number',
		name: 'minValue',
		type: 'number',
		default: 1,
		description: 'The smallest number that can be picked',
	}),
	settingsField({
		displayName: 'Largest Number',
		name: 'maxValue',
		type: 'number',
		default: 10,
		description: 'The largest number that can be picked',
	}),
	settingsField({
		displayName: 'Choices',
		name: 'choices',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		placeholder: 'Small\nMedium\nLarge',
		description: 'The texts to pick from, one per line',
	}),
	settingsField({
		displayName: 'Lines',
		name: 'textboxLines',
		type: 'options',
		options: choices(rubika.BUTTON_TEXTBOX_LINE_TYPES, {
			SingleLine: { name: 'One Line', description: 'A one-line box (SingleLine)' },
			MultiLine: { name: 'Several Lines', description: 'A box for longer texts (MultiLine)' },
		}),
		default: 'SingleLine',
		description: 'How big the text box is',
	}),
	settingsField({
		displayName: 'Keyboard',
		name: 'textboxKeypad',
		type: 'options',
		options: choices(rubika.BUTTON_TEXTBOX_KEYPAD_TYPES, {
			String: { name: 'Text', description: 'The usual keyboard (String)' },
			Number: { name: 'Numbers', description: 'A keyboard for numbers (Number)' },
		}),
		default: 'String',
		description: 'Which keyboard the text box opens',
	}),
	settingsField({
		displayName: 'Placeholder',
		name: 'placeholderText',
		type: 'string',
		default: '',
		description: 'Grey text shown in the empty box',
	}),
	settingsField({
		displayName: 'Map',
		name: 'locationType',
		type: 'options',
		options: choices(rubika.BUTTON_LOCATION_TYPES, {
			Picker: { name: 'Pick a Place', description: 'The person moves the pointer and sends a place (Picker)' },
			View: { name: 'Show a Place', description: 'Shows the place below (View)' },
		}),
		default: 'Picker',
		description: 'Whether the map is for picking a place or for showing one',
	}),
	settingsField({
		displayName: 'Latitude',
		name: 'latitude',
		type: 'string',
		default: '',
		placeholder: '35.6892',
		description: 'Where the pointer starts and the map is centred: degrees north (positive) or south (negative)',
	}),
	settingsField({
		displayName: 'Longitude',
		name: 'longitude',
		type: 'string',
		default: '',
		placeholder: '51.3890',
		description: 'Where the pointer starts and the map is centred: degrees east (positive) or west (negative)',
	}),
	settingsField({
		displayName: 'Image URL',
		name: 'imageUrl',
		type: 'string',
		default: '',
		description: 'An image of the place to show (location_image_url)',
	}),
	settingsField({
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		description: 'Heading of the list, picker, box or map Rubika opens',
	}),
	settingsField({
		displayName: 'Default Value',
		name: 'defaultValue',
		type: 'string',
		default: '',
		description: 'What the picker or the box starts with',
	}),
];

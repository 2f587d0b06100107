/**
 * The keypad builder: rows of buttons, each with its text, its type (what it does in the Rubika app, in
 * words), its ID, then what its type needs. Both the inline and the chat keypad fields (keypadFields.ts) use it.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { sortedByName } from '../../shared/descriptions';
import type { ButtonSettingsFields } from '../../shared/keypad';
import { BUTTON_SETTINGS } from '../../shared/keypad';
import {
	BUTTON_CALENDAR_TYPES,
	BUTTON_LOCATION_TYPES,
	BUTTON_SELECTION_GET_TYPES,
	BUTTON_SELECTION_SEARCH_TYPES,
	BUTTON_TEXTBOX_KEYPAD_TYPES,
	BUTTON_TEXTBOX_LINE_TYPES,
	BUTTON_TYPES,
} from '../../shared/types';
import type { ButtonType } from '../../shared/types';
import { SHOW_BEFORE_1_1, SHOW_FROM_1_1 } from '../versions';

type Choice = Pick<INodePropertyOptions, 'name' | 'description'>;

/**
 * Each button type in words, and what it does in the Rubika app; the description ends with the name Rubika
 * uses, which JSON keypads take. No source explains the types beyond their names and settings (facts §3).
 */
const BUTTON_TYPE_CHOICES: Record<ButtonType, Choice> = {
	Simple: { name: 'Simple', description: 'Reports the tap with the button ID (Simple)' },
	Selection: { name: 'Choose From a List', description: 'Opens a list to choose from (Selection)' },
	Calendar: { name: 'Pick a Date', description: 'Opens a date picker (Calendar)' },
	NumberPicker: { name: 'Pick a Number', description: 'Opens a number picker (NumberPicker)' },
	StringPicker: { name: 'Pick a Text', description: 'Opens a list of texts to pick one from (StringPicker)' },
	Location: { name: 'Pick or Show a Place', description: 'Opens a map to pick a place or to show one (Location)' },
	Payment: { name: 'Payment', description: 'Starts a payment (Payment)' },
	CameraImage: { name: 'Take a Photo', description: 'Asks for a photo taken with the camera (CameraImage)' },
	CameraVideo: { name: 'Record a Video', description: 'Asks for a video taken with the camera (CameraVideo)' },
	GalleryImage: { name: 'Photo From Gallery', description: 'Asks for a photo from the gallery (GalleryImage)' },
	GalleryVideo: { name: 'Video From Gallery', description: 'Asks for a video from the gallery (GalleryVideo)' },
	File: { name: 'Send a File', description: 'Asks for a file (File)' },
	Audio: { name: 'Send an Audio File', description: 'Asks for an audio file (Audio)' },
	RecordAudio: { name: 'Record a Voice Message', description: 'Asks for a voice recording (RecordAudio)' },
	MyPhoneNumber: { name: 'Send My Phone Number', description: 'Sends the phone number of the person who taps (MyPhoneNumber)' },
	MyLocation: { name: 'Send My Location', description: 'Sends the location of the person who taps (MyLocation)' },
	Textbox: { name: 'Write a Text', description: 'Opens a text box (Textbox)' },
	Link: {
		name: 'Open a Link',
		description: "Opens a web address or a channel to join (Link; documented only by one of Rubika's client libraries)",
	},
	AskMyPhoneNumber: { name: 'Ask for Phone Number', description: 'Asks the person to share their phone number (AskMyPhoneNumber)' },
	AskLocation: { name: 'Ask for a Location', description: 'Asks the person to share a location (AskLocation)' },
	AskMyLocation: { name: 'Ask for Own Location', description: 'Asks the person to share their own location (AskMyLocation)' },
	Barcode: { name: 'Scan a Barcode', description: 'Opens the barcode scanner (Barcode)' },
};

const BUTTON_TYPE_OPTIONS: INodePropertyOptions[] = sortedByName(BUTTON_TYPES.map((value) => ({ value, ...BUTTON_TYPE_CHOICES[value] })));

/** The choices of a settings enumeration, in Rubika's order (its default first). */
function choices<T extends string>(values: readonly T[], named: Record<T, Choice>): INodePropertyOptions[] {
	return values.map((value) => ({ value, ...named[value] }));
}

const TYPES_WITH_SETTINGS = Object.keys(BUTTON_SETTINGS);

/**
 * A settings field (version 1.1 on), shown for the types whose settings object is made from it; which
 * those are is read from the reader's own list (BUTTON_SETTINGS), so the panel and the request agree.
 */
function settingsField(field: INodeProperties & { name: keyof ButtonSettingsFields }): INodeProperties {
	const types = Object.entries(BUTTON_SETTINGS)
		.filter(([, settings]) => (settings.fields as readonly string[]).includes(field.name))
		.map(([type]) => type);
	return { ...field, displayOptions: { show: { ...SHOW_FROM_1_1, type: types } } };
}

const EXTRA_FIELDS_EXAMPLE = '{"button_calendar": {"type": "DatePersian", "min_year": "1400", "max_year": "1410", "title": "Date"}}';

/**
 * A button's fields in the order a person fills them in: Text, Type, ID, then what the type needs. n8n
 * shows a fixed collection's fields in the order of its `values` (FixedCollectionParameter renders
 * `property.values` as they are). The list is handed to `values` by name: n8n's lint rule
 * (node-param-fixed-collection-type-unsorted-items) checks only a list written inside `values` and wants it
 * alphabetical, which put Button Options first and Text fifth.
 */
const BUTTON_FIELDS: INodeProperties[] = [
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		default: '',
		required: true,
		description: 'Label shown on the button',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: BUTTON_TYPE_OPTIONS,
		default: 'Simple',
		description: 'What the button does; Simple just reports the tap',
	},
	{
		displayName: 'ID',
		name: 'id',
		type: 'string',
		default: '',
		description:
			'Sent back as aux_data.button_id when the button is tapped. Leave empty to use the position: r1b2 is row 1, button 2.',
	},
	{
		displayName: 'Opens',
		name: 'linkType',
		type: 'options',
		options: [
			{ name: 'Web Address', value: 'url', description: 'Opens a URL in the browser' },
			{ name: 'Channel to Join', value: 'joinchannel', description: 'Asks to join a Rubika channel by its username' },
		],
		default: 'url',
		displayOptions: { show: { type: ['Link'] } },
		description: "What a Link button opens (Link buttons are documented only by one of Rubika's client libraries)",
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		placeholder: 'https://example.com',
		displayOptions: { show: { type: ['Link'], linkType: ['url'] } },
		description: 'The web address the button opens (http or https)',
	},
	{
		displayName: 'Channel Username',
		name: 'channelUsername',
		type: 'string',
		default: '',
		placeholder: 'my_channel',
		displayOptions: { show: { type: ['Link'], linkType: ['joinchannel'] } },
		description: 'Username of the channel to join, without @',
	},
	settingsField({
		displayName: 'Items From',
		name: 'selectionGet',
		type: 'options',
		options: choices(BUTTON_SELECTION_GET_TYPES, {
			Local: { name: 'Listed Here', description: 'The items below' },
			Api: { name: 'The Bot', description: "Rubika asks the bot's GetSelectionItem endpoint for them (Api)" },
		}),
		default: 'Local',
		description: 'Where the items of the list come from',
	}),
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
		description: 'Names the list when Rubika asks the bot for its items or searches them (selection_id)',
	}),
	settingsField({
		displayName: 'Search',
		name: 'selectionSearch',
		type: 'options',
		options: choices(BUTTON_SELECTION_SEARCH_TYPES, {
			None: { name: 'No Search', description: 'The list has no search box' },
			Local: { name: 'Search the Items', description: 'Searches the items of the list (Local)' },
			Api: { name: 'Ask the Bot', description: "Rubika asks the bot's SearchSelectionItems endpoint (Api)" },
		}),
		default: 'None',
		description: 'Whether the list has a search box, and who searches',
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
		options: choices(BUTTON_CALENDAR_TYPES, {
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
		options: choices(BUTTON_TEXTBOX_LINE_TYPES, {
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
		options: choices(BUTTON_TEXTBOX_KEYPAD_TYPES, {
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
		options: choices(BUTTON_LOCATION_TYPES, {
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
	{
		displayName: 'More Settings',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Setting',
		default: {},
		description: 'Button fields the fields above do not offer',
		displayOptions: { show: { ...SHOW_FROM_1_1, type: [...TYPES_WITH_SETTINGS, 'Link'] } },
		options: [
			{
				displayName: 'Extra Fields (JSON)',
				name: 'extra',
				type: 'json',
				default: '{}',
				description: `Merged into the button as sent, e.g. ${EXTRA_FIELDS_EXAMPLE}. A settings object given here replaces the one the fields above make.`,
			},
		],
	},
	{
		displayName: 'Button Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		description: 'Settings only some button types need',
		displayOptions: { show: SHOW_BEFORE_1_1 },
		options: [
			{
				displayName: 'Extra Fields (JSON)',
				name: 'extra',
				type: 'json',
				default: '{}',
				description: `Settings for special button types, e.g. ${EXTRA_FIELDS_EXAMPLE}`,
			},
		],
	},
];

/**
 * The builder's rows → buttons collection. Stored by n8n as
 * `{ rows: [ { buttons: { button: [ { text, type, id, …, options: { extra } } ] } } ] }`, which
 * `buildKeypadFromRows` reads.
 */
export function keypadBuilderProperty(name: string, displayName: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Row',
		default: {},
		description: 'Rows of buttons, top to bottom',
		options: [
			{
				displayName: 'Row',
				name: 'rows',
				values: [
					{
						displayName: 'Buttons',
						name: 'buttons',
						type: 'fixedCollection',
						typeOptions: { multipleValues: true, sortable: true },
						placeholder: 'Add Button',
						default: {},
						description: 'Buttons of this row, left to right',
						options: [{ displayName: 'Button', name: 'button', values: BUTTON_FIELDS }],
					},
				],
			},
		],
	};
}

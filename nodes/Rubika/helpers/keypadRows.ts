/**
 * The keypad builder: rows of buttons, each with its text, its type (what it does in the Rubika app, in
 * words), its ID, then what its type needs (a Link's address here, the other types' settings in
 * buttonSettingsFields.ts). Both the inline and the chat keypad fields (keypadFields.ts) use it.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { sortedByName } from '../../shared/descriptions';
import { BUTTON_TYPES } from '../../shared/types';
import type { ButtonType } from '../../shared/types';
import type { Choice } from './buttonSettingsFields';
import { BUTTON_SETTINGS_FIELDS, TYPES_WITH_SETTINGS } from './buttonSettingsFields';

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
		description:
			'The address the button opens: http or https, or a Rubika app link (rubika://). A rubika.ir/joing/…, /joinc/… or /post/… address is sent as the app link it stands for (rubika://g.rubika.ir/…), as Rubika\'s client libraries do.',
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
	{
		displayName: 'Ask Before Joining',
		name: 'askJoin',
		type: 'boolean',
		default: false,
		displayOptions: { show: { type: ['Link'], linkType: ['joinchannel'] } },
		description: "Whether the app asks the person to confirm before joining the channel (ask_join; known from Rubika's client libraries only)",
	},
	...BUTTON_SETTINGS_FIELDS,
	{
		displayName: 'More Settings',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Setting',
		default: {},
		description: 'Button fields the fields above do not offer',
		displayOptions: { show: { type: [...TYPES_WITH_SETTINGS, 'Link'] } },
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
];

/**
 * The builder's rows → buttons collection. Stored by n8n as
 * `{ rows: [ { buttons: { button: [ { text, type, id, …, options: { extra } } ] } } ] }`, which
 * `keypadFromBuilderRows` reads.
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

/**
 * The keypad builder: rows of buttons, each with its type (what it does in the Rubika app) and the settings
 * that type needs. Both the inline and the chat keypad fields (keypadFields.ts) use it.
 */
import type { INodeProperties } from 'n8n-workflow';

import { optionsNamedByValue } from '../../shared/descriptions';
import { BUTTON_TYPES } from '../../shared/types';

/** What each button type does in the Rubika app, and what it needs besides a text (facts §2, §3). */
const BUTTON_TYPE_DESCRIPTIONS: Record<(typeof BUTTON_TYPES)[number], string> = {
	Simple: 'Reports the tap with the button ID; nothing else needed',
	Selection: 'Opens a list to choose from; needs button_selection in Extra Fields',
	Calendar: 'Opens a date picker; needs button_calendar in Extra Fields',
	NumberPicker: 'Opens a number picker; needs button_number_picker in Extra Fields',
	StringPicker: 'Opens a list of texts to pick one; needs button_string_picker in Extra Fields',
	Location: 'Opens a map to pick or show a place; needs button_location in Extra Fields',
	Payment: 'Starts a payment',
	CameraImage: 'Asks for a photo taken with the camera',
	CameraVideo: 'Asks for a video taken with the camera',
	GalleryImage: 'Asks for a photo from the gallery',
	GalleryVideo: 'Asks for a video from the gallery',
	File: 'Asks for a file',
	Audio: 'Asks for an audio file',
	RecordAudio: 'Asks for a voice recording',
	MyPhoneNumber: 'Sends the person\'s phone number',
	MyLocation: 'Sends the person\'s location',
	Textbox: 'Opens a text box; button_textbox in Extra Fields sets its lines and keyboard',
	Link: 'Opens a web address or a channel to join (Opens, URL, Channel Username)',
	AskMyPhoneNumber: 'Asks the person to share their phone number',
	AskLocation: 'Asks the person to share a location',
	AskMyLocation: 'Asks the person to share their own location',
	Barcode: 'Opens the barcode scanner',
};

const BUTTON_TYPE_OPTIONS = optionsNamedByValue(BUTTON_TYPES, BUTTON_TYPE_DESCRIPTIONS);

/**
 * The builder's rows → buttons collection. Stored by n8n as
 * `{ rows: [ { buttons: { button: [ { id, type, text, extra } ] } } ] }`, which `buildKeypadFromRows` reads.
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
						options: [
							{
								displayName: 'Button',
								name: 'button',
								values: [
									{
										displayName: 'Button Options',
										name: 'options',
										type: 'collection',
										placeholder: 'Add option',
										default: {},
										description: 'Settings only some button types need',
										options: [
											{
												displayName: 'Extra Fields (JSON)',
												name: 'extra',
												type: 'json',
												default: '{}',
												description:
													'Settings for special button types, e.g. {"button_calendar": {"type": "DatePersian", "min_year": "1400", "max_year": "1410", "title": "Date"}}',
											},
										],
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
										description: 'What a Link button opens (Link buttons are documented only by one of Rubika\'s client libraries)',
									},
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
										displayName: 'URL',
										name: 'url',
										type: 'string',
										default: '',
										placeholder: 'https://example.com',
										displayOptions: { show: { type: ['Link'], linkType: ['url'] } },
										description: 'The web address the button opens (http or https)',
									},
								],
							},
						],
					},
				],
			},
		],
	};
}

/**
 * The keypad and formatting fields shared by every send/edit operation, and the readers that turn them
 * into request fields. One place, so every operation offers the same UI and the same validation.
 *
 * Each factory takes the operation's extra `show` conditions (may be empty: the node adds resource and
 * operation itself) and returns properties to spread into the operation's `properties`.
 */
import type { IDisplayOptions, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { InputError, toNodeError } from '../../shared/errors';
import { buildKeypadFromRows, parseKeypad } from '../../shared/keypad';
import type { BuilderRow } from '../../shared/keypad';
import { markdownToRubika } from '../../shared/markdown';
import { parseMetadataJson, validateMetadataParts } from '../../shared/metadata';
import { BUTTON_TYPES, METADATA_TYPES } from '../../shared/types';
import type { Keypad, MetadataPart, MetadataType } from '../../shared/types';
import { parameter } from './params';

export type ShowConditions = NonNullable<IDisplayOptions['show']>;

/** Field names used in error messages; they match the display names of the fields below. */
export const FIELD = {
	inlineKeypad: 'Inline Keypad',
	inlineKeypadJson: 'Inline Keypad (JSON)',
	chatKeypad: 'Chat Keypad',
	chatKeypadJson: 'Chat Keypad (JSON)',
	formattingParts: 'Formatting Parts',
	formattingJson: 'Formatting (JSON)',
	formattingMarkdown: 'Formatting (Markdown)',
} as const;

function withInputErrors<T>(context: IExecuteFunctions, itemIndex: number, read: () => T): T {
	try {
		return read();
	} catch (error) {
		throw toNodeError(context.getNode(), error, itemIndex);
	}
}

const byName = (a: INodePropertyOptions, b: INodePropertyOptions) => a.name.localeCompare(b.name);

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

const BUTTON_TYPE_OPTIONS: INodePropertyOptions[] = BUTTON_TYPES.map((type) => ({
	name: type,
	value: type,
	description: BUTTON_TYPE_DESCRIPTIONS[type],
})).sort(byName);

const METADATA_TYPE_OPTIONS: INodePropertyOptions[] = METADATA_TYPES.map((type) => ({ name: type, value: type })).sort(
	byName,
);

const KEYPAD_JSON_EXAMPLE = '{"rows": [{"buttons": [{"id": "yes", "button_text": "Yes"}, {"id": "no", "button_text": "No"}]}]}';

/**
 * The builder's rows → buttons collection. Stored by n8n as
 * `{ rows: [ { buttons: { button: [ { id, type, text, extra } ] } } ] }`, which `buildKeypadFromRows` reads.
 */
function keypadBuilderProperty(name: string, displayName: string, show: ShowConditions): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Row',
		default: {},
		description: 'Rows of buttons, top to bottom',
		displayOptions: { show },
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

/**
 * Inline keypad (buttons under the message). Fields: `inlineKeypadMode` ('none' | 'builder' | 'json'),
 * `inlineKeypad` (builder rows), `inlineKeypadJson`. With `required` (editMessageKeypad) there is no 'none'
 * and the builder is the default.
 */
export function inlineKeypadProperties(show: ShowConditions = {}, options: { required?: boolean } = {}): INodeProperties[] {
	const modes: INodePropertyOptions[] = [
		{ name: 'Builder', value: 'builder', description: 'Add rows and buttons one by one' },
		{
			name: 'JSON',
			value: 'json',
			description: 'Give the keypad as JSON or from an expression, e.g. built by a Code node',
		},
	];
	const mode: INodeProperties = {
		displayName: 'Inline Keypad',
		name: 'inlineKeypadMode',
		type: 'options',
		options: modes,
		default: 'none',
		description:
			'Buttons shown under the message. Taps reach the bot as inline messages (Rubika Webhook Trigger), with the button ID.',
		displayOptions: { show },
	};
	if (options.required) {
		mode.default = 'builder';
	} else {
		modes.push({ name: 'None', value: 'none', description: 'No buttons under the message' });
	}
	return [
		mode,
		keypadBuilderProperty('inlineKeypad', 'Inline Keypad Rows', { ...show, inlineKeypadMode: ['builder'] }),
		{
			displayName: 'Inline Keypad (JSON)',
			name: 'inlineKeypadJson',
			type: 'json',
			default: '',
			placeholder: KEYPAD_JSON_EXAMPLE,
			description:
				'A keypad {"rows": [{"buttons": [...]}]}, a list of rows, or a list of button lists. Buttons need button_text (or text); ID and type are optional.',
			displayOptions: { show: { ...show, inlineKeypadMode: ['json'] } },
		},
	];
}

/**
 * Chat keypad (replaces the phone keyboard). Fields: `chatKeypadAction` ('leave' | 'set' | 'remove'),
 * `chatKeypadMode` ('builder' | 'json'), `chatKeypad` (builder rows), `chatKeypadJson`, `resizeKeyboard`,
 * `oneTimeKeyboard`. With `allowLeaveUnchanged: false` (editChatKeypad) 'leave' is not offered and 'set'
 * is the default.
 */
export function chatKeypadProperties(
	show: ShowConditions = {},
	options: { allowLeaveUnchanged?: boolean } = {},
): INodeProperties[] {
	const allowLeave = options.allowLeaveUnchanged ?? true;
	const actions: INodePropertyOptions[] = [];
	if (allowLeave) {
		actions.push({ name: 'Leave Unchanged', value: 'leave', description: 'Send nothing about the chat keypad' });
	}
	actions.push(
		{ name: 'Remove', value: 'remove', description: 'Remove the chat keypad and show the normal keyboard again' },
		{ name: 'Set (New)', value: 'set', description: 'Show these buttons instead of the keyboard, replacing any earlier chat keypad' },
	);
	const setShow = { ...show, chatKeypadAction: ['set'] };
	const action: INodeProperties = {
		displayName: 'Chat Keypad',
		name: 'chatKeypadAction',
		type: 'options',
		options: actions,
		default: 'leave',
		description: 'Buttons that replace the keyboard in the chat. A tap sends the button text as a new message from the user.',
		displayOptions: { show },
	};
	if (!allowLeave) action.default = 'set';
	return [
		action,
		{
			displayName: 'Chat Keypad Input',
			name: 'chatKeypadMode',
			type: 'options',
			options: [
				{ name: 'Builder', value: 'builder', description: 'Add rows and buttons one by one' },
				{ name: 'JSON', value: 'json', description: 'Give the keypad as JSON or from an expression' },
			],
			default: 'builder',
			description: 'How the chat keypad is given: rows and buttons one by one, or JSON',
			displayOptions: { show: setShow },
		},
		keypadBuilderProperty('chatKeypad', 'Chat Keypad Rows', { ...setShow, chatKeypadMode: ['builder'] }),
		{
			displayName: 'Chat Keypad (JSON)',
			name: 'chatKeypadJson',
			type: 'json',
			default: '',
			placeholder: KEYPAD_JSON_EXAMPLE,
			description:
				'A keypad {"rows": [{"buttons": [...]}]}, a list of rows, or a list of button lists. resize_keyboard and one_time_keyboard given here win over the switches below.',
			displayOptions: { show: { ...setShow, chatKeypadMode: ['json'] } },
		},
		{
			displayName: 'Resize Keyboard',
			name: 'resizeKeyboard',
			type: 'boolean',
			default: true,
			description: 'Whether the keypad is shrunk to fit its buttons instead of taking the height of the keyboard',
			displayOptions: { show: setShow },
		},
		{
			displayName: 'One-Time Keyboard',
			name: 'oneTimeKeyboard',
			type: 'boolean',
			default: false,
			description: 'Whether the keypad hides after the user taps a button',
			displayOptions: { show: setShow },
		},
	];
}

/**
 * Formatting of a text field. Fields: `formatting` ('none' | 'markdown' | 'builder' | 'json'; default
 * 'none' — text is never parsed unless asked), `formattingParts` (builder), `metadataJson`.
 * `textField` is the display name of the formatted field, used in the descriptions.
 */
export function formattingProperties(show: ShowConditions = {}, textField = 'Text'): INodeProperties[] {
	return [
		{
			displayName: 'Formatting',
			name: 'formatting',
			type: 'options',
			// None first: what most messages want, and what is sent when nothing is chosen.
			options: [
				{ name: 'None', value: 'none', description: `Send ${textField} exactly as written` },
				{
					name: 'Builder',
					value: 'builder',
					description: `Mark ranges of ${textField} by position (UTF-16 units: an emoji counts 2)`,
				},
				{
					name: 'JSON',
					value: 'json',
					description: 'Give Rubika metadata {"meta_data_parts": [...]} as JSON or from an expression',
				},
				{
					name: 'Markdown',
					value: 'markdown',
					description: `Read ${textField} as Rubika Markdown: **bold**, __italic__, --underline--, ~~strike~~, ||spoiler||, \`mono\`, \`\`\`pre\`\`\`, > quote, [text](https://…), [name](u0…)`,
				},
			],
			default: 'none',
			description: `How ${textField} is formatted`,
			displayOptions: { show },
		},
		{
			displayName: 'Formatting Parts',
			name: 'formattingParts',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Part',
			default: {},
			description: `Ranges of ${textField} to format; positions count UTF-16 units from 0 (an emoji counts 2)`,
			displayOptions: { show: { ...show, formatting: ['builder'] } },
			options: [
				{
					displayName: 'Part',
					name: 'part',
					values: [
						{
							displayName: 'From Index',
							name: 'fromIndex',
							type: 'number',
							typeOptions: { minValue: 0 },
							default: 0,
							description: 'Position of the first formatted character, counted from 0',
						},
						{
							displayName: 'Length',
							name: 'length',
							type: 'number',
							typeOptions: { minValue: 1 },
							default: 1,
							description: 'Number of UTF-16 units formatted (an emoji counts 2)',
						},
						{
							displayName: 'Link URL',
							name: 'linkUrl',
							type: 'string',
							default: '',
							placeholder: 'https://example.com',
							description: 'Address the range links to (type Link only)',
							displayOptions: { show: { type: ['Link'] } },
						},
						{
							displayName: 'Mention User ID',
							name: 'mentionUserId',
							type: 'string',
							default: '',
							placeholder: 'u0...',
							description: 'User the range mentions (type MentionText only; works in groups)',
							displayOptions: { show: { type: ['MentionText'] } },
						},
						{
							displayName: 'Type',
							name: 'type',
							type: 'options',
							options: METADATA_TYPE_OPTIONS,
							default: 'Bold',
							description: 'How the range looks or what it does: Bold, Italic, a Link (needs a URL), a mention (MentionText, groups only)…',
						},
					],
				},
			],
		},
		{
			displayName: 'Formatting (JSON)',
			name: 'metadataJson',
			type: 'json',
			default: '',
			placeholder: '{"meta_data_parts": [{"type": "Bold", "from_index": 0, "length": 5}]}',
			description:
				'Rubika metadata {"meta_data_parts": [...]} or a list of parts, each with type, from_index and length (UTF-16 units), plus link_url for Link and mention_text_user_id for MentionText',
			displayOptions: { show: { ...show, formatting: ['json'] } },
		},
	];
}

/** Reads the inline keypad fields; undefined when the user chose None. */
export function readInlineKeypad(this: IExecuteFunctions, itemIndex: number): Keypad | undefined {
	const mode = parameter(this, 'inlineKeypadMode', itemIndex, 'none') as string;
	return withInputErrors(this, itemIndex, () => {
		if (mode === 'builder') {
			const value = parameter(this, 'inlineKeypad', itemIndex, {}) as { rows?: BuilderRow[] };
			return buildKeypadFromRows(value.rows, FIELD.inlineKeypad, 'inline');
		}
		if (mode === 'json') {
			return parseKeypad(parameter(this, 'inlineKeypadJson', itemIndex, ''), FIELD.inlineKeypadJson, 'inline');
		}
		return undefined;
	});
}

/**
 * Reads the chat keypad fields into request fields: nothing for Leave Unchanged, `chat_keypad_type: 'Remove'`
 * for Remove, `chat_keypad` + `chat_keypad_type: 'New'` for Set. The one-time flag is sent under both of its
 * spellings (see keypad.ts).
 */
export function readChatKeypad(
	this: IExecuteFunctions,
	itemIndex: number,
): { chat_keypad?: Keypad; chat_keypad_type?: 'New' | 'Remove' } {
	const action = parameter(this, 'chatKeypadAction', itemIndex, 'leave') as string;
	if (action === 'remove') return { chat_keypad_type: 'Remove' };
	if (action !== 'set') return {};
	const mode = parameter(this, 'chatKeypadMode', itemIndex, 'builder') as string;
	const resizeKeyboard = parameter(this, 'resizeKeyboard', itemIndex, true) as boolean;
	const oneTimeKeyboard = parameter(this, 'oneTimeKeyboard', itemIndex, false) as boolean;
	const keypad = withInputErrors(this, itemIndex, () => {
		if (mode === 'json') {
			const parsed = parseKeypad(parameter(this, 'chatKeypadJson', itemIndex, ''), FIELD.chatKeypadJson, 'chat');
			// Flags written in the JSON win; the switches fill in what it leaves out.
			parsed.resize_keyboard ??= resizeKeyboard;
			if (parsed.one_time_keyboard === undefined) {
				parsed.one_time_keyboard = oneTimeKeyboard;
				parsed.on_time_keyboard = oneTimeKeyboard;
			}
			return parsed;
		}
		const value = parameter(this, 'chatKeypad', itemIndex, {}) as { rows?: BuilderRow[] };
		return buildKeypadFromRows(value.rows, FIELD.chatKeypad, 'chat', { resizeKeyboard, oneTimeKeyboard });
	});
	return { chat_keypad: keypad, chat_keypad_type: 'New' };
}

interface BuilderPart {
	type?: MetadataType;
	fromIndex?: number;
	length?: number;
	linkUrl?: string;
	mentionUserId?: string;
}

/**
 * Reads a text parameter with its formatting. Markdown is converted (text without markers + parts);
 * builder and JSON parts are checked against the text. `metadata` is only present when there are parts.
 * With `requiredField` (the field's display name) text that ends up empty is refused, in words that say
 * whether it was left empty or the Markdown conversion emptied it.
 */
export function readFormattedText(
	this: IExecuteFunctions,
	itemIndex: number,
	textParameterName = 'text',
	options: { requiredField?: string } = {},
): { text: string; metadata?: { meta_data_parts: MetadataPart[] } } {
	const rawText = parameter(this, textParameterName, itemIndex, '') as unknown;
	const text = rawText === undefined || rawText === null ? '' : typeof rawText === 'string' ? rawText : String(rawText);
	const formatting = parameter(this, 'formatting', itemIndex, 'none') as string;
	return withInputErrors(this, itemIndex, () => {
		const formatted = applyFormatting(this, itemIndex, text, formatting);
		if (options.requiredField !== undefined && formatted.text.trim() === '') {
			// Markdown can leave nothing of what was typed: a lone "> " quote marker or an empty ``` block.
			throw new InputError(
				options.requiredField,
				text.trim() === ''
					? 'is required'
					: 'is empty once the Markdown markers are removed; write some text or choose Formatting "None"',
			);
		}
		return formatted.parts.length > 0
			? { text: formatted.text, metadata: { meta_data_parts: formatted.parts } }
			: { text: formatted.text };
	});
}

/** The text as it is sent and its formatting parts, checked against that text, for the chosen Formatting. */
function applyFormatting(
	context: IExecuteFunctions,
	itemIndex: number,
	text: string,
	formatting: string,
): { text: string; parts: MetadataPart[] } {
	if (formatting === 'markdown') {
		const converted = markdownToRubika(text);
		validateMetadataParts(converted.text, converted.parts, FIELD.formattingMarkdown);
		return converted;
	}
	if (formatting === 'builder') {
		const value = parameter(context, 'formattingParts', itemIndex, {}) as { part?: BuilderPart[] };
		const parts = (value.part ?? []).map(fromBuilderPart);
		validateMetadataParts(text, parts, FIELD.formattingParts);
		return { text, parts };
	}
	if (formatting === 'json') {
		const parts = parseMetadataJson(parameter(context, 'metadataJson', itemIndex, ''), FIELD.formattingJson);
		validateMetadataParts(text, parts, FIELD.formattingJson);
		return { text, parts };
	}
	return { text, parts: [] };
}

/** Only the target field that belongs to the part's type is sent. */
function fromBuilderPart(entry: BuilderPart): MetadataPart {
	const part = {
		type: entry.type ?? 'Bold',
		from_index: entry.fromIndex ?? 0,
		length: entry.length ?? 1,
	} as MetadataPart;
	if (part.type === 'Link') part.link_url = (entry.linkUrl ?? '').trim();
	if (part.type === 'MentionText') part.mention_text_user_id = (entry.mentionUserId ?? '').trim();
	return part;
}

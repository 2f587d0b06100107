/**
 * The Formatting fields of a text (None, Builder, HTML, JSON or Markdown) and the reader that turns the text
 * and its formatting into request fields, checked against the text.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { optionsNamedByValue } from '../../shared/descriptions';
import { InputError } from '../../shared/errors';
import type { FormattedText } from '../formatting/formattedText';
import { htmlToRubika } from '../formatting/html';
import { splitFormattedText } from '../formatting/longText';
import { markdownToRubika } from '../formatting/markdown';
import { parseMetadataJson, utf16Length, validateMetadataParts } from '../formatting/metadata';
import { MAX_METADATA_PARTS, MAX_TEXT_LENGTH, METADATA_TYPES } from '../../shared/types';
import type { MetadataPart, MetadataType } from '../../shared/types';
import { inputModeProperties } from './inputMode';
import { parameter, withInputErrors } from './params';

/** Field names used in error messages; they match the display names of the fields below. */
const PARTS_FIELD = 'Formatting Parts';
const JSON_FIELD = 'Formatting (JSON)';

/**
 * The formattings that rewrite the text: how each converts it, the field its errors name, and what the
 * conversion removes (for the error when nothing else is left).
 */
const CONVERSIONS = new Map<string, { convert: (source: string) => FormattedText; field: string; markup: string }>([
	['html', { convert: htmlToRubika, field: 'Formatting (HTML)', markup: 'HTML tags' }],
	['markdown', { convert: markdownToRubika, field: 'Formatting (Markdown)', markup: 'Markdown markers' }],
]);

const METADATA_TYPE_OPTIONS = optionsNamedByValue(METADATA_TYPES);

/**
 * Formatting of a text field. Fields: `formatting` ('none' | 'builder' | 'html' | 'json' | 'markdown'; default
 * 'none' — text is never parsed unless asked), `formattingParts` (builder), `metadataJson`.
 * `textField` is the display name of the formatted field, used in the descriptions.
 */
export function formattingProperties(textField = 'Text'): INodeProperties[] {
	return inputModeProperties(
		{
			displayName: 'Formatting',
			name: 'formatting',
			default: 'none',
			description: `How ${textField} is formatted`,
		},
		// None first: what most messages want, and what is sent when nothing is chosen.
		[
			{ name: 'None', value: 'none', description: `Send ${textField} exactly as written` },
			{
				name: 'Builder',
				value: 'builder',
				description: `Mark ranges of ${textField} by position (UTF-16 units: an emoji counts 2)`,
				fields: [
					{
						displayName: 'Formatting Parts',
						name: 'formattingParts',
						type: 'fixedCollection',
						typeOptions: { multipleValues: true, sortable: true },
						placeholder: 'Add Part',
						default: {},
						description: `Ranges of ${textField} to format; positions count UTF-16 units from 0 (an emoji counts 2)`,
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
				],
			},
			{
				name: 'HTML',
				value: 'html',
				// n8n shows descriptions as HTML, so the tags are written as references to be seen.
				description: `Read ${textField} as HTML: &lt;b&gt;, &lt;i&gt;, &lt;u&gt;, &lt;s&gt;, &lt;tg-spoiler&gt;, &lt;code&gt;, &lt;pre&gt;, &lt;blockquote&gt;, &lt;a href="https://…"&gt;, &lt;a href="u0…"&gt;, &lt;br&gt;; other tags stay as text`,
			},
			{
				name: 'JSON',
				value: 'json',
				description: 'Give Rubika metadata {"meta_data_parts": [...]} as JSON or from an expression',
				fields: [
					{
						displayName: 'Formatting (JSON)',
						name: 'metadataJson',
						type: 'json',
						default: '',
						placeholder: '{"meta_data_parts": [{"type": "Bold", "from_index": 0, "length": 5}]}',
						description:
							'Rubika metadata {"meta_data_parts": [...]} or a list of parts, each with type, from_index and length (UTF-16 units), plus link_url for Link and mention_text_user_id for MentionText',
					},
				],
			},
			{
				name: 'Markdown',
				value: 'markdown',
				description: `Read ${textField} as Rubika Markdown: **bold**, __italic__, --underline--, ~~strike~~, ||spoiler||, \`mono\`, \`\`\`pre\`\`\`, > quote, [text](https://…), [name](u0…)`,
			},
		],
	);
}

interface BuilderPart {
	type?: MetadataType;
	fromIndex?: number;
	length?: number;
	linkUrl?: string;
	mentionUserId?: string;
}

/** What Long Text (Text Options) does with a text too long for one message. */
export type LongText = 'split' | 'refuse';

interface ReadTextOptions {
	/** The field's display name: text that ends up empty is refused naming it. Absent: the text is optional. */
	requiredField?: string;
}

/** A message's `text` and, only when there are parts, its `metadata`. */
export interface MessageFields {
	text: string;
	metadata?: { meta_data_parts: MetadataPart[] };
}

export function messageFieldsOf({ text, parts }: FormattedText): MessageFields {
	return parts.length > 0 ? { text, metadata: { meta_data_parts: parts } } : { text };
}

/**
 * Reads a text parameter with its formatting. Markdown and HTML are converted (text without the markup +
 * parts); builder and JSON parts are checked against the text. `metadata` is only present when there are
 * parts. With `requiredField` (the field's display name) text that ends up empty is refused, in words that
 * say whether it was left empty or the conversion emptied it. With `lengthField`, a text longer than one
 * message may be (MAX_TEXT_LENGTH) is refused naming that field; `tooLongHint` says what to do instead.
 */
export function readFormattedText(
	this: IExecuteFunctions,
	itemIndex: number,
	textParameterName = 'text',
	options: ReadTextOptions & { lengthField?: string; tooLongHint?: string } = {},
): MessageFields {
	return withInputErrors(this, itemIndex, () => {
		const formatted = readFormatted(this, itemIndex, textParameterName, options, { oneMessage: true });
		if (options.lengthField !== undefined) refuseTooLong(formatted.text, options.lengthField, options.tooLongHint ?? 'shorten it');
		return messageFieldsOf(formatted);
	});
}

/**
 * Reads a text parameter with its formatting (as readFormattedText does) as the messages it is sent in: one,
 * or with Long Text "split" as many as its length and its formatting parts need (nodes/shared/longText.ts).
 * `text` is the whole text as converted; `pieces` never hold a text of only spaces (none for an empty text).
 */
export function readFormattedPieces(
	this: IExecuteFunctions,
	itemIndex: number,
	textParameterName: string,
	options: ReadTextOptions & { field: string; longText: LongText },
): { text: string; pieces: FormattedText[] } {
	return withInputErrors(this, itemIndex, () => {
		const formatted = readFormatted(this, itemIndex, textParameterName, options, { oneMessage: false });
		if (formatted.text.trim() === '') return { text: formatted.text, pieces: [] };
		if (options.longText === 'refuse') {
			// Too long is said first: it is what the user chose to be told about.
			refuseTooLong(formatted.text, options.field, 'choose Text Options → Long Text "Split Into Several Messages", or shorten it');
			const formatting = parameter(this, 'formatting', itemIndex, 'none') as string;
			validateMetadataParts(formatted.text, formatted.parts, partsFieldOf(formatting));
			return { text: formatted.text, pieces: [formatted] };
		}
		const pieces = splitFormattedText(formatted, { maxLength: MAX_TEXT_LENGTH, maxParts: MAX_METADATA_PARTS, field: options.field });
		return { text: formatted.text, pieces };
	});
}

/** The text and its checked parts for the chosen Formatting; an empty text refused when it is required. */
function readFormatted(
	context: IExecuteFunctions,
	itemIndex: number,
	textParameterName: string,
	{ requiredField }: ReadTextOptions,
	{ oneMessage }: { oneMessage: boolean },
): FormattedText {
	const rawText = parameter(context, textParameterName, itemIndex, '') as unknown;
	const text = rawText === undefined || rawText === null ? '' : typeof rawText === 'string' ? rawText : String(rawText);
	const formatting = parameter(context, 'formatting', itemIndex, 'none') as string;
	const formatted = applyFormatting(context, itemIndex, text, formatting, oneMessage);
	if (requiredField !== undefined && formatted.text.trim() === '') {
		// A conversion can leave nothing of what was typed: a lone "> " quote marker, an empty <b></b>.
		const conversion = CONVERSIONS.get(formatting);
		throw new InputError(
			requiredField,
			text.trim() === '' || conversion === undefined
				? 'is required'
				: `is empty once the ${conversion.markup} are removed; write some text or choose Formatting "None"`,
		);
	}
	return formatted;
}

function refuseTooLong(text: string, field: string, hint: string): void {
	const length = utf16Length(text);
	if (length <= MAX_TEXT_LENGTH) return;
	throw new InputError(
		field,
		`is ${length} characters long (UTF-16 code units: an emoji counts 2); Rubika takes at most ${MAX_TEXT_LENGTH} in one message: ${hint}`,
	);
}

/** The field whose parts a Formatting's errors name. */
function partsFieldOf(formatting: string): string {
	return CONVERSIONS.get(formatting)?.field ?? (formatting === 'builder' ? PARTS_FIELD : JSON_FIELD);
}

/** The text as it is sent and its formatting parts, checked against that text, for the chosen Formatting. */
function applyFormatting(
	context: IExecuteFunctions,
	itemIndex: number,
	text: string,
	formatting: string,
	oneMessage: boolean,
): FormattedText {
	const conversion = CONVERSIONS.get(formatting);
	const field = partsFieldOf(formatting);
	if (conversion !== undefined) {
		const converted = conversion.convert(text);
		validateMetadataParts(converted.text, converted.parts, field, { oneMessage });
		return converted;
	}
	if (formatting === 'builder') {
		const value = parameter(context, 'formattingParts', itemIndex, {}) as { part?: BuilderPart[] };
		const parts = (value.part ?? []).map(fromBuilderPart);
		validateMetadataParts(text, parts, field, { oneMessage });
		return { text, parts };
	}
	if (formatting === 'json') {
		const parts = parseMetadataJson(parameter(context, 'metadataJson', itemIndex, ''), field);
		validateMetadataParts(text, parts, field, { oneMessage });
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

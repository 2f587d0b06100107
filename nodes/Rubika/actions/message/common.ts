/**
 * Fields and readers shared by the Message operations: the chat and message id fields, and the options
 * every send method accepts (disable notification, reply to, inline keypad, chat keypad). Send File can
 * use the same pieces, so all send operations look and behave alike.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputError } from '../../../shared/errors';
import { MAX_METADATA_PARTS, MAX_TEXT_LENGTH } from '../../../shared/types';
import type { LongText } from '../../helpers/formattingFields';
import { formattingProperties, readFormattedPieces, readFormattedText } from '../../helpers/formattingFields';
import { chatKeypadProperties, inlineKeypadProperties, readChatKeypad, readInlineKeypad } from '../../helpers/keypadFields';
import { idProperty, optionalIdOf, parameter, requireId, withInputErrors } from '../../helpers/params';

export { chatIdProperty, readChatId } from '../../helpers/params';

export const MESSAGE_ID_FIELD = 'Message ID';
const TEXT_FIELD = 'Text';
const REPLY_TO_FIELD = 'Reply To Message ID';

/** The Chat ID description of the send operations. */
export const SEND_TO_CHAT_DESCRIPTION =
	"Chat to send to, e.g. b0… (a private chat), g0… (group) or c0… (channel): a trigger's chat_id. A user ID (u0…) is not a chat ID.";

export function messageIdProperty(description: string): INodeProperties {
	return idProperty(MESSAGE_ID_FIELD, 'messageId', '1234567890123456789', description);
}

export function readMessageId(context: IExecuteFunctions, itemIndex: number): string {
	return requireId(context, 'messageId', itemIndex, MESSAGE_ID_FIELD);
}

/** The message text and its Formatting fields (Send Text, Edit Text); read them with `readMessageText`. */
export function messageTextProperties(description: string): INodeProperties[] {
	return [
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 4 },
			required: true,
			default: '',
			description,
		},
		...formattingProperties(TEXT_FIELD),
	];
}

/**
 * Edit Text's text as it is sent and its metadata; text left empty, or that Markdown leaves empty, is refused,
 * and so is a text too long for one message (an edit cannot make it several).
 */
export function readEditedText(context: IExecuteFunctions, itemIndex: number) {
	return readFormattedText.call(context, itemIndex, 'text', {
		requiredField: TEXT_FIELD,
		lengthField: TEXT_FIELD,
		tooLongHint: 'an edit changes one message, so shorten it',
	});
}

/** Send Text's text as the messages it goes in (see Text Options); empty text is refused. */
export function readMessagePieces(context: IExecuteFunctions, itemIndex: number, longText: LongText) {
	return readFormattedPieces.call(context, itemIndex, 'text', { requiredField: TEXT_FIELD, field: TEXT_FIELD, longText });
}

/** What Text Options says for one item. */
export interface TextOptions {
	longText: LongText;
	/** Send a message again without formatting when Rubika refuses it (INVALID_INPUT) with its formatting. */
	plainTextIfRefused: boolean;
}

/**
 * Text Options of Send Text (`textField` 'Text') and Send File ('Caption'): what a text too long for one
 * message becomes, and whether a message whose formatting Rubika refuses goes again as plain text.
 */
export function textOptionsProperty(textField: 'Text' | 'Caption'): INodeProperties {
	const what = textField === 'Text' ? 'the text' : 'the caption';
	return {
		displayName: 'Text Options',
		name: 'textOptions',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Long Text',
				name: 'longText',
				type: 'options',
				options: [
					{
						name: 'Split Into Several Messages',
						value: 'split',
						description: `Longer than ${MAX_TEXT_LENGTH} characters (or with more than ${MAX_METADATA_PARTS} formatting parts), ${what} is cut at paragraphs, lines or sentences into messages that fit, each keeping its formatting; Reply To goes on the first, the keypads on the last`,
					},
					{
						name: 'Refuse',
						value: 'refuse',
						description: `${textField} longer than ${MAX_TEXT_LENGTH} characters fails the item before anything is sent`,
					},
				],
				default: 'split',
				description: `What happens to ${what} when it is too long for one Rubika message`,
			},
			{
				displayName: 'Plain Text If Formatting Is Refused',
				name: 'plainTextIfRefused',
				type: 'boolean',
				default: false,
				description:
					'Whether a message whose formatting Rubika refuses (INVALID_INPUT, e.g. a mention outside a group) is sent again without its formatting; the output then has formatting_dropped: true',
			},
		],
	};
}

export function readTextOptions(context: IExecuteFunctions, itemIndex: number): TextOptions {
	const options = parameter(context, 'textOptions', itemIndex, {}) as IDataObject;
	const longText = options.longText ?? 'split';
	return withInputErrors(context, itemIndex, () => {
		if (longText !== 'split' && longText !== 'refuse') {
			throw new InputError('Long Text', `must be Split Into Several Messages or Refuse; got "${String(longText)}"`);
		}
		return { longText, plainTextIfRefused: options.plainTextIfRefused === true || options.plainTextIfRefused === 'true' };
	});
}

const disableNotificationOption = (description: string): INodeProperties => ({
	displayName: 'Disable Notification',
	name: 'disableNotification',
	type: 'boolean',
	default: false,
	description,
});

export const CAMPAIGN_FIELD = 'Skip Chats Already Sent (Campaign ID)';

/**
 * Skip Chats Already Sent: the campaign under which each delivered chat is recorded (nodes/Rubika/sentRecord.ts
 * does the recording). Only operations that name their `recipient` may offer it: the runner applies it to
 * exactly those.
 */
const campaignOption: INodeProperties = {
	displayName: CAMPAIGN_FIELD,
	name: 'campaignId',
	type: 'string',
	default: '',
	placeholder: 'e.g. newsletter-2026-11',
	description:
		'When set, a chat this node already delivered to under this campaign ID, in any execution of this workflow (test runs included), is skipped: its output item says skipped. Each delivery is recorded in n8n\'s database, so re-running a broadcast that failed halfway sends only what is missing. Use a new ID for a new campaign. Empty sends to every item.',
};

/**
 * The "Send Options" collection. Forward takes only Disable Notification (forwardMessage has no reply);
 * the send methods also take a message to reply to. Both offer Skip Chats Already Sent unless
 * `skipAlreadySent` is false (Send and Wait: it sends one message and waits, it is no broadcast).
 */
export function sendOptionsProperty(kind: 'send' | 'forward' = 'send', { skipAlreadySent = true } = {}): INodeProperties {
	const options: INodeProperties[] =
		kind === 'forward'
			? [disableNotificationOption('Whether the forwarded message arrives silently, without a notification sound')]
			: [
					disableNotificationOption('Whether the message arrives silently, without a notification sound'),
					{
						displayName: 'Reply To Message ID',
						name: 'replyToMessageId',
						type: 'string',
						default: '',
						description: 'ID of a message in the same chat that this message answers',
					},
				];
	if (skipAlreadySent) options.push(campaignOption);
	return { displayName: 'Send Options', name: 'sendOptions', type: 'collection', placeholder: 'Add option', default: {}, options };
}

/** `disable_notification` as the boolean Rubika expects, only when the user set it (else the API's default applies). */
export function readDisableNotification(context: IExecuteFunctions, itemIndex: number): IDataObject {
	return disableNotificationOf(readSendOptionsCollection(context, itemIndex));
}

function readSendOptionsCollection(context: IExecuteFunctions, itemIndex: number): IDataObject {
	return parameter(context, 'sendOptions', itemIndex, {}) as IDataObject;
}

function disableNotificationOf(options: IDataObject): IDataObject {
	if (options.disableNotification === undefined) return {};
	return { disable_notification: options.disableNotification === true || options.disableNotification === 'true' };
}

/**
 * Reads the Send Options collection (once) into request fields. Only what the user set is sent, so the
 * API's defaults apply otherwise; `disable_notification` goes out as a boolean, the reply id as a string.
 */
export function readSendOptions(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const options = readSendOptionsCollection(context, itemIndex);
	const fields = disableNotificationOf(options);
	const replyTo = optionalIdOf(options.replyToMessageId, REPLY_TO_FIELD);
	if (replyTo !== undefined) fields.reply_to_message_id = replyTo;
	return fields;
}

/** Inline keypad, chat keypad and Send Options, in the order they appear under a send operation's content. */
export function sendExtrasProperties(): INodeProperties[] {
	return [...inlineKeypadProperties(), ...chatKeypadProperties(), sendOptionsProperty()];
}

/**
 * Reads everything `sendExtrasProperties` offers into request fields, validated before anything is sent:
 * `inline_keypad`, `chat_keypad` + `chat_keypad_type`, `disable_notification`, `reply_to_message_id`.
 */
export function readSendExtras(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const fields: IDataObject = {};
	const inlineKeypad = readInlineKeypad.call(context, itemIndex);
	if (inlineKeypad) fields.inline_keypad = inlineKeypad as unknown as IDataObject;
	Object.assign(fields, readChatKeypad.call(context, itemIndex));
	Object.assign(fields, readSendOptions(context, itemIndex));
	return fields;
}

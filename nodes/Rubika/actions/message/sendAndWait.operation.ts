import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { NodeApiError } from 'n8n-workflow';
import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import { InputError, isRefusal } from '../../../shared/errors';
import { fallbackLinkProof } from '../../../shared/chatAnswers';
import { callRubika } from '../../../shared/transport';
import { tokenOf } from '../../../shared/transport/credential';
import type { Keypad, MetadataPart } from '../../../shared/types';
import { MAX_METADATA_PARTS } from '../../../shared/types';
import { formattingProperties, readFormattedText } from '../../helpers/formattingFields';
import { inputModeProperties } from '../../helpers/inputMode';
import type { ChatAnswerIn } from '../../waiting/chatAnswer';
import { answerButtonsFields, answerInProperty, chatAnswerOptions, readAnswerIn } from '../../waiting/chatAnswer';
import { formDefinitionProperties } from '../../waiting/responseForm';
import { limitWaitTimeOption, waitUntil } from '../../waiting/waitTime';
import type { ResponseType } from '../../waiting/webhook';
import { approvalLabels, labelOr } from '../../waiting/labels';
import { responseFormFields } from '../../waiting/webhook';
import type { ItemCall, RubikaOperation } from '../types';
import { chatIdProperty, readChatId, readSendOptions, sendOptionsProperty } from './common';

const MESSAGE_FIELD = 'Message';

/** How the message carries its links: Link buttons are documented only by rubpy (facts §2), text links by all. */
type LinksAs = 'buttonsOrText' | 'buttons' | 'text';

interface ResponseLink {
	id: string;
	label: string;
	url: string;
}

const properties: INodeProperties[] = [
	chatIdProperty('Chat to send the question to, e.g. b0… (a private chat) or g0… (a group)'),
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		description: 'The question or request. The links to answer with are added below it.',
	},
	...formattingProperties(MESSAGE_FIELD),
	...inputModeProperties(
		{
			displayName: 'Response Type',
			name: 'responseType',
			default: 'approval',
			description: 'What the person answers with',
		},
		[
			{
				name: 'Approval',
				value: 'approval',
				description: 'The person taps Approve (or Decline)',
				fields: [
					{
						displayName: 'Approval Options',
						name: 'approvalOptions',
						type: 'fixedCollection',
						placeholder: 'Add option',
						default: {},
						options: [
							{
								displayName: 'Values',
								name: 'values',
								values: [
									{
										displayName: 'Type of Approval',
										name: 'approvalType',
										type: 'options',
										default: 'single',
										options: [
											{ name: 'Approve Only', value: 'single' },
											{ name: 'Approve and Decline', value: 'double' },
										],
										description: 'Whether the person can also decline',
									},
									{
										displayName: 'Approve Button Label',
										name: 'approveLabel',
										type: 'string',
										default: 'Approve',
										description: 'Text of the approve link',
									},
									{
										displayName: 'Decline Button Label',
										name: 'disapproveLabel',
										type: 'string',
										default: 'Decline',
										displayOptions: { show: { approvalType: ['double'] } },
										description: 'Text of the decline link',
									},
								],
							},
						],
					},
					answerInProperty,
				],
			},
			{ name: 'Free Text', value: 'freeText', description: 'The person writes an answer on a page' },
			{
				name: 'Custom Form',
				value: 'customForm',
				description: 'The person fills in a form you define',
				fields: formDefinitionProperties,
			},
		],
	),
	optionsCollection([
		...chatAnswerOptions,
		{
			displayName: 'Answer Page Text',
			name: 'answerDescription',
			type: 'string',
			default: 'You can close this page now.',
			description: 'Shown under the title once the answer was received',
		},
		{
			displayName: 'Answer Page Title',
			name: 'answerTitle',
			type: 'string',
			default: 'Thank you, your answer was received',
			description: 'Title of the page the person sees once the answer was received',
		},
		{
			displayName: 'Form Button Label',
			name: 'formButtonLabel',
			type: 'string',
			default: 'Submit',
			description: 'Label of the form\'s submit button (Free Text, Custom Form)',
		},
		{
			displayName: 'Form Description',
			name: 'formDescription',
			type: 'string',
			default: '',
			description: 'Text shown above the form (Free Text, Custom Form)',
		},
		{
			displayName: 'Form Title',
			name: 'formTitle',
			type: 'string',
			default: 'Your answer',
			description: 'Title of the form page (Free Text, Custom Form)',
		},
		limitWaitTimeOption,
		{
			displayName: 'Links As',
			name: 'linksAs',
			type: 'options',
			default: 'buttonsOrText',
			options: [
				{
					name: 'Buttons, or Text Links if Rubika Refuses Buttons',
					value: 'buttonsOrText',
					description: 'Link buttons under the message; if Rubika answers INVALID_INPUT, the message is sent again with the links in its text',
				},
				{ name: 'Buttons', value: 'buttons', description: 'Link buttons in an inline keypad under the message' },
				{ name: 'Text Links', value: 'text', description: 'The links as linked lines at the end of the message text' },
			],
			description: 'How the links to answer with are shown. Link buttons are documented only by one of Rubika\'s client libraries.',
		},
		{
			displayName: 'Respond Button Label',
			name: 'messageButtonLabel',
			type: 'string',
			default: 'Respond',
			description: 'Text of the link that opens the form (Free Text, Custom Form)',
		},
	]),
	sendOptionsProperty('send', { skipAlreadySent: false }),
];

export const sendAndWait: RubikaOperation = {
	value: SEND_AND_WAIT_OPERATION,
	name: 'Send and Wait for Response',
	action: 'Send a message and wait for response',
	description:
		'Send a message with links to approve, decline or answer in a form, and pause the workflow until the person answers',
	waitsForResponse: true,
	properties,
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const responseType = this.getNodeParameter('responseType', itemIndex, 'approval') as ResponseType;
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		// The form is built only when the person opens it: a broken definition must fail now, not then. The
		// webhook reads it with the same function.
		if (responseType !== 'approval') {
			responseFormFields(responseType, (name, fallback) => this.getNodeParameter(name, itemIndex, fallback));
		}
		const waitTill = waitUntil(options.limitWaitTime as IDataObject | undefined);
		const { text, metadata } = readFormattedText.call(this, itemIndex, 'message', { requiredField: MESSAGE_FIELD });
		const base: IDataObject = { chat_id: chatId, ...readSendOptions(this, itemIndex) };
		const answerIn = responseType === 'approval' ? readAnswerIn(this.getNodeParameter('answerIn', itemIndex, 'webPage')) : 'webPage';

		// Keys the answer buttons, or the proof their fallback links carry: resolved once (a credential read).
		const botToken = answerIn !== 'webPage' ? ((await tokenOf(this)) ?? '') : undefined;
		if (answerIn !== 'webPage') {
			const inChat = await sendAnswerButtons(this, itemIndex, answerIn, base, { text, metadata }, botToken ?? '', call);
			if ('sent' in inChat) {
				await this.putExecutionToWait(waitTill);
				return { ...inChat.sent, chat_id: chatId, answer_in: answerIn, waiting_until: waitTill.toISOString() };
			}
			this.logger.info(`Rubika Send and Wait: answering in the chat is not possible (${inChat.problem}); sending links to a web page instead`);
		}
		requireSignedAnswers(this);
		const links = responseLinks(this, responseType, itemIndex, options, botToken);
		const linksAs = (options.linksAs as LinksAs | undefined) ?? 'buttonsOrText';

		const send = async (as: 'buttons' | 'text') =>
			await callRubika(this, 'sendMessage', { ...base, ...messageWithLinks(text, metadata?.meta_data_parts ?? [], links, as) }, call);
		let shownAs: 'buttons' | 'text' = linksAs === 'text' ? 'text' : 'buttons';
		const first = await send(shownAs).then(
			(data) => ({ data }),
			(error: unknown) => ({ error }),
		);
		let sent: IDataObject;
		if ('data' in first) {
			sent = first.data;
		} else if (linksAs === 'buttonsOrText' && isRefusal(first.error, 'INVALID_INPUT')) {
			this.logger.info('Rubika: Link buttons were refused; sending the links in the message text instead');
			shownAs = 'text';
			sent = await send(shownAs);
		} else {
			throw first.error as NodeApiError;
		}
		await this.putExecutionToWait(waitTill);
		return { ...sent, chat_id: chatId, answer_in: 'webPage', links_as: shownAs, waiting_until: waitTill.toISOString() };
	},
};

/**
 * Makes n8n refuse a resume link whose signature is missing or wrong. n8n 2.14 and later always check the
 * signature of a send-and-wait node's links and no longer have this call; older versions (2.8.4) check it
 * only when the waiting node asked for it during the execution, and otherwise resume on a forged, edited or
 * unsigned link.
 */
function requireSignedAnswers(context: IExecuteFunctions): void {
	(context as IExecuteFunctions & { setSignatureValidationRequired?: () => void }).setSignatureValidationRequired?.();
}

/**
 * The question with answer buttons in the chat; a refusal of the buttons by Rubika (INVALID_INPUT, e.g. an id
 * longer than it takes) or a resume token that cannot travel in a button is a problem for the caller to fall
 * back on links.
 */
async function sendAnswerButtons(
	context: IExecuteFunctions,
	itemIndex: number,
	answerIn: ChatAnswerIn,
	base: IDataObject,
	message: { text: string; metadata?: { meta_data_parts: MetadataPart[] } },
	botToken: string,
	call: ItemCall,
): Promise<{ sent: IDataObject } | { problem: string }> {
	const approval = context.getNodeParameter('approvalOptions.values', itemIndex, {}) as IDataObject;
	const buttons = answerButtonsFields(context, itemIndex, answerIn, String(base.chat_id), approval, botToken);
	if ('problem' in buttons) return buttons;
	const body: IDataObject = { ...base, text: message.text, ...buttons.fields };
	if (message.metadata && message.metadata.meta_data_parts.length > 0) body.metadata = message.metadata as unknown as IDataObject;
	const sent = await callRubika(context, 'sendMessage', body, call).then(
		(data) => ({ sent: data }),
		(error: unknown) => ({ error }),
	);
	if ('sent' in sent) return sent;
	if (!isRefusal(sent.error, 'INVALID_INPUT')) throw sent.error as NodeApiError;
	return { problem: `Rubika refused the answer buttons: ${(sent.error as Error).message}` };
}

/**
 * The links the message carries, each opening the waiting execution's signed resume address. When they stand
 * in for answer buttons (`botToken` given), each also carries a proof keyed with the bot token: the waiting node
 * then accepts these links, which it refuses otherwise (on n8n 2.8.4 nothing else would stop an unsigned one).
 */
function responseLinks(
	context: IExecuteFunctions,
	responseType: ResponseType,
	itemIndex: number,
	options: IDataObject,
	botToken: string | undefined,
): ResponseLink[] {
	if (responseType !== 'approval') {
		return [{ id: 'respond', label: labelOr(options.messageButtonLabel, 'Respond'), url: context.getSignedResumeUrl() }];
	}
	const linkUrl = (approved: 'true' | 'false') =>
		context.getSignedResumeUrl({
			approved,
			...(botToken !== undefined ? { proof: fallbackLinkProof(botToken, context.getExecutionId(), approved) } : {}),
		});
	const approval = context.getNodeParameter('approvalOptions.values', itemIndex, {}) as IDataObject;
	const labels = approvalLabels(approval);
	const approve: ResponseLink = { id: 'approve', label: labels.approve, url: linkUrl('true') };
	if (approval.approvalType !== 'double') return [approve];
	return [approve, { id: 'decline', label: labels.decline, url: linkUrl('false') }];
}

/**
 * The message's fields with the links: Link buttons in an inline keypad, one row, or the labels as lines
 * after the text, each a Link part (offsets in UTF-16 units, after the user's own formatting parts).
 */
function messageWithLinks(text: string, parts: MetadataPart[], links: ResponseLink[], as: 'buttons' | 'text'): IDataObject {
	if (as === 'buttons') {
		const keypad: Keypad = {
			rows: [
				{
					buttons: links.map((link) => ({
						id: link.id,
						type: 'Link',
						button_text: link.label,
						button_link: { type: 'url', link_url: link.url },
					})),
				},
			],
		};
		const fields: IDataObject = { text, inline_keypad: keypad as unknown as IDataObject };
		if (parts.length > 0) fields.metadata = { meta_data_parts: parts } as unknown as IDataObject;
		return fields;
	}
	let full = text;
	const linkParts: MetadataPart[] = [];
	for (const [index, link] of links.entries()) {
		full += index === 0 ? '\n\n' : '\n';
		linkParts.push({ type: 'Link', from_index: full.length, length: link.label.length, link_url: link.url });
		full += link.label;
	}
	const all = [...parts, ...linkParts];
	if (all.length > MAX_METADATA_PARTS) {
		throw new InputError(MESSAGE_FIELD, `has ${parts.length} formatting parts; with the answer links that is more than Rubika's 30`);
	}
	return { text: full, metadata: { meta_data_parts: all } as unknown as IDataObject };
}

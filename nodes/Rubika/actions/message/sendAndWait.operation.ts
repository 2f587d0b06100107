import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import { tokenOf } from '../../../shared/transport/credential';
import { formattingProperties, readFormattedText } from '../../helpers/formattingFields';
import { inputModeProperties } from '../../helpers/inputMode';
import type { LinksAs } from '../../waiting/answerLinks';
import { requireSignedAnswers, responseLinks, sendWithLinks } from '../../waiting/answerLinks';
import { answerInProperty, chatAnswerOptions, readAnswerIn, sendAnswerButtons } from '../../waiting/chatAnswer';
import { QUESTION_KINDS } from '../../waiting/questions';
import { formDefinitionProperties } from '../../waiting/responseForm';
import { limitWaitTimeOption, waitUntil } from '../../waiting/waitTime';
import type { ResponseType } from '../../waiting/webhook';
import { readQuestion } from '../../waiting/webhook';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { chatIdProperty, readChatId, readSendOptions, sendOptionsProperty } from './common';

const MESSAGE_FIELD = 'Message';

/**
 * Response Type, then Answer In (every type but Custom Form, which needs the web page), then the fields of the
 * type chosen. n8n's human-review tool for AI agents fixes Response Type to Approval and shows the rest.
 */
function responseTypeProperties(): INodeProperties[] {
	const [responseType, ...typeFields] = inputModeProperties(
		{ displayName: 'Response Type', name: 'responseType', default: 'approval', description: 'What the person answers with' },
		[
			...QUESTION_KINDS.map(({ value, name, description, fields }) => ({ value, name, description, fields })),
			{
				name: 'Custom Form',
				value: 'customForm',
				description: 'The person fills in a form you define (on a web page)',
				fields: formDefinitionProperties,
			},
		],
	);
	return [responseType, { ...answerInProperty, displayOptions: { hide: { responseType: ['customForm'] } } }, ...typeFields];
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
	...responseTypeProperties(),
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
			description: 'Label of the web page form\'s submit button (all but Approval)',
		},
		{
			displayName: 'Form Description',
			name: 'formDescription',
			type: 'string',
			default: '',
			description: 'Text shown above the web page\'s form (all but Approval)',
		},
		{
			displayName: 'Form Title',
			name: 'formTitle',
			type: 'string',
			default: 'Your answer',
			description: 'Title of the web page (all but Approval)',
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
			description: 'Text of the link that opens the web page\'s form (all but Approval)',
		},
	]),
	sendOptionsProperty('send', { skipAlreadySent: false }),
];

export const sendAndWait: RubikaOperation = {
	value: SEND_AND_WAIT_OPERATION,
	name: 'Send and Wait for Response',
	action: 'Send a message and wait for response',
	description:
		'Send a question and pause the workflow until the person answers: approve or decline, pick a choice, a date, a number, an item, share a phone number or a place, write a text or fill in a form, in the chat or on a web page',
	waitsForResponse: true,
	properties,
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const responseType = this.getNodeParameter('responseType', itemIndex, 'approval') as ResponseType;
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		// The question and its form are read again when the person answers: a broken definition must fail now,
		// not then. The webhook reads them with the same function.
		const asked = readQuestion(responseType, (name, fallback) => this.getNodeParameter(name, itemIndex, fallback));
		const waitTill = waitUntil(options.limitWaitTime as IDataObject | undefined);
		const { text, metadata } = readFormattedText.call(this, itemIndex, 'message', { requiredField: MESSAGE_FIELD });
		const base: IDataObject = { chat_id: chatId, ...readSendOptions(this, itemIndex) };
		const answerIn = 'question' in asked ? readAnswerIn(this.getNodeParameter('answerIn', itemIndex, 'webPage')) : 'webPage';

		// Keys the answer buttons, or the proof their fallback links carry: resolved once (a credential read).
		const botToken = answerIn !== 'webPage' ? ((await tokenOf(this)) ?? '') : undefined;
		if (answerIn !== 'webPage' && 'question' in asked) {
			const inChat = await sendAnswerButtons(this, itemIndex, answerIn, base, { text, metadata }, botToken ?? '', call, asked.question);
			if ('sent' in inChat) {
				await this.putExecutionToWait(waitTill);
				return { ...inChat.sent, chat_id: chatId, answer_in: answerIn, waiting_until: waitTill.toISOString() };
			}
			this.logger.info(`Rubika Send and Wait: answering in the chat is not possible (${inChat.problem}); sending links to a web page instead`);
		}
		requireSignedAnswers(this);
		const links = responseLinks(this, 'question' in asked ? asked.question : undefined, options, botToken);
		const message = { text, parts: metadata?.meta_data_parts ?? [], field: MESSAGE_FIELD };
		const linksAs = (options.linksAs as LinksAs | undefined) ?? 'buttonsOrText';
		const { sent, shownAs } = await sendWithLinks(this, base, message, links, linksAs, call);
		await this.putExecutionToWait(waitTill);
		return { ...sent, chat_id: chatId, answer_in: 'webPage', links_as: shownAs, waiting_until: waitTill.toISOString() };
	},
};

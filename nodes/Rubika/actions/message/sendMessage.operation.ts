import type { IExecuteFunctions } from 'n8n-workflow';

import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import {
	SEND_TO_CHAT_DESCRIPTION,
	chatIdProperty,
	messageTextProperties,
	readChatId,
	readMessagePieces,
	readSendExtras,
	readTextOptions,
	sendExtrasProperties,
	textOptionsProperty,
} from './common';
import { sendMessages } from './sendPieces';

export const sendMessage: RubikaOperation = {
	value: 'sendMessage',
	name: 'Send Text',
	action: 'Send a text message',
	description: 'Send a text message, optionally formatted and with an inline or chat keypad (sendMessage)',
	properties: [
		chatIdProperty(SEND_TO_CHAT_DESCRIPTION),
		...messageTextProperties('The message. Sent exactly as written unless Formatting says otherwise.'),
		...sendExtrasProperties(),
		textOptionsProperty('Text'),
	],
	recipient: readChatId,
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const textOptions = readTextOptions(this, itemIndex);
		const { text, pieces } = readMessagePieces(this, itemIndex, textOptions.longText);
		const extras = readSendExtras(this, itemIndex);
		const messages = pieces.map((piece) => ({ method: 'sendMessage' as const, fields: {}, piece }));
		const sent = await sendMessages(this, call, chatId, messages, extras, textOptions);
		// What was sent, beside the ids: the text as it went out (after Markdown), for the next node and the reader.
		return { ...sent, chat_id: chatId, text };
	},
};

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import type { ItemCall, RubikaOperation } from '../types';
import { SEND_TO_CHAT_DESCRIPTION, chatIdProperty, messageTextProperties, readChatId, readMessageText, readSendExtras, sendExtrasProperties } from './common';

export const sendMessage: RubikaOperation = {
	value: 'sendMessage',
	name: 'Send Text',
	action: 'Send a text message',
	description: 'Send a text message, optionally formatted and with an inline or chat keypad (sendMessage)',
	properties: [
		chatIdProperty(SEND_TO_CHAT_DESCRIPTION),
		...messageTextProperties('The message. Sent exactly as written unless Formatting says otherwise.'),
		...sendExtrasProperties(),
	],
	recipient: readChatId,
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const { text, metadata } = readMessageText(this, itemIndex);
		const body: IDataObject = { chat_id: chatId, text };
		if (metadata) body.metadata = metadata as unknown as IDataObject;
		Object.assign(body, readSendExtras(this, itemIndex));
		const data = await callRubika(this, 'sendMessage', body, call);
		// What was sent, beside the ids: the text as it went out (after Markdown), for the next node and the reader.
		return { ...data, chat_id: chatId, text };
	},
};

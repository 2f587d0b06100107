import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { chatIdProperty, messageIdProperty, messageTextProperties, readChatId, readEditedText, readMessageId } from './common';

export const editMessageText: RubikaOperation = {
	value: 'editMessageText',
	name: 'Edit Text',
	action: 'Edit the text of a message',
	description: "Replace the text of one of the bot's messages, without sending a new one (editMessageText)",
	properties: [
		chatIdProperty('Chat that holds the message'),
		messageIdProperty('ID of the message to edit; the bot can only edit its own messages'),
		...messageTextProperties('The new text. Earlier formatting is dropped; set Formatting to format the new text.'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const messageId = readMessageId(this, itemIndex);
		const { text, metadata } = readEditedText(this, itemIndex);
		// metadata only when formatting produced parts: a plain edit sends exactly the documented fields.
		const body: IDataObject = { chat_id: chatId, message_id: messageId, text };
		if (metadata) body.metadata = metadata as unknown as IDataObject;
		const data = await callRubika(this, 'editMessageText', body, call);
		return { ...data, chat_id: chatId, message_id: messageId };
	},
};

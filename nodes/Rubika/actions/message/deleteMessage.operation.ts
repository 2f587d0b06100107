import type { IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { chatIdProperty, messageIdProperty, readChatId, readMessageId } from './common';

export const deleteMessage: RubikaOperation = {
	value: 'deleteMessage',
	name: 'Delete',
	action: 'Delete a message',
	description: "Delete one of the bot's messages, or anyone's where the bot is an admin (deleteMessage)",
	properties: [
		chatIdProperty('Chat that holds the message'),
		messageIdProperty('ID of the message to delete'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const messageId = readMessageId(this, itemIndex);
		const data = await callRubika(this, 'deleteMessage', { chat_id: chatId, message_id: messageId }, call);
		return { ...data, chat_id: chatId, message_id: messageId, deleted: true };
	},
};

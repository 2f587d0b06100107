import type { IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import { messageIdProperty, readMessageId } from '../message/common';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { undocumentedDescription, undocumentedNotice } from '../undocumented';
import { PIN_CHAT_DESCRIPTION, chatIdProperty, readChatId } from './common';

export const unpinChatMessage: RubikaOperation = {
	value: 'unpinChatMessage',
	name: 'Unpin Message',
	action: 'Unpin a message',
	description: undocumentedDescription('Unpin one pinned message of a chat', 'unpinChatMessage'),
	properties: [
		undocumentedNotice('unpinChatMessage'),
		chatIdProperty(PIN_CHAT_DESCRIPTION, 'g0…'),
		messageIdProperty('The pinned message to unpin'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const messageId = readMessageId(this, itemIndex);
		await callRubika(this, 'unpinChatMessage', { chat_id: chatId, message_id: messageId }, call);
		return { chat_id: chatId, message_id: messageId, pinned: false };
	},
};

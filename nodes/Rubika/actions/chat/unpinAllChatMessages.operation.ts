import type { IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import type { ItemCall, RubikaOperation } from '../types';
import { undocumentedDescription, undocumentedNotice } from '../undocumented';
import { PIN_CHAT_DESCRIPTION, chatIdProperty, readChatId } from './common';

export const unpinAllChatMessages: RubikaOperation = {
	value: 'unpinAllChatMessages',
	name: 'Unpin All Messages',
	action: 'Unpin all messages',
	description: undocumentedDescription('Unpin every pinned message of a chat', 'unpinAllChatMessages'),
	properties: [undocumentedNotice('unpinAllChatMessages'), chatIdProperty(PIN_CHAT_DESCRIPTION, 'g0…')],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		await callRubika(this, 'unpinAllChatMessages', { chat_id: chatId }, call);
		return { chat_id: chatId, all_unpinned: true };
	},
};

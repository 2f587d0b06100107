import type { IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { undocumentedDescription, undocumentedNotice } from '../undocumented';
import { PIN_CHAT_DESCRIPTION, chatIdProperty, readChatId } from './common';

export const unpinAllChatMessages: RubikaOperation = {
	value: 'unpinAllChatMessages',
	name: 'Unpin All Messages',
	action: 'Unpin all messages',
	description: undocumentedDescription('Unpin every pinned message of a chat', 'unpinAllChatMessages'),
	properties: [undocumentedNotice('unpinAllChatMessages'), chatIdProperty(PIN_CHAT_DESCRIPTION, 'g0…')],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const chatId = readChatId(this, itemIndex);
		await callRubika(this, 'unpinAllChatMessages', { chat_id: chatId }, { itemIndex });
		return { chat_id: chatId, all_unpinned: true };
	},
};

import type { IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { ANY_CHAT_DESCRIPTION, chatIdProperty, readChatId } from './common';

export const getChat: RubikaOperation = {
	value: 'getChat',
	name: 'Get',
	action: 'Get a chat',
	description: 'Get the type, title or name and username of a chat the bot is in (getChat)',
	properties: [chatIdProperty(ANY_CHAT_DESCRIPTION, 'b0…')],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const data = await callRubika(this, 'getChat', { chat_id: chatId }, call);
		// Fall back to the whole answer should Rubika ever leave out the `chat` wrapper.
		return { ...(data.chat ?? data) };
	},
};

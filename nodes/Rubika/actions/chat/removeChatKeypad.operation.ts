import type { IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { ANY_CHAT_DESCRIPTION, chatIdProperty, readChatId } from './common';

export const removeChatKeypad: RubikaOperation = {
	value: 'removeChatKeypad',
	name: 'Remove Chat Keypad',
	action: 'Remove the chat keypad',
	description: 'Remove the chat keypad so the normal keyboard shows again (editChatKeypad Remove)',
	properties: [chatIdProperty(ANY_CHAT_DESCRIPTION, 'b0…')],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		await callRubika(this, 'editChatKeypad', { chat_id: chatId, chat_keypad_type: 'Remove' }, call);
		return { chat_id: chatId, chat_keypad: null };
	},
};

import type { IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { MODERATED_CHAT_DESCRIPTION, chatIdProperty, readChatId, readUserId, userIdProperty } from './common';

export const unbanChatMember: RubikaOperation = {
	value: 'unbanChatMember',
	name: 'Unban Member',
	action: 'Unban a chat member',
	description:
		'Lift a ban so the user may rejoin by invite link or be added again; it does not add them back (unbanChatMember)',
	properties: [chatIdProperty(MODERATED_CHAT_DESCRIPTION, 'g0…'), userIdProperty],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const userId = readUserId(this, itemIndex);
		await callRubika(this, 'unbanChatMember', { chat_id: chatId, user_id: userId }, call);
		return { chat_id: chatId, user_id: userId, banned: false };
	},
};

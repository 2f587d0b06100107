import type { IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { MODERATED_CHAT_DESCRIPTION, chatIdProperty, readChatId, readUserId, userIdProperty } from './common';

export const banChatMember: RubikaOperation = {
	value: 'banChatMember',
	name: 'Ban Member',
	action: 'Ban a chat member',
	description:
		'Remove a user from a group or channel; they cannot rejoin by invite link until unbanned. Owner and admins are not affected (banChatMember).',
	properties: [chatIdProperty(MODERATED_CHAT_DESCRIPTION, 'g0…'), userIdProperty],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const userId = readUserId(this, itemIndex);
		await callRubika(this, 'banChatMember', { chat_id: chatId, user_id: userId }, call);
		return { chat_id: chatId, user_id: userId, banned: true };
	},
};

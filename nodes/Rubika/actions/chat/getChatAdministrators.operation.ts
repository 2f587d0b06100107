import type { IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { undocumentedDescription, undocumentedNotice } from '../undocumented';
import { MODERATED_CHAT_DESCRIPTION, chatIdProperty, readChatId } from './common';
import { membersFromAnswer } from '../../../shared/members';

export const getChatAdministrators: RubikaOperation = {
	value: 'getChatAdministrators',
	name: 'Get Administrators',
	action: 'Get the administrators of a chat',
	description: undocumentedDescription(
		'Get the owner and admins of a group or channel, one item each',
		'getChatAdministrators',
	),
	properties: [undocumentedNotice('getChatAdministrators'), chatIdProperty(MODERATED_CHAT_DESCRIPTION, 'g0…')],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const data = await callRubika(this, 'getChatAdministrators', { chat_id: chatId }, call);
		return membersFromAnswer(data, chatId);
	},
};

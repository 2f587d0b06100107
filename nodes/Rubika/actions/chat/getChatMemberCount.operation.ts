import type { IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { undocumentedDescription, undocumentedNotice } from '../undocumented';
import { MODERATED_CHAT_DESCRIPTION, chatIdProperty, readChatId } from './common';
import { memberCountFromAnswer } from '../../../shared/members';

export const getChatMemberCount: RubikaOperation = {
	value: 'getChatMemberCount',
	name: 'Get Member Count',
	action: 'Get the member count of a chat',
	description: undocumentedDescription('Get how many members a group or channel has', 'getChatMemberCount'),
	properties: [undocumentedNotice('getChatMemberCount'), chatIdProperty(MODERATED_CHAT_DESCRIPTION, 'g0…')],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const data = await callRubika(this, 'getChatMemberCount', { chat_id: chatId }, call);
		return memberCountFromAnswer(data, chatId);
	},
};

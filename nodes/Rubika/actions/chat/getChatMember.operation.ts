import type { IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { undocumentedDescription, undocumentedNotice } from '../undocumented';
import { MODERATED_CHAT_DESCRIPTION, chatIdProperty, readChatId, readUserId, userIdProperty } from './common';
import { memberFromAnswer } from '../../../shared/members';

export const getChatMember: RubikaOperation = {
	value: 'getChatMember',
	name: 'Get Member',
	action: 'Get a chat member',
	description: undocumentedDescription(
		'Get one member of a group or channel and whether they are in it (is_member), e.g. to check that someone joined your channel',
		'getChatMember',
	),
	properties: [undocumentedNotice('getChatMember'), chatIdProperty(MODERATED_CHAT_DESCRIPTION, 'g0…'), userIdProperty],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const userId = readUserId(this, itemIndex);
		const data = await callRubika(this, 'getChatMember', { chat_id: chatId, user_id: userId }, call);
		return memberFromAnswer(data, chatId, userId);
	},
};

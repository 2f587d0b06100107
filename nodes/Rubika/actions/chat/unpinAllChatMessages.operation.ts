import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import { messageIdProperty, readMessageId } from '../message/common';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { undocumentedDescription, undocumentedNotice } from '../undocumented';
import { PIN_CHAT_DESCRIPTION, chatIdProperty, readChatId } from './common';

/**
 * rubpy, the one library that calls unpinAllChatMessages, always sends a message_id with it (facts §9); which
 * message the service expects, if it reads the field at all, is not known. Any message of the chat is taken.
 */
const MESSAGE_ID_DESCRIPTION =
	'A message of the chat, e.g. one of the pinned ones. rubpy, the one library that calls this method, always sends one; which message Rubika expects is not documented.';

export const unpinAllChatMessages: RubikaOperation = {
	value: 'unpinAllChatMessages',
	name: 'Unpin All Messages',
	action: 'Unpin all messages',
	description: undocumentedDescription('Unpin every pinned message of a chat', 'unpinAllChatMessages'),
	properties: [
		undocumentedNotice('unpinAllChatMessages'),
		chatIdProperty(PIN_CHAT_DESCRIPTION, 'g0…'),
		messageIdProperty(MESSAGE_ID_DESCRIPTION),
	],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const body: IDataObject = { chat_id: chatId, message_id: readMessageId(this, itemIndex) };
		await callRubika(this, 'unpinAllChatMessages', body, call);
		return { ...body, all_unpinned: true };
	},
};

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import { optionalId } from '../../helpers/params';
import { SHOW_BEFORE_1_1, SHOW_FROM_1_1, VERSION_1_1 } from '../../versions';
import { MESSAGE_ID_FIELD, messageIdProperty, readMessageId } from '../message/common';
import type { ItemCall, RubikaOperation } from '../types';
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
		{ ...messageIdProperty(MESSAGE_ID_DESCRIPTION), displayOptions: { show: SHOW_FROM_1_1 } },
		// Version 1 nodes sent no message id; they send one only when it is filled in.
		{ ...messageIdProperty(MESSAGE_ID_DESCRIPTION), required: false, displayOptions: { show: SHOW_BEFORE_1_1 } },
	],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const messageId =
			this.getNode().typeVersion >= VERSION_1_1
				? readMessageId(this, itemIndex)
				: optionalId(this, 'messageId', itemIndex, MESSAGE_ID_FIELD);
		const body: IDataObject = messageId === undefined ? { chat_id: chatId } : { chat_id: chatId, message_id: messageId };
		await callRubika(this, 'unpinAllChatMessages', body, call);
		return { ...body, all_unpinned: true };
	},
};

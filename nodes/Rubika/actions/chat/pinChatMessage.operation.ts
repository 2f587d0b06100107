import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import { readSwitch } from '../../helpers/params';
import { messageIdProperty, readMessageId } from '../message/common';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { undocumentedDescription, undocumentedNotice } from '../undocumented';
import { PIN_CHAT_DESCRIPTION, chatIdProperty, readChatId } from './common';

export const pinChatMessage: RubikaOperation = {
	value: 'pinChatMessage',
	name: 'Pin Message',
	action: 'Pin a message',
	description: undocumentedDescription('Pin a message at the top of a chat', 'pinChatMessage'),
	properties: [
		undocumentedNotice('pinChatMessage'),
		chatIdProperty(PIN_CHAT_DESCRIPTION, 'g0…'),
		messageIdProperty('The message to pin, e.g. the message_id a send operation returned'),
		{
			displayName: 'Disable Notification',
			name: 'disableNotification',
			type: 'boolean',
			default: false,
			description: 'Whether to pin silently, without notifying the members',
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const messageId = readMessageId(this, itemIndex);
		const body: IDataObject = { chat_id: chatId, message_id: messageId };
		// Sent only when asked for, so Rubika's default applies otherwise.
		if (readSwitch(this, 'disableNotification', itemIndex, 'Disable Notification', false)) body.disable_notification = true;
		await callRubika(this, 'pinChatMessage', body, call);
		return { chat_id: chatId, message_id: messageId, pinned: true };
	},
};

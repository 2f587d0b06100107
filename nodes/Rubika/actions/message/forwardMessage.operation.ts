import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import { idProperty, requireId } from '../../helpers/params';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { MESSAGE_ID_FIELD, messageIdProperty, readDisableNotification, sendOptionsProperty } from './common';

function readToChatId(context: IExecuteFunctions, itemIndex: number): string {
	return requireId(context, 'toChatId', itemIndex, 'To Chat ID');
}

export const forwardMessage: RubikaOperation = {
	value: 'forwardMessage',
	name: 'Forward',
	action: 'Forward a message',
	description: 'Forward a message from one chat to another, content and origin kept (forwardMessage)',
	properties: [
		idProperty('From Chat ID', 'fromChatId', 'b0…', 'Chat that holds the message'),
		messageIdProperty('ID of the message to forward'),
		idProperty('To Chat ID', 'toChatId', 'g0…', 'Chat to forward the message to'),
		sendOptionsProperty('forward'),
	],
	recipient: readToChatId,
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const fromChatId = requireId(this, 'fromChatId', itemIndex, 'From Chat ID');
		const messageId = requireId(this, 'messageId', itemIndex, MESSAGE_ID_FIELD);
		const toChatId = readToChatId(this, itemIndex);
		const body: IDataObject = {
			from_chat_id: fromChatId,
			message_id: messageId,
			to_chat_id: toChatId,
			...readDisableNotification(this, itemIndex),
		};
		const data = await callRubika(this, 'forwardMessage', body, call);
		// message_id and chat_id name the new message the way every send operation does, so an Edit or
		// Delete node after this one works unchanged.
		return {
			...data,
			message_id: data.new_message_id,
			chat_id: toChatId,
			from_chat_id: fromChatId,
			forwarded_message_id: messageId,
		};
	},
};

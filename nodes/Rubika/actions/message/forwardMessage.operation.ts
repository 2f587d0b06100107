import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import { requireId } from '../../helpers/params';
import type { RubikaOperation } from '../types';
import { MESSAGE_ID_FIELD, messageIdProperty } from './common';

export const forwardMessage: RubikaOperation = {
	value: 'forwardMessage',
	name: 'Forward',
	action: 'Forward a message',
	description: 'Forward a message from one chat to another, content and origin kept (forwardMessage)',
	properties: [
		{
			displayName: 'From Chat ID',
			name: 'fromChatId',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'b0…',
			description: 'Chat that holds the message',
		},
		messageIdProperty('ID of the message to forward'),
		{
			displayName: 'To Chat ID',
			name: 'toChatId',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'g0…',
			description: 'Chat to forward the message to',
		},
		{
			displayName: 'Send Options',
			name: 'sendOptions',
			type: 'collection',
			placeholder: 'Add option',
			default: {},
			options: [
				{
					displayName: 'Disable Notification',
					name: 'disableNotification',
					type: 'boolean',
					default: false,
					description: 'Whether the forwarded message arrives silently, without a notification sound',
				},
			],
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const fromChatId = requireId(this, 'fromChatId', itemIndex, 'From Chat ID');
		const messageId = requireId(this, 'messageId', itemIndex, MESSAGE_ID_FIELD);
		const toChatId = requireId(this, 'toChatId', itemIndex, 'To Chat ID');
		const options = this.getNodeParameter('sendOptions', itemIndex, {}) as IDataObject;
		const body: IDataObject = { from_chat_id: fromChatId, message_id: messageId, to_chat_id: toChatId };
		if (options.disableNotification !== undefined) {
			body.disable_notification = options.disableNotification === true || options.disableNotification === 'true';
		}
		const data = await callRubika(this, 'forwardMessage', body, { itemIndex });
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

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { InputError } from '../../../shared/errors';
import { callRubika } from '../../../shared/transport';
import { formattingProperties, readFormattedText } from '../../helpers/sendOptions';
import type { RubikaOperation } from '../types';
import { chatIdProperty, readChatId, readSendExtras, sendExtrasProperties } from './common';

export const sendMessage: RubikaOperation = {
	value: 'sendMessage',
	name: 'Send Text',
	action: 'Send a text message',
	description: 'Send a text message, optionally formatted and with an inline or chat keypad (sendMessage)',
	properties: [
		chatIdProperty(),
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 4 },
			required: true,
			default: '',
			description: 'The message. Sent exactly as written unless Formatting says otherwise.',
		},
		...formattingProperties({}, 'Text'),
		...sendExtrasProperties(),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const chatId = readChatId(this, itemIndex);
		const { text, metadata } = readFormattedText.call(this, itemIndex, 'text');
		// Markdown can leave nothing to send: a lone "> " quote marker or an empty ``` block.
		if (text.trim() === '') throw new InputError('Text', 'is required');
		const body: IDataObject = { chat_id: chatId, text };
		if (metadata) body.metadata = metadata as unknown as IDataObject;
		Object.assign(body, readSendExtras(this, itemIndex));
		const data = await callRubika(this, 'sendMessage', body, { itemIndex });
		return { ...data, chat_id: chatId };
	},
};

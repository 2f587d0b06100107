import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { InputError } from '../../../shared/errors';
import { callRubika } from '../../../shared/transport';
import { INLINE_KEYPAD_FIELD, inlineKeypadProperties, readInlineKeypad } from '../../helpers/keypadFields';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { chatIdProperty, messageIdProperty, readChatId, readMessageId } from './common';

export const editMessageKeypad: RubikaOperation = {
	value: 'editMessageKeypad',
	name: 'Edit Inline Keypad',
	action: 'Edit the inline keypad of a message',
	description: "Replace the buttons under one of the bot's messages; the text stays (editMessageKeypad)",
	properties: [
		chatIdProperty('Chat that holds the message'),
		messageIdProperty('ID of the message whose buttons change; the bot can only edit its own messages'),
		...inlineKeypadProperties({ required: true }),
	],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const messageId = readMessageId(this, itemIndex);
		const inlineKeypad = readInlineKeypad.call(this, itemIndex);
		// The field offers no "None" here, but a workflow saved with it (or an expression) could still say so.
		if (!inlineKeypad) throw new InputError(INLINE_KEYPAD_FIELD, 'is required: choose Builder or JSON and add buttons');
		const body: IDataObject = {
			chat_id: chatId,
			message_id: messageId,
			inline_keypad: inlineKeypad as unknown as IDataObject,
		};
		// Every library posts to editMessageKeypad; the docs' editInlineKeypad is a doc bug (facts §8).
		const data = await callRubika(this, 'editMessageKeypad', body, call);
		return { ...data, chat_id: chatId, message_id: messageId };
	},
};

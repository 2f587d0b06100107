import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import { chatKeypadProperties, readChatKeypad } from '../../helpers/keypadFields';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { ANY_CHAT_DESCRIPTION, chatIdProperty, readChatId } from './common';

/**
 * The shared chat keypad fields, so this operation offers the same builder, JSON mode and switches as the
 * send operations. Their "Chat Keypad" choice (leave / remove / set) is decided by the operation here, so it
 * becomes a hidden field fixed to "set"; the fields that depend on it then always show.
 */
function setKeypadProperties(): INodeProperties[] {
	return chatKeypadProperties().map((property) => {
		if (property.name !== 'chatKeypadAction') return property;
		const { options: _choices, ...rest } = property;
		return { ...rest, type: 'hidden', default: 'set' } as INodeProperties;
	});
}

export const setChatKeypad: RubikaOperation = {
	value: 'setChatKeypad',
	name: 'Set Chat Keypad',
	action: 'Set the chat keypad',
	description:
		'Show buttons in place of the keyboard, replacing any earlier chat keypad; a tap sends the button text as a message (editChatKeypad New)',
	properties: [chatIdProperty(ANY_CHAT_DESCRIPTION, 'b0…'), ...setKeypadProperties()],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const { chat_keypad: keypad } = readChatKeypad.call(this, itemIndex);
		const body: IDataObject = {
			chat_id: chatId,
			chat_keypad_type: 'New',
			chat_keypad: keypad as unknown as IDataObject,
		};
		await callRubika(this, 'editChatKeypad', body, call);
		return { chat_id: chatId, chat_keypad: keypad as unknown as IDataObject };
	},
};

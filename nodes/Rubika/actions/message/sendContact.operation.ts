import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { InputError } from '../../../shared/errors';
import { callRubika } from '../../../shared/transport';
import { readString, requireString } from '../../helpers/params';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { SEND_TO_CHAT_DESCRIPTION, chatIdProperty, readChatId, readSendExtras, sendExtrasProperties } from './common';

export const sendContact: RubikaOperation = {
	value: 'sendContact',
	name: 'Send Contact',
	action: 'Send a contact',
	description: 'Send a contact card with a name and phone number (sendContact)',
	properties: [
		chatIdProperty(SEND_TO_CHAT_DESCRIPTION),
		{
			displayName: 'First Name',
			name: 'firstName',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'Sara',
			description: 'First name of the contact, as the chat shows it',
		},
		{
			displayName: 'Last Name',
			name: 'lastName',
			type: 'string',
			default: '',
			placeholder: 'Karimi',
			description: 'Last name of the contact; may be left empty',
		},
		{
			displayName: 'Phone Number',
			name: 'phoneNumber',
			type: 'string',
			required: true,
			default: '',
			placeholder: '+989121234567',
			description: 'Digits with an optional leading +; spaces, dashes and brackets are allowed',
		},
		...sendExtrasProperties(),
	],
	recipient: readChatId,
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const firstName = requireString(this, 'firstName', itemIndex, 'First Name');
		const lastName = readString(this, 'lastName', itemIndex, 'Last Name').trim();
		const phoneNumber = requireString(this, 'phoneNumber', itemIndex, 'Phone Number');
		if (!/^\+?[0-9][0-9 ()-]*$/.test(phoneNumber)) {
			throw new InputError('Phone Number', `must be digits with an optional leading +, got "${phoneNumber}"`);
		}
		// The spec lists last_name beside the other two (not among the optional inputs), so it always goes out.
		const body: IDataObject = {
			chat_id: chatId,
			first_name: firstName,
			last_name: lastName,
			phone_number: phoneNumber,
			...readSendExtras(this, itemIndex),
		};
		const data = await callRubika(this, 'sendContact', body, call);
		return { ...data, chat_id: chatId, first_name: firstName, last_name: lastName, phone_number: phoneNumber };
	},
};

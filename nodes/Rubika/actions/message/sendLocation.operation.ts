import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readCoordinate } from '../../helpers/coordinates';
import { callRubika } from '../../../shared/transport';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { SEND_TO_CHAT_DESCRIPTION, chatIdProperty, readChatId, readSendExtras, sendExtrasProperties } from './common';

export const sendLocation: RubikaOperation = {
	value: 'sendLocation',
	name: 'Send Location',
	action: 'Send a location',
	description: 'Send a point on the map (sendLocation)',
	properties: [
		chatIdProperty(SEND_TO_CHAT_DESCRIPTION),
		{
			displayName: 'Latitude',
			name: 'latitude',
			type: 'string',
			required: true,
			default: '',
			placeholder: '35.6892',
			description: 'Degrees north (positive) or south (negative), from -90 to 90, with a dot for decimals',
		},
		{
			displayName: 'Longitude',
			name: 'longitude',
			type: 'string',
			required: true,
			default: '',
			placeholder: '51.3890',
			description: 'Degrees east (positive) or west (negative), from -180 to 180, with a dot for decimals',
		},
		...sendExtrasProperties(),
	],
	recipient: readChatId,
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const latitude = readCoordinate(this.getNodeParameter('latitude', itemIndex, '') as unknown, 'Latitude', 90);
		const longitude = readCoordinate(this.getNodeParameter('longitude', itemIndex, '') as unknown, 'Longitude', 180);
		const body: IDataObject = { chat_id: chatId, latitude, longitude, ...readSendExtras(this, itemIndex) };
		const data = await callRubika(this, 'sendLocation', body, call);
		return { ...data, chat_id: chatId, latitude, longitude };
	},
};

import type { IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';

export const getMe: RubikaOperation = {
	value: 'getMe',
	name: 'Get Info',
	action: 'Get bot info',
	description: "Get the bot's ID, name, username and start message (getMe)",
	properties: [],
	async execute(this: IExecuteFunctions, _itemIndex: number, call: ItemCall) {
		const { bot } = await callRubika(this, 'getMe', {}, call);
		return { ...bot };
	},
};

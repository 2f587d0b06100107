import type { RubikaResource } from '../types';
import { getMe } from './getMe.operation';

export const botResource: RubikaResource = {
	value: 'bot',
	name: 'Bot',
	description: "The bot's own profile, commands and endpoints",
	operations: [getMe],
};

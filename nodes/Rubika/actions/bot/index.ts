import { sortedByName } from '../../../shared/descriptions';
import type { RubikaOperation, RubikaResource } from '../types';
import { getMe } from './getMe.operation';
import { setCommands } from './setCommands.operation';
import { updateBotEndpoints } from './updateBotEndpoints.operation';

const operations: RubikaOperation[] = [getMe, setCommands, updateBotEndpoints];

export const botResource: RubikaResource = {
	value: 'bot',
	name: 'Bot',
	description: "The bot's own profile, commands and endpoints",
	operations: sortedByName(operations),
};

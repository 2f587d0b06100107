import type { RubikaResource } from '../types';
import { getUpdates } from './getUpdates.operation';

export const updateResource: RubikaResource = {
	value: 'update',
	name: 'Update',
	description: "The bot's list of new messages and other events",
	operations: [getUpdates],
};

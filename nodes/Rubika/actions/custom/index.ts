import type { RubikaResource } from '../types';
import { callMethod } from './callMethod.operation';

export const customResource: RubikaResource = {
	value: 'custom',
	name: 'Custom',
	description: 'Any Bot API method, for what the other resources do not cover',
	operations: [callMethod],
};

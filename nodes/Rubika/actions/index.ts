import { botResource } from './bot';
import type { RubikaOperation, RubikaResource } from './types';

/** Every resource of the node, in the order of the Resource dropdown. */
export const RESOURCES: RubikaResource[] = [botResource];

export function findOperation(resource: string, operation: string): RubikaOperation | undefined {
	return RESOURCES.find((r) => r.value === resource)?.operations.find((o) => o.value === operation);
}

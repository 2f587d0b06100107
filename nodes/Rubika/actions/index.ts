import { botResource } from './bot';
import { chatResource } from './chat';
import { customResource } from './custom';
import { fileResource } from './file';
import { messageResource } from './message';
import type { RubikaOperation, RubikaResource } from './types';
import { updateResource } from './update';

/** Every resource of the node, in the order of the Resource dropdown. */
export const RESOURCES: RubikaResource[] = [botResource, chatResource, messageResource, fileResource, updateResource, customResource];

export function findOperation(resource: string, operation: string): RubikaOperation | undefined {
	return RESOURCES.find((r) => r.value === resource)?.operations.find((o) => o.value === operation);
}

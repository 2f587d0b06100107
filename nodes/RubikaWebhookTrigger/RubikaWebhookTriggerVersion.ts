/**
 * The versions of the Rubika Webhook Trigger, one class with what differs between them:
 * - version 1, kept for the workflows built with it: its description and behaviour are what the node had
 *   before version 2. With the secret in the path (the default), every version 1 node has the same webhook
 *   path, so n8n lets only one of them be active; a second activation takes a bot over from whatever
 *   received it before.
 * - version 2, the default for new nodes: every node's webhook path starts with its own webhook id, so
 *   workflows for different bots can all be active whatever their Secret setting, and a second active
 *   workflow for the same bot is refused with an error naming the first (oneTriggerPerBot.ts).
 */
import type {
	INodeType,
	INodeTypeBaseDescription,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { activationMethods } from '../RubikaTrigger/webhook/activation';
import { receiveDelivery } from '../RubikaTrigger/webhook/delivery';
import type { WebhookTriggerVersion } from '../RubikaTrigger/webhook/routes';
import { webhookTriggerVersionDescription } from '../RubikaTrigger/webhook/routes';

/** A version's description and whether it refuses a second active workflow for one bot. */
interface VersionSettings extends WebhookTriggerVersion {
	refuseTakenBot: boolean;
}

export const WEBHOOK_TRIGGER_VERSIONS: Record<1 | 2, VersionSettings> = {
	1: {
		version: 1,
		routing: 'sharedPath',
		refuseTakenBot: false,
		notice:
			'Rubika keeps one address per bot and endpoint. Activating this workflow, or listening for a test event, points the bot here and takes its deliveries away from any other workflow or program using the same bot. Rubika has no call to unregister: after deactivating, or after a test, the bot keeps posting to the old address until something registers again, so deactivate and reactivate the production workflow after testing. Rubika needs a public HTTPS address; on a local n8n use the Rubika Trigger (polling) instead.',
	},
	2: {
		version: 2,
		routing: 'pathPerNode',
		refuseTakenBot: true,
		notice:
			'Rubika sends each bot\'s updates to one address. Activating this workflow points the bot here; while another active workflow receives the same bot, activating fails with an error that names it. Listening for a test event points the bot at the test address, also away from an active workflow: deactivate and reactivate that workflow after testing. Rubika has no call to unregister, and needs a public HTTPS address; on a local n8n use the Rubika Trigger instead.',
	},
};

export class RubikaWebhookTriggerVersion implements INodeType {
	description: INodeTypeDescription;

	webhookMethods: INodeType['webhookMethods'];

	constructor(baseDescription: INodeTypeBaseDescription, { refuseTakenBot, ...version }: VersionSettings) {
		this.description = webhookTriggerVersionDescription(baseDescription, version);
		this.webhookMethods = activationMethods({ refuseTakenBot });
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery(this);
	}
}

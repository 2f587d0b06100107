/**
 * Rubika Webhook Trigger version 1, kept for the workflows built with it: its description and behaviour are
 * what the node had before version 2. With the secret in the path (the default), every version 1 node has
 * the same webhook path, so n8n lets only one of them be active; a second activation takes a bot over from
 * whatever received it before.
 */
import type {
	INodeType,
	INodeTypeBaseDescription,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { activationMethods } from './activation';
import { receiveDelivery } from './delivery';
import { webhookTriggerVersionDescription } from './description';

export class RubikaWebhookTriggerV1 implements INodeType {
	description: INodeTypeDescription;

	webhookMethods = activationMethods({ refuseTakenBot: false });

	constructor(baseDescription: INodeTypeBaseDescription) {
		this.description = webhookTriggerVersionDescription(baseDescription, {
			version: 1,
			routing: 'sharedPath',
			notice:
				'Rubika keeps one address per bot and endpoint. Activating this workflow, or listening for a test event, points the bot here and takes its deliveries away from any other workflow or program using the same bot. Rubika has no call to unregister: after deactivating, or after a test, the bot keeps posting to the old address until something registers again, so deactivate and reactivate the production workflow after testing. Rubika needs a public HTTPS address; on a local n8n use the Rubika Trigger (polling) instead.',
		});
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery(this);
	}
}

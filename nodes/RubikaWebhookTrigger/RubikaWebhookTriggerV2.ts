/**
 * Rubika Webhook Trigger version 2, the default for new nodes: every node's webhook path starts with its own
 * webhook id, so workflows for different bots can all be active whatever their Secret setting, and a second
 * active workflow for the same bot is refused with an error naming the first (oneTriggerPerBot.ts).
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

export class RubikaWebhookTriggerV2 implements INodeType {
	description: INodeTypeDescription;

	webhookMethods = activationMethods({ refuseTakenBot: true });

	constructor(baseDescription: INodeTypeBaseDescription) {
		this.description = webhookTriggerVersionDescription(baseDescription, {
			version: 2,
			routing: 'pathPerNode',
			notice:
				'Rubika sends each bot\'s updates to one address. Activating this workflow points the bot here; while another active workflow receives the same bot, activating fails with an error that names it. Listening for a test event points the bot at the test address, also away from an active workflow: deactivate and reactivate that workflow after testing. Rubika has no call to unregister, and needs a public HTTPS address; on a local n8n use the Rubika Trigger instead.',
		});
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery(this);
	}
}

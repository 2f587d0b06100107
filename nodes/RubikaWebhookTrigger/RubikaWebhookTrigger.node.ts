import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { RUBIKA_ICON } from '../shared/descriptions';
import { isRegistered, register, unregister } from './activation';
import { receiveDelivery } from './delivery';
import { webhookTriggerProperties, webhooks } from './description';

/**
 * Rubika Webhook Trigger: registers n8n's address with the bot's endpoints (activation.ts) and starts the
 * workflow with each delivery (delivery.ts). Its parameters and routes are in description.ts.
 */
export class RubikaWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Rubika Webhook Trigger',
		name: 'rubikaWebhookTrigger',
		icon: RUBIKA_ICON,
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Endpoints: " + ($parameter["endpoints"] || []).join(", ")}}',
		description:
			'Starts the workflow the moment Rubika delivers a message, an update or an inline keypad tap to your bot',
		defaults: { name: 'Rubika Webhook Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'rubikaApi', required: true }],
		webhooks,
		properties: webhookTriggerProperties,
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await isRegistered(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await register(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await unregister(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery(this);
	}
}

/**
 * Rubika Trigger: starts the workflow with each update the bot receives, in one of two ways (Receive
 * Updates): by reading getUpdates in a loop (reading/: no public address needed), or by a webhook Rubika posts
 * to (webhook/: instant, and the only way taps on buttons under a message arrive). One node type carries
 * both: n8n activates its webhooks only when the trigger receives by webhook (webhook/routes.ts), and runs
 * `trigger()` for every published trigger, which reads only when it receives by reading.
 */
import type {
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { RUBIKA_ICON } from '../shared/descriptions';
import { triggerProperties, triggerWebhooks } from './description';
import { startReading } from './reading/reader';
import { readTriggerSettings } from './settings';
import { activationMethods } from './webhook/activation';
import { receiveDelivery } from './webhook/delivery';
import { emitTestEvent } from './webhook/testEvent';

export class RubikaTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Rubika Trigger',
		name: 'rubikaTrigger',
		icon: RUBIKA_ICON,
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["receiveUpdates"] === "webhook" ? "By webhook" : "By reading"}}',
		description:
			'Starts the workflow when your Rubika bot receives a message, an update or a keypad tap: by reading (no public address needed) or by webhook (instant)',
		defaults: { name: 'Rubika Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'rubikaApi', required: true }],
		webhooks: triggerWebhooks,
		properties: triggerProperties,
	};

	webhookMethods = activationMethods();

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const settings = readTriggerSettings(this);
		// By webhook, n8n's webhooks receive the updates (webhookMethods, webhook()); nothing runs here but
		// the hand-over of a test event to the manual execution it starts (webhook/testEvent.ts).
		if (settings.receive.by === 'webhook') return this.getMode() === 'manual' ? emitTestEvent(this) : {};
		return await startReading(this, settings, settings.receive.reading);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery(this);
	}
}

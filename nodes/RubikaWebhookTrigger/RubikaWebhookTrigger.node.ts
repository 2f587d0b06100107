/**
 * Rubika Webhook Trigger: registers n8n's address with the bot's endpoints (activation.ts) and starts the
 * workflow with each delivery (delivery.ts). Version 2 (the default for new nodes) gives every node a path of
 * its own, so any number of bots can each have an active workflow, and refuses a second active workflow for
 * one bot; version 1 stays as it was for the workflows built with it. Their descriptions are in
 * description.ts.
 */
import type { INodeTypeBaseDescription } from 'n8n-workflow';
import { VersionedNodeType } from 'n8n-workflow';

import { RUBIKA_ICON } from '../shared/descriptions';
import { RubikaWebhookTriggerVersion, WEBHOOK_TRIGGER_VERSIONS } from './RubikaWebhookTriggerVersion';

/** What n8n shows for the node as a whole (the node creator, the search); each version adds its panel. */
const baseDescription: INodeTypeBaseDescription = {
	displayName: 'Rubika Webhook Trigger',
	name: 'rubikaWebhookTrigger',
	icon: RUBIKA_ICON,
	group: ['trigger'],
	description:
		'Starts the workflow the moment Rubika delivers a message, an update or an inline keypad tap to your bot',
	defaultVersion: 2,
};

export class RubikaWebhookTrigger extends VersionedNodeType {
	constructor() {
		super(
			{
				1: new RubikaWebhookTriggerVersion(baseDescription, WEBHOOK_TRIGGER_VERSIONS[1]),
				2: new RubikaWebhookTriggerVersion(baseDescription, WEBHOOK_TRIGGER_VERSIONS[2]),
			},
			baseDescription,
		);
	}
}

/**
 * Rubika Trigger version 1: a polling node on n8n's Poll Times schedule (every minute at the most frequent).
 * Kept for the workflows built with it; new nodes get version 2, the continuous trigger.
 */
import type {
	INodeExecutionData,
	INodeType,
	INodeTypeBaseDescription,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';

import { triggerVersionDescription } from './description';
import { DEFAULT_MAX_UPDATES_PER_POLL, MAX_UPDATES_PER_POLL_LIMIT, runPoll } from './pollingReader';

export class PollingTrigger implements INodeType {
	description: INodeTypeDescription;

	constructor(baseDescription: INodeTypeBaseDescription) {
		this.description = triggerVersionDescription(baseDescription, {
			version: 1,
			subtitle:
				'={{"Poll: " + ($parameter["updateTypes"].length ? $parameter["updateTypes"].join(", ") : "all updates")}}',
			description:
				'Starts the workflow when your Rubika bot receives messages or other updates (polling, no public URL needed)',
			polling: true,
			notice:
				'Polls Rubika for new updates on the schedule below (every minute at the most frequent). For answers within a second, add a new Rubika Trigger: new nodes read updates continuously. If this bot also has a webhook registered (for example by a Rubika Webhook Trigger), Rubika may deliver updates there instead.',
			options: [
				{
					displayName: 'Max Updates per Poll',
					name: 'maxUpdatesPerPoll',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: MAX_UPDATES_PER_POLL_LIMIT },
					default: DEFAULT_MAX_UPDATES_PER_POLL,
					description:
						'Most updates read from Rubika in one poll (filtered ones included). The rest waits for the next poll.',
				},
			],
		});
	}

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await runPoll(this);
	}
}

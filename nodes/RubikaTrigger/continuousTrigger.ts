/**
 * Rubika Trigger version 2: reads updates continuously (about once a second) while the workflow is active
 * and while the editor listens for a test event. One execution per update, exactly once on n8n 2.41+.
 * Version 2.1 differs only in a default: when Rubika rejects the saved position it restarts from the oldest
 * update Rubika keeps instead of stopping (description.ts, RESTART_BY_DEFAULT_FROM_VERSION).
 */
import type {
	INodeType,
	INodeTypeBaseDescription,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';

import { triggerVersionDescription } from './description';
import { startContinuousReading } from './reading/reader';
import {
	DEFAULT_IDLE_INTERVAL_SECONDS,
	DEFAULT_INTERVAL_SECONDS,
	MAX_INTERVAL_SECONDS,
	MIN_INTERVAL_SECONDS,
} from './reading/limits';

export class ContinuousTrigger implements INodeType {
	description: INodeTypeDescription;

	constructor(baseDescription: INodeTypeBaseDescription, version: 2 | 2.1) {
		this.description = triggerVersionDescription(baseDescription, {
			version,
			subtitle: '={{$parameter["updateTypes"].length ? $parameter["updateTypes"].join(", ") : "all updates"}}',
			notice:
				'Reads new updates from Rubika about once a second, so n8n needs no public address. Each update starts its own execution. Inline keypad taps reach only a webhook: use the Rubika Webhook Trigger for those. If this bot also has a webhook registered, Rubika may deliver updates there instead.',
			options: [
				{
					displayName: 'Interval (Seconds)',
					name: 'interval',
					type: 'number',
					typeOptions: { minValue: MIN_INTERVAL_SECONDS, maxValue: MAX_INTERVAL_SECONDS, numberPrecision: 1 },
					default: DEFAULT_INTERVAL_SECONDS,
					description:
						'How long to wait before asking Rubika again when it had nothing new. While updates keep coming, the next request goes out at once.',
				},
				{
					displayName: 'Idle Interval (Seconds)',
					name: 'idleInterval',
					type: 'number',
					typeOptions: { minValue: MIN_INTERVAL_SECONDS, maxValue: MAX_INTERVAL_SECONDS, numberPrecision: 1 },
					default: DEFAULT_IDLE_INTERVAL_SECONDS,
					description:
						'The wait used instead of Interval once the bot has had no update for five minutes, to save requests while nobody writes. Set it equal to Interval to never slow down.',
				},
			],
		});
	}

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return await startContinuousReading(this);
	}
}

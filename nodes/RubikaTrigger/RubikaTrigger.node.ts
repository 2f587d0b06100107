import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { binaryPropertyNameOption, downloadFilesOption } from '../shared/downloads';
import { updateFiltersProperty, updateTypesProperty } from '../shared/updates';
import {
	DEFAULT_MAX_UPDATES_PER_POLL,
	DEFAULT_PAGE_SIZE,
	MAX_UPDATES_PER_POLL_LIMIT,
	runPoll,
} from './poller';

export class RubikaTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Rubika Trigger',
		name: 'rubikaTrigger',
		icon: { light: 'file:../../icons/rubika.svg', dark: 'file:../../icons/rubika.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Poll: " + ($parameter["updateTypes"].length ? $parameter["updateTypes"].join(", ") : "all updates")}}',
		description: 'Starts the workflow when your Rubika bot receives messages or other updates (polling, no public URL needed)',
		defaults: { name: 'Rubika Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'rubikaApi', required: true }],
		properties: [
			{
				displayName:
					'Polls Rubika for new updates, so n8n needs no public address. Updates arrive at the next poll (every minute at the most frequent). If this bot also has a webhook registered (for example by a Rubika Webhook Trigger), Rubika may deliver updates there instead.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			updateTypesProperty,
			{
				displayName: 'On First Activation',
				name: 'firstActivation',
				type: 'options',
				options: [
					{
						name: 'Start From Now',
						value: 'startFromNow',
						description: 'Skip the updates that were waiting before the workflow was first activated',
					},
					{
						name: 'Process Backlog',
						value: 'processBacklog',
						description: 'Also process the updates Rubika still keeps from before the first activation',
					},
				],
				default: 'startFromNow',
				description:
					'What to do with older updates the first time the workflow is activated. Later activations always continue where the trigger stopped.',
			},
			updateFiltersProperty,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					downloadFilesOption(),
					{
						displayName: 'If Rubika Rejects the Saved Position',
						name: 'onRejectedPosition',
						type: 'options',
						options: [
							{
								name: 'Stop With an Error',
								value: 'error',
								description: 'Fail every poll with an explanation until you choose one of the others',
							},
							{
								name: 'Restart From the Oldest Kept Update',
								value: 'restartFromOldest',
								description:
									'Read again everything Rubika still keeps; recently delivered updates are recognised and dropped',
							},
							{
								name: 'Skip to Now',
								value: 'skipToNow',
								description: 'Continue with updates that arrive from now on',
							},
						],
						default: 'error',
						description:
							'What to do when Rubika no longer accepts the position the trigger saved (for example after the credential was switched to another bot)',
					},
					{
						displayName: 'Max Updates per Poll',
						name: 'maxUpdatesPerPoll',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: MAX_UPDATES_PER_POLL_LIMIT },
						default: DEFAULT_MAX_UPDATES_PER_POLL,
						description:
							'Most updates read from Rubika in one poll (filtered ones included). The rest waits for the next poll.',
					},
					{
						displayName: 'Page Size',
						name: 'pageSize',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 1000 },
						default: DEFAULT_PAGE_SIZE,
						description: 'How many updates to ask Rubika for in one getUpdates request',
					},
					binaryPropertyNameOption,
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await runPoll(this);
	}
}

/**
 * The parts of Rubika Trigger's panel that both versions show: what starts the workflow, where the first
 * activation starts, the filters, and the options that read getUpdates the same way.
 */
import type { INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../shared/descriptions';
import { binaryPropertyNameOption, downloadFilesOption } from '../shared/downloads';
import { updateFiltersProperty, updateTypesProperty } from '../shared/updates/filterFields';

export const DEFAULT_PAGE_SIZE = 100;

export const firstActivationProperty: INodeProperties = {
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
};

export const onRejectedPositionOption: INodeProperties = {
	displayName: 'If Rubika Rejects the Saved Position',
	name: 'onRejectedPosition',
	type: 'options',
	options: [
		{
			name: 'Stop With an Error',
			value: 'error',
			description: 'Report an error and read nothing until you choose one of the others',
		},
		{
			name: 'Restart From the Oldest Kept Update',
			value: 'restartFromOldest',
			description: 'Read again everything Rubika still keeps; recently delivered updates are recognised and dropped',
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
};

export const pageSizeOption: INodeProperties = {
	displayName: 'Page Size',
	name: 'pageSize',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 1000 },
	default: DEFAULT_PAGE_SIZE,
	description: 'How many updates to ask Rubika for in one getUpdates request',
};

/** The properties every version shows in this order, with its own notice first and its own options last. */
export function triggerProperties(notice: string, options: INodeProperties[]): INodeProperties[] {
	return [
		{ displayName: notice, name: 'notice', type: 'notice', default: '' },
		updateTypesProperty,
		firstActivationProperty,
		updateFiltersProperty,
		optionsCollection([downloadFilesOption(), onRejectedPositionOption, ...options, pageSizeOption, binaryPropertyNameOption]),
	];
}

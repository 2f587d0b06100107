/**
 * The parts of Rubika Trigger's panel that both versions show: what starts the workflow, where the first
 * activation starts, the filters, and the options that read getUpdates the same way.
 */
import type { INodeProperties, INodeTypeBaseDescription, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { optionsCollection } from '../shared/descriptions';
import { binaryPropertyNameOption, downloadFilesOption } from '../shared/downloads';
import { updateFiltersProperty, updateTypesProperty } from '../shared/updates/filterFields';
import { addSenderDetailsOption } from '../shared/updates/sender';

export const DEFAULT_PAGE_SIZE = 100;

const firstActivationProperty: INodeProperties = {
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

/** What the trigger may do when Rubika rejects the saved position (Options → If Rubika Rejects the Saved Position). */
export const ON_REJECTED_POSITION = ['error', 'restartFromOldest', 'skipToNow'] as const;
export type OnRejectedPosition = (typeof ON_REJECTED_POSITION)[number];

/**
 * The first version that, by default, restarts from the oldest update Rubika keeps when it rejects the saved
 * position, instead of stopping: an unattended bot stays alive, and what was already run is recognised and
 * dropped (n8n's deduplication keys on 2.41+, the trigger's recently delivered keys on every version).
 * Workflows built with earlier versions keep stopping with an error.
 */
const RESTART_BY_DEFAULT_FROM_VERSION = 2.1;

/** What the trigger does by default when Rubika rejects the saved position, for a node version. */
export function onRejectedPositionDefault(version: number): OnRejectedPosition {
	return version >= RESTART_BY_DEFAULT_FROM_VERSION ? 'restartFromOldest' : 'error';
}

function onRejectedPositionOption(version: number): INodeProperties {
	return {
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
				description: 'Read again everything Rubika still keeps; updates already delivered are recognised and dropped',
			},
			{
				name: 'Skip to Now',
				value: 'skipToNow',
				description: 'Continue with updates that arrive from now on',
			},
		],
		default: onRejectedPositionDefault(version),
		description:
			'What to do when Rubika no longer accepts the position the trigger saved (for example after Rubika lost it, or the credential was switched to another bot)',
	};
}

const pageSizeOption: INodeProperties = {
	displayName: 'Page Size',
	name: 'pageSize',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 1000 },
	default: DEFAULT_PAGE_SIZE,
	description: 'How many updates to ask Rubika for in one getUpdates request',
};

/** What one version of the trigger says about itself beyond what every version shares. */
export interface TriggerVersion {
	version: number;
	subtitle: string;
	/** The node's one-line description where this version's differs from the base's. */
	description?: string;
	/** The notice at the top of the panel: how this version reads updates. */
	notice: string;
	/** This version's own options, shown among the shared ones. */
	options: INodeProperties[];
	/** Version 1 runs on n8n's poll schedule. */
	polling?: true;
}

/**
 * A version's whole description: the node's base description, no inputs, one output, the Rubika credential,
 * and the panel every version shows in this order (its own notice first, its own options among the shared).
 */
export function triggerVersionDescription(base: INodeTypeBaseDescription, own: TriggerVersion): INodeTypeDescription {
	return {
		...base,
		version: own.version,
		subtitle: own.subtitle,
		...(own.description ? { description: own.description } : {}),
		defaults: { name: 'Rubika Trigger' },
		...(own.polling ? { polling: true } : {}),
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'rubikaApi', required: true }],
		properties: [
			{ displayName: own.notice, name: 'notice', type: 'notice', default: '' },
			updateTypesProperty,
			firstActivationProperty,
			updateFiltersProperty,
			optionsCollection([
				addSenderDetailsOption,
				downloadFilesOption(),
				onRejectedPositionOption(own.version),
				...own.options,
				pageSizeOption,
				binaryPropertyNameOption,
			]),
		],
	};
}

/**
 * Rubika Trigger: version 2 reads updates continuously and answers within about a second (2.1, the default for
 * new nodes, restarts from the oldest kept update when Rubika rejects the saved position; 2 stops with an error
 * there); version 1 polls on n8n's schedule and stays for the workflows that use it.
 */
import type { INodeTypeBaseDescription } from 'n8n-workflow';
import { VersionedNodeType } from 'n8n-workflow';

import { RUBIKA_ICON } from '../shared/descriptions';
import { PollingTrigger } from './pollingTrigger';
import { ContinuousTrigger } from './continuousTrigger';

/** What n8n shows for the node as a whole (the node creator, the search); each version adds its panel. */
const baseDescription: INodeTypeBaseDescription = {
	displayName: 'Rubika Trigger',
	name: 'rubikaTrigger',
	icon: RUBIKA_ICON,
	group: ['trigger'],
	description:
		'Starts the workflow within about a second when your Rubika bot receives a message or another update. No public URL needed.',
	defaultVersion: 2.1,
};

export class RubikaTrigger extends VersionedNodeType {
	constructor() {
		super(
			{
				1: new PollingTrigger(baseDescription),
				2: new ContinuousTrigger(baseDescription, 2),
				2.1: new ContinuousTrigger(baseDescription, 2.1),
			},
			baseDescription,
		);
	}
}

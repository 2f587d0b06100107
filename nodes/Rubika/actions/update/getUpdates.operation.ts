import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import { callRubika } from '../../../shared/transport';
import { optionalId, readInteger } from '../../helpers/params';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';

/** What every output item carries: where a later run continues (the `offset_id` to pass next time). */
const NEXT_OFFSET_KEY = '_next_offset_id';

/** Rubika does not document a maximum page size; libraries ask for up to 100. */
const DEFAULT_PAGE_SIZE = 100;

function cursorOf(value: unknown): string | undefined {
	if (typeof value === 'string' && value !== '') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

export const getUpdates: RubikaOperation = {
	value: 'getUpdates',
	name: 'Get Many',
	action: 'Get many updates',
	description:
		'Read new messages, edits and other events from the bot\'s update list, one item per update (getUpdates). To react to updates as they come, use the Rubika Trigger instead.',
	properties: [
		{
			displayName: 'Offset ID',
			name: 'offsetId',
			type: 'string',
			default: '',
			description:
				'Where to start: the _next_offset_id of an earlier run, to get only what came since. Empty starts at the oldest update Rubika still keeps.',
		},
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
		optionsCollection([
			{
				displayName: 'Output Cursor When Empty',
				name: 'outputCursorWhenEmpty',
				type: 'boolean',
				default: false,
				description:
					'Whether to output one item holding only _next_offset_id when there are no updates, so the workflow can still store where to continue',
			},
			{
				displayName: 'Page Size',
				name: 'pageSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 1000 },
				default: DEFAULT_PAGE_SIZE,
				description: 'How many updates to ask Rubika for per request',
			},
		]),
	],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const startOffset = optionalId(this, 'offsetId', itemIndex, 'Offset ID');
		const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = returnAll ? Infinity : readInteger(this, 'limit', itemIndex, 'Limit', { min: 1, fallback: 50 });
		const pageSize = readInteger(this, 'options.pageSize', itemIndex, 'Page Size', {
			min: 1,
			max: 1000,
			fallback: DEFAULT_PAGE_SIZE,
		});
		const outputCursorWhenEmpty = this.getNodeParameter('options.outputCursorWhenEmpty', itemIndex, false) as boolean;

		const updates: IDataObject[] = [];
		// Duplicates happen (facts §5); an exact repeat of an update already read in this run is dropped.
		const seenUpdates = new Set<string>();
		// Every cursor handed out so far: one coming back means the list is not moving on, so paging stops
		// instead of asking for the same page forever.
		const seenCursors = new Set<string>(startOffset === undefined ? [] : [startOffset]);
		let cursor = startOffset;
		for (;;) {
			// Never ask for more than the limit still allows: the cursor Rubika returns points past the whole
			// page, so updates cut off here would be skipped by the next run.
			const wanted = Math.min(pageSize, limit - updates.length);
			if (wanted <= 0) break;
			const body: IDataObject = { limit: wanted };
			if (cursor !== undefined) body.offset_id = cursor;
			const data = await callRubika(this, 'getUpdates', body, call);
			const page = Array.isArray(data.updates) ? (data.updates as unknown as IDataObject[]) : [];
			for (const update of page) {
				if (updates.length >= limit) break;
				const key = JSON.stringify(update);
				if (seenUpdates.has(key)) continue;
				seenUpdates.add(key);
				updates.push(update);
			}
			const next = cursorOf(data.next_offset_id);
			const advanced = next !== undefined && !seenCursors.has(next);
			if (next !== undefined) {
				seenCursors.add(next);
				cursor = next;
			}
			if (page.length === 0 || !advanced) break;
		}

		const nextOffsetId = cursor ?? null;
		if (updates.length === 0) return outputCursorWhenEmpty ? [{ [NEXT_OFFSET_KEY]: nextOffsetId }] : [];
		return updates.map((update) => ({ ...update, [NEXT_OFFSET_KEY]: nextOffsetId }));
	},
};

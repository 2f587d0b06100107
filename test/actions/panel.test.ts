/**
 * What a person reads in the node's panel: every field says what it is for, and the Formatting dropdown
 * starts with None.
 */
import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { Rubika } from '../../nodes/Rubika/Rubika.node';
import { RubikaTrigger } from '../../nodes/RubikaTrigger/RubikaTrigger.node';
import { RubikaWebhookTrigger } from '../../nodes/RubikaWebhookTrigger/RubikaWebhookTrigger.node';

/** Every field, nested ones (collections, fixed collections) included, with the path to it. */
function fields(properties: INodeProperties[], path = ''): Array<[string, INodeProperties]> {
	return properties.flatMap((property) => {
		const here = `${path}${property.displayName}`;
		const nested = (property.options ?? []).flatMap((option) => {
			if ('values' in (option as INodePropertyCollection)) return fields((option as INodePropertyCollection).values, `${here} › `);
			if ('type' in option) return fields([option as INodeProperties], `${here} › `);
			return [];
		});
		return [[here, property] as [string, INodeProperties], ...nested];
	});
}

const panels: Array<[string, INodeProperties[]]> = [
	['Rubika', new Rubika().description.properties],
	['Rubika Trigger v1', new RubikaTrigger().nodeVersions[1].description.properties],
	['Rubika Trigger v2', new RubikaTrigger().nodeVersions[2].description.properties],
	['Rubika Webhook Trigger v1', new RubikaWebhookTrigger().nodeVersions[1].description.properties],
	['Rubika Webhook Trigger v2', new RubikaWebhookTrigger().nodeVersions[2].description.properties],
];

// Containers (Options, Send Options, …) are named by what they hold; their fields carry the descriptions.
const CONTAINERS = ['notice', 'collection', 'fixedCollection'];

test.each(panels)('every field of %s says what it is for', (_name, properties) => {
	const undescribed = fields(properties)
		.filter(([, property]) => !CONTAINERS.includes(property.type) && !['resource', 'operation'].includes(property.name))
		.filter(([, property]) => typeof property.description !== 'string' || property.description.trim() === '')
		.map(([path]) => path);
	expect(undescribed).toEqual([]);
});

test('the Formatting dropdown starts with None, what is sent when nothing is chosen', () => {
	const formatting = new Rubika().description.properties.filter((property) => property.name === 'formatting');
	expect(formatting.length).toBeGreaterThan(3);
	for (const property of formatting) {
		expect(property.default).toBe('none');
		expect((property.options?.[0] as { value: string }).value).toBe('none');
	}
});

test('keypad buttons: each type says what it does, and the rarely needed JSON sits under Button Options', () => {
	const keypad = new Rubika().description.properties.find((property) => property.name === 'inlineKeypad');
	const rows = (keypad?.options?.[0] as INodePropertyCollection).values;
	const button = ((rows.find((entry) => entry.name === 'buttons')?.options?.[0] ?? {}) as INodePropertyCollection).values;
	const type = button.find((entry) => entry.name === 'type');
	expect(type?.options?.filter((option) => !(option as { description?: string }).description)).toEqual([]);
	expect(button.map((entry) => entry.name)).not.toContain('extra');
	const options = button.find((entry) => entry.name === 'options');
	expect(options?.type).toBe('collection');
	expect(options?.options?.map((option) => (option as INodeProperties).name)).toEqual(['extra']);
});

/**
 * What a person reads in the node's panel: every field says what it is for, the Formatting dropdown starts
 * with None, and a keypad button shows its fields in the order they are filled in, only those its type needs.
 */
import type { INodeParameters, INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Rubika } from '../../nodes/Rubika/Rubika.node';
import { RubikaTrigger } from '../../nodes/RubikaTrigger/RubikaTrigger.node';
import { BUTTON_SETTINGS } from '../../nodes/Rubika/keypad';
import { BUTTON_TYPES } from '../../nodes/shared/types';

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
	['Rubika Trigger', new RubikaTrigger().description.properties],
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

describe('keypad buttons', () => {
	const description = new Rubika().description;
	const keypad = description.properties.find((property) => property.name === 'inlineKeypad');
	const rows = (keypad?.options?.[0] as INodePropertyCollection).values;
	const button = ((rows.find((entry) => entry.name === 'buttons')?.options?.[0] ?? {}) as INodePropertyCollection).values;
	/** The fields n8n shows for a button with these values (n8n's own rules). */
	const shown = (values: INodeParameters) =>
		Object.keys(NodeHelpers.getNodeParameters(button, values, true, false, { typeVersion: 1 }, description) ?? {}).sort();
	const FIRST = ['id', 'text', 'type'];

	test('the node has one version', () => {
		expect(description.version).toBe(1);
	});

	test('a button starts with Text, Type and ID, in this order', () => {
		expect(button.slice(0, 3).map((field) => [field.name, field.displayName])).toEqual([
			['text', 'Text'],
			['type', 'Type'],
			['id', 'ID'],
		]);
	});

	test('each type is named in words and says what it does, with the name Rubika uses', () => {
		const types = (button.find((field) => field.name === 'type')?.options ?? []) as INodePropertyOptions[];
		expect(types).toHaveLength(BUTTON_TYPES.length);
		// Simple and Payment are words already; every other API name is two words run together.
		for (const { name, value, description: what } of types) {
			expect(what).toMatch(new RegExp(`\\(${value}[;)]`));
			if (value !== 'Simple' && value !== 'Payment') expect(name).not.toBe(value);
		}
		expect(types.find((option) => option.value === 'AskMyPhoneNumber')?.name).toBe('Ask for Phone Number');
	});

	test('a Simple button, and every type without settings, shows only Text, Type and ID (no JSON box)', () => {
		const withoutSettings = BUTTON_TYPES.filter((type) => !(type in BUTTON_SETTINGS) && type !== 'Link');
		expect(withoutSettings).toContain('Simple');
		for (const type of withoutSettings) expect({ type, shown: shown({ type }) }).toEqual({ type, shown: FIRST });
	});

	test('a type with settings shows the fields its settings object is made of, then More Settings (the JSON)', () => {
		// Items From shows only while a list saved with The Bot (Api), no longer offered, holds it: to choose Listed Here.
		const offered = (fields: readonly string[]) => fields.filter((field) => field !== 'selectionGet');
		for (const [type, settings] of Object.entries(BUTTON_SETTINGS)) {
			expect({ type, shown: shown({ type }) }).toEqual({ type, shown: [...FIRST, ...offered(settings.fields), 'options'].sort() });
		}
		expect(shown({ type: 'Selection', selectionGet: 'Local' })).not.toContain('selectionGet');
		expect(shown({ type: 'Selection', selectionGet: 'Api' })).toContain('selectionGet');
		expect(shown({ type: 'Link' })).toEqual([...FIRST, 'linkType', 'options', 'url'].sort());
		const more = button.filter((field) => field.name === 'options').map((field) => [field.displayName, field.placeholder]);
		expect(more).toEqual([['More Settings', 'Add Setting']]);
	});
});

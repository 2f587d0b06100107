/** The filter fields both triggers show: one option per kind the filters accept, names and values pinned. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { updateFiltersProperty } from '../../nodes/shared/updates/filterFields';
import { parseUpdateFilters } from '../../nodes/shared/updates/filters';
import { CHAT_KINDS, CONTENT_KINDS } from '../../nodes/shared/updates/item';

function field(name: string): INodeProperties {
	const found = (updateFiltersProperty.options as INodeProperties[]).find((option) => option.name === name);
	if (found === undefined) throw new Error(`no filter field ${name}`);
	return found;
}

const choices = (name: string) =>
	(field(name).options as INodePropertyOptions[]).map(({ name: label, value }) => [label, value]);

describe('filter fields', () => {
	it('Chat Types offers every chat kind, ordered by name', () => {
		expect(field('chatTypes')).toMatchObject({ displayName: 'Chat Types', type: 'multiOptions', default: [] });
		expect(choices('chatTypes')).toEqual([
			['Channel', 'channel'],
			['Group', 'group'],
			['Private Chat', 'private'],
		]);
		expect(choices('chatTypes').map(([, value]) => value).sort()).toEqual([...CHAT_KINDS].sort());
	});

	it('Content Types offers every content kind, ordered by name', () => {
		expect(field('contentKinds')).toMatchObject({ displayName: 'Content Types', type: 'multiOptions', default: [] });
		expect(choices('contentKinds')).toEqual([
			['Contact', 'contact'],
			['File', 'file'],
			['Location', 'location'],
			['Poll', 'poll'],
			['Sticker', 'sticker'],
			['Text', 'text'],
		]);
		expect(choices('contentKinds').map(([, value]) => value).sort()).toEqual([...CONTENT_KINDS].sort());
	});

	it('every option is a value the filters accept', () => {
		const chatTypes = choices('chatTypes').map(([, value]) => String(value));
		const contentKinds = choices('contentKinds').map(([, value]) => String(value));
		expect(parseUpdateFilters([], { chatTypes, contentKinds })).toMatchObject({ chatKinds: chatTypes, contentKinds });
	});
});

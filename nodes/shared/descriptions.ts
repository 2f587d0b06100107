/** Pieces of node descriptions that every Rubika node shows the same way. */
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

/**
 * The Rubika icon, for a node file in nodes/<Node>/. n8n resolves the path against the node's own file, and
 * every node file here sits at the same depth.
 */
export const RUBIKA_ICON: INodeTypeDescription['icon'] = {
	light: 'file:../../icons/rubika.svg',
	dark: 'file:../../icons/rubika.dark.svg',
};

/** The "Options" collection (Add option) holding the less used settings of a node or an operation. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add option', default: {}, options };
}

/** Choices in the order every dropdown here shows them: alphabetical by the name the user reads. */
export function sortedByName<T extends { name: string }>(choices: readonly T[]): T[] {
	return [...choices].sort((a, b) => a.name.localeCompare(b.name));
}

/** One option per API value, shown under the value itself (with its description, where given), alphabetical. */
export function optionsNamedByValue<T extends string>(
	values: readonly T[],
	descriptions?: Record<T, string>,
): INodePropertyOptions[] {
	return sortedByName(values.map((value) => ({ name: value, value, ...(descriptions ? { description: descriptions[value] } : {}) })));
}

/** Pieces of node descriptions that every Rubika node shows the same way. */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

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

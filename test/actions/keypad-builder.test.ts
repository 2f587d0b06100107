/**
 * The keypad builder across node versions: nodes of version 1, as n8n saved them before version 1.1
 * (test/fixtures/keypad-builder-v1-nodes.json), send exactly the request they sent then.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import fixture from '../fixtures/keypad-builder-v1-nodes.json';
import { useActionSandbox } from './helpers';

const actions = useActionSandbox('message');
const { run, bodies } = actions;

interface SavedNode {
	name: string;
	method: string;
	typeVersion: number;
	parameters: INodeParameters;
	request: IDataObject;
}

describe('nodes of version 1 saved with the old keypad builder', () => {
	test.each((fixture.nodes as SavedNode[]).map((node) => [node.name, node] as const))('%s sends the request it sent before', async (_name, node) => {
		const result = await run(node.parameters, undefined, { typeVersion: node.typeVersion });
		expect(result.error).toBeUndefined();
		expect(bodies(node.method)).toStrictEqual([node.request]);
	});
});

/** The one conversion of thrown things into the errors n8n shows (nodes/shared/errors.ts). */
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { InputError, toNodeError } from '../../nodes/shared/errors';

const node: INode = { id: '1', name: 'Rubika', type: 'n8n-nodes-rubika.rubika', typeVersion: 1, position: [0, 0], parameters: {} };

describe('toNodeError', () => {
	test('an input error names the field, and the item when there is one', () => {
		const forItem = toNodeError(node, new InputError('Chat ID', 'is required'), 3);
		expect(forItem).toBeInstanceOf(NodeOperationError);
		expect(forItem.message).toBe('Chat ID: is required [item 3]');
		expect(forItem.context.itemIndex).toBe(3);
		const withoutItem = toNodeError(node, new InputError('Text Pattern', 'is not a valid regular expression'));
		expect(withoutItem.message).toBe('Text Pattern: is not a valid regular expression');
		expect(withoutItem.context.itemIndex).toBeUndefined();
	});

	test("n8n's errors pass through as the same object, the item index filled in only when missing", () => {
		const apiError = new NodeApiError(node, { status: 'INVALID_INPUT' }, { message: 'Rubika getChat failed' });
		expect(toNodeError(node, apiError, 2)).toBe(apiError);
		expect(apiError.context.itemIndex).toBe(2);
		const alreadyPlaced = new NodeOperationError(node, 'placed', { itemIndex: 0 });
		expect(toNodeError(node, alreadyPlaced, 5).context.itemIndex).toBe(0);
	});

	test('anything else is wrapped, keeping its message', () => {
		expect(toNodeError(node, new TypeError('x is undefined'), 1).message).toBe('x is undefined');
		expect(toNodeError(node, 'a thrown string').message).toBe('a thrown string');
	});
});

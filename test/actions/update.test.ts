import type { INodeExecutionData, INodeParameters, NodeApiError } from 'n8n-workflow';

import { DEMO_USERS } from '../../sandbox';
import type { InputItem } from '../../tooling/harness/n8n';
import { useActionSandbox } from './helpers';

const { sara } = DEMO_USERS;
const actions = useActionSandbox('update');
const { run, expectRefused } = actions;
const getMany = (parameters: INodeParameters, items?: InputItem[]) => run({ operation: 'getUpdates', ...parameters }, items);

const bodies = () => actions.bodies('getUpdates') as Array<{ limit: number; offset_id?: string }>;
const texts = (items: INodeExecutionData[]) =>
	items.map((item) => (item.json.new_message as { text: string } | undefined)?.text);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => `synthetic ${from + index}`);
const cursorOf = (items: INodeExecutionData[]) => items[0].json._next_offset_id as string;

describe('Update → Get Many', () => {
	test('an empty log: no items, one request', async () => {
		expect(actions.sandbox.updates()).toEqual([]);
		const result = await getMany({ returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([]);
		expect(bodies()).toEqual([{ limit: 100 }]);
	});

	test('an empty log with Output Cursor When Empty: one item holding where to continue', async () => {
		const result = await getMany({ returnAll: true, options: { outputCursorWhenEmpty: true } });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(Object.keys(result.items[0].json)).toEqual(['_next_offset_id']);
		const cursor = cursorOf(result.items);
		expect(typeof cursor).toBe('string');

		// That cursor is good: what arrives later is read from there.
		actions.sandbox.appendSyntheticUpdates({ count: 2, userId: sara.user_id });
		const later = await getMany({ returnAll: true, offsetId: cursor });
		expect(texts(later.items)).toEqual(range(1, 2));
		expect(bodies()[1]).toEqual({ limit: 100, offset_id: cursor });
	});

	test('Return All pages through next_offset_id until a page is empty; one item per update, in order', async () => {
		actions.sandbox.appendSyntheticUpdates({ count: 250, userId: sara.user_id });
		const result = await getMany({ returnAll: true });
		expect(result.error).toBeUndefined();
		expect(texts(result.items)).toEqual(range(1, 250));
		expect(result.items[0].json).toMatchObject({ type: 'NewMessage', chat_id: sara.chat_id });
		expect(result.items.every((item) => item.pairedItem && (item.pairedItem as { item: number }).item === 0)).toBe(true);

		const sent = bodies();
		expect(sent.map((body) => body.limit)).toEqual([100, 100, 100, 100]);
		expect(sent[0].offset_id).toBeUndefined();
		const offsets = sent.slice(1).map((body) => body.offset_id);
		expect(offsets.every((offset) => typeof offset === 'string')).toBe(true);
		expect(new Set(offsets).size).toBe(3);

		// Every item carries the cursor after the whole run: the one the last (empty) page was asked with.
		const cursor = cursorOf(result.items);
		expect(cursor).toBe(sent[3].offset_id);
		expect(new Set(result.items.map((item) => item.json._next_offset_id))).toEqual(new Set([cursor]));

		// Continuing from it later gives only what is new.
		actions.sandbox.appendSyntheticUpdates({ count: 3, userId: sara.user_id });
		const next = await getMany({ returnAll: true, offsetId: cursor });
		expect(texts(next.items)).toEqual(range(1, 3));
	});

	test('Page Size sets how many are asked for per request', async () => {
		actions.sandbox.appendSyntheticUpdates({ count: 25, userId: sara.user_id });
		const result = await getMany({ returnAll: true, options: { pageSize: 10 } });
		expect(texts(result.items)).toEqual(range(1, 25));
		expect(bodies().map((body) => body.limit)).toEqual([10, 10, 10, 10]);
	});

	test('Limit: never asks for more than it returns, so the cursor skips nothing', async () => {
		actions.sandbox.appendSyntheticUpdates({ count: 250, userId: sara.user_id });
		const first = await getMany({ returnAll: false, limit: 30 });
		expect(first.error).toBeUndefined();
		expect(texts(first.items)).toEqual(range(1, 30));
		expect(bodies()).toEqual([{ limit: 30 }]);

		const second = await getMany({ returnAll: false, limit: 30, offsetId: cursorOf(first.items) });
		expect(texts(second.items)).toEqual(range(31, 60));
		expect(bodies()[1]).toEqual({ limit: 30, offset_id: cursorOf(first.items) });
	});

	test('Limit above one page: pages until the limit is reached', async () => {
		actions.sandbox.appendSyntheticUpdates({ count: 250, userId: sara.user_id });
		const result = await getMany({ returnAll: false, limit: 150 });
		expect(texts(result.items)).toEqual(range(1, 150));
		const sent = bodies();
		expect(sent.map((body) => body.limit)).toEqual([100, 50]);
		expect(typeof sent[1].offset_id).toBe('string');
	});

	test('Limit larger than the backlog: everything there is, then stops at the empty page', async () => {
		actions.sandbox.appendSyntheticUpdates({ count: 7, userId: sara.user_id });
		const result = await getMany({ returnAll: false, limit: 50 });
		expect(texts(result.items)).toEqual(range(1, 7));
		expect(bodies().map((body) => body.limit)).toEqual([50, 43]);
	});

	test('a cursor that does not move on stops paging; repeated updates are dropped', async () => {
		actions.sandbox.appendSyntheticUpdates({ count: 120, userId: sara.user_id });
		// Every answer repeats an update already delivered; at the end of the list that means a page
		// holding only an old update and the same cursor again, forever.
		actions.sandbox.injectFault({ kind: 'duplicateUpdate', times: Infinity });
		const result = await getMany({ returnAll: true });
		expect(result.error).toBeUndefined();
		expect(texts(result.items)).toEqual(range(1, 120));
		const sent = bodies();
		expect(sent).toHaveLength(3);
		expect(sent[2].offset_id).toBe(cursorOf(result.items));
	});

	test('one run per input item', async () => {
		actions.sandbox.appendSyntheticUpdates({ count: 5, userId: sara.user_id });
		const result = await getMany({ returnAll: false, limit: 2 }, [{ json: {} }, { json: {} }]);
		expect(texts(result.items)).toEqual(['synthetic 1', 'synthetic 2', 'synthetic 1', 'synthetic 2']);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 1 }, { item: 1 }]);
	});

	test('an offset Rubika did not issue is its INVALID_INPUT', async () => {
		const result = await getMany({ returnAll: true, offsetId: 'not-a-cursor' });
		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toMatch(/^Rubika getUpdates failed: INVALID_INPUT – offset_id/);
		expect(bodies()).toEqual([{ limit: 100, offset_id: 'not-a-cursor' }]);
	});

	test('an offset with spaces is refused before sending', async () => {
		const result = await getMany({ returnAll: true, offsetId: 'abc def' });
		expectRefused(result, 'Offset ID: must be a single ID without spaces, got "abc def" [item 0]');
	});
});

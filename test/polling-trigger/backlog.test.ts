/**
 * A 10,000-update backlog: worked off over several polls, each bounded, every update exactly once, and the
 * static data n8n saves after each poll stays small.
 */
import { sara, useSandbox } from './helpers';

const t = useSandbox();
const BACKLOG = 10_000;

function messageIds(items: Array<{ json: Record<string, unknown> }>): string[] {
	return items.map((item) => item.json.message_id as string);
}

it('process backlog: 10,000 updates drained across polls, in order, none twice, bounded per poll', async () => {
	t.sandbox.appendSyntheticUpdates({ count: BACKLOG, userId: sara.user_id });
	const expected = t.sandbox.updates().map((update) => update.new_message!.message_id);
	expect(expected).toHaveLength(BACKLOG);

	const harness = t.harness({ firstActivation: 'processBacklog', options: { maxUpdatesPerPoll: 1500, pageSize: 100 } });
	const perPoll: number[] = [];
	const savedSizes: number[] = [];
	for (let tick = 0; tick < 20; tick++) {
		const result = await harness.tick();
		expect(result.error).toBeUndefined();
		if (result.items.length === 0) break;
		perPoll.push(result.items.length);
		savedSizes.push(JSON.stringify(harness.saved).length);
	}
	// 1,500 per poll (never more), the rest in the last one; then a poll with nothing.
	expect(perPoll).toEqual([1500, 1500, 1500, 1500, 1500, 1500, 1000]);
	expect(messageIds(harness.emitted)).toEqual(expected);
	expect(new Set(harness.emitted.map((item) => item.json.update_key)).size).toBe(BACKLOG);
	expect(harness.emitted.map((item) => item.json.text)).toEqual(expected.map((_id, index) => `synthetic ${index + 1}`));

	// The recent-keys set is capped (2,000, or a poll's worth when larger), so static data stays small.
	const recentKeys = harness.nodeStaticData.recentKeys as string[];
	expect(recentKeys).toHaveLength(2000);
	expect(Math.max(...savedSizes)).toBeLessThan(40_000);

	// 100 pages of 100 and one empty page per poll: a drain does not re-read anything.
	const requests = t.sandbox.requestsFor('getUpdates');
	const read = requests.reduce((sum, entry) => sum + Math.min((entry.body as { limit: number }).limit, 100), 0);
	expect(requests.length).toBeLessThanOrEqual(BACKLOG / 100 + 8);
	expect(read).toBeGreaterThanOrEqual(BACKLOG);

	// After a restart in the middle of nothing, nothing comes back.
	expect(await harness.restart().tick()).toEqual({ items: [] });
}, 120_000);

it('start from now: a 10,000-update backlog is skipped in one activation poll, then only new updates come', async () => {
	t.sandbox.appendSyntheticUpdates({ count: BACKLOG, userId: sara.user_id });
	const harness = t.harness({}, { saveOnEmptyPoll: true });
	expect(await harness.tick()).toEqual({ items: [] });
	expect(t.sandbox.requestsFor('getUpdates')).toHaveLength(BACKLOG / 100 + 1);
	expect(harness.nodeStaticData.recentKeys).toBeUndefined();

	t.sandbox.userSendMessage({ userId: sara.user_id, text: 'after the backlog' });
	const result = await harness.tick();
	expect(result.items.map((item) => item.json.text)).toEqual(['after the backlog']);
}, 120_000);

it('the default Max Updates per Poll (1,000) works a 10,000 backlog off in ten polls', async () => {
	t.sandbox.appendSyntheticUpdates({ count: BACKLOG, userId: sara.user_id });
	const harness = t.harness({ firstActivation: 'processBacklog' });
	const sizes: number[] = [];
	for (;;) {
		const { items, error } = await harness.tick();
		expect(error).toBeUndefined();
		if (items.length === 0) break;
		sizes.push(items.length);
	}
	expect(sizes).toEqual(Array(10).fill(1000));
	expect(new Set(harness.emitted.map((item) => item.json.update_key)).size).toBe(BACKLOG);
}, 120_000);

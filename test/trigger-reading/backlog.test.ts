/**
 * A 10,000-update backlog on the reading trigger: "Process Backlog" works it off page by page, every update
 * exactly once and in order, with the static data n8n saves at every emit staying small; "Start From Now" skips
 * it in the activation and delivers only what comes after.
 */
import { offsetsSent, received, sara, say, useSandbox } from './helpers';

const t = useSandbox();
const BACKLOG = 10_000;

/** The offsets asked for up to the first request from `end`; every request after it must ask from `end` too. */
function offsetsUntil(end: string | undefined): Array<string | undefined> {
	const offsets = offsetsSent(t.sandbox);
	const first = offsets.indexOf(end);
	expect(first).toBeGreaterThan(0);
	expect(offsets.slice(first).every((offset) => offset === end)).toBe(true);
	return offsets.slice(0, first);
}

it('process backlog: 10,000 updates delivered in order, none twice, none read twice; the saved data stays small; a restart brings none back', async () => {
	t.sandbox.appendSyntheticUpdates({ count: BACKLOG, userId: sara.user_id });
	const expected = t.sandbox.updates().map((update) => update.new_message!.message_id);
	expect(expected).toHaveLength(BACKLOG);

	const harness = t.harness({ firstActivation: 'processBacklog', options: { pageSize: 100 } });
	await harness.activate();
	const items = await received(harness, BACKLOG, 90_000);
	expect(items.map((item) => item.json.message_id)).toEqual(expected);
	expect(new Set(items.map((item) => item.json.update_key)).size).toBe(BACKLOG);
	expect(items.map((item) => item.json.text)).toEqual(expected.map((_id, index) => `synthetic ${index + 1}`));
	expect(harness.failures).toEqual([]);

	// The delivered keys kept are capped at 2,000, so what n8n saves at every emit stays small.
	expect(harness.nodeStaticData.recentKeys).toHaveLength(2000);
	expect(JSON.stringify(harness.database.staticData).length).toBeLessThan(40_000);

	// 100 pages of 100, each asked for once, then the end, asked for again while idle: nothing was read twice.
	const pages = offsetsUntil(harness.nodeStaticData.cursor as string);
	expect(pages).toHaveLength(BACKLOG / 100);
	expect(new Set(pages).size).toBe(BACKLOG / 100);

	// Started again from what n8n saved: no execution comes back.
	const restarted = await harness.crash();
	await restarted.activate();
	say(t.sandbox, 'after the restart');
	expect((await received(restarted, 1)).map((item) => item.json.text)).toEqual(['after the restart']);
	expect(restarted.database.executions).toHaveLength(BACKLOG + 1);
}, 180_000);

it('start from now: a 10,000-update backlog is skipped in the activation, page by page to its end; then only new updates come', async () => {
	t.sandbox.appendSyntheticUpdates({ count: BACKLOG, userId: sara.user_id });
	const harness = t.harness({ options: { pageSize: 100 } });
	await harness.activate();
	const end = harness.nodeStaticData.cursor as string;
	expect(harness.nodeStaticData.started).toBe(true);
	// The position the activation saved is the backlog's end, not the first page's: 100 full pages and the empty one.
	const skipped = offsetsUntil(end);
	expect(skipped).toHaveLength(BACKLOG / 100);
	expect(harness.savedNodeStaticData.cursor).toBe(end);
	expect(harness.nodeStaticData.recentKeys).toBeUndefined();

	say(t.sandbox, 'after the backlog');
	expect((await received(harness, 1)).map((item) => item.json.text)).toEqual(['after the backlog']);
}, 120_000);

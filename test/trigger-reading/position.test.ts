/**
 * The reading trigger's position: pages of the chosen size read to the end, a saved position older than what
 * was delivered, a position Rubika rejects (each choice of "If Rubika Rejects the Saved Position") or a token
 * it refuses, and "Listen for test event" next to a published workflow, which must leave its position alone.
 */
import type { NodeApiError } from 'n8n-workflow';

import { DEMO_BOT_TOKEN } from '../../sandbox';
import { copy, offsetsSent, pauseMs, received, say, sendMany, texts, useSandbox } from './helpers';

const t = useSandbox();

it('Page Size: reads pages of that size until Rubika has nothing more; every update once, in order, no page twice', async () => {
	const sent = sendMany(t.sandbox, 23);
	const harness = t.harness({ firstActivation: 'processBacklog', options: { pageSize: 4 } });
	await harness.activate();
	expect(texts(await received(harness, 23))).toEqual(sent);
	const requests = t.sandbox.requestsFor('getUpdates');
	expect(new Set(requests.map((entry) => (entry.body as { limit: number }).limit))).toEqual(new Set([4]));
	// Six pages (4 × 5 and 3), each asked for once; then the end, asked for while idle.
	const offsets = offsetsSent(t.sandbox);
	const end = harness.nodeStaticData.cursor;
	expect(offsets.indexOf(end as string)).toBe(6);
	expect(new Set(offsets.slice(0, 6)).size).toBe(6);
});

it.each([
	['n8n 2.41+', false],
	['n8n before 2.41', true],
])('updates Rubika gives again from a saved position older than what was delivered run nothing twice (%s)', async (_name, withoutDeduplication) => {
	const harness = t.harness({}, { withoutDeduplication });
	await harness.activate();
	const older = harness.nodeStaticData.cursor;
	sendMany(t.sandbox, 2, 'first');
	await received(harness, 2);
	sendMany(t.sandbox, 3, 'second');
	await received(harness, 5);
	await harness.deactivate();

	// The database holds an older position than the delivered keys say (e.g. a position lost in a crash).
	(harness.database.staticData['node:Rubika Trigger'] as { cursor: unknown }).cursor = older;
	sendMany(t.sandbox, 1, 'third');
	const restarted = await harness.crash();
	await restarted.activate();
	expect(texts(await received(restarted, 1))).toEqual(['third 1']);
	expect(texts(restarted.database.executions.map((execution) => execution.item))).toEqual(['first 1', 'first 2', 'second 1', 'second 2', 'second 3', 'third 1']);
	expect(restarted.failures).toEqual([]);
});

describe('when Rubika rejects the saved position', () => {
	/** A trigger that delivered four messages, stopped, and comes back with a position this bot never gave; one message waits. */
	async function deliveredThenLost(onRejectedPosition: string) {
		const first = t.harness({ options: { onRejectedPosition } });
		await first.activate();
		sendMany(t.sandbox, 4, 'x');
		await received(first, 4);
		await first.deactivate();
		(first.database.staticData['node:Rubika Trigger'] as { cursor: string }).cursor = 'bm90LWEtY3Vyc29y';
		sendMany(t.sandbox, 1, 'y');
		return first;
	}

	it('Stop With an Error: a failed execution that says what to choose; nothing read, skipped or moved', async () => {
		const first = await deliveredThenLost('error');
		const saved = copy(first.database.staticData);
		const refused = await first.crash();
		await refused.activate();
		expect(refused.failures.map((failure) => failure.message)).toEqual([
			"Rubika no longer accepts the position this trigger saved: choose how to go on in the trigger's Options → If Rubika Rejects the Saved Position",
		]);
		await pauseMs(1500);
		expect(refused.started).toEqual([]);
		expect(refused.failures).toHaveLength(1);
		expect(refused.nodeStaticData).toEqual(saved['node:Rubika Trigger']);
		expect(refused.database.staticData).toEqual(saved);
	});

	it('Skip to Now: what waited is skipped without an error, and what comes later is delivered', async () => {
		const first = await deliveredThenLost('skipToNow');
		const restarted = await first.crash();
		await restarted.activate();
		await pauseMs(600);
		say(t.sandbox, 'z 1');
		expect(texts(await received(restarted, 1))).toEqual(['z 1']);
		expect(restarted.failures).toEqual([]);
	});

	it('a bot token Rubika refuses is reported as such, not as a lost position, and the saved position is kept', async () => {
		const first = await deliveredThenLost('restartFromOldest');
		const saved = copy(first.database.staticData);
		const broken = await first.crash({ credentials: { accessToken: 'x'.repeat(64), baseUrl: t.sandbox.baseUrl } });
		await broken.activate();
		expect(broken.failures.map((failure) => failure.message)).toEqual(['Rubika getMe failed: INVALID_INPUT – Invalid bot token']);
		expect((broken.failures[0] as NodeApiError).description).toMatch(/the trigger keeps its position/);
		await pauseMs(600);
		expect(broken.started).toEqual([]);
		expect(broken.nodeStaticData).toEqual(saved['node:Rubika Trigger']);
		// With the right token again, the lost position is handled as chosen: only what was not delivered comes.
		const fixed = await broken.crash({ credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl } });
		await fixed.activate();
		expect(texts(await received(fixed, 1))).toEqual(['y 1']);
	});
});

it('"Listen for test event" next to a published workflow: gives the first new matching update and leaves the workflow\'s position alone, which then gets everything', async () => {
	const published = t.harness();
	await published.activate();
	say(t.sandbox, 'one');
	await received(published, 1);
	// Unpublished while the workflow is edited and tested.
	await published.deactivate();
	const pending = sendMany(t.sandbox, 3, 'pending');
	const saved = copy(published.database.staticData);
	const savedCursor = (saved['node:Rubika Trigger'] as { cursor: string }).cursor;
	t.sandbox.clearRequests();

	const listener = t.harness({}, { mode: 'manual', activation: 'manual', database: published.database, workflowId: published.workflow.id });
	await listener.activate();
	say(t.sandbox, 'for the test');
	const [sample] = await listener.testEvent();
	expect(texts(sample)).toEqual(['for the test']);
	// It skipped from the published workflow's position, but on a copy: nothing saved or kept changed.
	expect(offsetsSent(t.sandbox)[0]).toBe(savedCursor);
	expect(listener.nodeStaticData).toEqual(saved['node:Rubika Trigger']);
	expect(published.database.staticData).toEqual(saved);
	await listener.stop();

	const again = await published.crash();
	await again.activate();
	expect(texts(await received(again, 4))).toEqual([...pending, 'for the test']);
});

/**
 * The trigger by reading delivering updates: one execution per update, filters,
 * deduplication keys, and the saved cursor that moves only past finished executions, across crashes.
 * Real n8n-core TriggerContext, real HTTP to the sandbox; n8n's side of an emit is modelled by ReadingTriggerHarness.
 */
import { ali, pauseMs, reza, sara, say, texts, useSandbox } from './helpers';

const t = useSandbox();

describe('delivery', () => {
	it('starts from now, then gives every new message its own execution with the trigger\'s item', async () => {
		say(t.sandbox, 'waiting before activation');
		const harness = t.harness();
		await harness.activate();
		say(t.sandbox, 'hello', sara);
		say(t.sandbox, 'salam', reza);
		await harness.waitForExecutions(2);
		expect(harness.started.map((execution) => execution.item.json.text)).toEqual(['hello', 'salam']);
		const first = harness.items[0].json;
		expect(first).toMatchObject({ type: 'NewMessage', chat_id: sara.chat_id, sender_id: sara.user_id, text: 'hello' });
		expect(first.update_key).toEqual(expect.any(String));
		await pauseMs(500);
		expect(harness.started).toHaveLength(2);
	});

	it('Process Backlog delivers what was waiting, oldest first', async () => {
		say(t.sandbox, 'old 1');
		say(t.sandbox, 'old 2');
		const harness = t.harness({ firstActivation: 'processBacklog' });
		await harness.activate();
		await harness.waitForExecutions(2);
		expect(texts(harness.items)).toEqual(['old 1', 'old 2']);
	});

	it('applies the filters before anything is emitted', async () => {
		const harness = t.harness({ filters: { textPattern: '^order \\d+$', senderIds: reza.user_id } });
		await harness.activate();
		say(t.sandbox, 'order 1', sara);
		say(t.sandbox, 'hello', reza);
		say(t.sandbox, 'order 2', reza);
		await harness.waitForExecutions(1);
		await pauseMs(600);
		expect(texts(harness.items)).toEqual(['order 2']);
	});

	it('passes a deduplication key scoped to workflow and node, the same for the same update', async () => {
		const harness = t.harness({ firstActivation: 'processBacklog' });
		say(t.sandbox, 'keyed');
		await harness.activate();
		await harness.waitForExecutions(1);
		const key = harness.started[0].deduplicationKey as string;
		expect(key).toMatch(/^rubika:reading-workflow-\d+:rubika-trigger:[0-9a-z]{14}$/);
		await harness.stop();

		// The same update read again by a fresh start from the same saved state gets the same key, and n8n drops it.
		const again = t.harness({ firstActivation: 'processBacklog' }, { database: { staticData: {}, executions: harness.database.executions }, workflowId: harness.workflow.id });
		await again.activate();
		await pauseMs(600);
		expect(again.started).toHaveLength(0);
		expect(again.dropped).toBe(1);
	});

	it('a repeat from Rubika does not reach n8n', async () => {
		const harness = t.harness();
		await harness.activate();
		say(t.sandbox, 'once');
		await harness.waitForExecutions(1);
		t.sandbox.injectFault({ kind: 'duplicateUpdate', method: 'getUpdates' });
		say(t.sandbox, 'twice?');
		await harness.waitForExecutions(2);
		await pauseMs(600);
		expect(texts(harness.items)).toEqual(['once', 'twice?']);
		expect(harness.dropped).toBe(0);
	});
});

describe('the saved cursor and crashes', () => {
	it('moves the saved cursor only past pages whose executions finished', async () => {
		const harness = t.harness({}, { autoFinish: false });
		await harness.activate();
		const start = harness.nodeStaticData.cursor;
		say(t.sandbox, 'a');
		say(t.sandbox, 'b');
		await harness.waitForExecutions(2);
		await pauseMs(500);
		expect(harness.nodeStaticData.cursor).toBe(start);
		harness.finish(1);
		await pauseMs(50);
		expect(harness.nodeStaticData.cursor).toBe(start);
		harness.finish();
		await pauseMs(50);
		expect(harness.nodeStaticData.cursor).not.toBe(start);
		expect(harness.nodeStaticData.recentKeys).toHaveLength(2);
	});

	it('after a crash with executions unfinished, the tail is read again and n8n drops what it stored: nothing lost, nothing twice', async () => {
		const first = t.harness({}, { autoFinish: false });
		await first.activate();
		for (let index = 1; index <= 5; index++) say(t.sandbox, `m${index}`, [sara, reza, ali][index % 3]);
		await first.waitForExecutions(5);
		first.finish(2);
		// Saved at the emits: the cursor still points before all five.
		const second = await first.crash({ autoFinish: true });
		say(t.sandbox, 'm6');
		await second.activate();
		await second.waitForExecutions(1);
		await pauseMs(600);
		expect(texts(second.items)).toEqual(['m6']);
		// m1 and m2 had finished, but that was never saved (n8n saves at emits): all five are read again.
		expect(second.dropped).toBe(5);
		const stored = second.database.executions.map((execution) => execution.item.json.text);
		expect(stored).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']);
	});

	it('without n8n\'s deduplication (before 2.41), a key is saved as delivered at its emit: a restart repeats nothing', async () => {
		const first = t.harness({}, { autoFinish: false, withoutDeduplication: true });
		await first.activate();
		say(t.sandbox, 'x1');
		say(t.sandbox, 'x2');
		await first.waitForExecutions(2);
		expect(first.started.every((execution) => execution.deduplicationKey === undefined)).toBe(true);
		const second = await first.crash({ autoFinish: true });
		await second.activate();
		say(t.sandbox, 'x3');
		await second.waitForExecutions(1);
		await pauseMs(500);
		expect(texts(second.items)).toEqual(['x3']);
		const stored = second.database.executions.map((execution) => execution.item.json.text);
		expect(stored).toEqual(['x1', 'x2', 'x3']);
	});

	for (const withoutDeduplication of [false, true]) {
		it(`a restart after everything finished runs nothing twice and loses nothing (${withoutDeduplication ? 'n8n before 2.41' : 'n8n 2.41+'})`, async () => {
			const first = t.harness({}, { withoutDeduplication });
			await first.activate();
			say(t.sandbox, 'y1');
			say(t.sandbox, 'y2');
			await first.waitForExecutions(2);
			await pauseMs(300);
			await first.deactivate();
			say(t.sandbox, 'y3 while inactive');
			const second = await first.crash();
			await second.activate();
			await second.waitForExecutions(1);
			await pauseMs(500);
			expect(texts(second.items)).toEqual(['y3 while inactive']);
			const stored = second.database.executions.map((execution) => execution.item.json.text);
			expect(stored).toEqual(['y1', 'y2', 'y3 while inactive']);
		});
	}
});

describe('load and sharing', () => {
	it('holds back reading while 200 of its executions are unfinished, then goes on', async () => {
		t.sandbox.appendSyntheticUpdates({ count: 250 });
		const harness = t.harness({ firstActivation: 'processBacklog' }, { autoFinish: false });
		await harness.activate();
		await harness.waitForExecutions(200);
		await pauseMs(600);
		expect(harness.started).toHaveLength(200);
		harness.finish();
		await harness.waitForExecutions(250);
		expect(new Set(harness.items.map((item) => item.json.update_key)).size).toBe(250);
	});

	it('two workflows reading the same bot each receive every update', async () => {
		const one = t.harness();
		const two = t.harness();
		await one.activate();
		await two.activate();
		say(t.sandbox, 'for both');
		await one.waitForExecutions(1);
		await two.waitForExecutions(1);
		expect(texts(one.items)).toEqual(['for both']);
		expect(texts(two.items)).toEqual(['for both']);
	});
});

/**
 * The cursor: where it is kept, when it moves, what survives a restart, what the first activation does,
 * and that "Fetch Test Event" never touches it. Every poll goes through n8n-core's PollContext and
 * PollTriggerExecutor against the sandbox.
 */
import { copy, keys, offsetsSent, sara, reza, sendMany, texts, useSandbox } from './helpers';

const t = useSandbox();

describe('cursor between polls', () => {
	it('delivers each update once, asks with the stored cursor, and saves it with the emitted items', async () => {
		const harness = t.harness();
		sendMany(t.sandbox, 3, 'old');

		// Activation: start from now, so the waiting updates are skipped.
		expect(await harness.tick()).toEqual({ items: [] });
		const afterActivation = harness.nodeStaticData.cursor;
		expect(afterActivation).toEqual(expect.any(String));

		sendMany(t.sandbox, 2, 'new');
		const second = await harness.tick();
		expect(second.error).toBeUndefined();
		expect(texts(second.items)).toEqual(['new 1', 'new 2']);
		// The request started from the cursor the activation stored.
		t.sandbox.clearRequests();
		expect(await harness.tick()).toEqual({ items: [] });
		const savedCursor = harness.savedNodeStaticData.cursor;
		expect(savedCursor).toEqual(harness.nodeStaticData.cursor);
		expect(savedCursor).not.toEqual(afterActivation);
		expect(offsetsSent(t.sandbox)).toEqual([savedCursor]);

		t.sandbox.userSendMessage({ userId: reza.user_id, text: 'later' });
		expect(texts((await harness.tick()).items)).toEqual(['later']);
		expect(texts(harness.emitted)).toEqual(['new 1', 'new 2', 'later']);
	});

	it('pages until an empty page and never asks for more than Max Updates per Poll in one poll', async () => {
		const harness = t.harness({ firstActivation: 'processBacklog', options: { pageSize: 4, maxUpdatesPerPoll: 10 } });
		const sent = sendMany(t.sandbox, 23);

		const first = await harness.tick();
		expect(texts(first.items)).toEqual(sent.slice(0, 10));
		const limits = t.sandbox.requestsFor('getUpdates').map((entry) => (entry.body as { limit: number }).limit);
		// 4 + 4 + 2: the last page is cut to what the poll may still take.
		expect(limits).toEqual([4, 4, 2]);

		expect(texts((await harness.tick()).items)).toEqual(sent.slice(10, 20));
		t.sandbox.clearRequests();
		expect(texts((await harness.tick()).items)).toEqual(sent.slice(20));
		// 3 updates, then the empty page that proves the end.
		expect(t.sandbox.requestsFor('getUpdates').map((entry) => (entry.body as { limit: number }).limit)).toEqual([4, 4]);
		expect(await harness.tick()).toEqual({ items: [] });
		expect(new Set(keys(harness.emitted)).size).toBe(23);
	});
});

describe('restart', () => {
	it('continues from the saved static data: nothing lost, nothing repeated', async () => {
		const before = t.harness({ firstActivation: 'processBacklog' });
		sendMany(t.sandbox, 3, 'a');
		expect(texts((await before.tick()).items)).toEqual(['a 1', 'a 2', 'a 3']);

		// Updates arrive while n8n is down.
		sendMany(t.sandbox, 2, 'b');
		const after = before.restart();
		expect(after.nodeStaticData).toEqual(before.savedNodeStaticData);
		const first = await after.tick();
		expect(first.error).toBeUndefined();
		expect(texts(first.items)).toEqual(['b 1', 'b 2']);
		expect(await after.tick()).toEqual({ items: [] });
	});

	it('restarting after polls that emitted nothing (cursor moved only in memory) still delivers once', async () => {
		const filtered = { firstActivation: 'processBacklog', filters: { onlyCommands: true } };
		const before = t.harness(filtered);
		t.sandbox.userSendMessage({ userId: sara.user_id, text: '/one' });
		expect(texts((await before.tick()).items)).toEqual(['/one']);
		sendMany(t.sandbox, 3, 'chatter');
		// Moves the cursor past the chatter, emits nothing: n8n before 2.41 does not save that.
		expect(await before.tick()).toEqual({ items: [] });
		expect(before.nodeStaticData.cursor).not.toEqual(before.savedNodeStaticData.cursor);

		t.sandbox.userSendMessage({ userId: sara.user_id, text: '/two' });
		const after = before.restart();
		expect(texts((await after.tick()).items)).toEqual(['/two']);
		expect(texts([...before.emitted, ...after.emitted])).toEqual(['/one', '/two']);
	});

	it('drops updates Rubika replays from an older position (saved keys outlive a stale cursor)', async () => {
		const harness = t.harness({ firstActivation: 'processBacklog' });
		sendMany(t.sandbox, 2, 'first');
		await harness.tick();
		const olderCursor = harness.nodeStaticData.cursor;
		sendMany(t.sandbox, 3, 'second');
		expect(texts((await harness.tick()).items)).toEqual(['second 1', 'second 2', 'second 3']);

		// The database holds an older cursor than the keys say was delivered (e.g. a cursor lost in a crash).
		const stale = copy(harness.saved);
		(stale['node:Rubika Trigger'] as { cursor: unknown }).cursor = olderCursor;
		sendMany(t.sandbox, 1, 'third');
		const restarted = harness.restart({ staticData: stale });
		const replay = await restarted.tick();
		expect(texts(replay.items)).toEqual(['third 1']);
	});

	describe('when Rubika refuses the saved cursor', () => {
		async function deliveredThenLost(onRejectedPosition?: string) {
			const harness = t.harness({ firstActivation: 'processBacklog', options: onRejectedPosition ? { onRejectedPosition } : {} });
			sendMany(t.sandbox, 4, 'x');
			expect(texts((await harness.tick()).items)).toHaveLength(4);
			// A cursor this bot never issued (e.g. the credential now points at another bot).
			harness.nodeStaticData.cursor = 'bm90LWEtY3Vyc29y';
			sendMany(t.sandbox, 1, 'y');
			return harness;
		}

		it('stops with an explanation by default, and moves nothing', async () => {
			const harness = await deliveredThenLost();
			const before = copy(harness.nodeStaticData);
			const result = await harness.tick();
			expect(result.items).toEqual([]);
			expect(result.error?.message).toBe(
				"Rubika no longer accepts the position this trigger saved: choose how to go on in the trigger's Options → If Rubika Rejects the Saved Position",
			);
			expect(harness.nodeStaticData).toEqual(before);
		});

		it('restart from the oldest kept update: only what was not delivered yet comes out', async () => {
			const harness = await deliveredThenLost('restartFromOldest');
			const result = await harness.tick();
			expect(result.error).toBeUndefined();
			expect(texts(result.items)).toEqual(['y 1']);
		});

		it('skip to now: nothing comes out, later updates do', async () => {
			const harness = await deliveredThenLost('skipToNow');
			expect(await harness.tick()).toEqual({ items: [] });
			sendMany(t.sandbox, 1, 'z');
			expect(texts((await harness.tick()).items)).toEqual(['z 1']);
		});

		it('a refused bot token is reported as such, not as a lost position', async () => {
			const harness = await deliveredThenLost('restartFromOldest');
			const broken = harness.restart({ credentials: { accessToken: 'x'.repeat(64), baseUrl: t.sandbox.baseUrl } });
			const result = await broken.tick();
			expect(result.error?.message).toMatch(/^Rubika getUpdates failed: INVALID_INPUT/);
		});
	});
});

describe('first activation', () => {
	it('start from now: pages through the whole backlog, emits nothing, then delivers only what is new', async () => {
		const harness = t.harness({ options: { pageSize: 50 } });
		t.sandbox.appendSyntheticUpdates({ count: 240, userId: sara.user_id });

		expect(await harness.tick()).toEqual({ items: [] });
		// Five full pages and the empty one: the cursor is really at the end, not after the first page.
		expect(t.sandbox.requestsFor('getUpdates')).toHaveLength(6);
		expect(harness.nodeStaticData.started).toBe(true);

		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'fresh' });
		expect(texts((await harness.tick()).items)).toEqual(['fresh']);
	});

	it('start from now with nothing waiting: the first update after activation is delivered', async () => {
		const harness = t.harness();
		expect(await harness.tick()).toEqual({ items: [] });
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'first ever' });
		expect(texts((await harness.tick()).items)).toEqual(['first ever']);
	});

	it('process backlog: delivers what was waiting, in order', async () => {
		const harness = t.harness({ firstActivation: 'processBacklog' });
		const sent = sendMany(t.sandbox, 5, 'waiting');
		expect(texts((await harness.tick()).items)).toEqual(sent);
	});

	it('a later activation continues where the trigger stopped, whatever the option says', async () => {
		// n8n 2.41 saves the position found by an activation that emitted nothing.
		const harness = t.harness({ firstActivation: 'startFromNow' }, { saveOnEmptyPoll: true });
		await harness.tick();
		sendMany(t.sandbox, 2, 'while-inactive');
		// Deactivated and activated again: static data kept, the option does not skip again.
		const again = harness.restart();
		expect(texts((await again.tick()).items)).toEqual(['while-inactive 1', 'while-inactive 2']);
	});
});

describe('Fetch Test Event (manual mode)', () => {
	it('returns the newest matching update and leaves cursor, keys and saved data alone', async () => {
		const harness = t.harness();
		await harness.tick();
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'one' });
		expect(texts((await harness.tick()).items)).toEqual(['one']);
		sendMany(t.sandbox, 3, 'pending');

		const live = copy(harness.nodeStaticData);
		const saved = copy(harness.saved);
		t.sandbox.clearRequests();
		const sample = await harness.manual();
		expect(sample).toHaveLength(1);
		expect(sample![0].map((item) => item.json.text)).toEqual(['pending 3']);
		expect(offsetsSent(t.sandbox)[0]).toEqual(live.cursor);
		expect(harness.nodeStaticData).toEqual(live);
		expect(harness.saved).toEqual(saved);

		// The active workflow still gets all three.
		expect(texts((await harness.tick()).items)).toEqual(['pending 1', 'pending 2', 'pending 3']);
	});

	it('when everything was delivered, samples the newest update Rubika still keeps', async () => {
		const harness = t.harness({ firstActivation: 'processBacklog' });
		sendMany(t.sandbox, 2, 'done');
		await harness.tick();
		const live = copy(harness.nodeStaticData);
		const sample = await harness.manual();
		expect(sample![0].map((item) => item.json.text)).toEqual(['done 2']);
		expect(harness.nodeStaticData).toEqual(live);
		expect(await harness.tick()).toEqual({ items: [] });
	});

	it('before the first activation: the newest matching update of the backlog; static data stays empty', async () => {
		const harness = t.harness({ filters: { onlyCommands: true } });
		t.sandbox.userSendMessage({ userId: sara.user_id, text: '/older' });
		t.sandbox.userSendMessage({ userId: sara.user_id, text: '/newest' });
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'not a command' });
		const sample = await harness.manual();
		expect(sample![0].map((item) => item.json.text)).toEqual(['/newest']);
		expect(harness.nodeStaticData).toEqual({});
	});

	it('says so when nothing matches', async () => {
		const harness = t.harness();
		await expect(harness.manual()).rejects.toThrow('No matching update from Rubika yet');
		expect(harness.nodeStaticData).toEqual({});
	});
});

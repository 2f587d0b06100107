/**
 * Delivery guarantees under faults: a poll that fails part-way emits nothing, keeps its position and
 * reports the error through n8n; repeats from the server are dropped; overlapping polls do not double up;
 * a poll that overruns n8n's budget does not commit.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { FaultSpec } from '../../sandbox';
import { PollingTriggerHarness } from '../../tooling/harness/polling';
import { copy, keys, sendMany, texts, useSandbox } from './helpers';

const t = useSandbox();

/** A harness that already delivered two updates (so a cursor is saved), then 25 more waiting: pages of 10, 10, 5. */
async function deliveredTwoThenTwentyFive() {
	const harness = t.harness({ firstActivation: 'processBacklog', options: { pageSize: 10 } });
	sendMany(t.sandbox, 2, 'early');
	expect(texts((await harness.tick()).items)).toEqual(['early 1', 'early 2']);
	const pending = sendMany(t.sandbox, 25, 'late');
	t.sandbox.clearRequests();
	return { harness, pending };
}

describe('an error on the third page', () => {
	const kinds: Array<[string, FaultSpec, RegExp]> = [
		['HTTP 500 after retries', { kind: 'httpStatus', httpStatus: 500 }, /HTTP 500/],
		['an HTML error page from a proxy', { kind: 'html' }, /HTML page/],
		['a truncated answer', { kind: 'truncated' }, /cut off or malformed/],
		['malformed JSON', { kind: 'malformed' }, /cut off or malformed/],
		['a dropped connection', { kind: 'drop' }, /connection was dropped|socket hang up/],
		['an empty body', { kind: 'empty' }, /empty body/],
		['rate limiting that does not stop', { kind: 'status', status: 'TOO_REQUESTS' }, /TOO_REQUESTS/],
		['a refusal', { kind: 'status', status: 'INVALID_ACCESS' }, /INVALID_ACCESS/],
	];

	it.each(kinds)('%s: nothing emitted, position kept, error reported; the next poll delivers each update once', async (_name, fault, message) => {
		const { harness, pending } = await deliveredTwoThenTwentyFive();
		const live = copy(harness.nodeStaticData);
		const saved = copy(harness.saved);
		t.sandbox.injectFault({ ...fault, method: 'getUpdates', skip: 2, times: -1 });

		const failed = await harness.tick();
		expect(failed.items).toEqual([]);
		// Visible: n8n got the error through __emitError (an error execution, the error workflow).
		expect(harness.errors).toEqual([failed.error]);
		expect(failed.error?.message).toMatch(message);
		expect((failed.error as { description?: string }).description).toMatch(/No update was skipped/);
		// Pages one and two were read...
		const offsets = t.sandbox.requestsFor('getUpdates').map((entry) => (entry.body as { offset_id?: string }).offset_id);
		expect(offsets[0]).toBe(live.cursor);
		expect(new Set(offsets).size).toBe(3);
		// ...but the position and the delivered keys did not move, in memory or in the database.
		expect(harness.nodeStaticData).toEqual(live);
		expect(harness.saved).toEqual(saved);

		t.sandbox.clearFaults();
		const next = await harness.tick();
		expect(next.error).toBeUndefined();
		expect(texts(next.items)).toEqual(pending);
		expect(await harness.tick()).toEqual({ items: [] });
		expect(new Set(keys(harness.emitted)).size).toBe(harness.emitted.length);
		expect(harness.emitted).toHaveLength(27);
	});

	it('a fault the retries get past costs nothing: all 25 in the same poll', async () => {
		const { harness, pending } = await deliveredTwoThenTwentyFive();
		t.sandbox.injectFault({ kind: 'httpStatus', httpStatus: 502, method: 'getUpdates', skip: 2, times: 1 });
		const result = await harness.tick();
		expect(result.error).toBeUndefined();
		expect(texts(result.items)).toEqual(pending);
	});

	it('the same failure after a restart: the saved state is the one from before the failed poll', async () => {
		const { harness, pending } = await deliveredTwoThenTwentyFive();
		t.sandbox.injectFault({ kind: 'httpStatus', httpStatus: 500, method: 'getUpdates', skip: 2, times: -1 });
		expect((await harness.tick()).error).toBeDefined();
		t.sandbox.clearFaults();
		const restarted = harness.restart();
		expect(texts((await restarted.tick()).items)).toEqual(pending);
	});
});

describe('answers that are valid JSON but not a getUpdates answer', () => {
	/** A fake Bot API whose third getUpdates answer is `third`; the others are honest pages of one update. */
	async function serverWithThirdAnswer(third: unknown) {
		let calls = 0;
		const server = http.createServer((req, res) => {
			req.resume();
			req.on('end', () => {
				calls++;
				const data =
					calls === 3
						? third
						: calls < 3
							? { updates: [{ type: 'NewMessage', chat_id: 'b0x', new_message: { message_id: String(calls), text: `u${calls}`, time: '1700000000', sender_type: 'User', sender_id: 'u0x' } }], next_offset_id: `c${calls}` }
							: { updates: [], next_offset_id: 'c2' };
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify({ status: 'OK', data }));
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		return { server, baseUrl: `http://127.0.0.1:${port}` };
	}

	it.each([
		['updates is not a list', { updates: 'none', next_offset_id: 'c3' }, /not a list/],
		['an update is not an object', { updates: [42], next_offset_id: 'c3' }, /not an object/],
		['a cursor but no updates', { next_offset_id: 'c3' }, /no updates list/],
		['data that is not an object', 'oops', /no data object/],
	])('%s: the poll fails visibly and moves nothing', async (_name, third, message) => {
		const { server, baseUrl } = await serverWithThirdAnswer(third);
		try {
			const harness = new PollingTriggerHarness({
				parameters: { firstActivation: 'processBacklog', options: { pageSize: 1 } },
				credentials: { accessToken: 'a'.repeat(64), baseUrl },
			});
			const failed = await harness.tick();
			expect(failed.items).toEqual([]);
			expect(failed.error?.message).toMatch(message);
			expect(harness.nodeStaticData).toEqual({});
		} finally {
			server.closeAllConnections();
			server.close();
		}
	});

	it('an answer without updates and without a cursor reads as "nothing new"', async () => {
		const { server, baseUrl } = await serverWithThirdAnswer(null);
		try {
			const harness = new PollingTriggerHarness({
				parameters: { firstActivation: 'processBacklog', options: { pageSize: 1 } },
				credentials: { accessToken: 'a'.repeat(64), baseUrl },
			});
			const result = await harness.tick();
			expect(result.error).toBeUndefined();
			expect(texts(result.items)).toEqual(['u1', 'u2']);
			expect(harness.nodeStaticData.cursor).toBe('c2');
		} finally {
			server.closeAllConnections();
			server.close();
		}
	});
});

describe('repeats', () => {
	it('an update the server sends again in a later answer is dropped', async () => {
		const harness = t.harness({ firstActivation: 'processBacklog' });
		sendMany(t.sandbox, 3, 'a');
		await harness.tick();
		sendMany(t.sandbox, 2, 'b');
		t.sandbox.injectFault({ kind: 'duplicateUpdate' });
		const result = await harness.tick();
		// The sandbox really repeated "a 3" in the answer.
		expect(t.sandbox.requestsFor('getUpdates')[1 + 1].fault).toBe('duplicateUpdate');
		expect(texts(result.items)).toEqual(['b 1', 'b 2']);
	});

	it('an update repeated within one answer comes out once', async () => {
		const harness = t.harness({ firstActivation: 'processBacklog' });
		sendMany(t.sandbox, 3, 'a');
		t.sandbox.injectFault({ kind: 'duplicateUpdate' });
		expect(texts((await harness.tick()).items)).toEqual(['a 1', 'a 2', 'a 3']);
	});

	it('repeats on every page of a long drain, and after a restart, are all dropped', async () => {
		const harness = t.harness({ firstActivation: 'processBacklog', options: { pageSize: 7 } });
		const sent = sendMany(t.sandbox, 40, 'm');
		t.sandbox.injectFault({ kind: 'duplicateUpdate', times: -1 });
		expect(texts((await harness.tick()).items)).toEqual(sent);
		const later = sendMany(t.sandbox, 3, 'n');
		const restarted = harness.restart();
		expect(texts((await restarted.tick()).items)).toEqual(later);
		expect(await restarted.tick()).toEqual({ items: [] });
	});

	it('without the recent-keys set the repeat would have come out (the test can tell)', async () => {
		const harness = t.harness({ firstActivation: 'processBacklog' });
		sendMany(t.sandbox, 1, 'a');
		await harness.tick();
		harness.nodeStaticData.recentKeys = [];
		t.sandbox.injectFault({ kind: 'duplicateUpdate' });
		expect(texts((await harness.tick()).items)).toEqual(['a 1']);
	});
});

describe('timing', () => {
	it('overlapping polls of one workflow never read the same window twice', async () => {
		const harness = t.harness({ firstActivation: 'processBacklog' });
		const sent = sendMany(t.sandbox, 5, 'x');
		t.sandbox.injectFault({ kind: 'delay', ms: 300, method: 'getUpdates' });
		const [first, second] = await Promise.all([harness.tick(), harness.tick()]);
		expect([first.error, second.error]).toEqual([undefined, undefined]);
		expect(texts(harness.emitted)).toEqual(sent);
		expect([first.items.length, second.items.length].sort()).toEqual([0, 5]);
	});

	it('stops reading pages early in n8n\'s poll budget and continues at the next poll', async () => {
		const harness = t.harness({ firstActivation: 'processBacklog', options: { pageSize: 2 } }, { pollBudgetMs: 1000 });
		const sent = sendMany(t.sandbox, 6, 'slow');
		t.sandbox.injectFault({ kind: 'delay', ms: 450, method: 'getUpdates', times: 1 });
		const first = await harness.tick();
		expect(first.error).toBeUndefined();
		expect(texts(first.items)).toEqual(sent.slice(0, 2));
		expect(texts(await harness.drain())).toEqual(sent.slice(2));
	});

	it('a poll that overruns the budget does not commit: n8n may have given up on it', async () => {
		const harness = t.harness({ firstActivation: 'processBacklog' }, { pollBudgetMs: 300 });
		sendMany(t.sandbox, 2, 'late');
		t.sandbox.injectFault({ kind: 'delay', ms: 400, method: 'getUpdates', times: 1 });
		const result = await harness.tick();
		expect(result.items).toEqual([]);
		expect(result.error?.message).toMatch(/longer than n8n allows/);
		expect(harness.nodeStaticData).toEqual({});
		expect(texts((await harness.tick()).items)).toEqual(['late 1', 'late 2']);
	});
});

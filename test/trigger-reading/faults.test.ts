/**
 * The reading trigger under faults: a read that fails part-way keeps the position after the last page it
 * handed over, reports the outage once (a failed execution, which runs the Error Workflow), and delivers each
 * update exactly once when Rubika answers again, also across a restart; answers that are not a getUpdates
 * answer fail visibly; repeats from Rubika never run twice.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { NodeApiError } from 'n8n-workflow';

import type { FaultSpec } from '../../sandbox';
import { ReadingTriggerHarness } from '../../tooling/harness/reading';
import { keys, pauseMs, received, sendMany, texts, useSandbox } from './helpers';

const t = useSandbox();

/** A trigger that already delivered two updates; 25 more wait, read in pages of 10, 10 and 5. */
async function deliveredTwoThenTwentyFive() {
	const harness = t.harness({ firstActivation: 'processBacklog', options: { pageSize: 10 } });
	await harness.activate();
	const early = sendMany(t.sandbox, 2, 'early');
	expect(texts(await received(harness, 2))).toEqual(early);
	const pending = sendMany(t.sandbox, 25, 'late');
	return { harness, early, pending };
}

async function waitForFailure(harness: ReadingTriggerHarness, timeoutMs = 45_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (harness.failures.length === 0) {
		if (Date.now() > deadline) throw new Error(`no failure reported after ${timeoutMs} ms`);
		await pauseMs(50);
	}
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

	it.each(kinds)('%s: the pages before it delivered, the position kept after them, one failed execution; then the rest, each once', async (_name, fault, message) => {
		const { harness, early, pending } = await deliveredTwoThenTwentyFive();
		t.sandbox.injectFault({ ...fault, method: 'getUpdates', skip: 2, times: -1 });
		await waitForFailure(harness);
		// Visible: one failed execution (which runs the Error Workflow), saying what failed and that nothing is skipped.
		expect(harness.failures.map((failure) => failure.message)).toEqual([expect.stringMatching(message)]);
		expect((harness.failures[0] as NodeApiError).description).toMatch(/nothing is skipped/);
		// Pages one and two went out; the third is asked for again and again from where they ended.
		expect(texts(harness.items)).toEqual([...early, ...pending.slice(0, 20)]);
		const failed = t.sandbox.requestsFor('getUpdates').filter((entry) => entry.fault !== undefined);
		expect(new Set(failed.map((entry) => (entry.body as { offset_id?: string }).offset_id))).toEqual(new Set([harness.nodeStaticData.cursor]));

		t.sandbox.clearFaults();
		const items = await received(harness, 27, 90_000);
		expect(texts(items)).toEqual([...early, ...pending]);
		expect(new Set(keys(items)).size).toBe(27);
		expect(harness.failures).toHaveLength(1);
	}, 120_000);

	it('a fault the retries get past costs nothing: all 25, no failure', async () => {
		const { harness, early, pending } = await deliveredTwoThenTwentyFive();
		t.sandbox.injectFault({ kind: 'httpStatus', httpStatus: 502, method: 'getUpdates', skip: 2, times: 1 });
		expect(texts(await received(harness, 27))).toEqual([...early, ...pending]);
		expect(harness.failures).toEqual([]);
		expect(t.sandbox.requestsFor('getUpdates').some((entry) => entry.fault !== undefined)).toBe(true);
	});

	it('the same failure and a restart before Rubika answers again: nothing lost, nothing run twice', async () => {
		const { harness, early, pending } = await deliveredTwoThenTwentyFive();
		t.sandbox.injectFault({ kind: 'httpStatus', httpStatus: 500, method: 'getUpdates', skip: 2, times: -1 });
		await waitForFailure(harness);
		const restarted = await harness.crash();
		t.sandbox.clearFaults();
		await restarted.activate();
		expect(texts(await received(restarted, 5))).toEqual(pending.slice(20));
		expect(texts(restarted.database.executions.map((execution) => execution.item))).toEqual([...early, ...pending]);
	}, 120_000);
});

describe('answers that are valid JSON but not a getUpdates answer', () => {
	/** A fake Bot API: getMe names a bot; getUpdates gives a page of one update twice, then `later` every time. */
	async function serverAnsweringLater(later: unknown) {
		let reads = 0;
		const server = http.createServer((req, res) => {
			req.resume();
			req.on('end', () => {
				let data: unknown;
				if (req.url?.endsWith('/getMe')) data = { bot: { bot_id: 'b0fake', username: 'fake_bot' } };
				else {
					reads++;
					data =
						reads <= 2
							? { updates: [{ type: 'NewMessage', chat_id: 'b0x', new_message: { message_id: String(reads), text: `u${reads}`, time: '1700000000', sender_type: 'User', sender_id: 'u0x' } }], next_offset_id: `c${reads}` }
							: later;
				}
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify({ status: 'OK', data }));
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		const harness = new ReadingTriggerHarness({
			parameters: { firstActivation: 'processBacklog', options: { pageSize: 1, interval: 0.2 } },
			credentials: { accessToken: 'a'.repeat(64), baseUrl: `http://127.0.0.1:${port}` },
		});
		const close = async () => {
			await harness.stop();
			server.closeAllConnections();
			server.close();
		};
		return { harness, close };
	}

	it.each([
		['updates is not a list', { updates: 'none', next_offset_id: 'c3' }, /not a list/],
		['an update is not an object', { updates: [42], next_offset_id: 'c3' }, /not an object/],
		['a cursor but no updates', { next_offset_id: 'c3' }, /no updates list/],
		['data that is not an object', 'oops', /no data object/],
	])('%s: a failed execution says so, and the position stays after the last good page', async (_name, later, message) => {
		const { harness, close } = await serverAnsweringLater(later);
		try {
			await harness.activate();
			await waitForFailure(harness);
			expect(harness.failures.map((failure) => failure.message)).toEqual([expect.stringMatching(message)]);
			expect(texts(harness.items)).toEqual(['u1', 'u2']);
			expect(harness.nodeStaticData.cursor).toBe('c2');
		} finally {
			await close();
		}
	});

	it('an answer without updates and without a cursor reads as "nothing new"', async () => {
		const { harness, close } = await serverAnsweringLater(null);
		try {
			await harness.activate();
			expect(texts(await received(harness, 2))).toEqual(['u1', 'u2']);
			await pauseMs(600);
			expect(harness.failures).toEqual([]);
			expect(harness.nodeStaticData.cursor).toBe('c2');
		} finally {
			await close();
		}
	});
});

describe('repeats', () => {
	it('an update repeated within one answer comes out once', async () => {
		const sent = sendMany(t.sandbox, 3, 'a');
		t.sandbox.injectFault({ kind: 'duplicateUpdate' });
		const harness = t.harness({ firstActivation: 'processBacklog' });
		await harness.activate();
		expect(texts(await received(harness, 3))).toEqual(sent);
		// The sandbox really repeated an update in that answer, and the repeat did not even reach n8n.
		expect(t.sandbox.requestsFor('getUpdates')[0].fault).toBe('duplicateUpdate');
		expect(harness.dropped).toBe(0);
	});

	it('repeats on every page of a long drain, and after a restart, never run twice', async () => {
		const sent = sendMany(t.sandbox, 40, 'm');
		t.sandbox.injectFault({ kind: 'duplicateUpdate', times: -1 });
		const harness = t.harness({ firstActivation: 'processBacklog', options: { pageSize: 7 } });
		await harness.activate();
		expect(texts(await received(harness, 40))).toEqual(sent);
		expect(harness.dropped).toBe(0);
		await harness.deactivate();
		const later = sendMany(t.sandbox, 3, 'n');
		const restarted = await harness.crash();
		await restarted.activate();
		expect(texts(await received(restarted, 3))).toEqual(later);
		expect(new Set(keys(restarted.database.executions.map((execution) => execution.item))).size).toBe(43);
	});

	it('without the delivered keys it keeps, the tail read again after a restart would run again on n8n before 2.41 (the test can tell)', async () => {
		const harness = t.harness({}, { withoutDeduplication: true });
		await harness.activate();
		sendMany(t.sandbox, 1, 'a');
		await received(harness, 1);
		await harness.deactivate();
		// n8n saved the position at the emit, before this page: the restart reads it again.
		expect(harness.savedNodeStaticData.cursor).not.toBe(harness.nodeStaticData.cursor);
		(harness.database.staticData['node:Rubika Trigger'] as { recentKeys: string[] }).recentKeys = [];
		const restarted = await harness.crash();
		await restarted.activate();
		expect(texts(await received(restarted, 1))).toEqual(['a 1']);
	});
});

/**
 * The continuous trigger's life: what fails an activation, stopping with nothing left in flight, errors and
 * backing off, "Listen for test event", and a credential that now belongs to another bot.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { BOT_CHECK } from '../../nodes/RubikaTrigger/continuousSettings';
import { ContinuousTriggerHarness } from '../../tooling/harness/continuous';
import { pauseMs, reza, sara, say, texts, useSandbox } from './helpers';

const t = useSandbox();

const getUpdatesCount = () => t.sandbox.requestsFor('getUpdates').length;

describe('activation', () => {
	it('fails with the field named when a filter is invalid, before any request', async () => {
		const harness = t.harness({ filters: { textPattern: '(unclosed' } });
		const failure = harness.activate();
		await expect(failure).rejects.toBeInstanceOf(NodeOperationError);
		await expect(failure).rejects.toThrow(/Text Pattern/);
		expect(getUpdatesCount()).toBe(0);
	});

	it('fails when Rubika refuses the bot token, and the token appears nowhere in the error', async () => {
		const token = 'x'.repeat(64);
		const harness = new ContinuousTriggerHarness({ parameters: {}, credentials: { accessToken: token, baseUrl: t.sandbox.baseUrl } });
		let error: unknown;
		try {
			await harness.activate();
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(NodeApiError);
		expect(JSON.stringify(error)).not.toContain(token);
		expect(String((error as Error).message)).not.toContain(token);
	});

	it('a saved position Rubika refuses fails the activation with the way out, or restarts from the oldest when chosen', async () => {
		const first = t.harness();
		await first.activate();
		say(t.sandbox, 'delivered before');
		await first.waitForExecutions(1);
		await pauseMs(300);
		await first.deactivate();
		const saved = first.database.staticData['node:Rubika Trigger'] as { cursor: string };
		saved.cursor = 'not-a-cursor-rubika-gave';

		const refused = await first.crash();
		await expect(refused.activate()).rejects.toThrow(/no longer accepts the position.*Options → If Rubika Rejects the Saved Position/);
		// The person publishing sees it at once, and it is a failed execution too (the Error Workflow runs).
		expect(refused.failures.map((failure) => failure.message)).toEqual([expect.stringMatching(/no longer accepts the position/)]);

		say(t.sandbox, 'after the loss');
		const restarted = await first.crash({ parameters: { options: { interval: 0.2, onRejectedPosition: 'restartFromOldest' } } });
		await restarted.activate();
		await restarted.waitForExecutions(1);
		await pauseMs(500);
		// The already delivered message is recognised and dropped; the new one comes once.
		expect(texts(restarted.items)).toEqual(['after the loss']);
	});
});

describe('version 2.1', () => {
	it.each([
		['n8n 2.41+ (deduplication keys)', false],
		['n8n before 2.41 (recently delivered keys only)', true],
	])('by default restarts from the oldest kept update when Rubika rejects the saved position: no error, nothing run twice, on %s', async (_name, withoutDeduplication) => {
		const first = t.harness({ options: { interval: 0.2 } }, { typeVersion: 2.1, withoutDeduplication });
		await first.activate();
		say(t.sandbox, 'delivered before');
		await first.waitForExecutions(1);
		await pauseMs(300);
		await first.deactivate();
		(first.database.staticData['node:Rubika Trigger'] as { cursor: string }).cursor = 'not-a-cursor-rubika-gave';

		say(t.sandbox, 'after the loss');
		const restarted = await first.crash();
		await restarted.activate();
		await restarted.waitForExecutions(1);
		await pauseMs(500);
		expect(texts(restarted.items)).toEqual(['after the loss']);
		expect(restarted.failures).toEqual([]);
		await restarted.stop();
	});
});

describe('starting unattended (n8n starting up)', () => {
	it('a rejected position does not fail the activation: a failed execution says why, once, and the trigger stays active', async () => {
		const first = t.harness();
		await first.activate();
		await pauseMs(300);
		await first.deactivate();
		(first.database.staticData['node:Rubika Trigger'] as { cursor: string }).cursor = 'not-a-cursor-rubika-gave';

		const restarted = await first.crash({ activation: 'init', parameters: { options: { interval: 0.2 } } });
		await restarted.activate();
		expect(restarted.failures).toHaveLength(1);
		expect(restarted.failures[0].message).toMatch(/no longer accepts the position/);
		expect((restarted.failures[0] as NodeApiError).description).toMatch(/stays active.*nothing is skipped/);
		const before = getUpdatesCount();
		await pauseMs(2500);
		// Still trying (with a growing wait), and not reporting the same outage again.
		expect(getUpdatesCount()).toBeGreaterThan(before);
		expect(restarted.failures).toHaveLength(1);
		await restarted.stop();
	});

	it('Rubika refusing the token at start-up: reported at once; when Rubika accepts it again, everything since the saved position arrives', async () => {
		const first = t.harness({ options: { interval: 0.2 } });
		await first.activate();
		say(t.sandbox, 'before the restart');
		await first.waitForExecutions(1);
		await pauseMs(300);
		await first.deactivate();

		t.sandbox.injectFault({ kind: 'status', method: 'getUpdates', status: 'INVALID_ACCESS', times: -1 });
		say(t.sandbox, 'while the token is refused');
		const restarted = await first.crash({ activation: 'init' });
		await restarted.activate();
		expect(restarted.failures.map((failure) => failure.message)).toEqual([expect.stringMatching(/INVALID_ACCESS/)]);
		t.sandbox.clearFaults();
		say(t.sandbox, 'after it is accepted again');
		await restarted.waitForExecutions(2, 60_000);
		expect(texts(restarted.items)).toEqual(['while the token is refused', 'after it is accepted again']);
		expect(restarted.failures).toHaveLength(1);
		await restarted.stop();
	});
});

describe('stopping', () => {
	it('deactivation ends the loop: no request after the close function returned', async () => {
		const harness = t.harness();
		await harness.activate();
		await pauseMs(500);
		expect(getUpdatesCount()).toBeGreaterThan(1);
		await harness.deactivate();
		const after = getUpdatesCount();
		await pauseMs(800);
		expect(getUpdatesCount()).toBe(after);
	});

	it('a request in flight is abandoned at once when the workflow is stopped', async () => {
		const harness = t.harness();
		await harness.activate();
		t.sandbox.injectFault({ kind: 'delay', method: 'getUpdates', ms: 20_000, times: -1 });
		say(t.sandbox, 'never read');
		await pauseMs(600);
		await harness.stop();
		// The close function returned while Rubika (the sandbox) had not answered the request yet.
		const last = t.sandbox.requestsFor('getUpdates').at(-1);
		expect(last?.durationMs ?? null).toBeNull();
		t.sandbox.clearFaults();
		const after = getUpdatesCount();
		await pauseMs(500);
		expect(getUpdatesCount()).toBe(after);
		expect(harness.started).toHaveLength(0);
	});
});

describe('failures', () => {
	it('keeps its position while Rubika fails, reports the outage once, and delivers everything afterwards', async () => {
		const harness = t.harness();
		await harness.activate();
		t.sandbox.injectFault({ kind: 'httpStatus', method: 'getUpdates', httpStatus: 502, times: -1 });
		say(t.sandbox, 'sent during the outage');
		const deadline = Date.now() + 30_000;
		while (harness.failures.length === 0 && Date.now() < deadline) await pauseMs(100);
		expect(harness.failures).toHaveLength(1);
		expect(harness.failures[0].message).toMatch(/502/);
		expect((harness.failures[0] as NodeApiError).description).toMatch(/nothing is skipped/);
		// The waits between attempts grow: no hot loop while Rubika is down.
		const times = t.sandbox.requestsFor('getUpdates').map((entry) => entry.at);
		const gaps = times.slice(1).map((at, index) => at - times[index]);
		expect(Math.max(...gaps)).toBeGreaterThan(Math.min(...gaps) * 2);
		t.sandbox.clearFaults();
		say(t.sandbox, 'sent after');
		await harness.waitForExecutions(2, 60_000);
		expect(texts(harness.items)).toEqual(['sent during the outage', 'sent after']);
		expect(harness.failures).toHaveLength(1);
	});
});

describe('Listen for test event', () => {
	it('gives the first new matching message, then stops reading, and leaves the saved state alone', async () => {
		say(t.sandbox, 'waiting already');
		const harness = t.harness({ filters: { senderIds: reza.user_id } }, { mode: 'manual', activation: 'manual' });
		await harness.activate();
		say(t.sandbox, 'not from reza', sara);
		say(t.sandbox, 'from reza', reza);
		say(t.sandbox, 'second from reza', reza);
		const result = await harness.testEvent();
		expect(texts(result[0])).toEqual(['from reza']);
		await pauseMs(300);
		const after = getUpdatesCount();
		await pauseMs(600);
		expect(getUpdatesCount()).toBe(after);
		expect(harness.nodeStaticData).toEqual({});
		await harness.stop();
	});
});

describe('the credential', () => {
	const defaultBotCheck = BOT_CHECK.intervalMs;
	afterEach(() => {
		BOT_CHECK.intervalMs = defaultBotCheck;
	});

	it('is resolved once per activation, not per request: idle reads cost no credential lookup', async () => {
		const harness = t.harness({ options: { interval: 0.2 } });
		await harness.activate();
		const resolvedAtStart = harness.credentialResolutions;
		const before = getUpdatesCount();
		await pauseMs(1500);
		expect(getUpdatesCount() - before).toBeGreaterThanOrEqual(4);
		expect({ resolvedAtStart, resolvedSince: harness.credentialResolutions - resolvedAtStart }).toEqual({ resolvedAtStart: 1, resolvedSince: 0 });
		await harness.stop();
	});

	it('is resolved again at the bot check: a credential switched to another bot is followed from then on', async () => {
		BOT_CHECK.intervalMs = 700;
		const other = t.sandbox.addBot({ bot_title: 'Second bot' });
		const credentials = { accessToken: t.sandbox.bot(t.sandbox.demo!.botId)!.token, baseUrl: t.sandbox.baseUrl };
		const harness = new ContinuousTriggerHarness({ parameters: { options: { interval: 0.2 } }, credentials });
		await harness.activate();
		say(t.sandbox, 'to the first bot');
		await harness.waitForExecutions(1);
		const firstCursor = harness.nodeStaticData.cursor;

		t.sandbox.userStartBot({ userId: sara.user_id, botId: other.bot_id, sendStartMessage: false });
		t.sandbox.userSendMessage({ userId: sara.user_id, botId: other.bot_id, text: 'waiting at the second bot' });
		credentials.accessToken = other.token;
		// The old token still works: the trigger reads the first bot until its next bot check (700 ms here).
		await pauseMs(1500);
		t.sandbox.userSendMessage({ userId: sara.user_id, botId: other.bot_id, text: 'new at the second bot' });
		await harness.waitForExecutions(2);
		await pauseMs(400);
		expect(texts(harness.items)).toEqual(['to the first bot', 'new at the second bot']);
		expect(harness.nodeStaticData.cursor).not.toBe(firstCursor);
		// The position saved now is the new bot's: the new bot accepts it, and has nothing after it.
		const answer = await fetch(t.sandbox.methodUrl('getUpdates', other.token), {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ offset_id: harness.nodeStaticData.cursor }),
		});
		expect(await answer.json()).toMatchObject({ status: 'OK', data: { updates: [] } });
		await harness.stop();
	});
});

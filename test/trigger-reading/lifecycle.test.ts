/**
 * The reading trigger's life: what fails an activation (a setting only), stopping with nothing left in
 * flight, errors and backing off (one failed execution per outage, whoever activates), "Listen for test
 * event", and the bot a credential reaches: the same bot through a wrong, corrected or rotated token or
 * another address keeps its position; another bot starts anew and says so.
 */
import type { NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { BOT_CHECK } from '../../nodes/RubikaTrigger/reading/limits';
import { DEMO_BOT_ID, DEMO_BOT_TOKEN, startProxy } from '../../sandbox';
import type { TestCredentials } from '../../tooling/harness/n8n';
import { ReadingTriggerHarness } from '../../tooling/harness/reading';
import { pauseMs, reza, sara, say, texts, useSandbox } from './helpers';

const t = useSandbox();

const getUpdatesCount = () => t.sandbox.requestsFor('getUpdates').length;

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`not so after ${timeoutMs} ms`);
		await pauseMs(20);
	}
}

describe('activation', () => {
	it('fails with the field named when a filter is invalid, before any request', async () => {
		const harness = t.harness({ filters: { textPattern: '(unclosed' } });
		const failure = harness.activate();
		await expect(failure).rejects.toBeInstanceOf(NodeOperationError);
		await expect(failure).rejects.toThrow(/Text Pattern/);
		expect(getUpdatesCount()).toBe(0);
	});

	it('publishing with a token Rubika refuses: published, one failed execution however often it is activated, and it starts by itself once the token is corrected', async () => {
		const token = 'x'.repeat(64);
		const credentials = { accessToken: token, baseUrl: t.sandbox.baseUrl };
		const published = new ReadingTriggerHarness({ parameters: { options: { interval: 0.2 } }, credentials });
		await published.activate();
		expect(published.failures.map((failure) => failure.message)).toEqual(['Rubika getMe failed: INVALID_INPUT – Invalid bot token']);
		expect((published.failures[0] as NodeApiError).description).toMatch(/The workflow stays published: the trigger keeps its position and tries again at most a minute apart/);
		expect(JSON.stringify(published.failures)).not.toContain(token);
		expect(getUpdatesCount()).toBe(0);
		// Activated again in the same outage (n8n retrying, a person publishing again): no second alarm.
		const again = await published.crash();
		await again.activate();
		await pauseMs(600);
		expect(again.failures).toEqual([]);

		credentials.accessToken = DEMO_BOT_TOKEN;
		// A first activation starts from "now", the moment Rubika first accepts the token.
		await waitFor(() => again.nodeStaticData.started === true, 10_000);
		say(t.sandbox, 'after the token was corrected');
		await again.waitForExecutions(1);
		expect(texts(again.items)).toEqual(['after the token was corrected']);
		expect(again.failures).toEqual([]);
		expect(again.nodeStaticData.botId).toBe(DEMO_BOT_ID);
		await again.stop();
	});

	it('an outage is over once an activation reads again: the next outage raises its alarm', async () => {
		const credentials = { accessToken: 'x'.repeat(64), baseUrl: t.sandbox.baseUrl };
		const refused = new ReadingTriggerHarness({ parameters: { options: { interval: 0.2 } }, credentials });
		await refused.activate();
		expect(refused.failures).toHaveLength(1);
		credentials.accessToken = DEMO_BOT_TOKEN;
		// Deactivated while still failing; the next activation starts without a failure.
		const fixed = await refused.crash();
		await fixed.activate();
		await waitFor(() => fixed.nodeStaticData.started === true, 10_000);
		await pauseMs(500);
		t.sandbox.injectFault({ kind: 'status', method: 'getUpdates', status: 'INVALID_ACCESS', times: -1 });
		await waitFor(() => fixed.failures.length > 0, 10_000);
		expect(fixed.failures.map((failure) => failure.message)).toEqual([expect.stringMatching(/INVALID_ACCESS/)]);
		await fixed.stop();
	});

	it('a saved position Rubika refuses: published, a failed execution with the way out, and a restart from the oldest when chosen', async () => {
		const first = t.harness();
		await first.activate();
		say(t.sandbox, 'delivered before');
		await first.waitForExecutions(1);
		await pauseMs(300);
		await first.deactivate();
		const saved = first.database.staticData['node:Rubika Trigger'] as { cursor: string };
		saved.cursor = 'not-a-cursor-rubika-gave';

		const refused = await first.crash({ parameters: { options: { onRejectedPosition: 'error' } } });
		await refused.activate();
		expect(refused.failures.map((failure) => failure.message)).toEqual([expect.stringMatching(/no longer accepts the position.*Options → If Rubika Rejects the Saved Position/)]);
		expect((refused.failures[0] as NodeApiError).description).toMatch(/reads nothing \(and skips nothing\) until .* publish the workflow again/);
		await refused.stop();

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
		const first = t.harness({ options: { interval: 0.2 } }, { withoutDeduplication });
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

		const restarted = await first.crash({ activation: 'init', parameters: { options: { interval: 0.2, onRejectedPosition: 'error' } } });
		await restarted.activate();
		expect(restarted.failures).toHaveLength(1);
		expect(restarted.failures[0].message).toMatch(/no longer accepts the position/);
		expect((restarted.failures[0] as NodeApiError).description).toMatch(/stays published and the trigger checks again at most a minute apart/);
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
	const defaultBotCheck = { ...BOT_CHECK };
	afterEach(() => {
		Object.assign(BOT_CHECK, defaultBotCheck);
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

	it('a bot check with the credential unchanged asks Rubika nothing: getMe only when the credential changed', async () => {
		BOT_CHECK.intervalMs = 300;
		const credentials = { accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl };
		const harness = new ReadingTriggerHarness({ parameters: { options: { interval: 0.2 } }, credentials });
		await harness.activate();
		const asked = t.sandbox.requestsFor('getMe').length;
		const resolved = harness.credentialResolutions;
		await pauseMs(1500);
		expect(harness.credentialResolutions - resolved).toBeGreaterThanOrEqual(3);
		expect(t.sandbox.requestsFor('getMe').length - asked).toBe(0);
		credentials.baseUrl = `${t.sandbox.baseUrl}/via/checked`;
		await waitFor(() => t.sandbox.requestsFor('getMe').length > asked, 5000);
		await pauseMs(1000);
		expect(t.sandbox.requestsFor('getMe').length - asked).toBe(1);
		expect(harness.failures).toEqual([]);
		await harness.stop();
	});

	describe('changed to reach the same bot: the position is kept, every message arrives once', () => {
		/** A trigger on the demo bot that has delivered one message, with a bot check every 400 ms. */
		async function running(credentials: TestCredentials = { accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl }) {
			BOT_CHECK.intervalMs = 400;
			const harness = new ReadingTriggerHarness({ parameters: { options: { interval: 0.2 } }, credentials });
			await harness.activate();
			say(t.sandbox, 'before');
			await harness.waitForExecutions(1);
			return { harness, credentials };
		}

		/** `change` made to a running trigger's credential between two messages: every message once, no failure. */
		async function changedWhileReading(change: (credentials: TestCredentials) => void): Promise<void> {
			const { harness, credentials } = await running();
			say(t.sandbox, 'just before the change');
			change(credentials);
			await pauseMs(1000);
			say(t.sandbox, 'after the change');
			await harness.waitForExecutions(3);
			await pauseMs(500);
			expect(texts(harness.items)).toEqual(['before', 'just before the change', 'after the change']);
			expect(harness.failures).toEqual([]);
			await harness.stop();
		}

		it('a mistyped token, then the right one: one failed execution, nothing dropped, the messages sent meanwhile arrive once', async () => {
			const { harness, credentials } = await running();
			credentials.accessToken = `${DEMO_BOT_TOKEN.slice(0, -1)}x`;
			await waitFor(() => harness.failures.length > 0, 10_000);
			say(t.sandbox, 'while the token is wrong 1');
			say(t.sandbox, 'while the token is wrong 2');
			await pauseMs(1500);
			expect(harness.started).toHaveLength(1);
			expect(harness.nodeStaticData).toMatchObject({ botId: DEMO_BOT_ID, started: true });
			credentials.accessToken = DEMO_BOT_TOKEN;
			await harness.waitForExecutions(3, 30_000);
			say(t.sandbox, 'after');
			await harness.waitForExecutions(4);
			await pauseMs(500);
			expect(texts(harness.items)).toEqual(['before', 'while the token is wrong 1', 'while the token is wrong 2', 'after']);
			expect(harness.failures.map((failure) => failure.message)).toEqual(['Rubika getMe failed: INVALID_INPUT – Invalid bot token']);
			await harness.stop();
		});

		it('a token made wrong while the bot is idle: the next update is not handed over with the old credential, the workflow never runs with the wrong one', async () => {
			const { harness, credentials } = await running();
			// Only the check before handing over updates may notice it here, not the idle one.
			Object.assign(BOT_CHECK, { intervalMs: 60_000, beforeHandingOverMs: 300 });
			await pauseMs(500);
			credentials.accessToken = `${DEMO_BOT_TOKEN.slice(0, -1)}x`;
			say(t.sandbox, 'right after the token was made wrong');
			await waitFor(() => harness.failures.length > 0, 10_000);
			expect(harness.started).toHaveLength(1);
			credentials.accessToken = DEMO_BOT_TOKEN;
			await harness.waitForExecutions(2, 30_000);
			await pauseMs(500);
			expect(texts(harness.items)).toEqual(['before', 'right after the token was made wrong']);
			expect(harness.failures).toHaveLength(1);
			await harness.stop();
		});

		it('a rotated token: the old one refused, then the new one in the credential: the same bot, nothing dropped', async () => {
			const { harness, credentials } = await running();
			try {
				const { token } = t.sandbox.rotateToken(DEMO_BOT_ID);
				say(t.sandbox, 'after the rotation');
				await waitFor(() => harness.failures.length > 0, 10_000);
				expect(harness.failures[0].message).toMatch(/INVALID_INPUT/);
				credentials.accessToken = token;
				await harness.waitForExecutions(2, 30_000);
				say(t.sandbox, 'with the new token');
				await harness.waitForExecutions(3);
				await pauseMs(500);
				expect(texts(harness.items)).toEqual(['before', 'after the rotation', 'with the new token']);
				expect(harness.failures).toHaveLength(1);
				expect(harness.nodeStaticData.botId).toBe(DEMO_BOT_ID);
			} finally {
				await harness.stop();
				t.sandbox.rotateToken(DEMO_BOT_ID, DEMO_BOT_TOKEN);
			}
		});

		it('another Base URL reaching the same Rubika: no failure, no message lost or repeated, reads go to the new address', async () => {
			await changedWhileReading((credentials) => (credentials.baseUrl = `${t.sandbox.baseUrl}/via/second-address`));
			expect(t.sandbox.requestsFor('getUpdates').at(-1)?.path).toBe('/via/second-address/v3/<token>/getUpdates');
		});

		it('a proxy put in the credential: no failure, no message lost or repeated, reads go through the proxy', async () => {
			const proxy = await startProxy();
			try {
				await changedWhileReading((credentials) => (credentials.proxy = proxy.url));
				expect(proxy.requests.some((request) => request.path?.endsWith('/getUpdates'))).toBe(true);
			} finally {
				await proxy.close();
			}
		});
	});

	it('a position saved before bot ids were kept (a credential hash) is read on upgrade: nothing dropped, nothing run twice', async () => {
		// What the trigger wrote before: `bot` a hash of the credential, no botId; its deduplication keys are
		// scoped by that hash.
		const legacy = '0123456789abcdef';
		const first = new ReadingTriggerHarness({
			parameters: { options: { interval: 0.2 } },
			credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl },
			database: { staticData: { 'node:Rubika Trigger': { bot: legacy } }, executions: [] },
		});
		await first.activate();
		say(t.sandbox, 'delivered before the upgrade');
		await first.waitForExecutions(1);
		await pauseMs(300);
		await first.deactivate();
		delete (first.database.staticData['node:Rubika Trigger'] as Record<string, unknown>).botId;
		say(t.sandbox, 'sent while upgrading');
		const upgraded = await first.crash();
		await upgraded.activate();
		await upgraded.waitForExecutions(1);
		await pauseMs(500);
		// The tail read again after the restart carries the keys n8n already holds, and is dropped.
		expect(texts(upgraded.items)).toEqual(['sent while upgrading']);
		expect(upgraded.dropped).toBe(1);
		expect(upgraded.failures).toEqual([]);
		expect(upgraded.nodeStaticData).toMatchObject({ botId: DEMO_BOT_ID, bot: legacy, started: true });
		await upgraded.stop();
	});

	it('is resolved again at the bot check: a credential switched to another bot is followed from then on, and a failed execution says so', async () => {
		BOT_CHECK.intervalMs = 700;
		const other = t.sandbox.addBot({ bot_title: 'Second bot' });
		const credentials = { accessToken: t.sandbox.bot(t.sandbox.demo!.botId)!.token, baseUrl: t.sandbox.baseUrl };
		const harness = new ReadingTriggerHarness({ parameters: { options: { interval: 0.2 } }, credentials });
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
		expect(harness.nodeStaticData.botId).toBe(other.bot_id);
		expect(harness.failures.map((failure) => failure.message)).toEqual([
			`The Rubika credential now reaches another bot, @${other.username} (${other.bot_id}), not the bot this trigger read before (${DEMO_BOT_ID}): the trigger starts anew for @${other.username}`,
		]);
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

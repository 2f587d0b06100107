/**
 * How often the trigger by reading asks Rubika: Interval while nothing happens, Interval During a Conversation
 * after an update and after the bot posted in a chat from this n8n (a Send and Wait question), Idle Interval
 * after the quiet time (Idle After). Real time, read from the sandbox's request log; the bounds are generous (a loaded
 * machine stretches every wait), the latency targets are the benchmarks' (BENCHMARKS.md B6, B9).
 */
import { DEMO_BOT_TOKEN } from '../../sandbox';
import { PACE } from '../../nodes/RubikaTrigger/reading/limits';
import { runNode } from '../../tooling/harness/n8n';
import { fakeWaitingEndpoint, waitFor } from '../support/waitingEndpoint';
import { pauseMs, sara, say, useSandbox } from './helpers';

const t = useSandbox();
const defaults = { ...PACE };

afterEach(() => {
	Object.assign(PACE, defaults);
});

/** When each getUpdates request arrived, from `since` on. */
function readsSince(since: number): number[] {
	return t.sandbox
		.requestsFor('getUpdates')
		.map((entry) => entry.at)
		.filter((at) => at >= since);
}

function gaps(times: number[]): number[] {
	return times.slice(1).map((at, index) => at - times[index]);
}

describe('Interval During a Conversation', () => {
	it('after an update the trigger reads at that pace for the conversation time, then at Interval again', async () => {
		PACE.conversationMs = 2_000;
		const harness = t.harness({ options: { interval: 1.5, conversationInterval: 0.2 } });
		await harness.activate();
		await pauseMs(300);
		say(t.sandbox, 'hello');
		await harness.waitForExecutions(1);
		const conversationStart = Date.now();
		await pauseMs(1_500);
		const during = readsSince(conversationStart);
		await pauseMs(2_500);
		const after = readsSince(conversationStart + PACE.conversationMs + 400);

		// 0.2 s apart while it lasts (about seven reads in 1.5 s; at Interval it would be one)...
		expect(during.length).toBeGreaterThanOrEqual(4);
		expect(Math.max(...gaps(during))).toBeLessThan(700);
		// ...then back to Interval (1.5 s).
		expect(after.length).toBeGreaterThanOrEqual(1);
		expect(Math.min(...gaps(after))).toBeGreaterThan(1_100);
	});

	it('set equal to Interval, an update changes nothing: the trigger never reads faster than Interval', async () => {
		const harness = t.harness({ options: { interval: 1, conversationInterval: 1 } });
		await harness.activate();
		say(t.sandbox, 'hello');
		await harness.waitForExecutions(1);
		const since = Date.now();
		await pauseMs(3_200);
		const reads = readsSince(since);
		expect(reads.length).toBeLessThanOrEqual(4);
		expect(Math.min(...gaps(reads))).toBeGreaterThan(800);
	});

	it('a Send and Wait question the bot asks from this n8n cuts a long wait short: the tap on its keypad is handed on within a second, not after Interval', async () => {
		const waiting = await fakeWaitingEndpoint();
		try {
			// A long Interval: without the question, the tap would wait up to 20 s for the next read.
			const trigger = t.harness({ updateTypes: ['NewMessage'], options: { interval: 20, conversationInterval: 0.2 } }, { webhookWaitingBaseUrl: waiting.base });
			await trigger.activate();
			await pauseMs(300);
			const readsBefore = t.sandbox.requestsFor('getUpdates').length;
			const asked = await runNode({
				parameters: {
					resource: 'message',
					operation: 'sendAndWait',
					chatId: sara.chat_id,
					message: 'Publish the post?',
					answerIn: 'chatKeypad',
					approvalOptions: { values: { approvalType: 'double' } },
				},
				credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl },
			});
			expect(asked.run.status).toBe('waiting');
			const approve = t.sandbox.chatKeypad(sara.chat_id)?.rows[0].buttons[0];
			expect(approve).toBeDefined();
			// The question woke the trigger: it reads again at once, and every 0.2 s from then on.
			await waitFor(() => t.sandbox.requestsFor('getUpdates').length > readsBefore, 2_000);

			const tappedAt = Date.now();
			t.sandbox.userTapChatKeypadButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: approve!.id });
			await waitFor(() => waiting.received.length === 1, 5_000);
			expect(Date.now() - tappedAt).toBeLessThan(3_000);
			expect(waiting.received[0].body.rubikaChatAnswer).toMatchObject({ decision: 'approve', chat_id: sara.chat_id, sender_id: sara.user_id });
			expect(trigger.items).toHaveLength(0);
		} finally {
			await waiting.close();
		}
	});
});

describe('Idle Interval', () => {
	it('after the quiet time the trigger reads at Idle Interval; an update brings back the faster pace', async () => {
		// Idle After 0.02 minutes: 1.2 s without an update.
		const harness = t.harness({ options: { interval: 0.3, idleInterval: 1.5, conversationInterval: 0.3, idleAfter: 0.02 } });
		await harness.activate();
		await pauseMs(1_500);
		const quiet = Date.now();
		await pauseMs(3_500);
		const idle = readsSince(quiet);
		expect(Math.min(...gaps(idle))).toBeGreaterThan(1_100);

		say(t.sandbox, 'hello');
		await harness.waitForExecutions(1);
		const since = Date.now();
		await pauseMs(800);
		expect(Math.max(...gaps(readsSince(since)))).toBeLessThan(700);
	});
});

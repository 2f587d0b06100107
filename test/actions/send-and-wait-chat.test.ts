/**
 * Send and Wait → Answer In: Chat. The buttons the question carries (their ids, what proves them), the
 * fallback to links, and both triggers handing a tap on them to the waiting execution's resume address (here a
 * local server standing in for n8n's `/webhook-waiting`) instead of starting their own workflow. The waiting
 * node's side (who may answer, the chat afterwards, the output, forgeries) runs in real n8n: e2e/chat-answers.mjs.
 */
import type { RubikaSandbox } from '../../sandbox';
import { DEMO_BOT_TOKEN, DEMO_USERS } from '../../sandbox';
import {
	answerButtonId,
	fallbackLinkProof,
	isGenuineAnswerButton,
	readAnswerButton,
	signTap,
	tapProblem,
} from '../../nodes/shared/chatAnswers';
import { useActionSandbox } from './helpers';
import { useSandbox as useContinuousTriggerSandbox } from '../continuous-trigger/helpers';
import { ContinuousTriggerHarness } from '../../tooling/harness/continuous';
import { fakeWaitingEndpoint, waitFor } from '../harness/waitingEndpoint';

const sara = DEMO_USERS.sara;
const TOKEN_HEX = 'ab'.repeat(32);

describe('answer button ids', () => {
	it('carry n8n\'s resume token where n8n has one, else a MAC over execution, decision and chat; both stay under 64 characters', () => {
		const withToken = answerButtonId(DEMO_BOT_TOKEN, { executionId: '1234567', decision: 'approve', chatId: sara.chat_id, resumeToken: TOKEN_HEX });
		const withMac = answerButtonId(DEMO_BOT_TOKEN, { executionId: '1234567', decision: 'decline', chatId: sara.chat_id });
		expect(withToken.length).toBeLessThan(64);
		expect(withMac.length).toBeLessThan(64);
		expect(readAnswerButton(withToken)).toEqual({ executionId: '1234567', decision: 'approve', resumeToken: TOKEN_HEX });
		expect(readAnswerButton(withMac)).toMatchObject({ executionId: '1234567', decision: 'decline' });
		expect(withToken).not.toContain(DEMO_BOT_TOKEN);
		expect(withMac).not.toContain(DEMO_BOT_TOKEN);
	});

	it('a MAC button is genuine only for its chat, its decision and this bot', () => {
		const id = answerButtonId(DEMO_BOT_TOKEN, { executionId: '77', decision: 'approve', chatId: sara.chat_id });
		const button = readAnswerButton(id)!;
		expect(isGenuineAnswerButton(DEMO_BOT_TOKEN, button, sara.chat_id)).toBe(true);
		expect(isGenuineAnswerButton(DEMO_BOT_TOKEN, button, DEMO_USERS.reza.chat_id)).toBe(false);
		expect(isGenuineAnswerButton('another-bot-token', button, sara.chat_id)).toBe(false);
		const edited = readAnswerButton(id.replace('.am.', '.dm.'))!;
		expect(isGenuineAnswerButton(DEMO_BOT_TOKEN, edited, sara.chat_id)).toBe(false);
		const otherExecution = readAnswerButton(id.replace('sw1.77.', 'sw1.78.'))!;
		expect(isGenuineAnswerButton(DEMO_BOT_TOKEN, otherExecution, sara.chat_id)).toBe(false);
	});

	it.each(['menu', 'sw1', 'sw1.1.a', 'sw1.1.xm.AAAAAAAAAAAAAAAA', 'sw1.1.am.short', 'sw1.1/2.am.AAAAAAAAAAAAAAAA', 'sw1.1.am.AAAAAAAAAAAAAAAA.x'])(
		'%s is not an answer button',
		(id) => {
			expect(readAnswerButton(id)).toBeUndefined();
		},
	);

	it('a forwarded tap counts only signed with this bot\'s key, for this execution, fresh, and on one of its buttons', () => {
		const button_id = answerButtonId(DEMO_BOT_TOKEN, { executionId: '9', decision: 'approve', chatId: sara.chat_id });
		const tap = { button_id, execution_id: '9', decision: 'approve' as const, chat_id: sara.chat_id, message_id: 'm1', sender_id: sara.user_id, at: Date.now() };
		const body = signTap(DEMO_BOT_TOKEN, tap);
		const question = { executionId: '9' };
		expect(tapProblem(DEMO_BOT_TOKEN, body, question, Date.now())).toBeUndefined();
		expect(tapProblem(DEMO_BOT_TOKEN, body, { executionId: '10' }, Date.now())).toMatch(/execution 9/);
		expect(tapProblem('another-bot-token', body, question, Date.now())).toMatch(/not signed/);
		expect(tapProblem(DEMO_BOT_TOKEN, { ...body, rubikaChatAnswer: { ...tap, sender_id: 'u0someoneElse' } }, question, Date.now())).toMatch(/not signed/);
		expect(tapProblem(DEMO_BOT_TOKEN, { ...body, rubikaChatAnswer: { ...tap, decision: 'decline' } }, question, Date.now())).toMatch(/not signed/);
		expect(tapProblem(DEMO_BOT_TOKEN, body, question, Date.now() + 10 * 60_000)).toMatch(/too old/);
		expect(tapProblem(DEMO_BOT_TOKEN, { approved: 'true' }, question, Date.now())).toMatch(/not a tap/);
	});

	it('a tap on a button the question did not carry counts for nothing, however it was forwarded', () => {
		const tapOn = (buttonId: string, decision: 'approve' | 'decline' = 'approve', chatId: string = sara.chat_id) =>
			signTap(DEMO_BOT_TOKEN, { button_id: buttonId, execution_id: '9', decision, chat_id: chatId, message_id: 'm1', sender_id: sara.user_id, at: Date.now() });
		const withToken = (token: string) => answerButtonId(DEMO_BOT_TOKEN, { executionId: '9', decision: 'approve', chatId: sara.chat_id, resumeToken: token });
		// Where n8n has no resume token (2.8.4), a "token" button is made up: n8n checks no token there.
		expect(tapProblem(DEMO_BOT_TOKEN, tapOn(withToken(TOKEN_HEX)), { executionId: '9' }, Date.now())).toMatch(/did not carry/);
		// Where it has one, only that token.
		expect(tapProblem(DEMO_BOT_TOKEN, tapOn(withToken(TOKEN_HEX)), { executionId: '9', resumeToken: TOKEN_HEX }, Date.now())).toBeUndefined();
		expect(tapProblem(DEMO_BOT_TOKEN, tapOn(withToken('cd'.repeat(32))), { executionId: '9', resumeToken: TOKEN_HEX }, Date.now())).toMatch(/did not carry/);
		// A MAC button: for its chat and its decision only.
		const macButton = answerButtonId(DEMO_BOT_TOKEN, { executionId: '9', decision: 'approve', chatId: sara.chat_id });
		expect(tapProblem(DEMO_BOT_TOKEN, tapOn(macButton, 'approve', DEMO_USERS.reza.chat_id), { executionId: '9' }, Date.now())).toMatch(/did not carry/);
		expect(tapProblem(DEMO_BOT_TOKEN, tapOn(macButton, 'decline'), { executionId: '9' }, Date.now())).toMatch(/did not carry/);
		expect(tapProblem(DEMO_BOT_TOKEN, tapOn(macButton), { executionId: '9', resumeToken: TOKEN_HEX }, Date.now())).toMatch(/did not carry/);
	});
});

interface SentKeypad {
	rows: Array<{ buttons: Array<{ id: string; type: string; button_text: string; button_link?: { link_url: string } }> }>;
}

describe('Send and Wait, Answer In: Chat — the question', () => {
	const t = useActionSandbox('message');
	const question = (answerIn: string, extra: object = {}) => ({
		operation: 'sendAndWait',
		chatId: sara.chat_id,
		message: 'Publish the post?',
		answerIn,
		approvalOptions: { values: { approvalType: 'double', approveLabel: 'بله', disapproveLabel: 'خیر' } },
		...extra,
	});

	it('Buttons Under the Message: Simple buttons whose ids are answer buttons for this chat; the execution waits', async () => {
		const result = await t.run(question('inlineButtons'));
		expect(result.error).toBeUndefined();
		expect(result.run.status).toBe('waiting');
		const [body] = t.bodies('sendMessage') as Array<{ inline_keypad: SentKeypad; chat_keypad?: unknown }>;
		const buttons = body.inline_keypad.rows[0].buttons;
		expect(buttons.map((button) => [button.type, button.button_text])).toEqual([
			['Simple', 'بله'],
			['Simple', 'خیر'],
		]);
		const [approve, decline] = buttons.map((button) => readAnswerButton(button.id)!);
		expect([approve.decision, decline.decision]).toEqual(['approve', 'decline']);
		expect(isGenuineAnswerButton(DEMO_BOT_TOKEN, approve, sara.chat_id)).toBe(true);
		expect(body.chat_keypad).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ answer_in: 'inlineButtons', chat_id: sara.chat_id });
		// The sandbox shows the buttons under the message.
		const shown = t.sandbox.messages(sara.chat_id).at(-1)!;
		expect(shown.inline_keypad?.rows[0].buttons.map((button) => button.button_text)).toEqual(['بله', 'خیر']);
	});

	it('Keypad Buttons: the chat keypad (New, resized, not one-time) with the answer buttons', async () => {
		const result = await t.run(question('chatKeypad'));
		expect(result.error).toBeUndefined();
		const [body] = t.bodies('sendMessage') as Array<{ chat_keypad: SentKeypad & { resize_keyboard: boolean; one_time_keyboard: boolean }; chat_keypad_type: string }>;
		expect(body.chat_keypad_type).toBe('New');
		expect(body.chat_keypad).toMatchObject({ resize_keyboard: true, one_time_keyboard: false });
		expect(body.chat_keypad.rows[0].buttons.map((button) => readAnswerButton(button.id)?.decision)).toEqual(['approve', 'decline']);
		expect(result.items[0].json.answer_in).toBe('chatKeypad');
	});

	it('when Rubika refuses the buttons, the links to the web page go instead, each carrying the fallback proof', async () => {
		t.sandbox.injectFault({ kind: 'status', method: 'sendMessage', status: 'INVALID_INPUT', devMessage: 'button id too long' });
		const result = await t.run(question('inlineButtons'));
		expect(result.error).toBeUndefined();
		expect(result.run.status).toBe('waiting');
		const [, second] = t.bodies('sendMessage') as Array<{ inline_keypad: SentKeypad }>;
		const links = second.inline_keypad.rows[0].buttons.map((button) => new URL(button.button_link!.link_url));
		expect(links.map((url) => url.searchParams.get('approved'))).toEqual(['true', 'false']);
		expect(links[0].searchParams.get('proof')).toBe(fallbackLinkProof(DEMO_BOT_TOKEN, 'test-execution', 'true'));
		expect(result.items[0].json.answer_in).toBe('webPage');
	});

	it('Free Text ignores Answer In (a form needs the page)', async () => {
		await t.run(question('inlineButtons', { responseType: 'freeText' }));
		const [body] = t.bodies('sendMessage') as Array<{ inline_keypad: SentKeypad }>;
		expect(body.inline_keypad.rows[0].buttons[0].type).toBe('Link');
	});
});

describe('the continuous trigger hands keypad taps on answer buttons to the waiting execution', () => {
	const t = useContinuousTriggerSandbox();

	it('posts the signed tap to the execution\'s resume address and starts nothing; other messages still start executions', async () => {
		const waiting = await fakeWaitingEndpoint();
		try {
			const trigger = t.harness({ updateTypes: ['NewMessage'] }, { webhookWaitingBaseUrl: waiting.base });
			await trigger.activate();
			const id = answerButtonId(DEMO_BOT_TOKEN, { executionId: '41', decision: 'decline', chatId: sara.chat_id });
			await botSends(t.sandbox, { chat_id: sara.chat_id, text: 'Publish?', chat_keypad_type: 'New', chat_keypad: { rows: [{ buttons: [{ id, type: 'Simple', button_text: 'No' }] }] } });
			t.sandbox.userTapChatKeypadButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: id });
			t.sandbox.userSendMessage({ userId: sara.user_id, text: 'hello' });
			await trigger.waitForExecutions(1);
			await waitFor(() => waiting.received.length === 1);
			expect(trigger.items.map((item) => item.json.text)).toEqual(['hello']);
			const [{ url, body }] = waiting.received;
			expect(url).toBe('/webhook-waiting/41');
			expect(tapProblem(DEMO_BOT_TOKEN, body, { executionId: '41' }, Date.now())).toBeUndefined();
			expect(body.rubikaChatAnswer).toMatchObject({ button_id: id, decision: 'decline', chat_id: sara.chat_id, sender_id: sara.user_id });
		} finally {
			await ContinuousTriggerHarness.stopAll();
			await waiting.close();
		}
	});

	it('a button id this bot did not make for that chat is handed to nobody', async () => {
		const waiting = await fakeWaitingEndpoint();
		try {
			const trigger = t.harness({ updateTypes: ['NewMessage'] }, { webhookWaitingBaseUrl: waiting.base });
			await trigger.activate();
			const forged = answerButtonId('another-bot-token', { executionId: '41', decision: 'approve', chatId: sara.chat_id });
			await botSends(t.sandbox, { chat_id: sara.chat_id, text: 'Publish?', chat_keypad_type: 'New', chat_keypad: { rows: [{ buttons: [{ id: forged, type: 'Simple', button_text: 'Yes' }] }] } });
			t.sandbox.userTapChatKeypadButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: forged });
			t.sandbox.userSendMessage({ userId: sara.user_id, text: 'after' });
			await trigger.waitForExecutions(1);
			expect(trigger.items.map((item) => item.json.text)).toEqual(['after']);
			expect(waiting.received).toEqual([]);
		} finally {
			await ContinuousTriggerHarness.stopAll();
			await waiting.close();
		}
	});
});

/** The bot sends a message through the API, as a workflow would. */
async function botSends(sandbox: RubikaSandbox, body: object): Promise<void> {
	const response = await fetch(sandbox.methodUrl('sendMessage', DEMO_BOT_TOKEN), {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	expect(((await response.json()) as { status: string }).status).toBe('OK');
}

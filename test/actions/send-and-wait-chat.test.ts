/**
 * Send and Wait → Answer In: Chat. The buttons the question carries (their ids, what proves them), the
 * fallback to links, and both triggers handing a tap on them to the waiting execution's resume address (here a
 * local server standing in for n8n's `/webhook-waiting`) instead of starting their own workflow. The waiting
 * node's side (who may answer, the chat afterwards, the output, forgeries) runs in real n8n: e2e/chat-answers.mjs.
 */
import type { RubikaSandbox } from '../../sandbox';
import { DEMO_BOT_TOKEN, DEMO_USERS } from '../../sandbox';
import type { ChatDecision } from '../../nodes/shared/chatAnswers';
import { answerButtonId, fallbackLinkProof, readAnswerButton, resumeTokenOfTap, signTap, tapProblem } from '../../nodes/shared/chatAnswers';
import { useActionSandbox } from './helpers';
import { useSandbox as useContinuousTriggerSandbox } from '../trigger-reading/helpers';
import { ReadingTriggerHarness } from '../../tooling/harness/reading';
import { fakeWaitingEndpoint, waitFor } from '../support/waitingEndpoint';

const sara = DEMO_USERS.sara;
const reza = DEMO_USERS.reza;
const TOKEN_HEX = 'ab'.repeat(32);

/** A question as the waiting node knows it: Approve and Decline under message m1 in Sara's chat. */
const QUESTION = { executionId: '9', resumeToken: TOKEN_HEX, decisions: ['approve', 'decline'] as ChatDecision[], chatId: sara.chat_id, messageId: 'm1' };

describe('answer button ids', () => {
	it('carry n8n\'s resume token sealed for their decision and chat where n8n has one, else a MAC; both stay under 64 characters', () => {
		const withToken = answerButtonId(DEMO_BOT_TOKEN, { executionId: '1234567', decision: 'approve', chatId: sara.chat_id, resumeToken: TOKEN_HEX });
		const withMac = answerButtonId(DEMO_BOT_TOKEN, { executionId: '1234567', decision: 'decline', chatId: sara.chat_id });
		expect(withToken).toMatch(/^sw1\.1234567\.at\.[A-Za-z0-9_-]{43}$/);
		expect(withMac).toMatch(/^sw1\.1234567\.dm\.[A-Za-z0-9_-]{16}$/);
		expect(withToken.length).toBeLessThan(64);
		expect(readAnswerButton(withToken)).toMatchObject({ executionId: '1234567', decision: 'approve' });
		expect(readAnswerButton(withMac)).toMatchObject({ executionId: '1234567', decision: 'decline' });
		// Neither the bot token nor the resume token can be read off a button.
		for (const id of [withToken, withMac]) {
			expect(id).not.toContain(DEMO_BOT_TOKEN);
			expect(id).not.toContain(Buffer.from(TOKEN_HEX, 'hex').toString('base64url'));
		}
	});

	it('a sealed token unseals to the resume token only with the chat and the decision it was made for', () => {
		const id = answerButtonId(DEMO_BOT_TOKEN, { executionId: '77', decision: 'approve', chatId: sara.chat_id, resumeToken: TOKEN_HEX });
		expect(resumeTokenOfTap(DEMO_BOT_TOKEN, readAnswerButton(id)!, sara.chat_id)).toEqual({ resumeToken: TOKEN_HEX });
		// The same id tapped in another chat, with its decision letter edited, for another execution, or by
		// another bot's trigger: a token n8n does not know.
		const wrong = [
			resumeTokenOfTap(DEMO_BOT_TOKEN, readAnswerButton(id)!, reza.chat_id),
			resumeTokenOfTap(DEMO_BOT_TOKEN, readAnswerButton(id.replace('.at.', '.dt.'))!, sara.chat_id),
			resumeTokenOfTap(DEMO_BOT_TOKEN, readAnswerButton(id.replace('sw1.77.', 'sw1.78.'))!, sara.chat_id),
			resumeTokenOfTap('another-bot-token', readAnswerButton(id)!, sara.chat_id),
		];
		for (const token of wrong) expect(token?.resumeToken).not.toBe(TOKEN_HEX);
		// The same token sealed for Decline gives another id: one button cannot be turned into the other.
		const decline = answerButtonId(DEMO_BOT_TOKEN, { executionId: '77', decision: 'decline', chatId: sara.chat_id, resumeToken: TOKEN_HEX });
		expect(decline.split('.')[3]).not.toBe(id.split('.')[3]);
	});

	it('a MAC button passes the trigger only for its chat, its decision, its execution and this bot', () => {
		const id = answerButtonId(DEMO_BOT_TOKEN, { executionId: '77', decision: 'approve', chatId: sara.chat_id });
		const button = readAnswerButton(id)!;
		expect(resumeTokenOfTap(DEMO_BOT_TOKEN, button, sara.chat_id)).toEqual({});
		expect(resumeTokenOfTap(DEMO_BOT_TOKEN, button, reza.chat_id)).toBeUndefined();
		expect(resumeTokenOfTap('another-bot-token', button, sara.chat_id)).toBeUndefined();
		expect(resumeTokenOfTap(DEMO_BOT_TOKEN, readAnswerButton(id.replace('.am.', '.dm.'))!, sara.chat_id)).toBeUndefined();
		expect(resumeTokenOfTap(DEMO_BOT_TOKEN, readAnswerButton(id.replace('sw1.77.', 'sw1.78.'))!, sara.chat_id)).toBeUndefined();
	});

	it.each(['menu', 'sw1', 'sw1.1.a', 'sw1.1.xm.AAAAAAAAAAAAAAAA', 'sw1.1.am.short', 'sw1.1/2.am.AAAAAAAAAAAAAAAA', 'sw1.1.am.AAAAAAAAAAAAAAAA.x', `sw1.1.at.${'A'.repeat(100)}`])(
		'%s is not an answer button',
		(id) => {
			expect(readAnswerButton(id)).toBeUndefined();
		},
	);
});

describe('the waiting node accepts a forwarded tap only when everything it carries is what the question sent', () => {
	/** A tap as a trigger of this bot forwards it: by default Sara's Approve on the question's own button. */
	const forwarded = (tap: { decision?: ChatDecision; chat_id?: string; message_id?: string | null; button_id?: string; execution_id?: string; at?: number } = {}) => {
		const decision = tap.decision ?? 'approve';
		const chatId = tap.chat_id ?? sara.chat_id;
		const buttonId = tap.button_id ?? answerButtonId(DEMO_BOT_TOKEN, { executionId: '9', decision, chatId: sara.chat_id, resumeToken: TOKEN_HEX });
		return signTap(DEMO_BOT_TOKEN, {
			button_id: buttonId,
			execution_id: tap.execution_id ?? '9',
			decision,
			chat_id: chatId,
			message_id: tap.message_id === undefined ? 'm1' : tap.message_id,
			sender_id: sara.user_id,
			at: tap.at ?? Date.now(),
		});
	};

	it('the question\'s own buttons, in its chat and on its message, signed and fresh: accepted', () => {
		expect(tapProblem(DEMO_BOT_TOKEN, forwarded(), QUESTION, Date.now())).toBeUndefined();
		expect(tapProblem(DEMO_BOT_TOKEN, forwarded({ decision: 'decline' }), QUESTION, Date.now())).toBeUndefined();
	});

	it.each([
		['signed with another bot\'s key', () => tapProblem('another-bot-token', forwarded(), QUESTION, Date.now()), /not signed/],
		['a signed field edited (the decision)', () => tapProblem(DEMO_BOT_TOKEN, { ...forwarded(), rubikaChatAnswer: { ...forwarded().rubikaChatAnswer, decision: 'decline' } }, QUESTION, Date.now()), /not signed/],
		['another execution\'s tap', () => tapProblem(DEMO_BOT_TOKEN, forwarded({ execution_id: '10' }), QUESTION, Date.now()), /execution 10/],
		['too old', () => tapProblem(DEMO_BOT_TOKEN, forwarded({ at: Date.now() - 10 * 60_000 }), QUESTION, Date.now()), /too old/],
		['not a tap', () => tapProblem(DEMO_BOT_TOKEN, { approved: 'true' }, QUESTION, Date.now()), /not a tap/],
		// Issue 29: an Approve Only question, and a decline built from its own Approve button's id.
		[
			'Decline on an Approve Only question',
			() => tapProblem(DEMO_BOT_TOKEN, forwarded({ decision: 'decline', button_id: answerButtonId(DEMO_BOT_TOKEN, { executionId: '9', decision: 'approve', chatId: sara.chat_id, resumeToken: TOKEN_HEX }).replace('.at.', '.dt.') }), { ...QUESTION, decisions: ['approve'] }, Date.now()),
			/offered no decline/,
		],
		// Issue 29: the question's real button id, tapped in another chat.
		['the real button tapped in another chat', () => tapProblem(DEMO_BOT_TOKEN, forwarded({ chat_id: reza.chat_id }), QUESTION, Date.now()), /comes from chat/],
		['the real button under another message', () => tapProblem(DEMO_BOT_TOKEN, forwarded({ message_id: 'm2' }), QUESTION, Date.now()), /on message m2/],
		['a button made for another chat', () => tapProblem(DEMO_BOT_TOKEN, forwarded({ button_id: answerButtonId(DEMO_BOT_TOKEN, { executionId: '9', decision: 'approve', chatId: reza.chat_id, resumeToken: TOKEN_HEX }) }), QUESTION, Date.now()), /did not carry/],
		['a made-up resume token', () => tapProblem(DEMO_BOT_TOKEN, forwarded({ button_id: answerButtonId(DEMO_BOT_TOKEN, { executionId: '9', decision: 'approve', chatId: sara.chat_id, resumeToken: 'cd'.repeat(32) }) }), QUESTION, Date.now()), /did not carry/],
		// Where n8n has no resume token (2.8.4) a "token" button is made up: the node's own buttons carry a MAC.
		['a token button where n8n has none', () => tapProblem(DEMO_BOT_TOKEN, forwarded(), { ...QUESTION, resumeToken: undefined }, Date.now()), /did not carry/],
	])('%s: refused', (_name, problem, expected) => {
		expect(problem()).toMatch(expected);
	});

	it('on the chat keypad the tap is a new message: the message is not held against the question\'s, the chat is', () => {
		const keypad = { ...QUESTION, messageId: undefined };
		expect(tapProblem(DEMO_BOT_TOKEN, forwarded({ message_id: 'm7' }), keypad, Date.now())).toBeUndefined();
		expect(tapProblem(DEMO_BOT_TOKEN, forwarded({ message_id: 'm7', chat_id: reza.chat_id }), keypad, Date.now())).toMatch(/comes from chat/);
	});

	it('a MAC button (n8n 2.8.4) binds the same: decision offered, chat, button', () => {
		const macQuestion = { ...QUESTION, resumeToken: undefined };
		const own = (decision: ChatDecision, chatId: string = sara.chat_id) => answerButtonId(DEMO_BOT_TOKEN, { executionId: '9', decision, chatId });
		expect(tapProblem(DEMO_BOT_TOKEN, forwarded({ button_id: own('approve') }), macQuestion, Date.now())).toBeUndefined();
		expect(tapProblem(DEMO_BOT_TOKEN, forwarded({ button_id: own('decline'), decision: 'decline' }), { ...macQuestion, decisions: ['approve'] }, Date.now())).toMatch(/offered no decline/);
		expect(tapProblem(DEMO_BOT_TOKEN, forwarded({ button_id: own('approve', reza.chat_id) }), macQuestion, Date.now())).toMatch(/did not carry/);
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
		expect(resumeTokenOfTap(DEMO_BOT_TOKEN, approve, sara.chat_id)).toBeDefined();
		expect(body.chat_keypad).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ answer_in: 'inlineButtons', chat_id: sara.chat_id });
		// The execution keeps where its question went, for the waiting node to hold taps against.
		expect(result.run.data.resultData.metadata).toEqual({ rubika_question: `${sara.chat_id} ${result.items[0].json.message_id}` });
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

	it('Custom Form ignores Answer In (a form needs the page)', async () => {
		await t.run(question('inlineButtons', { responseType: 'customForm', formFields: { values: [{ fieldLabel: 'Name' }] } }));
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
			expect(tapProblem(DEMO_BOT_TOKEN, body, { executionId: '41', decisions: ['decline'], chatId: sara.chat_id }, Date.now())).toBeUndefined();
			expect(body.rubikaChatAnswer).toMatchObject({ button_id: id, decision: 'decline', chat_id: sara.chat_id, sender_id: sara.user_id });
		} finally {
			await ReadingTriggerHarness.stopAll();
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
			await ReadingTriggerHarness.stopAll();
			await waiting.close();
		}
	});
});

describe('the chat is told the outcome by the trigger whose tap n8n accepted, after it accepted it', () => {
	const t = useContinuousTriggerSandbox();
	const ACCEPTED = { status: 200, body: { status: 'resumed', removeButtons: true, reply: '✅ Approve — Sara Karimi' } };
	/** What n8n answers a second hand-over while the first resumes the execution (n8n 2.41: HTTP 500). */
	const ALREADY_RESUMING = { status: 500, body: { code: 500, message: 'Execution is already being resumed by another process' } };

	/**
	 * A keypad question (Approve, Decline) in Sara's chat with the trigger reading; Sara taps the buttons
	 * `tapped` (0 Approve, 1 Decline) in that order, then writes a message. Resolves, once the trigger has handed
	 * on `handOvers` taps and settled, what reached n8n and what the chat shows.
	 */
	async function tapsOnKeypadQuestion(answer: Parameters<typeof fakeWaitingEndpoint>[0], tapped: number[], handOvers = tapped.length) {
		const waiting = await fakeWaitingEndpoint(answer);
		try {
			const trigger = t.harness({ updateTypes: ['NewMessage'] }, { webhookWaitingBaseUrl: waiting.base });
			await trigger.activate();
			const ids = (['approve', 'decline'] as const).map((decision) => answerButtonId(DEMO_BOT_TOKEN, { executionId: '41', decision, chatId: sara.chat_id }));
			await botSends(t.sandbox, { chat_id: sara.chat_id, text: 'Publish?', chat_keypad_type: 'New', chat_keypad: { rows: [{ buttons: ids.map((id, n) => ({ id, type: 'Simple', button_text: ['Yes', 'No'][n] })) }] } });
			const asked = t.sandbox.messages(sara.chat_id).at(-1)!.message_id;
			for (const n of tapped) t.sandbox.userTapChatKeypadButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: ids[n] });
			t.sandbox.userSendMessage({ userId: sara.user_id, text: 'after' });
			await trigger.waitForExecutions(1);
			await waitFor(() => waiting.received.length >= handOvers);
			// What the trigger does after n8n's answer comes at once; a little time shows anything more.
			await new Promise((resolve) => setTimeout(resolve, 300));
			return {
				decisions: waiting.received.map((r) => r.body.rubikaChatAnswer.decision),
				botSent: t.sandbox.messages(sara.chat_id).filter((m) => m.sender_type === 'Bot' && BigInt(m.message_id) > BigInt(asked)).map((m) => m.text),
				keypad: t.sandbox.chat(sara.chat_id).chat_keypad,
				keypadEdits: t.sandbox.requests.filter((r) => r.method === 'editChatKeypad').length,
			};
		} finally {
			await ReadingTriggerHarness.stopAll();
			await waiting.close();
		}
	}

	it('accepted: the keypad goes and the outcome is replied once', async () => {
		const shown = await tapsOnKeypadQuestion(ACCEPTED, [0]);
		expect(shown).toMatchObject({ decisions: ['approve'], botSent: ['✅ Approve — Sara Karimi'], keypad: null, keypadEdits: 1 });
	});

	it('Approve and Decline tapped at once: n8n accepts one, and only that one is told; the other tells nothing', async () => {
		// The lost tap is tried three times in all on HTTP 500 (as any failure to reach n8n), and loses each time
		// (real n8n answers the later tries 409: the execution runs).
		const shown = await tapsOnKeypadQuestion((index) => (index === 0 ? ACCEPTED : ALREADY_RESUMING), [0, 1], 4);
		expect(shown.decisions).toEqual(['approve', 'decline', 'decline', 'decline']);
		expect(shown).toMatchObject({ botSent: ['✅ Approve — Sara Karimi'], keypad: null, keypadEdits: 1 });
	});

	it.each([
		['refused by the node (403)', { status: 403, body: { status: 'refused', reason: 'the question offered no decline button' } }],
		['n8n already went on (409)', { status: 409, body: { message: 'running already' } }],
	])('%s: nothing changes in the chat', async (_name, answer) => {
		const shown = await tapsOnKeypadQuestion(answer, [1]);
		expect(shown).toMatchObject({ decisions: ['decline'], botSent: [], keypadEdits: 0 });
		expect(shown.keypad).not.toBeNull();
	});

	it('unauthorized: the Unauthorized Reply, and the keypad stays for those who may answer', async () => {
		const shown = await tapsOnKeypadQuestion({ status: 200, body: { status: 'unauthorized', removeButtons: false, reply: 'Only Reza decides this one.' } }, [0]);
		expect(shown).toMatchObject({ botSent: ['Only Reza decides this one.'], keypadEdits: 0 });
		expect(shown.keypad).not.toBeNull();
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

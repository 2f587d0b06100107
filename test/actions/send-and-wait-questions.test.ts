/**
 * Send and Wait's questions beyond approvals (issue 33): Choose One of Several, Free Text, Date, Number, Item
 * From a List, Phone Number and Location, asked in the chat and on the web page.
 *
 * - The question: the exact buttons and settings objects Rubika gets, and bad definitions refused before
 *   anything is sent.
 * - The whole path in the chat: the Rubika node waits (n8n-core's engine, then its webhook through
 *   n8n-core's WebhookContext on the waiting execution: tooling/harness/waiting.ts), a person answers in the
 *   sandbox (its answer-button action, both knobs both ways), the Rubika Trigger — by reading for the chat
 *   keypad, by webhook for buttons under the message — hands the answer on, the node reads it into its
 *   output, and the trigger shows the outcome; the trigger's own workflow gets every other message once.
 * - Answers that cannot be read ask again; forged, edited, re-aimed, late, replayed and unauthorized answers
 *   decide nothing.
 * - The web page: each question's form, answered with the same output shape.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RubikaSandbox } from '../../sandbox';
import { DEMO_BOT_TOKEN, DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import type { ChatAnswerTap, ChatDecision } from '../../nodes/shared/chatAnswers';
import { answerButtonId, fallbackLinkProof, readAnswerButton, signTap, tapProblem } from '../../nodes/shared/chatAnswers';
import { questionOf } from '../../nodes/Rubika/waiting/questions';
import { ReadingTriggerHarness } from '../../tooling/harness/reading';
import { WaitingExecution } from '../../tooling/harness/waiting';
import { WebhookHarness } from '../../tooling/harness/webhook';
import { useActionSandbox } from './helpers';
import { useSandbox as useTriggerSandbox } from '../trigger-reading/helpers';
import { freshTriggerNodeType } from '../trigger-webhook/helpers';
import { waitFor } from '../support/waitingEndpoint';

const { sara, reza } = DEMO_USERS;
const TOKEN = 'ab'.repeat(32);

type Button = { id: string; type: string; button_text: string } & Record<string, unknown>;
interface SentBody {
	text: string;
	chat_keypad?: { rows: Array<{ buttons: Button[] }>; resize_keyboard?: boolean; one_time_keyboard?: boolean };
	chat_keypad_type?: string;
	inline_keypad?: { rows: Array<{ buttons: Button[] }> };
}

/** Send and Wait's parameters for a question of `responseType` in Sara's chat. */
const asking = (responseType: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'message',
	operation: 'sendAndWait',
	chatId: sara.chat_id,
	message: 'Your answer, please',
	responseType,
	answerIn: 'chatKeypad',
	...extra,
});

const CHOICES = { choices: { values: [{ label: 'صبح', value: 'morning' }, { label: 'عصر', value: 'evening' }, { label: 'Never' }] } };

describe('the question in the chat', () => {
	const t = useActionSandbox('message');
	const sent = () => (t.bodies('sendMessage') as SentBody[])[0];
	const keypadButtons = () => sent().chat_keypad!.rows.map((row) => row.buttons);
	const withoutIds = (rows: Button[][]) => rows.map((row) => row.map(({ id: _id, ...rest }) => rest));

	it('Choose One of Several: one Simple button per choice, one per row, each deciding its choice', async () => {
		const result = await t.run(asking('choice', CHOICES));
		expect(result.error).toBeUndefined();
		expect(result.run.status).toBe('waiting');
		expect(withoutIds(keypadButtons())).toEqual([[{ type: 'Simple', button_text: 'صبح' }], [{ type: 'Simple', button_text: 'عصر' }], [{ type: 'Simple', button_text: 'Never' }]]);
		expect(keypadButtons().map(([button]) => readAnswerButton(button.id)?.decision)).toEqual(['choice0', 'choice1', 'choice2']);
		expect(sent()).toMatchObject({ chat_keypad_type: 'New', chat_keypad: { resize_keyboard: true, one_time_keyboard: false } });
	});

	it.each([
		['freeText', {}, [{ type: 'Textbox', button_text: '✍️ Write the answer', button_textbox: { type_line: 'MultiLine', type_keypad: 'String' } }]],
		['freeText', { textLines: 'SingleLine' }, [{ type: 'Textbox', button_text: '✍️ Write the answer', button_textbox: { type_line: 'SingleLine', type_keypad: 'String' } }]],
		['date', { fromYear: '1300', toYear: '1410' }, [{ type: 'Calendar', button_text: '📅 Pick a date', button_calendar: { type: 'DatePersian', min_year: '1300', max_year: '1410' } }]],
		['date', { calendarType: 'DateGregorian' }, [{ type: 'Calendar', button_text: '📅 Pick a date', button_calendar: { type: 'DateGregorian' } }]],
		['number', { minNumber: 1, maxNumber: 10 }, [{ type: 'NumberPicker', button_text: '🔢 Pick a number', button_number_picker: { min_value: '1', max_value: '10' } }]],
		['listItem', { listItems: 'Tehran\n Shiraz \n\nTabriz\nTehran' }, [{ type: 'StringPicker', button_text: '📋 Pick one', button_string_picker: { items: ['Tehran', 'Shiraz', 'Tabriz'] } }]],
		['phoneNumber', {}, [{ type: 'AskMyPhoneNumber', button_text: '📞 Share my phone number' }]],
		['location', {}, [{ type: 'AskMyLocation', button_text: '📍 Share my location' }]],
		['location', { locationKind: 'picked' }, [{ type: 'Location', button_text: '📍 Pick a place', button_location: { type: 'Picker' } }]],
		['date', { options: { inputButtonLabel: 'تاریخ تولد' } }, [{ type: 'Calendar', button_text: 'تاریخ تولد', button_calendar: { type: 'DatePersian' } }]],
	])('%s %j: the one input button, its settings made by the keypad builder', async (responseType, extra, buttons) => {
		const result = await t.run(asking(responseType, extra as INodeParameters));
		expect(result.error).toBeUndefined();
		expect(withoutIds(keypadButtons())).toEqual([buttons]);
		expect(readAnswerButton(keypadButtons()[0][0].id)?.decision).toBe('input');
	});

	it('under the message the same buttons go in the inline keypad', async () => {
		await t.run(asking('number', { answerIn: 'inlineButtons', minNumber: 1, maxNumber: 5 }));
		expect(sent().chat_keypad).toBeUndefined();
		expect(sent().inline_keypad!.rows[0].buttons[0]).toMatchObject({ type: 'NumberPicker', button_number_picker: { min_value: '1', max_value: '5' } });
	});

	it('Choose One of Several from JSON: objects with label and value, or plain labels', async () => {
		await t.run(asking('choice', { defineChoices: 'json', choicesJson: '[{"label": "Yes", "value": 1}, "Maybe", {"label": "No", "value": false}]' }));
		expect(keypadButtons().map(([button]) => button.button_text)).toEqual(['Yes', 'Maybe', 'No']);
	});

	t.refusesEach(asking('choice'), [
		['one choice', { choices: { values: [{ label: 'Only' }] } }, 'Choices: needs 2 to 10 choices, got 1 [item 0]'],
		['eleven choices', { choices: { values: Array.from({ length: 11 }, (_, n) => ({ label: `c${n}` })) } }, 'Choices: needs 2 to 10 choices, got 11 [item 0]'],
		['a label twice', { choices: { values: [{ label: 'A' }, { label: 'A' }] } }, 'Choices: choice 2: the label "A" is used twice [item 0]'],
		['a choice without a label', { choices: { values: [{ label: 'A' }, { label: ' ', value: 'b' }] } }, 'Choices: choice 2 has no label [item 0]'],
		['JSON that is not JSON', { defineChoices: 'json', choicesJson: '[{' }, /^Choices \(JSON\): is not valid JSON/],
		['a list without items', { responseType: 'listItem', listItems: ' \n ' }, 'Items: needs at least one item (one per line) [item 0]'],
		['a number range upside down', { responseType: 'number', minNumber: 10, maxNumber: 1 }, 'Smallest Number: Smallest Number 10 is above Largest Number 1 [item 0]'],
		['a Persian year out of range', { responseType: 'date', fromYear: '2024' }, 'From Year: must be a Persian year from 1178 to 1633, got "2024" [item 0]'],
		['years upside down', { responseType: 'date', fromYear: '1410', toYear: '1400' }, 'From Year: From Year 1410 is after To Year 1400 [item 0]'],
	]);

	it('Answer In Web Page: one link to the form, like Free Text always had', async () => {
		const result = await t.run(asking('date', { answerIn: 'webPage' }));
		expect(result.error).toBeUndefined();
		expect(sent().inline_keypad!.rows[0].buttons.map((button) => [button.type, button.button_text])).toEqual([['Link', 'Respond']]);
		expect(result.items[0].json.answer_in).toBe('webPage');
	});

	it('when Rubika refuses the input button, the question goes with a link to the form carrying the fallback proof, and says why in the log', async () => {
		t.sandbox.injectFault({ kind: 'status', method: 'sendMessage', status: 'INVALID_INPUT', devMessage: 'unknown button type' });
		const result = await t.run(asking('phoneNumber'));
		expect(result.error).toBeUndefined();
		const [, second] = t.bodies('sendMessage') as Array<{ inline_keypad: { rows: Array<{ buttons: Array<{ button_link: { link_url: string } }> }> } }>;
		const link = new URL(second.inline_keypad.rows[0].buttons[0].button_link.link_url);
		expect(link.searchParams.get('proof')).toBe(fallbackLinkProof(DEMO_BOT_TOKEN, 'test-execution', 'form'));
		expect(result.items[0].json.answer_in).toBe('webPage');
	});
});

/** The first button of the question's keypad (chat keypad or inline). */
function questionButton(body: SentBody): Button {
	return (body.chat_keypad ?? body.inline_keypad)!.rows[0].buttons[0];
}

describe('answered on the chat keypad, read by the trigger by reading', () => {
	const t = useTriggerSandbox();
	let waiting: WaitingExecution | undefined;
	afterEach(async () => {
		await ReadingTriggerHarness.stopAll();
		await waiting?.close();
		waiting = undefined;
	});

	/** The trigger reading, then the question; resolves with both and the question's first button. */
	async function asked(parameters: INodeParameters, resumeToken?: string) {
		waiting = await WaitingExecution.start({ parameters, credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl }, resumeToken });
		const trigger = t.harness({ updateTypes: ['NewMessage'] }, { webhookWaitingBaseUrl: waiting.base });
		await trigger.activate();
		const body = (t.sandbox.requestsFor('sendMessage').at(-1)!.body as SentBody);
		return { trigger, waiting, body, button: questionButton(body) };
	}

	const botTexts = (sandbox: RubikaSandbox) => sandbox.messages(sara.chat_id).filter((message) => message.sender_type === 'Bot').map((message) => message.text);

	it.each([
		['a choice', asking('choice', CHOICES), 1, undefined, { value: 'evening', label: 'عصر' }, 'عصر'],
		['a typed text (several lines)', asking('freeText'), 0, { text: 'خط اول\nخط دوم' }, { text: 'خط اول\nخط دوم' }, 'خط اول\nخط دوم'],
		['a Persian date', asking('date', { fromYear: '1300', toYear: '1410' }), 0, { date: '1403/01/01' }, { date: '2024-03-20', calendar: 'persian', as_picked: '1403-01-01' }, '1403-01-01'],
		['a Persian date in Persian digits', asking('date'), 0, { date: '۱۳۹۹/۱۲/۳۰' }, { date: '2021-03-20', calendar: 'persian', as_picked: '1399-12-30' }, '1399-12-30'],
		['a Gregorian date', asking('date', { calendarType: 'DateGregorian', fromYear: '2000' }), 0, { date: '2024-02-29' }, { date: '2024-02-29', calendar: 'gregorian', as_picked: '2024-02-29' }, '2024-02-29'],
		['a number', asking('number', { minNumber: 1, maxNumber: 10 }), 0, { number: 7 }, { number: 7 }, '7'],
		['an item', asking('listItem', { listItems: 'Tehran\nShiraz' }), 0, { item: 'Shiraz' }, { value: 'Shiraz' }, 'Shiraz'],
		['a place', asking('location'), 0, { location: { latitude: '35.6892', longitude: '51.3890' } }, { latitude: 35.6892, longitude: 51.389 }, '35.6892, 51.389'],
	])('%s: the execution goes on with it, the keypad goes and the outcome is replied; other messages reach the trigger once', async (_name, parameters, buttonIndex, values, data, shown) => {
		const { trigger, button, body } = await asked(parameters, TOKEN);
		const id = body.chat_keypad!.rows[buttonIndex].buttons[0].id;
		if (values === undefined) t.sandbox.userTapChatKeypadButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: id });
		else t.sandbox.userAnswerButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: button.id, ...values });
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'hello' });
		await waitFor(() => waiting!.resumed !== undefined);
		expect(waiting!.data).toEqual({
			...data,
			respondedAt: expect.any(String),
			answeredIn: 'chat',
			sender_id: sara.user_id,
			sender_name: 'Sara Karimi',
			chat_id: sara.chat_id,
			message_id: expect.any(String),
		});
		await waitFor(() => botTexts(t.sandbox).includes(`${shown} — Sara Karimi`));
		expect(t.sandbox.chatKeypad(sara.chat_id)).toBeNull();
		await trigger.waitForExecutions(1);
		await new Promise((resolve) => setTimeout(resolve, 600));
		expect(trigger.items.map((item) => item.json.text)).toEqual(['hello']);
	});

	it.each([
		['as a contact (phoneAnswer contactMessage)', 'contactMessage' as const],
		['as text (phoneAnswer text)', 'text' as const],
	])('a phone number shared %s: + and digits', async (_name, phoneAnswer) => {
		t.sandbox.configure({ phoneAnswer });
		try {
			const { button } = await asked(asking('phoneNumber'));
			t.sandbox.userAnswerButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: button.id, phoneNumber: '+98 912 123 4567' });
			await waitFor(() => waiting!.resumed !== undefined);
			expect(waiting!.data).toMatchObject({ phone_number: '+989121234567', answeredIn: 'chat' });
		} finally {
			t.sandbox.configure({ phoneAnswer: 'contactMessage' });
		}
	});

	it('an answer that is no day asks again, with the reason; the keypad stays, and the next answer decides', async () => {
		const { button } = await asked(asking('date'), TOKEN);
		const wrong = t.sandbox.userAnswerButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: button.id, date: '1402/12/30' });
		const again = 'That answer cannot be used (that is not a date). Please answer again.';
		await waitFor(() => botTexts(t.sandbox).includes(again));
		expect(t.sandbox.lastMessage(sara.chat_id)?.reply_to_message_id).toBe((wrong as { message: { message_id: string } }).message.message_id);
		expect(waiting!.resumed).toBeUndefined();
		expect(t.sandbox.chatKeypad(sara.chat_id)).not.toBeNull();
		t.sandbox.userAnswerButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: button.id, date: '1402/12/29' });
		await waitFor(() => waiting!.resumed !== undefined);
		expect(waiting!.data).toMatchObject({ date: '2024-03-19', calendar: 'persian', as_picked: '1402-12-29' });
	});

	it('Ask Again Reply (Chat) is the user\'s own text, {reason} replaced', async () => {
		const { button } = await asked(asking('date', { calendarType: 'DateGregorian', options: { retryReply: 'دوباره انتخاب کنید: {reason}' } }));
		t.sandbox.userAnswerButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: button.id, date: '2023/02/30' });
		await waitFor(() => botTexts(t.sandbox).includes('دوباره انتخاب کنید: that is not a date'));
		expect(waiting!.resumed).toBeUndefined();
	});

	it('Restrict to User IDs: someone else\'s answer decides nothing and gets the Unauthorized Reply', async () => {
		const { button } = await asked(asking('number', { options: { allowedUserIds: reza.user_id, unauthorizedReply: 'Only Reza.' } }));
		t.sandbox.userAnswerButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: button.id, number: 3 });
		await waitFor(() => botTexts(t.sandbox).includes('Only Reza.'));
		expect(waiting!.resumed).toBeUndefined();
		expect(t.sandbox.chatKeypad(sara.chat_id)).not.toBeNull();
	});

	it('the same answer handed on again after the decision: 409, nothing shown twice', async () => {
		const { button } = await asked(asking('number'), TOKEN);
		t.sandbox.userAnswerButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: button.id, number: 3 });
		await waitFor(() => waiting!.resumed !== undefined);
		await waitFor(() => botTexts(t.sandbox).includes('3 — Sara Karimi'));
		// The keypad went; the person sends the same answer again (a client showing the old keypad).
		await showKeypadAgain(t.sandbox, button);
		t.sandbox.userAnswerButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: button.id, number: 4 });
		await waitFor(() => waiting!.answers.length === 2);
		expect(waiting!.answers.map((answer) => answer.status)).toEqual([200, 409]);
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(botTexts(t.sandbox).filter((text) => text?.includes('Sara Karimi'))).toEqual(['3 — Sara Karimi']);
		expect(waiting!.data).toMatchObject({ number: 3 });
	});

	it('the real input button answered in another chat decides nothing (n8n refuses the token unsealed there)', async () => {
		const { button } = await asked(asking('freeText'), TOKEN);
		await botSends(t.sandbox, { chat_id: DEMO_GROUP_ID, text: 'copy', chat_keypad_type: 'New', chat_keypad: { rows: [{ buttons: [button] }] } });
		t.sandbox.userAnswerButton({ userId: sara.user_id, chatId: DEMO_GROUP_ID, buttonId: button.id, text: 'not yours' });
		await waitFor(() => waiting!.answers.length === 1);
		expect(waiting!.answers[0].status).toBe(401);
		expect(waiting!.resumed).toBeUndefined();
	});
});

describe('answered under the message, received by the trigger by webhook', () => {
	const t = useTriggerSandbox();
	let waiting: WaitingExecution | undefined;
	let trigger: WebhookHarness | undefined;
	afterEach(async () => {
		await t.sandbox.deliveriesSettled();
		await trigger?.close();
		await waiting?.close();
		waiting = undefined;
		trigger = undefined;
		t.sandbox.configure({ inlineInputAnswers: 'inlineMessage' });
	});

	async function asked(parameters: INodeParameters) {
		waiting = await WaitingExecution.start({ parameters: { ...parameters, answerIn: 'inlineButtons' }, credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl }, resumeToken: TOKEN });
		trigger = await WebhookHarness.start({
			parameters: {},
			credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl },
			webhookWaitingBaseUrl: waiting.base,
			nodeType: freshTriggerNodeType(),
		});
		await trigger.activate();
		const body = t.sandbox.requestsFor('sendMessage').at(-1)!.body as SentBody;
		return { button: questionButton(body), messageId: String(waiting.sent.message_id) };
	}

	it.each([
		['as an inline message (inlineInputAnswers inlineMessage)', 'inlineMessage' as const],
		['as a new message in the chat (inlineInputAnswers newMessage)', 'newMessage' as const],
	])('an answer arriving %s decides; the buttons go from the question and the outcome is a reply to it', async (_name, inlineInputAnswers) => {
		t.sandbox.configure({ inlineInputAnswers });
		const { button, messageId } = await asked(asking('listItem', { listItems: 'S\nM\nL' }));
		t.sandbox.userAnswerButton({ userId: sara.user_id, chatId: sara.chat_id, messageId, buttonId: button.id, item: 'M' });
		await waitFor(() => waiting!.resumed !== undefined);
		expect(waiting!.data).toMatchObject({ value: 'M', answeredIn: 'chat', sender_id: sara.user_id });
		await waitFor(() => t.sandbox.messages(sara.chat_id).some((message) => message.text === 'M — Sara Karimi'));
		const question = t.sandbox.messages(sara.chat_id).find((message) => message.message_id === messageId);
		expect(question?.inline_keypad?.rows ?? []).toEqual([]);
		expect(trigger!.executions).toHaveLength(0);
	});

	it('a choice tapped under the message decides with its value', async () => {
		const { messageId } = await asked(asking('choice', CHOICES));
		const ids = (t.sandbox.requestsFor('sendMessage').at(-1)!.body as SentBody).inline_keypad!.rows.map((row) => row.buttons[0]);
		t.sandbox.userTapInlineButton({ userId: sara.user_id, chatId: sara.chat_id, messageId, buttonId: ids[2].id });
		await waitFor(() => waiting!.resumed !== undefined);
		expect(waiting!.data).toMatchObject({ value: 'Never', label: 'Never' });
	});
});

describe('the waiting node accepts an input answer or a choice only as the question sent it', () => {
	const question = { executionId: '9', resumeToken: TOKEN, chatId: sara.chat_id, messageId: 'm1' };
	const own = (decision: ChatDecision) => answerButtonId(DEMO_BOT_TOKEN, { executionId: '9', decision, chatId: sara.chat_id, resumeToken: TOKEN });
	const tap = (overrides: Partial<ChatAnswerTap> = {}): ChatAnswerTap => ({
		button_id: own(overrides.decision ?? 'input'),
		execution_id: '9',
		decision: 'input',
		chat_id: sara.chat_id,
		message_id: 'm1',
		sender_id: sara.user_id,
		at: Date.now(),
		content: { text: '1403/01/01' },
		delivered_as: 'inlineMessage',
		...overrides,
	});
	const input = { ...question, decisions: ['input'] as ChatDecision[] };
	const choices = { ...question, decisions: ['choice0', 'choice1', 'choice2'] as ChatDecision[] };

	it('the question\'s own input button, on its message or as a new message in its chat: accepted', () => {
		expect(tapProblem(DEMO_BOT_TOKEN, signTap(DEMO_BOT_TOKEN, tap()), input, Date.now())).toBeUndefined();
		expect(tapProblem(DEMO_BOT_TOKEN, signTap(DEMO_BOT_TOKEN, tap({ message_id: 'm9', delivered_as: 'message' })), input, Date.now())).toBeUndefined();
		expect(tapProblem(DEMO_BOT_TOKEN, signTap(DEMO_BOT_TOKEN, tap({ decision: 'choice1', content: undefined, delivered_as: undefined })), choices, Date.now())).toBeUndefined();
	});

	it.each([
		['the answer edited after the trigger signed it', () => ({ ...signTap(DEMO_BOT_TOKEN, tap()), rubikaChatAnswer: { ...tap(), content: { text: '1403/01/02' } } }), input, /not signed/],
		['"delivered as a new message" added to an inline answer on another message', () => ({ ...signTap(DEMO_BOT_TOKEN, tap({ message_id: 'm9' })), rubikaChatAnswer: { ...tap({ message_id: 'm9' }), delivered_as: 'message' } }), input, /not signed/],
		['an inline answer on another message', () => signTap(DEMO_BOT_TOKEN, tap({ message_id: 'm9' })), input, /on message m9/],
		['a choice on another message (taps are always on the question)', () => signTap(DEMO_BOT_TOKEN, tap({ decision: 'choice1', message_id: 'm9', delivered_as: 'message' })), choices, /on message m9/],
		['an answer from another chat', () => signTap(DEMO_BOT_TOKEN, tap({ chat_id: reza.chat_id })), input, /comes from chat/],
		['a late answer', () => signTap(DEMO_BOT_TOKEN, tap({ at: Date.now() - 6 * 60_000 })), input, /too old/],
		['a choice the question did not offer', () => signTap(DEMO_BOT_TOKEN, tap({ decision: 'choice7', content: undefined })), choices, /offered no choice7/],
		['an input answer to a choice question', () => signTap(DEMO_BOT_TOKEN, tap()), choices, /offered no input/],
		['a choice made from the input button\'s id', () => signTap(DEMO_BOT_TOKEN, tap({ decision: 'choice0', button_id: own('input').replace('.it.', '.0t.') })), choices, /did not carry/],
		['signed with another bot\'s key', () => signTap('another-bot-token', tap()), input, /not signed/],
	])('%s: refused', (_name, body, asked, expected) => {
		expect(tapProblem(DEMO_BOT_TOKEN, body(), asked, Date.now())).toMatch(expected);
	});
});

describe('read the same wherever answered: the web page', () => {
	const t = useTriggerSandbox();
	let waiting: WaitingExecution | undefined;
	afterEach(async () => {
		await waiting?.close();
		waiting = undefined;
	});

	/** The question on the web page; resolves the form page's HTML and a function posting the form. */
	async function onTheWebPage(parameters: INodeParameters) {
		waiting = await WaitingExecution.start({ parameters: { ...parameters, answerIn: 'webPage' }, credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl }, resumeToken: TOKEN });
		const body = t.sandbox.requestsFor('sendMessage').at(-1)!.body as { inline_keypad: { rows: Array<{ buttons: Array<{ button_link: { link_url: string } }> }> } };
		const link = waiting.here(body.inline_keypad.rows[0].buttons[0].button_link.link_url);
		const page = await (await fetch(link)).text();
		const post = async (fields: Record<string, string>) => {
			const response = await fetch(link, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
			return { status: response.status, html: await response.text() };
		};
		return { page, post };
	}

	it.each([
		['a choice', asking('choice', CHOICES), '<option>عصر</option>', { 'field-0': 'عصر' }, { value: 'evening', label: 'عصر' }],
		['a text', asking('freeText'), '<textarea id="field-0"', { 'field-0': 'سلام' }, { text: 'سلام' }],
		['a date (Gregorian, from the date field)', asking('date', { fromYear: '1380', toYear: '1410' }), 'type="date" id="field-0" name="field-0" dir="auto" value="" min="2001-03-21" max="2032-03-19"', { 'field-0': '2024-03-20' }, { date: '2024-03-20', calendar: 'gregorian', as_picked: '2024-03-20' }],
		['a date typed in Persian digits', asking('date'), 'type="date"', { 'field-0': '۱۴۰۳/۰۱/۰۱' }, { date: '2024-03-20', calendar: 'persian', as_picked: '1403-01-01' }],
		['a number', asking('number', { minNumber: 1, maxNumber: 10 }), 'min="1" max="10" step="any"', { 'field-0': '۷' }, { number: 7 }],
		['an item', asking('listItem', { listItems: 'Tehran\nShiraz' }), '<option>Shiraz</option>', { 'field-0': 'Shiraz' }, { value: 'Shiraz' }],
		['a phone number', asking('phoneNumber'), 'placeholder="+98 912 345 6789"', { 'field-0': '0912 123 4567' }, { phone_number: '09121234567' }],
		['a place', asking('location'), 'id="field-1"', { 'field-0': '35.6892', 'field-1': '51.389' }, { latitude: 35.6892, longitude: 51.389 }],
	])('%s: the form, then the same output as in the chat (answeredIn webPage)', async (_name, parameters, shown, fields, data) => {
		const { page, post } = await onTheWebPage(parameters);
		expect(page).toContain(shown);
		expect((await post(fields)).status).toBe(200);
		expect(waiting!.data).toEqual({ ...data, answeredIn: 'webPage', respondedAt: expect.any(String) });
	});

	it.each([
		['a date that is no day', asking('date'), { 'field-0': '1402/12/30' }, 'that is not a date'],
		['a date out of the years', asking('date', { fromYear: '1400', toYear: '1401' }), { 'field-0': '2024-03-20' }, 'the date must be in the years 1400 to 1401'],
		['a number out of range', asking('number', { minNumber: 1, maxNumber: 10 }), { 'field-0': '11' }, 'the number must be from 1 to 10'],
		['an item not listed', asking('listItem', { listItems: 'Tehran' }), { 'field-0': 'Paris' }, 'that is not one of the items'],
		['a choice not offered', asking('choice', CHOICES), { 'field-0': 'Sometimes' }, 'that is not one of the choices'],
		['nothing', asking('phoneNumber'), { 'field-0': ' ' }, 'Phone number is required'],
	])('%s: the form again with what is wrong; the execution keeps waiting', async (_name, parameters, fields, problem) => {
		const { post } = await onTheWebPage(parameters);
		const answer = await post(fields);
		expect(answer.status).toBe(400);
		expect(answer.html).toContain(problem);
		expect(waiting!.resumed).toBeUndefined();
	});

	it('input buttons Rubika refused: the fallback link opens the form, and its answer has the same data', async () => {
		t.sandbox.injectFault({ kind: 'status', method: 'sendMessage', status: 'INVALID_INPUT', devMessage: 'unknown button type' });
		waiting = await WaitingExecution.start({ parameters: asking('date'), credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl }, resumeToken: TOKEN });
		expect(waiting.sent.answer_in).toBe('webPage');
		const body = t.sandbox.requestsFor('sendMessage').at(-1)!.body as { inline_keypad: { rows: Array<{ buttons: Array<{ button_link: { link_url: string } }> }> } };
		const link = waiting.here(body.inline_keypad.rows[0].buttons[0].button_link.link_url);
		expect(await (await fetch(link)).text()).toContain('type="date"');
		// The proof is part of the signed link: without it n8n refuses the signature (401).
		const withoutProof = new URL(link);
		withoutProof.searchParams.delete('proof');
		expect((await fetch(withoutProof)).status).toBe(401);
		const answer = await fetch(link, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'field-0=1403-01-01' });
		expect(answer.status).toBe(200);
		expect(waiting.data).toEqual({ date: '2024-03-20', calendar: 'persian', as_picked: '1403-01-01', answeredIn: 'webPage', respondedAt: expect.any(String) });
	});

	it('a question asked in the chat refuses its web address without a fallback proof (403), even with n8n\'s signature', async () => {
		waiting = await WaitingExecution.start({ parameters: asking('date'), credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl }, resumeToken: TOKEN });
		const forged = await fetch(`${waiting.base}/${waiting.executionId}?signature=${TOKEN}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ rubikaChatAnswer: { decision: 'input' }, mac: 'x' }) });
		expect(forged.status).toBe(403);
		const unsigned = await fetch(`${waiting.base}/${waiting.executionId}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
		expect(unsigned.status).toBe(401);
		expect(waiting.resumed).toBeUndefined();
	});
});

describe('each kind\'s reading of an answer, shape by shape', () => {
	const read = (responseType: string, parameters: IDataObject, answer: { decision?: ChatDecision; content?: IDataObject }) =>
		questionOf(responseType, (name, fallback) => (name in parameters ? parameters[name] : fallback))!.read({ decision: answer.decision ?? 'input', content: answer.content });

	it.each([
		['phoneNumber', {}, { content: { phone_number: '989121234567' } }, { phone_number: '989121234567' }],
		['phoneNumber', {}, { content: { text: '+۹۸ ۹۱۲ ۱۲۳ ۴۵۶۷' } }, { phone_number: '+989121234567' }],
		['location', {}, { content: { location: { latitude: '35.7', longitude: '51.4' } } }, { latitude: 35.7, longitude: 51.4 }],
		['location', {}, { content: { text: '۳۵٫۷، ۵۱٫۴' } }, { latitude: 35.7, longitude: 51.4 }],
		['location', {}, { content: { text: '35.7 51.4' } }, { latitude: 35.7, longitude: 51.4 }],
		['number', { minNumber: 0, maxNumber: 5 }, { content: { text: '۲٫۵' } }, { number: 2.5 }],
		['listItem', { listItems: 'اتاق ۱\nاتاق ۲' }, { content: { text: 'اتاق 2' } }, { value: 'اتاق ۲' }],
		['date', { calendarType: 'DateGregorian' }, { content: { text: '20/3/2024' } }, { date: '2024-03-20', calendar: 'gregorian', as_picked: '2024-03-20' }],
		['approval', { 'approvalOptions.values': { approvalType: 'double' } }, { decision: 'decline' }, { approved: false }],
	])('%s %j reads %j', (responseType, parameters, answer, data) => {
		expect(read(responseType, parameters, answer as { content?: IDataObject })).toMatchObject({ ok: true, data });
	});

	it.each([
		['phoneNumber', {}, { content: { text: 'my number' } }, 'that is not a phone number'],
		['location', {}, { content: { location: { latitude: '95', longitude: '51' } } }, 'that is not a place'],
		['location', {}, { content: {} }, 'that is not a place'],
		['approval', {}, { decision: 'decline' }, 'the question offered no decline'],
		['freeText', {}, { decision: 'approve', content: { text: 'x' } }, 'the answer is empty'],
	])('%s %j refuses %j', (responseType, parameters, answer, problem) => {
		expect(read(responseType, parameters, answer as { content?: IDataObject })).toEqual({ ok: false, problem });
	});
});

/** Shows `button` on the chat keypad again, as the bot's own call would. */
async function showKeypadAgain(sandbox: RubikaSandbox, button: Button): Promise<void> {
	await botSends(sandbox, { chat_id: sara.chat_id, text: 'again', chat_keypad_type: 'New', chat_keypad: { rows: [{ buttons: [button] }] } });
}

/** The bot sends a message through the API, as a workflow would. */
async function botSends(sandbox: RubikaSandbox, body: object): Promise<void> {
	const response = await fetch(sandbox.methodUrl('sendMessage', DEMO_BOT_TOKEN), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
	expect(((await response.json()) as { status: string }).status).toBe('OK');
}

describe('examples/registration-in-chat.json, question by question', () => {
	const t = useTriggerSandbox();
	afterEach(async () => await ReadingTriggerHarness.stopAll());

	it('its three questions, answered on the keypad, give the name, the birth date in both calendars and the phone number', async () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const example = require('../../examples/registration-in-chat.json') as { nodes: Array<{ name: string; parameters: INodeParameters }> };
		const answers: Record<string, Record<string, unknown>> = {
			'Ask the name': { text: 'سارا کریمی' },
			'Ask the birth date': { date: '۱۳۷۰/۰۵/۱۲' },
			'Ask the phone number': { phoneNumber: '+98 912 123 4567' },
		};
		const data: IDataObject[] = [];
		for (const [name, values] of Object.entries(answers)) {
			const parameters = { ...example.nodes.find((node) => node.name === name)!.parameters, chatId: sara.chat_id };
			const waiting = await WaitingExecution.start({ parameters, credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl }, resumeToken: TOKEN });
			try {
				const trigger = t.harness({ updateTypes: ['NewMessage'] }, { webhookWaitingBaseUrl: waiting.base });
				await trigger.activate();
				const body = t.sandbox.requestsFor('sendMessage').at(-1)!.body as SentBody;
				t.sandbox.userAnswerButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: questionButton(body).id, ...values });
				await waitFor(() => waiting.resumed !== undefined);
				await waitFor(() => t.sandbox.chatKeypad(sara.chat_id) === null);
				data.push(waiting.data!);
			} finally {
				await ReadingTriggerHarness.stopAll();
				await waiting.close();
			}
		}
		expect(data).toMatchObject([
			{ text: 'سارا کریمی', answeredIn: 'chat' },
			{ date: '1991-08-03', calendar: 'persian', as_picked: '1370-05-12' },
			{ phone_number: '+989121234567' },
		]);
	});
});

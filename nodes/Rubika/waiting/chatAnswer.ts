/**
 * Send and Wait → Answer In: Chat. The question carries its buttons (Approve and Decline, one per choice, or
 * the one input button that asks for a value: questions/) under the message or as the chat's keypad; a
 * Rubika trigger of the same bot reads the tap or the answer and posts it to this execution's resume address
 * (../../shared/chatAnswers.ts says how that is made safe). Here: the fields, the buttons sent, and what the
 * waiting node does with a forwarded tap — who may answer, an answer that cannot be read, what the chat shows
 * afterwards, the output.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties, IWebhookFunctions, IWebhookResponseData, NodeApiError } from 'n8n-workflow';

import type { ChatAnswerReply, ChatAnswerTap } from '../../shared/chatAnswers';
import { answerButtonId, isCarriableResumeToken, tapOf, tapProblem } from '../../shared/chatAnswers';
import { isRefusal } from '../../shared/errors';
import { callRubika } from '../../shared/transport';
import type { Button, Keypad, MetadataPart } from '../../shared/types';
import { senderOf } from '../../shared/updates/sender';
import type { ItemCall } from '../../shared/transport';
import type { Question } from './questions/types';
import { offeredDecisions } from './questions/types';

const ANSWER_IN = ['webPage', 'inlineButtons', 'chatKeypad'] as const;
export type AnswerIn = (typeof ANSWER_IN)[number];
export type ChatAnswerIn = Exclude<AnswerIn, 'webPage'>;

const AFTER_DECISION = ['showOutcome', 'removeButtons', 'leave'] as const;
type AfterDecision = (typeof AFTER_DECISION)[number];

const DEFAULT_UNAUTHORIZED_REPLY = 'Only certain people can answer this question.';
const DEFAULT_RETRY_REPLY = 'That answer cannot be used ({reason}). Please answer again.';

/** The Answer In field, shown for every Response Type but Custom Form. */
export const answerInProperty: INodeProperties = {
	displayName: 'Answer In',
	name: 'answerIn',
	type: 'options',
	default: 'webPage',
	options: [
		{
			name: 'Chat: Buttons Under the Message',
			value: 'inlineButtons',
			description: 'Buttons under the question. Needs a published Rubika Trigger receiving by webhook for the same bot (taps under a message reach only a webhook).',
		},
		{
			name: 'Chat: Keypad Buttons',
			value: 'chatKeypad',
			description: 'Buttons on the keypad under the input box; best for dates, numbers, lists, phone numbers and places. Needs a published Rubika Trigger for the same bot, by reading or by webhook; works without a public address.',
		},
		{ name: 'Web Page', value: 'webPage', description: 'Links that open a page in the phone\'s browser' },
	],
	description: 'Where the person answers: in the chat (a tap, or a value picked with the button), or on a web page',
};

const inChat = { show: { '/answerIn': ['inlineButtons', 'chatKeypad'] } };

/** Options of the in-chat answer, added to the operation's Options. */
export const chatAnswerOptions: INodeProperties[] = [
	{
		displayName: 'After the Decision (Chat)',
		name: 'afterDecision',
		type: 'options',
		default: 'showOutcome',
		displayOptions: inChat,
		options: [
			{ name: 'Remove the Buttons', value: 'removeButtons' },
			{ name: 'Remove the Buttons and Reply With the Outcome', value: 'showOutcome', description: 'E.g. "Approve — Sara" as a reply to the tap.' },
			{ name: 'Leave Unchanged', value: 'leave' },
		],
		description: 'What the chat shows once someone answered',
	},
	{
		displayName: 'Restrict to User IDs (Chat)',
		name: 'allowedUserIds',
		type: 'string',
		default: '',
		placeholder: 'u0AbC…, u0DeF…',
		displayOptions: inChat,
		description: 'Only these people (sender IDs, comma-separated) can answer; anyone else\'s tap decides nothing. Empty: anyone in the chat.',
	},
	{
		displayName: 'Unauthorized Reply (Chat)',
		name: 'unauthorizedReply',
		type: 'string',
		default: DEFAULT_UNAUTHORIZED_REPLY,
		displayOptions: inChat,
		description: 'Sent as a reply to a tap by someone not in Restrict to User IDs. Empty: no reply.',
	},
	{
		displayName: 'Ask Again Reply (Chat)',
		name: 'retryReply',
		type: 'string',
		default: DEFAULT_RETRY_REPLY,
		displayOptions: inChat,
		description: 'Sent as a reply to an answer that cannot be used (a date that is no day, a number out of range); the question keeps waiting. {reason} is replaced by what is wrong, in English.',
	},
	{
		displayName: 'Input Button Label (Chat)',
		name: 'inputButtonLabel',
		type: 'string',
		default: '',
		placeholder: 'e.g. 📅 Pick a date',
		displayOptions: inChat,
		description: 'Text of the button that asks for the value (Free Text, Date, Number, Item From a List, Phone Number, Location). Empty: a label for the kind of question.',
	},
];

export function readAnswerIn(value: unknown): AnswerIn {
	return (ANSWER_IN as readonly unknown[]).includes(value) ? (value as AnswerIn) : 'webPage';
}

/**
 * The resume token n8n gave this execution, read from its resume address (n8n 2.14+ add `?signature=<token>`
 * to `$execution.resumeUrl`); undefined where n8n has none (2.8.4). The same when the question is sent and
 * when a tap arrives at the waiting node.
 */
function resumeTokenOf(context: IExecuteFunctions | IWebhookFunctions, itemIndex = 0): string | undefined {
	const resumeUrl = String(context.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex) ?? '');
	try {
		return new URL(resumeUrl).searchParams.get('signature') ?? undefined;
	} catch {
		return undefined;
	}
}

/**
 * Where the execution keeps which chat and message its question went to, so that the waiting node can hold a
 * tap against them: the execution's custom data (n8n's per-execution key-value store, saved with the waiting
 * execution and shown with it in the executions list), under one key. n8n keeps at most 10 keys: with no room
 * the question goes with links instead.
 */
const QUESTION_KEY = 'rubika_question';
/** What custom data may hold here: ids only, so the value can also travel inside an expression (n8n 2.8.4). */
const PLAIN_ID = /^[A-Za-z0-9_-]+$/;

interface CustomData {
	get(key: string): unknown;
	set(key: string, value: string): void;
}

/**
 * The execution's custom data: `this.customData` where n8n gives it to every context (2.41), else through an
 * expression, the only way n8n 2.8.4 gives it to a node (`$execution.customData`).
 */
function customDataOf(context: IExecuteFunctions | IWebhookFunctions): CustomData {
	try {
		const own = (context as { customData?: Partial<CustomData> }).customData;
		if (own && typeof own.get === 'function' && typeof own.set === 'function') return own as CustomData;
	} catch {
		// n8n throws where a context has no execution data; the expression says the same below.
	}
	return {
		get: (key) => context.evaluateExpression(`{{ $execution.customData.get(${JSON.stringify(key)}) }}`, 0),
		set: (key, value) => void context.evaluateExpression(`{{ $execution.customData.set(${JSON.stringify(key)}, ${JSON.stringify(value)}) }}`, 0),
	};
}

/** Records where the question goes (before it is sent: false when n8n would not keep it), then its message. */
function recordQuestion(context: IExecuteFunctions, chatId: string, messageId?: string): boolean {
	const value = messageId === undefined ? chatId : `${chatId} ${messageId}`;
	if (!PLAIN_ID.test(chatId) || (messageId !== undefined && !PLAIN_ID.test(messageId))) return false;
	const customData = customDataOf(context);
	customData.set(QUESTION_KEY, value);
	return customData.get(QUESTION_KEY) === value;
}

/** The chat and message the question went to, as recorded when it was sent. */
function recordedQuestion(context: IWebhookFunctions): { chatId: string; messageId?: string } | undefined {
	const value = customDataOf(context).get(QUESTION_KEY);
	if (typeof value !== 'string') return undefined;
	const [chatId, messageId] = value.split(' ');
	return chatId ? { chatId, messageId } : undefined;
}

/**
 * The message fields carrying the answer buttons, or a reason they cannot be sent (then the caller falls back
 * to links): a resume token this package cannot carry in a button id.
 */
function answerButtonsFields(
	context: IExecuteFunctions,
	itemIndex: number,
	answerIn: ChatAnswerIn,
	chatId: string,
	question: Question,
	botToken: string,
): { fields: IDataObject } | { problem: string } {
	const resumeToken = resumeTokenOf(context, itemIndex);
	if (resumeToken !== undefined && !isCarriableResumeToken(resumeToken)) {
		return { problem: 'this n8n\'s resume token has a form this package does not know' };
	}
	const executionId = context.getExecutionId();
	const rows = question.rows.map((row) => ({
		buttons: row.map(
			(button): Button => ({
				id: answerButtonId(botToken, { executionId, decision: button.decision, chatId, resumeToken }),
				type: button.type,
				button_text: button.text,
				...(button.settings ? { [button.settings.key]: button.settings.value } : {}),
			}),
		),
	}));
	const keypad: Keypad = { rows };
	if (answerIn === 'inlineButtons') return { fields: { inline_keypad: keypad as unknown as IDataObject } };
	// Not one-time: a tap by someone not allowed to answer, or an answer that cannot be used, must leave the
	// keypad for answering. The waiting node removes it once answered (After the Decision).
	const chatKeypad: Keypad = { ...keypad, resize_keyboard: true, one_time_keyboard: false };
	return { fields: { chat_keypad: chatKeypad as unknown as IDataObject, chat_keypad_type: 'New' } };
}

/**
 * The question with answer buttons in the chat; a refusal of the buttons by Rubika (INVALID_INPUT, e.g. an id
 * longer than it takes) or a resume token that cannot travel in a button is a problem for the caller to fall
 * back on links.
 */
export async function sendAnswerButtons(
	context: IExecuteFunctions,
	itemIndex: number,
	answerIn: ChatAnswerIn,
	base: IDataObject,
	message: { text: string; metadata?: { meta_data_parts: MetadataPart[] } },
	botToken: string,
	call: ItemCall,
	question: Question,
): Promise<{ sent: IDataObject } | { problem: string }> {
	const chatId = String(base.chat_id);
	const buttons = answerButtonsFields(context, itemIndex, answerIn, chatId, question, botToken);
	if ('problem' in buttons) return buttons;
	if (!recordQuestion(context, chatId)) return { problem: 'n8n cannot keep the question\'s chat in the execution\'s custom data (it keeps at most 10 keys)' };
	const body: IDataObject = { ...base, text: message.text, ...buttons.fields };
	if (message.metadata && message.metadata.meta_data_parts.length > 0) body.metadata = message.metadata as unknown as IDataObject;
	const sent = await callRubika(context, 'sendMessage', body, call).then(
		(data) => ({ sent: data }),
		(error: unknown) => ({ error }),
	);
	if ('sent' in sent) {
		recordQuestion(context, chatId, String(sent.sent.message_id ?? ''));
		return sent;
	}
	if (!isRefusal(sent.error, 'INVALID_INPUT')) throw sent.error as NodeApiError;
	return { problem: `Rubika refused the answer buttons: ${(sent.error as Error).message}` };
}

/** Sender IDs from Restrict to User IDs; empty means anyone. */
function allowedSenders(value: unknown): string[] {
	return String(value ?? '')
		.split(/[\s,]+/)
		.map((id) => id.trim())
		.filter((id) => id !== '');
}

/**
 * The waiting node's webhook when the question was answered in the chat: only a tap a Rubika trigger of this
 * bot forwarded, on a button this question carried, in its chat, counts. Anything else — a link from an
 * older version, someone calling the resume address with a button's token, a button edited or sent from
 * elsewhere — decides nothing. An answer that cannot be read (a date that is no day) asks the person again and
 * the execution keeps waiting. The node changes nothing in the chat: its answer (ChatAnswerReply) tells the
 * trigger what to show, and n8n sends that answer only once it has accepted the resume.
 */
export async function receiveChatAnswer(this: IWebhookFunctions, answerIn: ChatAnswerIn, botToken: string, question: Question): Promise<IWebhookResponseData> {
	const response = this.getResponseObject();
	const answer = (status: number, body: IDataObject): IWebhookResponseData => {
		response.status(status).json(body);
		return { noWebhookResponse: true };
	};
	const request = this.getRequestObject();
	const asked = recordedQuestion(this);
	const problem =
		request.method !== 'POST'
			? 'not a tap'
			: asked === undefined
				? 'the chat this execution asked in is unknown (its custom data has no rubika_question)'
				: tapProblem(
						botToken,
						this.getBodyData(),
						{
							executionId: this.getExecutionId(),
							resumeToken: resumeTokenOf(this),
							decisions: offeredDecisions(question),
							chatId: asked.chatId,
							messageId: answerIn === 'inlineButtons' ? asked.messageId : undefined,
						},
						Date.now(),
					);
	if (problem !== undefined) {
		this.logger.warn(`Rubika Send and Wait: refused an answer that is not a genuine tap (${problem})`);
		return answer(403, { status: 'refused', reason: problem });
	}
	const tap = tapOf(this.getBodyData());
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const allowed = allowedSenders(options.allowedUserIds);
	if (allowed.length > 0 && !allowed.includes(tap.sender_id ?? '')) {
		const unauthorized: ChatAnswerReply = { status: 'unauthorized', removeButtons: false, reply: String(options.unauthorizedReply ?? DEFAULT_UNAUTHORIZED_REPLY) };
		return answer(200, unauthorized as unknown as IDataObject);
	}
	const reading = question.read({ decision: tap.decision, content: tap.content });
	if (!reading.ok) {
		this.logger.info(`Rubika Send and Wait: an answer in the chat cannot be used (${reading.problem}); the person is asked again`);
		const template = typeof options.retryReply === 'string' ? options.retryReply : DEFAULT_RETRY_REPLY;
		const again: ChatAnswerReply = { status: 'again', removeButtons: false, reply: template.replace(/\{reason\}/g, reading.problem) };
		return answer(200, again as unknown as IDataObject);
	}
	const sender = await senderName(this, tap);
	const after = (AFTER_DECISION as readonly unknown[]).includes(options.afterDecision) ? (options.afterDecision as AfterDecision) : 'showOutcome';
	const outcome = `${reading.shown} — ${sender ?? tap.sender_id ?? ''}`.trim();
	const resumed: ChatAnswerReply = {
		status: 'resumed',
		removeButtons: after !== 'leave',
		reply: after === 'showOutcome' ? outcome : '',
		...(answerIn === 'inlineButtons' && asked?.messageId ? { questionMessageId: asked.messageId } : {}),
	};
	const data: IDataObject = {
		...reading.data,
		respondedAt: new Date().toISOString(),
		answeredIn: 'chat',
		sender_id: tap.sender_id,
		...(sender !== undefined ? { sender_name: sender } : {}),
		chat_id: tap.chat_id,
		message_id: tap.message_id,
	};
	return { webhookResponse: resumed, workflowData: [[{ json: { data } }]] };
}

/** The answering person's name where Rubika gives one: in a private chat the chat is that person. */
async function senderName(context: IWebhookFunctions, tap: ChatAnswerTap): Promise<string | undefined> {
	if (!/^b0/i.test(tap.chat_id)) return undefined;
	try {
		const { chat } = await callRubika(context, 'getChat', { chat_id: tap.chat_id });
		return senderOf({ ...chat }).full_name ?? chat?.title ?? undefined;
	} catch {
		return undefined;
	}
}

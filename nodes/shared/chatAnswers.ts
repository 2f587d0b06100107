/**
 * Send and Wait answered inside the chat: the buttons the question carries, and the tap a trigger hands on.
 *
 * A community node cannot extend n8n's core, where n8n's own Telegram node resumes executions from a callback.
 * What a package can use is the waiting execution's resume address (`/webhook-waiting/<execution id>`), which
 * n8n protects differently by version (docs/send-and-wait-in-chat.md):
 * - n8n 2.14 and later refuse it without the execution's random resume token (`?signature=<64 hex>`), known
 *   only to the waiting execution;
 * - n8n 2.8.4 checks nothing unless the node asked for n8n's own signature, which only n8n can compute.
 *
 * So each button's id names the execution and the decision, plus what proves them: the resume token where n8n
 * has one (the trigger needs it to reach the execution; n8n checks it), else a MAC keyed with the bot token
 * over execution, decision and chat. A trigger that reads a tap on such a button posts it to the resume address
 * with a MAC of its own over the tap (button, who, where, when), keyed with the bot token; the waiting node
 * accepts nothing without it, and only a tap on a button it made itself: on 2.8.4, where n8n checks no token,
 * a made-up "token" button would otherwise pass. People in the chat see the button ids, never the bot token, so
 * they cannot forge a tap; a tap decides once because n8n resumes an execution once.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Every answer button's id starts so: a trigger tells them from the bot's own buttons by it. */
const ANSWER_BUTTON_PREFIX = 'sw1';

const CHAT_DECISIONS = ['approve', 'decline'] as const;
export type ChatDecision = (typeof CHAT_DECISIONS)[number];
const DECISION_CODE: Record<ChatDecision, string> = { approve: 'a', decline: 'd' };

/** How long a forwarded tap stays valid: it goes from the trigger to n8n at once, a minute is plenty. */
const TAP_VALIDITY_MS = 5 * 60_000;

/** What an answer button's id holds. */
export interface AnswerButton {
	executionId: string;
	decision: ChatDecision;
	/** n8n's resume token of the execution (hex), where this n8n has one. */
	resumeToken?: string;
	/** Otherwise: the MAC over execution, decision and chat. */
	mac?: string;
}

/** A tap on an answer button, as a trigger hands it to the waiting execution. */
export interface ChatAnswerTap {
	/** The id of the button tapped: the waiting node checks that it is one of its own. */
	button_id: string;
	execution_id: string;
	decision: ChatDecision;
	chat_id: string;
	message_id: string | null;
	sender_id: string | null;
	/** When the trigger read the tap, ms since the epoch. */
	at: number;
}

/** The body a trigger posts to the resume address. */
export interface ChatAnswerDelivery {
	rubikaChatAnswer: ChatAnswerTap;
	mac: string;
}

const MAC_LENGTH = 16;
const HEX_TOKEN = /^(?:[0-9a-f]{2})+$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** A key for this package's MACs only, derived from the bot token (never the token itself). */
function answerKey(botToken: string): Buffer {
	return createHmac('sha256', botToken).update('n8n-nodes-rubika/chat-answers/v1').digest();
}

function mac(botToken: string, text: string, length?: number): string {
	const full = createHmac('sha256', answerKey(botToken)).update(text).digest('base64url');
	return length === undefined ? full : full.slice(0, length);
}

function sameText(a: string, b: string): boolean {
	const left = Buffer.from(a);
	const right = Buffer.from(b);
	return left.length === right.length && timingSafeEqual(left, right);
}

function buttonMacText(executionId: string, decision: ChatDecision, chatId: string): string {
	return `button|${executionId}|${decision}|${chatId}`;
}

/**
 * The id of an answer button: `sw1.<execution>.<a|d>.<proof>`, the proof being n8n's resume token in
 * base64url (43 characters for 2.41's 64 hex digits) or a 16-character MAC. Rubika's limit on a button id
 * is not documented; these stay under 64 characters for executions numbered below 10^13.
 */
export function answerButtonId(
	botToken: string,
	button: { executionId: string; decision: ChatDecision; chatId: string; resumeToken?: string },
): string {
	const proof =
		button.resumeToken !== undefined
			? Buffer.from(button.resumeToken, 'hex').toString('base64url')
			: mac(botToken, buttonMacText(button.executionId, button.decision, button.chatId), MAC_LENGTH);
	const kind = button.resumeToken !== undefined ? 't' : 'm';
	return [ANSWER_BUTTON_PREFIX, button.executionId, DECISION_CODE[button.decision] + kind, proof].join('.');
}

/** Whether n8n's resume token can travel in a button id (hex, as n8n 2.14+ makes them). */
export function isCarriableResumeToken(token: string): boolean {
	return HEX_TOKEN.test(token) && token.length <= 128;
}

/** Reads an answer button's id; anything else (the bot's own buttons, a malformed id) is undefined. */
export function readAnswerButton(buttonId: string | null | undefined): AnswerButton | undefined {
	if (typeof buttonId !== 'string' || !buttonId.startsWith(`${ANSWER_BUTTON_PREFIX}.`)) return undefined;
	const [, executionId, code, proof, ...rest] = buttonId.split('.');
	if (rest.length > 0 || !/^[A-Za-z0-9_-]{1,24}$/.test(executionId ?? '') || !proof || !BASE64URL.test(proof)) return undefined;
	const decision = CHAT_DECISIONS.find((candidate) => DECISION_CODE[candidate] === code?.[0]);
	if (decision === undefined || code.length !== 2) return undefined;
	if (code[1] === 't') return { executionId, decision, resumeToken: Buffer.from(proof, 'base64url').toString('hex') };
	if (code[1] === 'm' && proof.length === MAC_LENGTH) return { executionId, decision, mac: proof };
	return undefined;
}

/**
 * Whether a button was made by this bot for this chat. A button carrying n8n's resume token is checked by n8n
 * (the token is the execution's secret); a MAC is checked here.
 */
export function isGenuineAnswerButton(botToken: string, button: AnswerButton, chatId: string): boolean {
	if (button.resumeToken !== undefined) return true;
	return button.mac !== undefined && sameText(button.mac, mac(botToken, buttonMacText(button.executionId, button.decision, chatId), MAC_LENGTH));
}

function tapMacText(tap: ChatAnswerTap): string {
	return ['tap', tap.button_id, tap.execution_id, tap.decision, tap.chat_id, tap.message_id ?? '', tap.sender_id ?? '', String(tap.at)].join('|');
}

/** The body a trigger posts for a tap. */
export function signTap(botToken: string, tap: ChatAnswerTap): ChatAnswerDelivery {
	return { rubikaChatAnswer: tap, mac: mac(botToken, tapMacText(tap)) };
}

/** The waiting execution a forwarded tap must be for, as the waiting node knows it. */
export interface WaitingQuestion {
	executionId: string;
	/** n8n's resume token of the execution, where this n8n has one: the question's buttons carry it. */
	resumeToken?: string;
}

/**
 * Why a forwarded tap is refused, or undefined when it is genuine, fresh, for this execution and on one of the
 * buttons this question carried (the same id, made again here from what the node knows).
 */
export function tapProblem(botToken: string, body: unknown, question: WaitingQuestion, now: number): string | undefined {
	const delivery = body as Partial<ChatAnswerDelivery> | undefined;
	const tap = delivery?.rubikaChatAnswer;
	if (!tap || typeof tap !== 'object' || typeof delivery?.mac !== 'string') return 'not a tap forwarded by a Rubika trigger';
	if (!sameText(delivery.mac, mac(botToken, tapMacText(tap)))) return 'the tap is not signed with this bot\'s key';
	if (tap.execution_id !== question.executionId) return `the tap is for execution ${tap.execution_id}`;
	if (!(Math.abs(now - tap.at) <= TAP_VALIDITY_MS)) return 'the tap is too old';
	const own = answerButtonId(botToken, { executionId: question.executionId, decision: tap.decision, chatId: tap.chat_id, resumeToken: question.resumeToken });
	if (typeof tap.button_id !== 'string' || !sameText(tap.button_id, own)) return 'the tap is on a button this question did not carry';
	return undefined;
}

/** A forwarded tap's fields, once tapProblem found nothing wrong. */
export function tapOf(body: unknown): ChatAnswerTap {
	return (body as ChatAnswerDelivery).rubikaChatAnswer;
}

/**
 * The proof a web link carries when answer buttons fell back to links (Rubika refused the buttons): the
 * waiting node then accepts that link as well as forwarded taps, and nothing else.
 */
export function fallbackLinkProof(botToken: string, executionId: string, approved: string): string {
	return mac(botToken, `link|${executionId}|${approved}`, MAC_LENGTH);
}

export function isFallbackLinkProof(botToken: string, executionId: string, approved: string, proof: unknown): boolean {
	return typeof proof === 'string' && sameText(proof, fallbackLinkProof(botToken, executionId, approved));
}

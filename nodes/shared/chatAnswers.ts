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
 * So each button's id names the execution and the decision, plus what proves them, both bound to the chat the
 * question went to: the resume token where n8n has one, sealed with a key derived from the bot token for this
 * decision and chat (the trigger unseals it to reach the execution; n8n checks it), else a MAC keyed the same
 * way over execution, decision and chat. A trigger that reads a tap on such a button posts it to the resume
 * address with a MAC of its own over the tap (button, who, where, when); the waiting node accepts nothing
 * without it, and only a tap on a button it made itself, for a decision it offered, in its own chat and (for
 * buttons under a message) on its own message. People in the chat see the button ids, never the bot token, so
 * they cannot forge, re-aim or edit a tap. A tap decides once because n8n resumes an execution once, and the
 * chat is told the outcome by the trigger whose hand-over n8n accepted, after it accepted it (ChatAnswerReply).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Every answer button's id starts so: a trigger tells them from the bot's own buttons by it. */
const ANSWER_BUTTON_PREFIX = 'sw1';

/** Which of up to ten choices a button is (Choose One of Several). */
export const MAX_CHOICES = 10;
type ChoiceDecision = `choice${0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9}`;
/**
 * What a button stands for: Approve, Decline, one of the choices, or the input button whose answer is a value
 * (a text, a date, a number, an item, a phone number, a place).
 */
export type ChatDecision = 'approve' | 'decline' | 'input' | ChoiceDecision;

/** The one character a decision takes in a button id. */
function codeOf(decision: ChatDecision): string {
	if (decision === 'approve') return 'a';
	if (decision === 'decline') return 'd';
	if (decision === 'input') return 'i';
	return decision.slice('choice'.length);
}

function decisionOf(code: string | undefined): ChatDecision | undefined {
	if (code === 'a') return 'approve';
	if (code === 'd') return 'decline';
	if (code === 'i') return 'input';
	return code !== undefined && /^[0-9]$/.test(code) ? (`choice${code}` as ChoiceDecision) : undefined;
}

/** The decision of the choice at `index` (0-based). */
export function choiceDecision(index: number): ChatDecision {
	if (!Number.isInteger(index) || index < 0 || index >= MAX_CHOICES) throw new Error(`a question has at most ${MAX_CHOICES} choices`);
	return `choice${index}` as ChoiceDecision;
}

/** The index of a choice decision, or undefined for any other. */
export function choiceIndexOf(decision: ChatDecision): number | undefined {
	return decision.startsWith('choice') ? Number(decision.slice('choice'.length)) : undefined;
}

/** How long a forwarded tap stays valid: it goes from the trigger to n8n at once, a minute is plenty. */
const TAP_VALIDITY_MS = 5 * 60_000;

/** What an answer button's id holds. */
export interface AnswerButton {
	executionId: string;
	decision: ChatDecision;
	/**
	 * What proves the button: n8n's resume token sealed for this decision and chat (where n8n has one; the
	 * trigger unseals it with the chat the tap came from), or a MAC over execution, decision and chat.
	 */
	proof: { sealedToken: Buffer } | { mac: string };
}

/**
 * What an answer to an input button carries besides its button id: what the person typed or picked (in the
 * message's text), the place they shared, the phone number they shared (facts §11: where each arrives is not
 * documented; every plausible place is read).
 */
export interface ChatAnswerContent {
	text?: string;
	location?: { latitude: string; longitude: string };
	phone_number?: string;
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
	/** An input button's answer: what it carried. */
	content?: ChatAnswerContent;
	/**
	 * How an input button's answer arrived: as an inline message (on the question's message) or as a new
	 * message in the chat (facts §11: answers on an inline keypad may come either way). Undefined for taps.
	 */
	delivered_as?: 'inlineMessage' | 'message';
}

/** The body a trigger posts to the resume address. */
export interface ChatAnswerDelivery {
	rubikaChatAnswer: ChatAnswerTap;
	mac: string;
}

/**
 * What the waiting node answers a forwarded tap with, for the trigger to show in the chat. The node decides
 * nothing in the chat itself: n8n sends this answer only once it has accepted the resume (n8n 2.8.4 and 2.41
 * answer an `onReceived` webhook after the execution was moved out of "waiting", which only one request can
 * do), so only the tap that won tells the chat its outcome, and a tap that lost tells nothing. Where to show it
 * (the chat, the message) is always the trigger's own tap, never something this answer names.
 */
export interface ChatAnswerReply {
	/**
	 * `resumed`: the execution goes on; `unauthorized`: the sender may not answer; `again`: the answer cannot be
	 * read (a date that is no day, a number out of range) and the person is asked again, the execution waits.
	 */
	status: 'resumed' | 'unauthorized' | 'again';
	/** Remove the answer buttons (the message's, or the chat keypad). */
	removeButtons: boolean;
	/**
	 * The question's message, when its buttons are under it: an input button's answer may come as a new
	 * message (facts §11), which does not say where the buttons are. Always in the chat of the tap.
	 */
	questionMessageId?: string;
	/** A reply to the tap's message; none when empty. */
	reply: string;
}

const MAC_LENGTH = 16;
const HEX_TOKEN = /^(?:[0-9a-f]{2})+$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** The longest resume token a button can carry (n8n 2.41's are 64 hex digits, 32 bytes). */
const MAX_TOKEN_BYTES = 64;

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

/** What a button stands for: the execution, the decision and the chat it was sent to. */
interface ButtonFacts {
	executionId: string;
	decision: ChatDecision;
	chatId: string;
}

function buttonMacText({ executionId, decision, chatId }: ButtonFacts): string {
	return `button|${executionId}|${decision}|${chatId}`;
}

/**
 * A keystream for sealing the resume token into one button: keyed with the bot's key and bound to the
 * execution, the decision and the chat. The same token sealed for Approve and for Decline, or for another
 * chat, gives unrelated bytes; without the bot's key nobody can turn one button into another, and a trigger
 * that unseals a button with the wrong chat or decision gets a token n8n refuses.
 */
function tokenMask(botToken: string, facts: ButtonFacts, length: number): Buffer {
	const blocks: Buffer[] = [];
	for (let block = 0; blocks.length * 32 < length; block++) {
		blocks.push(createHmac('sha256', answerKey(botToken)).update(`seal|${block}|${buttonMacText(facts)}`).digest());
	}
	return Buffer.concat(blocks).subarray(0, length);
}

function xor(bytes: Buffer, mask: Buffer): Buffer {
	return Buffer.from(bytes.map((byte, index) => byte ^ mask[index]));
}

/**
 * The id of an answer button: `sw1.<execution>.<a|d><t|m>.<proof>`, the proof being n8n's resume token sealed
 * for this decision and chat (base64url, 43 characters for 2.41's 64 hex digits) or a 16-character MAC.
 * Rubika's limit on a button id is not documented; these stay under 64 characters for executions numbered
 * below 10^13.
 */
export function answerButtonId(botToken: string, button: ButtonFacts & { resumeToken?: string }): string {
	const proof =
		button.resumeToken !== undefined
			? (() => {
					const token = Buffer.from(button.resumeToken, 'hex');
					return xor(token, tokenMask(botToken, button, token.length)).toString('base64url');
				})()
			: mac(botToken, buttonMacText(button), MAC_LENGTH);
	const kind = button.resumeToken !== undefined ? 't' : 'm';
	return [ANSWER_BUTTON_PREFIX, button.executionId, codeOf(button.decision) + kind, proof].join('.');
}

/** Whether n8n's resume token can travel in a button id (hex, as n8n 2.14+ make them). */
export function isCarriableResumeToken(token: string): boolean {
	return HEX_TOKEN.test(token) && token.length <= MAX_TOKEN_BYTES * 2;
}

/** Reads an answer button's id; anything else (the bot's own buttons, a malformed id) is undefined. */
export function readAnswerButton(buttonId: string | null | undefined): AnswerButton | undefined {
	if (typeof buttonId !== 'string' || !buttonId.startsWith(`${ANSWER_BUTTON_PREFIX}.`)) return undefined;
	const [, executionId, code, proof, ...rest] = buttonId.split('.');
	if (rest.length > 0 || !/^[A-Za-z0-9_-]{1,24}$/.test(executionId ?? '') || !proof || !BASE64URL.test(proof)) return undefined;
	const decision = decisionOf(code?.[0]);
	if (decision === undefined || code.length !== 2) return undefined;
	if (code[1] === 't') {
		const sealedToken = Buffer.from(proof, 'base64url');
		return sealedToken.length > 0 && sealedToken.length <= MAX_TOKEN_BYTES ? { executionId, decision, proof: { sealedToken } } : undefined;
	}
	if (code[1] === 'm' && proof.length === MAC_LENGTH) return { executionId, decision, proof: { mac: proof } };
	return undefined;
}

/**
 * What a trigger can tell of a tap on an answer button before handing it on: a MAC button is checked here (made
 * by this bot, for this decision and this chat); a sealed token is unsealed with the chat the tap came from,
 * and n8n checks it (a button re-aimed at another decision or chat unseals to a token n8n refuses). Undefined
 * for a MAC button this bot did not make for that chat.
 */
export function resumeTokenOfTap(botToken: string, button: AnswerButton, chatId: string): { resumeToken?: string } | undefined {
	const facts = { executionId: button.executionId, decision: button.decision, chatId };
	if ('sealedToken' in button.proof) {
		const { sealedToken } = button.proof;
		return { resumeToken: xor(sealedToken, tokenMask(botToken, facts, sealedToken.length)).toString('hex') };
	}
	return sameText(button.proof.mac, mac(botToken, buttonMacText(facts), MAC_LENGTH)) ? {} : undefined;
}

function tapMacText(tap: ChatAnswerTap): string {
	const content = tap.content === undefined ? '' : JSON.stringify([tap.content.text ?? null, tap.content.location?.latitude ?? null, tap.content.location?.longitude ?? null, tap.content.phone_number ?? null]);
	return ['tap', tap.button_id, tap.execution_id, tap.decision, tap.chat_id, tap.message_id ?? '', tap.sender_id ?? '', String(tap.at), content, tap.delivered_as ?? ''].join('|');
}

/** The body a trigger posts for a tap. */
export function signTap(botToken: string, tap: ChatAnswerTap): ChatAnswerDelivery {
	return { rubikaChatAnswer: tap, mac: mac(botToken, tapMacText(tap)) };
}

/** The waiting question a forwarded tap must answer, as the waiting node knows it. */
export interface WaitingQuestion {
	executionId: string;
	/** n8n's resume token of the execution, where this n8n has one: the question's buttons carry it. */
	resumeToken?: string;
	/** The decisions the question offered (Approve Only: approve; a choice question: its choices; an input: input). */
	decisions: readonly ChatDecision[];
	/** The chat the question went to. */
	chatId: string;
	/** The question's message, for buttons under it; undefined for the chat keypad (a tap there is a new message). */
	messageId?: string;
}

/**
 * Why a forwarded tap is refused, or undefined when everything it carries is what the question sent: signed
 * with this bot's key, fresh, for this execution, a decision the question offered, from the question's chat
 * (and on its message, for buttons under it), on one of the buttons it carried (the same id, made again here).
 */
export function tapProblem(botToken: string, body: unknown, question: WaitingQuestion, now: number): string | undefined {
	const delivery = body as Partial<ChatAnswerDelivery> | undefined;
	const tap = delivery?.rubikaChatAnswer;
	if (!tap || typeof tap !== 'object' || typeof delivery?.mac !== 'string') return 'not a tap forwarded by a Rubika trigger';
	if (!sameText(delivery.mac, mac(botToken, tapMacText(tap)))) return 'the tap is not signed with this bot\'s key';
	if (tap.execution_id !== question.executionId) return `the tap is for execution ${tap.execution_id}`;
	if (!(Math.abs(now - tap.at) <= TAP_VALIDITY_MS)) return 'the tap is too old';
	if (!question.decisions.includes(tap.decision)) return `the question offered no ${tap.decision} button`;
	if (tap.chat_id !== question.chatId) return `the tap comes from chat ${tap.chat_id}, not the question's`;
	// An input button's answer may come as a new message in the chat, which is not the question's (facts §11).
	const answeredInNewMessage = tap.decision === 'input' && tap.delivered_as === 'message';
	if (question.messageId !== undefined && tap.message_id !== question.messageId && !answeredInNewMessage) {
		return `the tap is on message ${tap.message_id}, not the question's`;
	}
	const own = answerButtonId(botToken, { executionId: question.executionId, decision: tap.decision, chatId: question.chatId, resumeToken: question.resumeToken });
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

/**
 * Taps on Send and Wait's answer buttons, as the triggers see them: not an update for the trigger's workflow
 * but the answer a waiting execution is waiting for. The trigger posts the tap to that execution's resume
 * address (../chatAnswers.ts says why that is safe) and starts nothing itself. When n8n has accepted the tap,
 * the trigger shows the outcome in the chat, as the waiting node asked: only the tap n8n accepted does, once.
 */
import type { IDataObject, IHttpRequestOptions, IWebhookFunctions, ITriggerFunctions } from 'n8n-workflow';

import type { AnswerButton, ChatAnswerContent, ChatAnswerReply } from '../chatAnswers';
import { readAnswerButton, resumeTokenOfTap, signTap } from '../chatAnswers';
import { isPlainObject } from '../json';
import { callRubika } from '../transport';
import type { CallOptions } from '../transport/retry';
import type { UpdateItem } from './item';
import { INLINE_MESSAGE_TYPE } from './raw';

type TriggerContext = ITriggerFunctions | IWebhookFunctions;

/** What became of a tap: resumed the execution, was refused by it, or reached nothing (gone, forged, failed). */
export type TapOutcome = 'resumed' | 'refused' | 'closed' | 'forged' | 'failed';

/** The answer button an item is a tap on, if any. */
export function answerButtonOf(item: UpdateItem): AnswerButton | undefined {
	return readAnswerButton(item.button_id);
}

/**
 * n8n's address for waiting executions (`<base>/webhook-waiting`), read from `$execution.resumeUrl` as an
 * expression evaluates it in this context: a parameter the node does not have falls back to that expression.
 * The trigger has no execution of its own, so the address ends in a placeholder id, which is dropped.
 * n8n 2.41 evaluates expressions only while it activates a workflow or handles a request ("No bridge acquired
 * for this context" otherwise): the trigger reading getUpdates reads the address once, at its start; by webhook
 * trigger with each delivery. Undefined, and said in the log, where n8n cannot give it.
 */
export function waitingAddressOf(context: TriggerContext): string | undefined {
	try {
		const resumeUrl = String(context.getNodeParameter('rubikaResumeAddress', '={{ $execution.resumeUrl }}') ?? '');
		const url = new URL(resumeUrl);
		url.search = '';
		url.pathname = url.pathname.replace(/\/[^/]*$/, '');
		return url.toString().replace(/\/$/, '');
	} catch (error) {
		context.logger.warn(`Rubika: n8n's address for waiting executions is unknown (${(error as Error).message}); taps on Send and Wait's answer buttons cannot be handed on`);
		return undefined;
	}
}

/** The resume address of the execution a button was made for. */
function resumeAddressFor(waitingAddress: string, executionId: string, resumeToken: string | undefined): string {
	const address = `${waitingAddress}/${encodeURIComponent(executionId)}`;
	return resumeToken !== undefined ? `${address}?signature=${resumeToken}` : address;
}

const ATTEMPTS = 3;

/**
 * Hands a tap to the execution it was made for (`waitingAddress` from waitingAddressOf), then shows what the
 * waiting node answered in the chat. n8n answers 409 for an execution that already went on (a second tap, or
 * one after the time limit), 500 for one another tap is resuming at this moment, and 404 for one that is
 * gone: those taps decide nothing and show nothing. Only a failure to reach n8n is tried again; the person can
 * tap again in any case, the buttons stay until answered. Never throws: a tap that cannot be handed on must not
 * stop the trigger. `options`: the trigger's own call options (its resolved credential, its stop signal).
 */
export async function handOnAnswerTap(
	context: TriggerContext,
	waitingAddress: string | undefined,
	botToken: string,
	item: UpdateItem,
	button: AnswerButton,
	options: CallOptions = {},
): Promise<TapOutcome> {
	const chatId = item.chat_id ?? '';
	const proof = resumeTokenOfTap(botToken, button, chatId);
	if (proof === undefined) {
		context.logger.warn(`Rubika: ignored a tap on an answer button that this bot did not make for chat ${chatId}`);
		return 'forged';
	}
	if (waitingAddress === undefined) {
		context.logger.warn(`Rubika: could not hand a tap on an answer button to execution ${button.executionId}: n8n's address for waiting executions is unknown`);
		return 'failed';
	}
	const body = signTap(botToken, {
		button_id: item.button_id ?? '',
		execution_id: button.executionId,
		decision: button.decision,
		chat_id: chatId,
		message_id: item.message_id,
		sender_id: item.sender_id,
		at: Date.now(),
		...(button.decision === 'input' ? { content: answerContentOf(item), delivered_as: item.type === INLINE_MESSAGE_TYPE ? 'inlineMessage' : 'message' } : {}),
	});
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: resumeAddressFor(waitingAddress, button.executionId, proof.resumeToken),
		body: body as unknown as IDataObject,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: 30_000,
	};
	for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
		try {
			const response = (await context.helpers.httpRequest(request)) as { statusCode: number; body?: unknown };
			const reply = replyOf(response.body);
			const outcome = outcomeOf(response.statusCode, reply?.status);
			if (outcome !== 'resumed') {
				context.logger.info(`Rubika: a tap on an answer button for execution ${button.executionId} decided nothing (HTTP ${response.statusCode}, ${reply?.status ?? outcome})`);
			}
			if (reply !== undefined && response.statusCode === 200) await showInChat(context, item, reply, options);
			if (outcome !== 'failed' || attempt === ATTEMPTS) return outcome;
		} catch (error) {
			if (attempt === ATTEMPTS) {
				context.logger.warn(`Rubika: could not hand a tap on an answer button to execution ${button.executionId}: ${(error as Error).message}`);
				return 'failed';
			}
		}
	}
	return 'failed';
}

/**
 * What an answer to an input button carries: the message's text, its place, its contact's phone number,
 * wherever the update put them (a new message, or an inline message: facts §11). A place is read from
 * `location`, else from a `live_location`'s current place (rubpy's model); the waiting node reads a phone number
 * or a place from the text too, where Rubika writes them there.
 */
function answerContentOf(item: UpdateItem): ChatAnswerContent {
	const raw = item.update;
	const message = (isPlainObject(raw.new_message) ? raw.new_message : raw) as IDataObject;
	const live = isPlainObject(message.live_location) ? (message.live_location as IDataObject) : undefined;
	const place = [message.location, live?.current_location, live?.location].find(
		(candidate): candidate is IDataObject => isPlainObject(candidate) && candidate.latitude != null && candidate.longitude != null,
	);
	const contact = isPlainObject(message.contact_message) ? (message.contact_message as IDataObject) : undefined;
	const phone = contact?.phone_number;
	return {
		...(typeof item.text === 'string' ? { text: item.text } : {}),
		...(place ? { location: { latitude: String(place.latitude), longitude: String(place.longitude) } } : {}),
		...(typeof phone === 'string' || typeof phone === 'number' ? { phone_number: String(phone) } : {}),
	};
}

/** The waiting node's answer (ChatAnswerReply), if the body is one. */
function replyOf(body: unknown): ChatAnswerReply | undefined {
	if (!isPlainObject(body)) return undefined;
	const { status, removeButtons, reply, questionMessageId } = body as Partial<ChatAnswerReply>;
	if (status !== 'resumed' && status !== 'unauthorized' && status !== 'again') return undefined;
	return {
		status,
		removeButtons: removeButtons === true,
		reply: typeof reply === 'string' ? reply : '',
		...(typeof questionMessageId === 'string' && /^[A-Za-z0-9_-]+$/.test(questionMessageId) ? { questionMessageId } : {}),
	};
}

/**
 * What the waiting node asked to show, in the chat of the tap: the buttons removed (those under the question's
 * message — the tapped one, or the one the node names for an answer that came as a new message — else the chat
 * keypad), a reply to the tap. The chat comes from the tap, never from the answer. Failures are only logged:
 * the decision stands.
 */
async function showInChat(context: TriggerContext, tap: UpdateItem, reply: ChatAnswerReply, options: CallOptions): Promise<void> {
	const chatId = tap.chat_id;
	if (chatId === null) return;
	const questionMessage = reply.questionMessageId ?? (tap.type === INLINE_MESSAGE_TYPE ? tap.message_id : null);
	try {
		if (reply.removeButtons && questionMessage === null) await callRubika(context, 'editChatKeypad', { chat_id: chatId, chat_keypad_type: 'Remove' }, options);
		if (reply.removeButtons && questionMessage !== null) {
			await callRubika(context, 'editMessageKeypad', { chat_id: chatId, message_id: questionMessage, inline_keypad: { rows: [] } }, options);
		}
	} catch (error) {
		context.logger.warn(`Rubika Send and Wait: could not remove the answer buttons (${(error as Error).message})`);
	}
	if (reply.reply.trim() === '') return;
	try {
		// A reply to the tap: the question for a tap under it, the tap's own message on the keypad.
		await callRubika(context, 'sendMessage', { chat_id: chatId, text: reply.reply, ...(tap.message_id !== null ? { reply_to_message_id: tap.message_id } : {}) }, options);
	} catch (error) {
		context.logger.warn(`Rubika Send and Wait: could not reply in the chat (${(error as Error).message})`);
	}
}

function outcomeOf(statusCode: number, status: string | undefined): TapOutcome {
	if (statusCode === 200 && status === 'resumed') return 'resumed';
	if (statusCode === 200 || statusCode === 403) return 'refused';
	if (statusCode === 404 || statusCode === 409 || statusCode === 401) return 'closed';
	return 'failed';
}

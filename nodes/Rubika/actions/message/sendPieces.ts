/**
 * What one item sends as one or more messages: Send Text's text, cut into pieces when it is too long for one
 * message (nodes/shared/longText.ts), and Send File's file with the first piece of its caption, the rest of the
 * caption following as texts. Where the send options go when there are several:
 * - Reply To Message ID on the first message, which is the answer's start;
 * - the inline keypad and the chat keypad (set or removed) on the last, under the answer's end;
 * - Disable Notification on every message.
 *
 * A message whose formatting Rubika refuses (INVALID_INPUT) can be sent again without it (Text Options →
 * Plain Text If Formatting Is Refused); the output then says so.
 *
 * When a message fails after others of the item went, the error says which went (`sent_message_ids` in a
 * Continue On Fail item). Under a campaign (Skip Chats Already Sent) those are recorded, and a re-run of the
 * item sends only the messages still missing; the chat itself is recorded only once all of them went.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isRefusal, toNodeError } from '../../../shared/errors';
import type { FormattedText } from '../../formatting/formattedText';
import { callRubika } from '../../../shared/transport';
import { messageFieldsOf } from '../../helpers/formattingFields';
import type { ItemCall } from '../../../shared/transport';

export interface OutgoingMessage {
	method: 'sendMessage' | 'sendFile';
	/** Its own fields besides the text and the send options: Send File's `file_id`. */
	fields: IDataObject;
	/** Its text and formatting; a file may go without. */
	piece?: FormattedText;
}

/** Send options that go on one message of several: the first, or the last. */
const FIRST_MESSAGE_FIELDS = ['reply_to_message_id'];
const LAST_MESSAGE_FIELDS = ['inline_keypad', 'chat_keypad', 'chat_keypad_type'];

/**
 * Sends `messages` to `chatId` in order, with the send options `extras` (readSendExtras) placed as the module
 * comment says. Returns the output fields: the first message's answer (its `message_id`), `message_ids` (every
 * message this run sent, in order), and when it happened `already_sent_parts` (1-based, sent by an earlier run
 * of the campaign), `formatting_dropped` with `formatting_dropped_parts` and `formatting_refusal`.
 */
export async function sendMessages(
	context: IExecuteFunctions,
	call: ItemCall,
	chatId: string,
	messages: OutgoingMessage[],
	extras: IDataObject,
	{ plainTextIfRefused }: { plainTextIfRefused: boolean },
): Promise<IDataObject> {
	const count = messages.length;
	const { first, last, everywhere } = placeExtras(extras);
	// A single message needs no record of its own: its chat is recorded when it went.
	const progress = count > 1 ? call.sentParts : undefined;
	const labels = messages.map((message, index) => `${index + 1}/${count} ${message.method} ${message.piece?.text ?? ''}`);
	const sentBefore = progress ? await progress.sentBefore(labels) : new Set<string>();

	const output: IDataObject = {};
	const messageIds: string[] = [];
	const sentNow: string[] = [];
	const alreadySent: number[] = [];
	const dropped: number[] = [];
	let refusal: string | undefined;
	for (const [index, message] of messages.entries()) {
		if (sentBefore.has(labels[index])) {
			alreadySent.push(index + 1);
			continue;
		}
		const body: IDataObject = {
			chat_id: chatId,
			...message.fields,
			...(message.piece ? messageFieldsOf(message.piece) : {}),
			...everywhere,
			...(index === 0 ? first : {}),
			...(index === count - 1 ? last : {}),
		};
		let sent: IDataObject;
		try {
			const answer = await sendOne(context, call, message.method, body, plainTextIfRefused);
			sent = answer.data;
			if (answer.refusal !== undefined) {
				dropped.push(index + 1);
				refusal ??= answer.refusal;
			}
		} catch (error) {
			if (sentNow.length === 0 && alreadySent.length === 0) throw toNodeError(context.getNode(), error, call.itemIndex);
			progress?.delivered(sentNow);
			throw partlySent(context, error, { index, count, messageIds, recorded: progress !== undefined });
		}
		if (messageIds.length === 0) Object.assign(output, sent);
		messageIds.push(String(sent.message_id));
		sentNow.push(labels[index]);
	}
	output.message_ids = messageIds;
	if (alreadySent.length > 0) output.already_sent_parts = alreadySent;
	if (refusal !== undefined) Object.assign(output, { formatting_dropped: true, formatting_dropped_parts: dropped, formatting_refusal: refusal });
	return output;
}

function placeExtras(extras: IDataObject): { first: IDataObject; last: IDataObject; everywhere: IDataObject } {
	const first: IDataObject = {};
	const last: IDataObject = {};
	const everywhere: IDataObject = {};
	for (const [key, value] of Object.entries(extras)) {
		const target = FIRST_MESSAGE_FIELDS.includes(key) ? first : LAST_MESSAGE_FIELDS.includes(key) ? last : everywhere;
		target[key] = value;
	}
	return { first, last, everywhere };
}

/** One message; with `plainTextIfRefused`, sent again without its formatting when Rubika refuses it with it. */
async function sendOne(
	context: IExecuteFunctions,
	call: ItemCall,
	method: OutgoingMessage['method'],
	body: IDataObject,
	plainTextIfRefused: boolean,
): Promise<{ data: IDataObject; refusal?: string }> {
	try {
		return { data: await callRubika(context, method, body, call) };
	} catch (error) {
		if (!plainTextIfRefused || body.metadata === undefined || !isRefusal(error, 'INVALID_INPUT')) throw toNodeError(context.getNode(), error, call.itemIndex);
		const refusal = (error as NodeApiError).message;
		context.logger.info(`Rubika: ${method} was refused with its formatting (${refusal}); sending it again as plain text`);
		const { metadata: _refused, ...plain } = body;
		// Refused again, the formatting was not the reason: that refusal is the one to report.
		return { data: await callRubika(context, method, plain, call), refusal };
	}
}

/** The error of message `index + 1` of `count`, saying which of the item's messages went before it. */
function partlySent(
	context: IExecuteFunctions,
	error: unknown,
	{ index, count, messageIds, recorded }: { index: number; count: number; messageIds: string[]; recorded: boolean },
): NodeApiError | NodeOperationError {
	const nodeError = toNodeError(context.getNode(), error);
	const went = index === 1 ? 'message 1 was' : `messages 1 to ${index} were`;
	nodeError.message = `${nodeError.message} (message ${index + 1} of ${count} of this item; ${went} sent)`;
	const thisRun = messageIds.length > 0 ? ` (sent by this run: ${messageIds.join(', ')})` : '';
	const rerun = recorded
		? 'They are recorded under the campaign ID: re-running the item sends only the rest.'
		: 'Re-running the item sends all of them again; under Skip Chats Already Sent (Campaign ID) a re-run sends only the rest.';
	nodeError.description = [nodeError.description, `Of the item's ${count} messages, ${went} sent${thisRun}. ${rerun}`]
		.filter((line) => typeof line === 'string' && line !== '')
		.join(' ');
	nodeError.context.sent_message_ids = messageIds;
	return nodeError;
}

/**
 * Taps on Send and Wait's answer buttons, as the triggers see them: not an update for the trigger's workflow
 * but the answer a waiting execution is waiting for. The trigger posts the tap to that execution's resume
 * address (../chatAnswers.ts says why that is safe) and starts nothing itself.
 */
import type { IDataObject, IHttpRequestOptions, IWebhookFunctions, ITriggerFunctions } from 'n8n-workflow';

import type { AnswerButton } from '../chatAnswers';
import { isGenuineAnswerButton, readAnswerButton, signTap } from '../chatAnswers';
import type { UpdateItem } from './item';

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
 * for this context" otherwise): the continuous trigger reads the address once, at its start; the webhook
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
function resumeAddressFor(waitingAddress: string, button: AnswerButton): string {
	const address = `${waitingAddress}/${encodeURIComponent(button.executionId)}`;
	return button.resumeToken !== undefined ? `${address}?signature=${button.resumeToken}` : address;
}

const ATTEMPTS = 3;

/**
 * Hands a tap to the execution it was made for (`waitingAddress` from waitingAddressOf). n8n answers 409 for
 * an execution that already went on (a second tap, or one after the time limit) and 404 for one that is gone:
 * those taps decide nothing. Only a failure to reach n8n is tried again; the person can tap again in any case,
 * the buttons stay until answered. Never throws: a tap that cannot be handed on must not stop the trigger.
 */
export async function handOnAnswerTap(
	context: TriggerContext,
	waitingAddress: string | undefined,
	botToken: string,
	item: UpdateItem,
	button: AnswerButton,
): Promise<TapOutcome> {
	const chatId = item.chat_id ?? '';
	if (!isGenuineAnswerButton(botToken, button, chatId)) {
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
	});
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: resumeAddressFor(waitingAddress, button),
		body: body as unknown as IDataObject,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: 30_000,
	};
	for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
		try {
			const response = (await context.helpers.httpRequest(request)) as { statusCode: number; body?: { status?: string } };
			const outcome = outcomeOf(response.statusCode, response.body?.status);
			if (outcome !== 'resumed') {
				context.logger.info(`Rubika: a tap on an answer button for execution ${button.executionId} decided nothing (HTTP ${response.statusCode}, ${response.body?.status ?? outcome})`);
			}
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

function outcomeOf(statusCode: number, status: string | undefined): TapOutcome {
	if (statusCode === 200 && status === 'resumed') return 'resumed';
	if (statusCode === 200 || statusCode === 403) return 'refused';
	if (statusCode === 404 || statusCode === 409 || statusCode === 401) return 'closed';
	return 'failed';
}

/** Calling a Bot API method: POST `{method}` with a JSON body, through the retry loop and the rate-limit gate. */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { botPosted, postsInChat } from '../conversations';
import type { MethodResults, RubikaMethod } from '../types';
import type { RubikaContext } from './credential';
import { readEnvelope } from './envelope';
import type { CallOptions } from './retry';
import { sendWithRetries } from './retry';

type Result<M extends RubikaMethod> = M extends keyof MethodResults ? MethodResults[M] : IDataObject;

/**
 * Calls a Bot API method and returns the envelope's `data`; the method must be one of Rubika's (RubikaMethod),
 * so a misspelt name does not compile.
 * Throws NodeApiError (with Rubika's status, dev_message, method and HTTP code) when Rubika says no.
 */
export async function callRubika<M extends RubikaMethod>(
	context: RubikaContext,
	method: M,
	body: IDataObject = {},
	options: CallOptions = {},
): Promise<Result<M>> {
	return (await callAnyMethod(context, method, body, options)) as Result<M>;
}

/**
 * Calls a method by any name, for Custom API Call (the user types the name): the same transport, and an
 * answer whose shape nothing promises. The caller makes sure the name is a plain method name.
 */
export async function callAnyMethod(
	context: RubikaContext,
	method: string,
	body: IDataObject = {},
	options: CallOptions = {},
): Promise<unknown> {
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: method,
		body,
		json: true,
		headers: { 'Content-Type': 'application/json' },
	};
	// Only Bot API calls pass the rate-limit gate: the limit belongs to the bot token, which the upload and
	// download addresses do not carry.
	const result = await sendWithRetries(context, method, request, options, (response) => readEnvelope(method, response, body), {
		gated: true,
	});
	// An execution's post in a chat: an answer is likely now, the trigger reading this bot reads faster.
	if (options.pacing?.bot !== undefined && postsInChat(method)) botPosted(options.pacing.bot);
	return result;
}

/** Calling a Bot API method: POST `{method}` with a JSON body, through the retry loop and the rate-limit gate. */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import type { MethodResults } from '../types';
import type { RubikaContext } from './credential';
import { readEnvelope } from './envelope';
import type { CallOptions } from './retry';
import { sendWithRetries } from './retry';

type Result<M extends string> = M extends keyof MethodResults ? MethodResults[M] : IDataObject;

/**
 * Calls a Bot API method and returns the envelope's `data`.
 * Throws NodeApiError (with Rubika's status, dev_message, method and HTTP code) when Rubika says no.
 */
export async function callRubika<M extends string>(
	context: RubikaContext,
	method: M,
	body: IDataObject = {},
	options: CallOptions = {},
): Promise<Result<M>> {
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: method,
		body,
		json: true,
		headers: { 'Content-Type': 'application/json' },
	};
	// Only Bot API calls pass the rate-limit gate: the limit belongs to the bot token, which the upload and
	// download addresses do not carry.
	const data = await sendWithRetries(context, method, request, options, (response) => readEnvelope(method, response), {
		gated: true,
	});
	return data as Result<M>;
}

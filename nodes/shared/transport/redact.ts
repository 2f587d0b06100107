/** Nothing that leaves the transport carries the bot token: an attempt's failure becomes a scrubbed NodeApiError. */
import type { JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { RubikaContext, ResolvedCredential } from './credential';
import { tokenOf } from './credential';
import type { AttemptFailure } from './failures';

/** Removes the bot token (raw or URL-encoded) and any `/v3/<token>/` path segment from a text. */
export function redactToken(text: string, token: string | undefined): string {
	let out = text.replace(/\/v3\/[^/\s"'?#]+\//g, '/v3/***/');
	if (token && token.length >= 4) {
		for (const variant of new Set([token, encodeURIComponent(token)])) {
			out = out.split(variant).join('***');
		}
	}
	return out;
}

/**
 * The error n8n shows for a failed call: Rubika's status and details, the attempts made, no token. The token
 * is looked up only here, when there is an error to scrub.
 */
export async function toNodeApiError(
	context: RubikaContext,
	failure: AttemptFailure,
	itemIndex: number | undefined,
	attempts: number,
	credential?: ResolvedCredential,
): Promise<NodeApiError> {
	const token = await tokenOf(context, credential);
	const scrub = (text: string) => redactToken(text, token);
	const details = JSON.parse(scrub(JSON.stringify({ ...failure.details, attempts }))) as JsonObject;
	const error = new NodeApiError(context.getNode(), details, {
		message: scrub(failure.message),
		description: scrub(failure.description),
		httpCode: failure.httpCode !== undefined ? String(failure.httpCode) : undefined,
		itemIndex,
	});
	error.stack = scrub(error.stack ?? '');
	return error;
}

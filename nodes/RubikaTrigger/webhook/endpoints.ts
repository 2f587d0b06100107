/**
 * What the trigger asks Rubika about its bot's endpoints: register a URL for endpoint types, and try to remove
 * an endpoint. Rubika answers `updateBotEndpoints` with `data.status`, "Done" when it took the change (facts §4).
 */
import type { IHookFunctions, ITriggerFunctions } from 'n8n-workflow';

import type { CallOptions } from '../../shared/transport';
import { callRubika } from '../../shared/transport';
import type { UpdateEndpointType } from '../../shared/types';

type EndpointContext = IHookFunctions | ITriggerFunctions;

/**
 * Registers `url` for each type in turn; stops at the first type Rubika does not answer "Done" and returns that
 * type and its status (undefined when every type was registered). Network failures and refusals throw.
 */
export async function registerEndpoints(
	context: EndpointContext,
	url: string,
	types: readonly UpdateEndpointType[],
	options: CallOptions = {},
): Promise<{ type: UpdateEndpointType; status: string } | undefined> {
	for (const type of types) {
		const answer = await callRubika(context, 'updateBotEndpoints', { url, type }, options);
		const status = String(answer?.status ?? '');
		if (status !== 'Done') return { type, status };
	}
	return undefined;
}

/**
 * Tries to remove the bot's endpoint of `type`. Rubika documents no way to (facts §4): the two candidates are
 * an empty url and no url at all, tried in that order. True when Rubika answered one of them "Done"; false when
 * it refused both, which leaves the endpoint as it was. Never throws.
 */
export async function tryRemovingEndpoint(context: EndpointContext, type: UpdateEndpointType, options: CallOptions = {}): Promise<boolean> {
	for (const body of [{ type, url: '' }, { type }]) {
		try {
			const answer = await callRubika(context, 'updateBotEndpoints', body, options);
			if (String(answer?.status ?? '') === 'Done') return true;
		} catch {
			// Refused (INVALID_INPUT for an empty url, say) or not answered: try the other form, then give up.
		}
	}
	return false;
}

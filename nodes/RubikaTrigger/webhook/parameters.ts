/**
 * The webhook trigger's parameters and credential as its registration and its delivery handling read them,
 * validated, with errors naming the field.
 */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { DownloadSettings } from '../../shared/downloads';
import { readDownloadSettings } from '../../shared/downloads';
import { toNodeError } from '../../shared/errors';
import type { ResolvedCredential } from '../../shared/transport';
import { resolveCredential } from '../../shared/transport';
import type { UpdateEndpointType } from '../../shared/types';
import { UPDATE_TYPES } from '../../shared/types';
import type { UpdateFilters } from '../../shared/updates/filters';
import { parseUpdateFilters } from '../../shared/updates/filters';
import { INLINE_MESSAGE_TYPE } from '../../shared/updates/raw';
import { normaliseTypes } from './registration';
import type { SecretLocation } from './secret';
import { secretLocationOf } from './secret';

type TriggerContext = IHookFunctions | IWebhookFunctions;

/** The Secret parameter: where the secret goes in the registered address. */
export const SECRET_PARAMETER = 'secretLocation';

/** Options → Repeated Tap Window when it is not set. */
export const DEFAULT_TAP_WINDOW_SECONDS = 5;

/** Secret, read; anything unknown is the safe default. */
export function readSecretLocation(context: TriggerContext): SecretLocation {
	return secretLocationOf(context.getNodeParameter(SECRET_PARAMETER, 'path'));
}

/** Endpoints: the known ones chosen, each once, in a fixed order. */
export function readEndpoints(context: TriggerContext): UpdateEndpointType[] {
	return normaliseTypes(context.getNodeParameter('endpoints', []) as string[]);
}

/** Options → Download Files and Put Output in Field, validated. */
export function readDownloadOptions(context: TriggerContext): DownloadSettings {
	return readDownloadSettings(context.getNode(), context.getNodeParameter('options', {}) as IDataObject);
}

/** Options → Repeated Tap Window, in milliseconds. */
export function tapRepeatWindowMs(context: IWebhookFunctions): number {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const seconds = Number(options.tapRepeatWindow ?? DEFAULT_TAP_WINDOW_SECONDS);
	return Number.isFinite(seconds) ? seconds * 1000 : 0;
}

/**
 * The filters, validated. Also checks that the chosen update types can arrive at all through the chosen
 * endpoints, because a tap filter without the inline endpoint would wait forever without a word.
 */
export function readFilters(context: TriggerContext, endpoints: UpdateEndpointType[]): UpdateFilters {
	const types = context.getNodeParameter('updateTypes', []) as string[];
	const raw = context.getNodeParameter('filters', {}) as IDataObject;
	let filters: UpdateFilters;
	try {
		filters = parseUpdateFilters(types, raw);
	} catch (error) {
		throw toNodeError(context.getNode(), error);
	}
	const wantsInline = filters.types.includes(INLINE_MESSAGE_TYPE);
	const wantsUpdates = filters.types.some((type) => (UPDATE_TYPES as readonly string[]).includes(type));
	if (wantsInline && !endpoints.includes('ReceiveInlineMessage')) {
		throw new NodeOperationError(
			context.getNode(),
			'Update Types: Inline Keypad Tap needs the ReceiveInlineMessage endpoint',
			{ description: 'Add "Inline Keypad Taps (ReceiveInlineMessage)" to Endpoints, or remove Inline Keypad Tap from Update Types.' },
		);
	}
	if (wantsUpdates && !endpoints.includes('ReceiveUpdate')) {
		throw new NodeOperationError(
			context.getNode(),
			'Update Types: messages and other updates need the ReceiveUpdate endpoint',
			{ description: 'Add "Updates (ReceiveUpdate)" to Endpoints, or keep only Inline Keypad Tap in Update Types.' },
		);
	}
	return filters;
}

/**
 * The credential, resolved once for a delivery, and its bot token; no token is an error. Requests the
 * delivery makes are sent with it, so that n8n does not resolve it again for each.
 */
export async function botCredential(context: TriggerContext): Promise<{ credential: ResolvedCredential; token: string }> {
	const credential = await resolveCredential(context);
	const token = String(credential.data?.accessToken ?? '').trim();
	if (token === '') {
		throw new NodeOperationError(context.getNode(), 'The Rubika credential has no bot token');
	}
	return { credential, token };
}

/** Options → Add Sender Details. */
export function addsSenderDetails(context: IWebhookFunctions): boolean {
	return (context.getNodeParameter('options', {}) as IDataObject).addSenderDetails === true;
}

/** What the secret is bound to: the node's webhook id, which n8n keeps for the node's whole life. */
export function webhookKey(context: TriggerContext): string {
	const node = context.getNode();
	return node.webhookId ?? `${context.getWorkflow().id ?? ''}/${node.name}`;
}

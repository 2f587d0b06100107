/**
 * What the webhook's secret and registration are bound to: the credential's bot token and the node's webhook
 * id. (The panel's settings are read in ../settings.ts.)
 */
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ResolvedCredential } from '../../shared/transport';
import { resolveCredential } from '../../shared/transport';

type TriggerContext = IHookFunctions | IWebhookFunctions;

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

/** What the secret is bound to: the node's webhook id, which n8n keeps for the node's whole life. */
export function webhookKey(context: TriggerContext): string {
	const node = context.getNode();
	return node.webhookId ?? `${context.getWorkflow().id ?? ''}/${node.name}`;
}

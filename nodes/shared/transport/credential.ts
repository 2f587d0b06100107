/** What the transport needs from n8n's context: the contexts it runs in and the bot token in the credential. */
import type {
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'rubikaApi';

export type RubikaContext =
	| IExecuteFunctions
	| IPollFunctions
	| ITriggerFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

/**
 * The bot token, only ever needed to scrub an error: resolving credentials is a database read and a
 * decryption in n8n, which already does one per request for the call itself.
 */
export async function tokenOf(context: RubikaContext): Promise<string | undefined> {
	try {
		const credentials = await context.getCredentials(CREDENTIAL_TYPE);
		return typeof credentials?.accessToken === 'string' ? credentials.accessToken.trim() : undefined;
	} catch {
		return undefined;
	}
}

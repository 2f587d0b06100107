/** What the transport needs from n8n's context: the contexts it runs in and the bot token in the credential. */
import { createHash } from 'node:crypto';

import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'rubikaApi';

export type RubikaContext =
	| IExecuteFunctions
	| ITriggerFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

/**
 * The node's Rubika credential, resolved once, for a caller that sends many requests with it (the continuous
 * trigger): n8n resolves a credential on every `httpRequestWithAuthentication` call otherwise, which costs a
 * database read, a decryption and an expression sandbox, tens of milliseconds of CPU (BENCHMARKS.md, B8).
 * Handed back to n8n's authenticated helper, so the token still only goes into the address in the credential's
 * `authenticate`.
 */
export type ResolvedCredential = ICredentialsDecrypted;

export async function resolveCredential(context: RubikaContext): Promise<ResolvedCredential> {
	const data = await context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	const named = context.getNode().credentials?.[CREDENTIAL_TYPE];
	return { id: named?.id ?? '', name: named?.name ?? '', type: CREDENTIAL_TYPE, data };
}

/**
 * The bot token, only ever needed to scrub an error: taken from the credential the call was made with, or
 * resolved here (a database read and a decryption in n8n) when the caller let n8n resolve it.
 */
export async function tokenOf(context: RubikaContext, resolved?: ResolvedCredential): Promise<string | undefined> {
	try {
		const credentials = resolved?.data ?? (await context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE));
		return typeof credentials?.accessToken === 'string' ? credentials.accessToken.trim() : undefined;
	} catch {
		return undefined;
	}
}

/**
 * A short hash of everything in the credential (token, Base URL, and whatever a later version adds): equal
 * for the same credential, different after any change of it. Says nothing about the bot (identifyBot does);
 * the token cannot be read back from it.
 */
export function credentialFingerprint(credential: ResolvedCredential): string {
	const data = credential.data ?? {};
	const fields = Object.keys(data)
		.sort()
		.map((key) => `${key}=${JSON.stringify(data[key] ?? null)}`);
	return createHash('sha256').update(fields.join('\n')).digest('hex').slice(0, 16);
}

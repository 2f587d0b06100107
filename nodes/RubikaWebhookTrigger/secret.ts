/**
 * The shared secret in the registered webhook URL.
 *
 * Rubika signs nothing it delivers (facts §4), and an n8n webhook URL is not hidden: it appears in the
 * editor, in logs and in reverse-proxy configs. So the URL given to `updateBotEndpoints` carries one more
 * query parameter, `secret`, and a request without the right value is refused before anything else runs.
 *
 * The secret is derived, not stored: HMAC-SHA256 keyed with the bot token over the node's webhook id. That
 * makes it
 * - unguessable without the token (the token itself never appears in the URL),
 * - the same wherever n8n asks for it (activation, every delivery, test and production URLs, after a
 *   restart or with static data lost), so no state can get out of step with what Rubika holds,
 * - different for every trigger node and every bot: switching the credential to another bot changes it,
 *   and the activation re-registers.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const SECRET_QUERY_PARAMETER = 'secret';

/**
 * Path suffixes the service may append to a registered URL (facts §4: the old docs say events go to
 * `<endpoint>/receiveUpdate` and so on; libraries accept both forms).
 */
export const ENDPOINT_SUFFIXES = [
	'receiveUpdate',
	'receiveInlineMessage',
	'receiveQuery',
	'getSelectionItem',
	'searchSelectionItems',
] as const;

/** Version tag inside the HMAC input, so a future scheme can never collide with this one. */
const DERIVATION_LABEL = 'n8n-nodes-rubika/webhook-secret/v1';

/** 32 base64url characters: 192 bits, short enough to read in a URL. */
export function deriveSecret(botToken: string, webhookKey: string): string {
	return createHmac('sha256', botToken)
		.update(`${DERIVATION_LABEL}\n${webhookKey}`)
		.digest('base64url')
		.slice(0, 32);
}

/** The URL to register: n8n's webhook URL with the secret added as a query parameter. */
export function urlWithSecret(webhookUrl: string, secret: string): string {
	const url = new URL(webhookUrl);
	url.searchParams.set(SECRET_QUERY_PARAMETER, secret);
	return url.toString();
}

/** The URL with the secret hidden, for messages a person reads. */
export function withoutSecret(url: string): string {
	try {
		const parsed = new URL(url);
		if (parsed.searchParams.has(SECRET_QUERY_PARAMETER)) parsed.searchParams.set(SECRET_QUERY_PARAMETER, '***');
		return parsed.toString();
	} catch {
		return url.replace(/([?&]secret=)[^&#]*/g, '$1***');
	}
}

/**
 * The secret a request presents, from its parsed query.
 *
 * If the service appends its endpoint suffix to the registered URL as plain text rather than as a path
 * segment, the suffix lands inside the query value (`?secret=abc/receiveUpdate`); that form is accepted
 * too, for the known suffixes only.
 */
export function presentedSecret(query: unknown): string | undefined {
	if (typeof query !== 'object' || query === null) return undefined;
	const raw = (query as Record<string, unknown>)[SECRET_QUERY_PARAMETER];
	// `?secret=a&secret=b` parses to an array; a genuine delivery never does that, so refuse it.
	if (typeof raw !== 'string' || raw === '') return undefined;
	let value = raw;
	const slash = value.indexOf('/');
	if (slash >= 0) {
		const suffix = value.slice(slash + 1).replace(/\/+$/, '');
		if (!ENDPOINT_SUFFIXES.some((known) => known.toLowerCase() === suffix.toLowerCase())) return undefined;
		value = value.slice(0, slash);
	}
	return value;
}

/** Compares in constant time; hashing first makes the lengths equal so that nothing leaks through them. */
export function secretsMatch(presented: string | undefined, expected: string): boolean {
	if (presented === undefined) return false;
	const a = createHash('sha256').update(presented).digest();
	const b = createHash('sha256').update(expected).digest();
	return timingSafeEqual(a, b);
}

/** A short fingerprint of a registered URL, so static data never holds the secret itself. */
export function fingerprint(text: string): string {
	return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/**
 * The shared secret in the registered webhook URL.
 *
 * Rubika signs nothing it delivers (facts §4), and an n8n webhook URL is not hidden: it appears in the
 * editor, in logs and in reverse-proxy configs. So the URL given to `updateBotEndpoints` carries a secret,
 * and a request without the right value is refused before anything else runs. By default it is the last
 * segment of the path (`…/webhook/<secret>`): whether Rubika keeps a registered URL's query string is not
 * documented, and a path survives every service and proxy. The query form (`…/webhook?secret=<secret>`)
 * stays available, and the user may turn the secret off.
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

const SECRET_QUERY_PARAMETER = 'secret';

/** Where the secret goes in the registered URL (the trigger's Secret parameter). */
const SECRET_LOCATIONS = ['path', 'query', 'off'] as const;
export type SecretLocation = (typeof SECRET_LOCATIONS)[number];

/** The route parameter that holds the secret in the path form. */
export const SECRET_PATH_PARAMETER = 'secret';

/** The node's webhook path for a location; `suffix` is one of ENDPOINT_SUFFIXES or none. */
export function webhookPathFor(location: SecretLocation, base: string, suffix?: string): string {
	const segments = [base, ...(location === 'path' ? [`:${SECRET_PATH_PARAMETER}`] : []), ...(suffix ? [suffix] : [])];
	return segments.join('/');
}

/** Reads the Secret parameter; anything unknown is the safe default. */
export function secretLocationOf(value: unknown): SecretLocation {
	return (SECRET_LOCATIONS as readonly unknown[]).includes(value) ? (value as SecretLocation) : 'path';
}

/**
 * The URL to register: n8n's webhook URL for the node (which, for the path form, ends in the route
 * parameter `:secret`) with the secret put in its place.
 */
export function registeredUrl(webhookUrl: string, location: SecretLocation, secret: string): string {
	if (location === 'off') return webhookUrl;
	if (location === 'query') return urlWithSecret(webhookUrl, secret);
	const placeholder = `/:${SECRET_PATH_PARAMETER}`;
	const at = webhookUrl.lastIndexOf(placeholder);
	if (at < 0) throw new Error(`n8n's webhook URL ${webhookUrl} has no ${placeholder} segment`);
	return `${webhookUrl.slice(0, at)}/${secret}${webhookUrl.slice(at + placeholder.length)}`;
}

/** The URL with the secret replaced by ***, for messages a person reads (any location). */
export function hideSecret(url: string, secret: string): string {
	return secret ? url.split(secret).join('***') : url;
}

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
function urlWithSecret(webhookUrl: string, secret: string): string {
	const url = new URL(webhookUrl);
	url.searchParams.set(SECRET_QUERY_PARAMETER, secret);
	return url.toString();
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

/**
 * A short fingerprint of a registered URL or of a bot token, so that static data and memory never hold the
 * secret or the token itself.
 */
export function fingerprint(text: string): string {
	return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/**
 * Whether Rubika can deliver to the address n8n gives the trigger, checked before anything is registered.
 *
 * Rubika delivers only to a public HTTPS address on a real domain (facts §4). An n8n that does not know its
 * public address (WEBHOOK_URL unset) gives `http://localhost:5678/…`: registered as it is, Rubika would
 * answer InvalidUrl at best, or accept it and deliver nowhere. So an address that is not HTTPS, or whose host
 * is this machine or a private network, is refused with what to do, and no request is sent.
 *
 * The check follows the Rubika the credential reaches: when its Base URL is itself a local or private address
 * (the local sandbox, a Rubika stand-in on the same network), that service can reach the same network, and the
 * address is registered as it is.
 */
import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** What a person must do when Rubika cannot reach n8n's webhook address (shown for this check and InvalidUrl). */
export const WEBHOOK_URL_ADVICE =
	"Rubika only delivers to a public HTTPS address on a real domain. Set n8n's WEBHOOK_URL to the public HTTPS address of this instance (for example behind a reverse proxy or a tunnel), or set the trigger's Receive Updates to By Reading, which works on a local n8n without any public address.";

/** The same in one sentence, for the message itself: n8n 2.41 shows only the message of a trigger that failed to publish. */
export const WEBHOOK_URL_HINT = "Set n8n's WEBHOOK_URL to this instance's public HTTPS address, or receive By Reading.";

/**
 * Refuses a webhook address Rubika cannot deliver to, unless the credential's Base URL (`apiBaseUrl`) is local
 * or private itself. `shown` is the address as a person may see it (the secret hidden).
 */
export function checkWebhookAddress(context: IHookFunctions, address: string, shown: string, apiBaseUrl: string): void {
	if (isLocalAddress(apiBaseUrl)) return;
	const problem = addressProblem(address);
	if (problem === undefined) return;
	throw new NodeOperationError(
		context.getNode(),
		`Rubika cannot deliver to this n8n's webhook URL ${shown}: ${problem}. ${WEBHOOK_URL_HINT}`,
		{ description: WEBHOOK_URL_ADVICE },
	);
}

/** Why Rubika could not deliver to `address`, or undefined when it is a public HTTPS address. */
export function addressProblem(address: string): string | undefined {
	let url: URL;
	try {
		url = new URL(address);
	} catch {
		return 'it is not a valid address';
	}
	if (isLocalHost(url.hostname)) return 'it is an address of this machine or of a private network, which Rubika cannot reach';
	if (url.protocol !== 'https:') return 'it is not HTTPS';
	return undefined;
}

/** Whether an address (a URL) points at this machine or a private network. */
export function isLocalAddress(address: string): boolean {
	try {
		return isLocalHost(new URL(address).hostname);
	} catch {
		return false;
	}
}

/** Names that never resolve on the public internet. */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home.arpa'];

/**
 * A host name (as URL.hostname gives it: IPv6 in brackets) of this machine or a private network: localhost, a
 * loopback, private, link-local, shared or unspecified IP address, a name without a dot (a Docker service, a
 * machine on the LAN) or under a suffix reserved for local networks.
 */
export function isLocalHost(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
	if (host === '' || host === 'localhost') return true;
	if (host.includes(':')) return isLocalIpv6(host);
	const ipv4 = ipv4Parts(host);
	if (ipv4) return isLocalIpv4(ipv4);
	if (!host.includes('.')) return true;
	return LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

function ipv4Parts(host: string): number[] | undefined {
	if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return undefined;
	const parts = host.split('.').map(Number);
	return parts.every((part) => part <= 255) ? parts : undefined;
}

function isLocalIpv4([a, b]: number[]): boolean {
	return (
		a === 0 || // "this network", 0.0.0.0
		a === 10 ||
		a === 127 ||
		(a === 100 && b >= 64 && b <= 127) || // shared address space (carrier-grade NAT)
		(a === 169 && b === 254) || // link-local
		(a === 172 && b >= 16 && b <= 31) ||
		(a === 192 && b === 168)
	);
}

function isLocalIpv6(host: string): boolean {
	if (host === '::' || host === '::1') return true;
	// An IPv4 address written as IPv6 (::ffff:10.0.0.1; URL writes it ::ffff:a00:1).
	const mapped = /^::ffff:(.+)$/.exec(host)?.[1];
	if (mapped !== undefined) {
		const dotted = ipv4Parts(mapped);
		if (dotted) return isLocalIpv4(dotted);
		const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(mapped);
		if (hex) {
			const high = parseInt(hex[1], 16);
			return isLocalIpv4([high >> 8, high & 255]);
		}
	}
	const first = parseInt(host.split(':')[0] || '0', 16);
	return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80; // unique local fc00::/7, link-local fe80::/10
}

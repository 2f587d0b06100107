/**
 * Which bot the continuous trigger reads: a fingerprint of the credential (saved next to the cursor, so that a
 * credential switched to another bot is noticed), and a count of the listeners per bot in this n8n process.
 */
import { createHash } from 'node:crypto';

import type { ResolvedCredential } from '../shared/transport';

/** A hash of the credential's base URL and token: the same bot gives the same value; the token is not in it. */
export function botFingerprint(credential: ResolvedCredential): string {
	const credentials = credential.data ?? {};
	return createHash('sha256')
		.update(`${String(credentials.baseUrl ?? '')}\n${String(credentials.accessToken ?? '')}`)
		.digest('hex')
		.slice(0, 16);
}

/** Active (not test) listeners per bot fingerprint in this n8n process, to warn when two workflows read one bot. */
const listenersPerBot = new Map<string, number>();

/** Counts a listener for `bot`; returns how many others already read it. */
export function addListener(bot: string): number {
	const others = listenersPerBot.get(bot) ?? 0;
	listenersPerBot.set(bot, others + 1);
	return others;
}

export function removeListener(bot: string): void {
	const left = (listenersPerBot.get(bot) ?? 1) - 1;
	if (left > 0) listenersPerBot.set(bot, left);
	else listenersPerBot.delete(bot);
}

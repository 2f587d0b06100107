/**
 * Which bots the continuous triggers of this n8n process read: a count of the listeners per bot, keyed by the
 * credential's fingerprint (botFingerprint, which is also saved next to the cursor, so that a credential
 * switched to another bot is noticed).
 */

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

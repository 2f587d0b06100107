/**
 * Which bots the continuous triggers of this n8n process read: a count of the readers per bot, keyed by the
 * credential's fingerprint (botFingerprint, which is also saved next to the cursor, so that a credential
 * switched to another bot is noticed).
 */

/** Active (not test) readers per bot fingerprint in this n8n process, to warn when two workflows read one bot. */
const readersPerBot = new Map<string, number>();

/** Counts a reader for `bot`; returns how many others already read it. */
export function addReader(bot: string): number {
	const others = readersPerBot.get(bot) ?? 0;
	readersPerBot.set(bot, others + 1);
	return others;
}

export function removeReader(bot: string): void {
	const left = (readersPerBot.get(bot) ?? 1) - 1;
	if (left > 0) readersPerBot.set(bot, left);
	else readersPerBot.delete(bot);
}

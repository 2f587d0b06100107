/**
 * Which bots the reading triggers of this n8n process read: a count of the readers per bot, keyed by the
 * bot's id (../shared/updates/botIdentity.ts), to warn when two workflows read one bot.
 */

/** Active (not test) readers per bot id in this n8n process. */
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

/**
 * When a bot of this n8n process has just posted in a chat, and who wants to know: the Rubika Trigger reading
 * that bot reads faster for a while, because an answer is likely now (a reply, a tap on a Send and Wait
 * question's keypad). Rubika tells a reader nothing of what its bot sent (getUpdates brings what people do, not
 * the bot's own messages), so the one who posts says it here: the transport, after every chat post of a Rubika
 * node's execution (./transport/call.ts).
 *
 * A bot is named by `credentialFingerprint` (./transport/credential.ts), as its rate-limit gate is, never by its
 * token. Only this process hears it: in queue mode a worker's posts do not reach the main process's trigger,
 * which then speeds up only on the updates it reads.
 */

type Listener = () => void;

const listeners = new Map<string, Set<Listener>>();

/** The Bot API methods that put something in a chat: send… (a message, a file, a typing notice) and forward…. */
export function postsInChat(method: string): boolean {
	return /^(send|forward)[A-Z]/.test(method);
}

/** `bot` has just posted in a chat: everyone listening for it hears it at once. */
export function botPosted(bot: string): void {
	const heard = listeners.get(bot);
	if (heard === undefined) return;
	for (const listener of heard) listener();
}

/** Calls `listener` each time `bot` posts in a chat from this process, until the returned function is called. */
export function whenBotPosts(bot: string, listener: Listener): () => void {
	let heard = listeners.get(bot);
	if (heard === undefined) {
		heard = new Set();
		listeners.set(bot, heard);
	}
	heard.add(listener);
	return () => {
		const set = listeners.get(bot);
		if (set === undefined) return;
		set.delete(listener);
		if (set.size === 0) listeners.delete(bot);
	};
}

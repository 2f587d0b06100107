/** What the cases in a real n8n ask of the sandbox about the triggers by reading (through the world's admin client). */

interface Admin {
	requests(method: string): Promise<unknown>;
}

/**
 * Waits until every one of `botIds` has sent a getUpdates (the sandbox's request log): its trigger by reading
 * has started. After `timeoutMs` it goes on, and the windows that follow show any bot that does not read.
 */
export async function untilEveryBotReads(admin: Admin, botIds: string[], timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const seen = new Set(((await admin.requests('getUpdates')) as Array<{ botId: string | null }>).map((entry) => entry.botId));
		if (botIds.every((id) => seen.has(id))) return;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

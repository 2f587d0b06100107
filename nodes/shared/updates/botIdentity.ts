/**
 * Which bot a trigger receives: the bot Rubika names in `getMe` (its bot id), never anything taken from the
 * credential. The same bot keeps its identity across a rotated token, a corrected typo, a new Base URL or a
 * proxy in front of Rubika; a token Rubika refuses tells nothing about the bot (the identity is then
 * unknown, not another one). What the trigger keys by it: its saved position when it reads, and
 * delivered keys (../../RubikaTrigger/continuousReader.ts), the webhook trigger's registration record and its
 * one trigger per bot (../../RubikaWebhookTrigger/registration.ts, oneTriggerPerBot.ts).
 */
import { LruMap } from '../lru';
import type { ResolvedCredential } from '../transport';
import { callRubika } from '../transport';
import type { RubikaContext } from '../transport/credential';
import { credentialFingerprint } from '../transport/credential';

export interface BotIdentity {
	/** getMe's `bot_id` (`b0…`). */
	id: string;
	/** How a person knows the bot: `@username`, else its title, else the id. */
	name: string;
}

/** Credentials whose bot this process knows at most (the least recently used go first). */
const MAX_CREDENTIALS = 1000;

/**
 * Credential fingerprint → the bot getMe named for it. A token belongs to one bot for its whole life, so an
 * answer stays true; only a successful answer is kept, so a refused token is asked again next time.
 */
const knownBots = new LruMap<string, BotIdentity>(MAX_CREDENTIALS);

/**
 * The bot `credential` reaches: asked with getMe the first time this process sees the credential as it is
 * now (any change of token, address or other setting is a new credential), then remembered. Throws what
 * getMe failed with (a refused token, Rubika or the network down): the caller must then treat the bot as
 * unknown and change nothing it keeps for a bot.
 */
export async function identifyBot(
	context: RubikaContext,
	credential: ResolvedCredential,
	options: { abortSignal?: AbortSignal } = {},
): Promise<BotIdentity> {
	const key = credentialFingerprint(credential);
	const known = knownBots.get(key);
	if (known !== undefined) return known;
	const { bot } = await callRubika(context, 'getMe', {}, {
		credential,
		abortSignal: options.abortSignal,
		timeoutMs: 30_000,
		retry: { maxAttempts: 2 },
	});
	const id = typeof bot?.bot_id === 'string' ? bot.bot_id : '';
	if (id === '') throw new Error('Rubika getMe answered without a bot id: check the Base URL in the Rubika credential');
	const identity: BotIdentity = { id, name: bot.username ? `@${bot.username}` : bot.bot_title || id };
	knownBots.set(key, identity);
	return identity;
}

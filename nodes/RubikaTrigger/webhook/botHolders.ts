/**
 * Which webhook triggers receive each bot's deliveries, as far as this n8n process knows: the record that
 * the trigger checks before it lets a workflow take a bot (oneTriggerPerBot.ts).
 *
 * Rubika keeps one address per bot and endpoint type, and has no call that tells which address it holds
 * (facts §4), so a second workflow that registers a bot takes its deliveries from the first without a word.
 * Nothing outside this process can see this record: where it holds, and where not, is said in
 * oneTriggerPerBot.ts.
 */
import { LruMap } from '../../shared/lru';
import type { UpdateEndpointType } from '../../shared/types';

/**
 * What a published trigger registered for its bot: the URL with its secret and the endpoint types. Kept in
 * memory only (static data holds a fingerprint of the URL), so that whatever takes the bot away for a while (a
 * test listener) can give it back (handBack.ts).
 */
export interface HeldRegistration {
	url: string;
	endpoints: UpdateEndpointType[];
}

/** A trigger that holds a bot: what a refused activation names, and the address it holds the bot at. */
export interface BotHolder {
	workflowId: string;
	workflowName: string;
	nodeName: string;
	/**
	 * n8n's URL of the node when it took the bot. Listening for a test event runs the same node at its test
	 * URL: when that stops, the production trigger must keep the bot.
	 */
	webhookUrl: string;
	/** What it registered, when this process knows it (from its activation, or n8n's start: activation.ts). */
	registration?: HeldRegistration;
}

/** Bot (its id) → trigger (workflow and webhook id) → holder. */
const holdersByBot = new Map<string, Map<string, BotHolder>>();

/**
 * Trigger and address pairs that let their bot go (deactivated) and have not been activated since, most
 * recent last. A delivery that was already on its way when its workflow was deactivated must not take the
 * bot back. Keyed by the address too, so that a test listener that stops marks only its test address.
 */
const letGo = new LruMap<string, true>(1000);
const letGoKey = (trigger: string, webhookUrl: string) => `${trigger}\n${webhookUrl}`;

/** A trigger other than `trigger` that holds `bot`, if any. */
export function otherHolder(bot: string, trigger: string): BotHolder | undefined {
	for (const [holding, holder] of holdersByBot.get(bot) ?? []) {
		if (holding !== trigger) return holder;
	}
	return undefined;
}

/** The published trigger that holds `bot` with a registration this process knows, if any. */
export function registeredHolder(bot: string): BotHolder | undefined {
	for (const holder of holdersByBot.get(bot)?.values() ?? []) {
		if (holder.registration !== undefined) return holder;
	}
	return undefined;
}

/** The bot `trigger` holds and what it registered for it, when this process knows both. */
export function registrationHeldBy(trigger: string): { bot: string; registration: HeldRegistration } | undefined {
	for (const [bot, holders] of holdersByBot) {
		const registration = holders.get(trigger)?.registration;
		if (registration !== undefined) return { bot, registration };
	}
	return undefined;
}

/** Records that `trigger` holds `bot` (it was activated with it), and no other bot any more. */
export function hold(bot: string, trigger: string, holder: BotHolder): void {
	letGo.delete(letGoKey(trigger, holder.webhookUrl));
	for (const [other, holders] of holdersByBot) {
		if (other !== bot) forget(other, holders, trigger);
	}
	const holders = holdersByBot.get(bot) ?? new Map<string, BotHolder>();
	// A delivery knows nothing of the registration: what the activation recorded for this address stays.
	const before = holders.get(trigger);
	const registration = holder.registration ?? (before?.webhookUrl === holder.webhookUrl ? before.registration : undefined);
	holders.set(trigger, { ...holder, ...(registration ? { registration } : {}) });
	holdersByBot.set(bot, holders);
}

/** The same for a trigger that received a delivery, unless it let its bot go since it was last activated. */
export function holdOnDelivery(bot: string, trigger: string, holder: BotHolder): void {
	if (!letGo.has(letGoKey(trigger, holder.webhookUrl))) hold(bot, trigger, holder);
}

/** `trigger` lets go of whatever it holds at `webhookUrl` (its workflow was deactivated). */
export function letGoAt(trigger: string, webhookUrl: string): void {
	for (const [bot, holders] of holdersByBot) {
		if (holders.get(trigger)?.webhookUrl === webhookUrl) forget(bot, holders, trigger);
	}
	letGo.set(letGoKey(trigger, webhookUrl), true);
}

function forget(bot: string, holders: Map<string, BotHolder>, trigger: string): void {
	holders.delete(trigger);
	if (holders.size === 0) holdersByBot.delete(bot);
}

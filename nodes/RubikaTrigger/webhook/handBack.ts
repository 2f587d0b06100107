/**
 * Giving a bot back to its published workflow.
 *
 * Rubika keeps one address per bot and endpoint type. "Listen for test event" registers the node's test URL,
 * which takes the bot's deliveries away from the published workflow; nothing in n8n registers the production
 * URL again afterwards (the problem n8n's Telegram trigger is known for). So when a registration ends (n8n runs
 * the node's `delete` when a test listener stops, times out or received its event, and when a workflow is
 * unpublished), the trigger looks at who else holds that bot in this process (botHolders.ts):
 * - a published trigger that holds it: its URL, secret included, is registered again for its endpoint types at
 *   once, and any other type the ended registration had is removed (as below);
 * - none: the endpoint types of the ended registration are removed, as far as Rubika allows (it documents no
 *   way: endpoints.ts tries the two candidates). If Rubika refuses, the ended URL stays registered, n8n answers
 *   404 there, and the log says so.
 * Which published trigger holds which bot is known in the process that publishes workflows (n8n's main process,
 * in queue mode too, where test listeners run as well). It learns it when it publishes a workflow, and when it
 * starts: both versions then run the webhook methods of every published Rubika Trigger (n8n 2.8 activates every
 * published workflow again; n8n 2.41 starts every published trigger node, webhooks included, because this node
 * has a `trigger()` too, and runs its webhook methods at the same time as `trigger()`).
 *
 * At that start (`init`, or a new leader in multi-main) checkExists finds its URL registered, or create registers
 * a new one (n8n's webhook URL changed). A URL found registered is registered again (registerAgainAtStart):
 * whatever took the bot away while n8n was down, or a test listener that n8n was stopped in the middle of, is
 * repaired by a restart, for one call per endpoint type. It never fails the start, and waits for one short
 * attempt only (START_CALL): a failure is logged, and the bot stays as it was. (It is done there and not in
 * `trigger()`, which n8n 2.41 runs beside the webhook methods: it would race create, with the old URL.)
 */
import type { IHookFunctions } from 'n8n-workflow';

import type { CallOptions } from '../../shared/transport';
import { identifyBot } from '../../shared/updates/botIdentity';
import type { HeldRegistration } from './botHolders';
import { registeredHolder } from './botHolders';
import { registerEndpoints, tryRemovingEndpoint } from './endpoints';
import { botCredential } from './keys';
import type { RegistrationRecord } from './registration';

/**
 * Short: n8n waits for the node's `delete` (a deactivation, the end of a test) and for a trigger's start. Two
 * attempts, so that one dropped connection does not leave the bot with the wrong address.
 */
const HAND_BACK_CALL: CallOptions = { timeoutMs: 15_000, retry: { maxAttempts: 2 } };

/** At n8n's start, where every published workflow waits for its webhooks: one attempt, 10 s at most. */
const START_CALL: CallOptions = { timeoutMs: 10_000, retry: { maxAttempts: 1 } };

/**
 * After `delete` forgot `ended` and let go of its bot: registers the published holder's URL again, or removes
 * what the ended registration left. Never throws (n8n 2.8 does not catch a failing `delete` at the end of a
 * test); what happened is logged.
 */
export async function handBack(context: IHookFunctions, ended: RegistrationRecord): Promise<void> {
	const { bot } = ended;
	// A record written before bot ids were kept: which bot it was is unknown, so nothing is touched.
	if (bot === undefined) return;
	const node = context.getNode().name;
	try {
		const { credential } = await botCredential(context);
		const reached = (await identifyBot(context, credential)).id;
		if (reached !== bot) {
			context.logger.warn(`Rubika Trigger "${node}": its credential now reaches bot ${reached}, not ${bot} it registered; left ${bot}'s endpoints as they are`);
			return;
		}
		const holder = registeredHolder(bot);
		const restored = holder?.registration;
		if (holder !== undefined && restored !== undefined) {
			const refused = await registerEndpoints(context, restored.url, restored.endpoints, HAND_BACK_CALL);
			if (refused) {
				context.logger.error(`Rubika Trigger "${node}": could not give bot ${bot} back to the published workflow "${holder.workflowName}" (ID ${holder.workflowId}): Rubika answered "${refused.status || 'nothing'}" for ${refused.type}. Publish that workflow again.`);
				return;
			}
			context.logger.info(`Rubika Trigger "${node}": bot ${bot} registered again for the published workflow "${holder.workflowName}" (ID ${holder.workflowId})`);
		}
		const leftOver = ended.types.filter((type) => !(restored?.endpoints ?? []).includes(type));
		for (const type of leftOver) {
			const removed = await tryRemovingEndpoint(context, type, HAND_BACK_CALL);
			context.logger.info(
				removed
					? `Rubika Trigger "${node}": removed bot ${bot}'s ${type} endpoint (no published workflow in this n8n receives it)`
					: `Rubika Trigger "${node}": Rubika refused to remove bot ${bot}'s ${type} endpoint; it keeps posting to the address this node registered, which n8n answers with 404, until a workflow registers the bot again`,
			);
		}
	} catch (error) {
		context.logger.error(`Rubika Trigger "${node}": could not give bot ${bot} back after its registration ended: ${(error as Error).message}`);
	}
}

/** At n8n's start: registers again the URL checkExists found registered. Never throws. */
export async function registerAgainAtStart(context: IHookFunctions, bot: string, { url, endpoints }: HeldRegistration): Promise<void> {
	const node = context.getNode().name;
	try {
		const refused = await registerEndpoints(context, url, endpoints, START_CALL);
		if (refused) throw new Error(`Rubika answered "${refused.status || 'nothing'}" for ${refused.type}`);
		context.logger.debug(`Rubika Trigger "${node}": bot ${bot} registered again at n8n's start`);
	} catch (error) {
		context.logger.warn(`Rubika Trigger "${node}": could not register bot ${bot}'s webhook again at n8n's start (${(error as Error).message}); it stays as Rubika has it`);
	}
}

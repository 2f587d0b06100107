/**
 * One published trigger per bot receiving by webhook: a trigger refuses to be activated while another one
 * receives its bot by webhook, with an error that names the bot's credential and the workflow holding it.
 * Without this the second activation would succeed and quietly take the bot's deliveries from the first
 * (Rubika keeps one address per bot and endpoint type).
 *
 * A bot is who Rubika says it is (getMe's bot id, ../shared/updates/botIdentity.ts): two credentials for one
 * bot (a rotated token, another Base URL) are one bot here.
 *
 * Who holds what is kept in this n8n process's memory (botHolders.ts), so the rule holds within the process
 * that activates workflows (n8n's main process, in queue mode too):
 * - a trigger holds its bot from its activation (checkExists, which n8n runs before create) until n8n runs
 *   its delete (deactivation, or a failed activation);
 * - after a restart, both versions run the webhook methods of every published Rubika Trigger again (checkExists,
 *   and create when the URL changed), which fills the record: n8n 2.8 activates every published workflow again,
 *   and n8n 2.41 starts every published trigger node, webhooks included, as the node has a `trigger()` too. A
 *   trigger also counts again once it has received a delivery in this process.
 * Listening for a test event neither holds a bot nor is refused: a test takes the bot over while it listens,
 * and gives it back when it ends (handBack.ts).
 */
import type { IHookFunctions, INode, IWebhookFunctions } from 'n8n-workflow';
import { WebhookPathTakenError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../shared/transport';
import type { BotHolder, HeldRegistration } from './botHolders';
import { hold, holdOnDelivery, letGoAt, otherHolder, registrationHeldBy } from './botHolders';
import { webhookKey } from './keys';

type TriggerContext = IHookFunctions | IWebhookFunctions;

/**
 * At activation, for `bot` (its id): fails when another trigger holds the bot; otherwise records this trigger
 * as its holder. Checking and recording happen without an await in between, so two workflows activated at the
 * same time cannot both pass.
 */
export function takeBotAtActivation(context: IHookFunctions, bot: string, registration?: HeldRegistration): void {
	if (context.getMode() === 'manual') return;
	const trigger = triggerKey(context);
	const other = otherHolder(bot, trigger);
	if (other !== undefined) throw new BotTakenError(context.getNode(), other);
	hold(bot, trigger, { ...holderOf(context), ...(registration ? { registration } : {}) });
}

/**
 * On a production delivery (after its secret was checked; a test delivery holds nothing): the trigger holds
 * `bot` again, e.g. after a restart.
 */
export function takeBotOnDelivery(context: IWebhookFunctions, bot: string): void {
	holdOnDelivery(bot, triggerKey(context), holderOf(context));
}

/** What this published trigger registered for its bot, as far as this process knows (its activation). */
export function heldRegistration(context: IWebhookFunctions): { bot: string; registration: HeldRegistration } | undefined {
	return registrationHeldBy(triggerKey(context));
}

/** At deactivation: the trigger lets go of its bot (a test listener that stops lets go of nothing). */
export function letGoOfBot(context: IHookFunctions): void {
	letGoAt(triggerKey(context), webhookUrl(context));
}

/** What identifies a trigger across workflows: the workflow and the node's webhook id. */
function triggerKey(context: TriggerContext): string {
	return `${context.getWorkflow().id ?? ''}/${webhookKey(context)}`;
}

function holderOf(context: TriggerContext): BotHolder {
	const workflow = context.getWorkflow();
	return {
		workflowId: String(workflow.id ?? ''),
		workflowName: workflow.name ?? '',
		nodeName: context.getNode().name,
		webhookUrl: webhookUrl(context),
	};
}

function webhookUrl(context: TriggerContext): string {
	return context.getNodeWebhookUrl('default') ?? '';
}

/**
 * A bot that another workflow receives. The message has all a person needs, as n8n 2.41 shows only the
 * message of a trigger that failed to activate: which bot (by its credential), which workflow holds it, and
 * what to do.
 *
 * It is n8n's "URL path already taken" error with its own message: n8n 2.41 retries a failed trigger
 * activation five times over about 15 s, except for that error, the one it knows retrying cannot cure. Nor
 * can it here, until a person deactivates the other workflow. (n8n 2.8 does not retry, and shows the
 * message either way.)
 */
class BotTakenError extends WebhookPathTakenError {
	constructor(node: INode, holder: BotHolder) {
		super(node.name);
		const credential = node.credentials?.[CREDENTIAL_TYPE]?.name;
		const bot = credential ? `the bot of the credential "${credential}"` : 'this bot';
		this.message = `Another active workflow already receives ${bot}: "${holder.workflowName}" (ID ${holder.workflowId}, node "${holder.nodeName}"). Rubika sends a bot's updates to one address only, so only one published Rubika Trigger can receive them by webhook. Deactivate that workflow first, or choose another bot's credential here.`;
		this.description =
			'To handle one bot\'s updates in several workflows, keep one webhook trigger and pass the items on, for example with an Execute Workflow node.';
		this.node = node;
	}
}

/**
 * What activating and deactivating the trigger (and listening for a test event) does with Rubika: n8n's
 * checkExists, create and delete for the `default` webhook. The record of what was registered is
 * registration.ts; the secret in the address is secret.ts; which trigger holds which bot is
 * oneTriggerPerBot.ts; whether Rubika can reach the address is publicAddress.ts; what happens to the bot when a
 * registration ends (a test listener stops, a workflow is unpublished) is handBack.ts.
 */
import type { IHookFunctions, INodeType } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { UpdateEndpointType } from '../../shared/types';
import { identifyBot } from '../../shared/updates/botIdentity';
import { readTriggerSettings, webhookOf } from '../settings';
import { registerEndpoints } from './endpoints';
import { handBack, registerAgainAtStart } from './handBack';
import { botCredential, webhookKey } from './keys';
import { letGoOfBot, takeBotAtActivation } from './oneTriggerPerBot';
import { WEBHOOK_URL_ADVICE, WEBHOOK_URL_HINT, checkWebhookAddress } from './publicAddress';
import { forgetRegistration, readRegistration, registrationMatches, saveRegistration } from './registration';
import { deriveSecret, hideSecret, registeredUrl } from './secret';

/** The node's `webhookMethods`: n8n runs them for the `default` webhook only. */
export function activationMethods(): NonNullable<INodeType['webhookMethods']> {
	return {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await isRegistered(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await register(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await unregister(this);
			},
		},
	};
}

/**
 * True when this node already registered this exact URL (same n8n address, token and endpoints). n8n runs it
 * first on every activation, before create, so this is where the trigger takes its bot (or is refused it). At
 * n8n's start (both versions run it then: handBack.ts) a URL found registered is registered again.
 * The bot is the registration record's when the URL matches (no request), else the one getMe names. A record
 * written before bot ids were kept, whose token Rubika now refuses, still activates (the registration is in
 * place and deliveries need no token): the bot is then counted from its first delivery that getMe can name.
 */
async function isRegistered(context: IHookFunctions): Promise<boolean> {
	const { url, endpoints } = await registrationTarget(context);
	const record = readRegistration(context.getWorkflowStaticData('node'));
	const registered = registrationMatches(record, url, endpoints);
	if (context.getMode() === 'manual') return registered;
	const bot =
		registered && record?.bot !== undefined
			? record.bot
			: await botOf(context).catch((error: unknown) => {
					if (registered) return undefined;
					throw error;
				});
	if (bot === undefined) return registered;
	takeBotAtActivation(context, bot, registered ? { url, endpoints } : undefined);
	if (registered && ['init', 'leadershipChange'].includes(context.getActivationMode())) await registerAgainAtStart(context, bot, { url, endpoints });
	return registered;
}

/**
 * Registers the URL, secret included, for every chosen endpoint; any refusal fails the activation. An address
 * Rubika cannot deliver to is refused before any request (publicAddress.ts).
 */
async function register(context: IHookFunctions): Promise<boolean> {
	const { url, endpoints, secret } = await registrationTarget(context);
	const { credential } = await botCredential(context);
	checkWebhookAddress(context, url, hideSecret(url, secret), String(credential.data?.baseUrl ?? ''));
	const staticData = context.getWorkflowStaticData('node');
	const bot = await botOf(context);
	const before = readRegistration(staticData)?.bot;
	if (before !== undefined && before !== bot) {
		context.logger.warn(`Rubika Trigger: the credential now reaches another bot (${bot}, before ${before}); registering this node's address for it`);
	}
	// A half-done registration must not look complete to checkExists.
	forgetRegistration(staticData);
	const refused = await registerEndpoints(context, url, endpoints);
	if (refused) throw refusal(context, refused.type, refused.status, hideSecret(url, secret));
	saveRegistration(staticData, url, endpoints, bot);
	takeBotAtActivation(context, bot, { url, endpoints });
	return true;
}

/** The bot the credential reaches (getMe, asked once per credential in this process). */
async function botOf(context: IHookFunctions): Promise<string> {
	const { credential } = await botCredential(context);
	return (await identifyBot(context, credential)).id;
}

/**
 * Forgets the registration and lets go of the bot, then gives the bot back to the published trigger that holds
 * it in this process, or removes what this registration left (handBack.ts). n8n runs it when a workflow is
 * unpublished, and when a test listener stops, times out or has received its event.
 */
async function unregister(context: IHookFunctions): Promise<boolean> {
	const staticData = context.getWorkflowStaticData('node');
	const ended = readRegistration(staticData);
	forgetRegistration(staticData);
	letGoOfBot(context);
	if (ended !== undefined) await handBack(context, ended);
	return true;
}

/** The URL to register (n8n's webhook URL plus the secret) and the chosen endpoints, validated. */
async function registrationTarget(
	context: IHookFunctions,
): Promise<{ url: string; endpoints: UpdateEndpointType[]; secret: string }> {
	// Every setting is checked here, so that a bad one fails the publishing rather than a delivery.
	const { endpoints, secretLocation: location } = webhookOf(readTriggerSettings(context));
	const webhookUrl = context.getNodeWebhookUrl('default');
	if (!webhookUrl) {
		throw new NodeOperationError(context.getNode(), 'n8n did not provide a webhook URL for this node');
	}
	const secret = location === 'off' ? '' : deriveSecret((await botCredential(context)).token, webhookKey(context));
	return { url: registeredUrl(webhookUrl, location, secret), endpoints, secret };
}

/** What a person sees when Rubika does not answer `Done`; `shown` is the URL with its secret hidden. */
function refusal(context: IHookFunctions, type: string, status: string, shown: string): NodeOperationError {
	if (status === 'InvalidUrl') {
		return new NodeOperationError(
			context.getNode(),
			`Rubika refused the webhook URL for ${type} (InvalidUrl): it needs a public HTTPS address, and this n8n's webhook URL is ${shown}. ${WEBHOOK_URL_HINT}`,
			{ description: WEBHOOK_URL_ADVICE },
		);
	}
	return new NodeOperationError(
		context.getNode(),
		`Rubika did not register the webhook URL for ${type}: it answered "${status || 'nothing'}" instead of "Done"`,
		{ description: `URL: ${shown}` },
	);
}

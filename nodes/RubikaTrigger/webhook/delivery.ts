/**
 * Handling one delivery from Rubika: the secret checked, the trigger noted as its bot's holder
 * (oneTriggerPerBot.ts), the body read, filtered and de-duplicated, the sender answered, and the item handed
 * to the workflow (with its file and the sender's details, when asked).
 *
 * The secret is derived from the bot token, but Rubika keeps posting to the URL registered at activation
 * until the workflow registers again: after the token was rotated, mistyped or corrected, a delivery that
 * presents the registered URL's secret is still Rubika's (registration.ts), and reaches the workflow.
 */
import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { answerButtonOf, handOnAnswerTap, waitingAddressOf } from '../../shared/updates/answerTaps';
import { matchesFilters } from '../../shared/updates/filters';
import { directoryFor } from '../../shared/updates/sender';
import { isRepeatedDelivery, takeBackIfNotHandled } from './deduplication';
import { deliveryToItem, readDeliveryBody } from './deliveryItem';
import { heldRegistration, takeBotOnDelivery } from './oneTriggerPerBot';
import type { RegistrationRecord } from './registration';
import { isRegisteredUrl, readRegistration, registrationRecordOf } from './registration';
import { downloadItemFile, fileToDownload, itemWithFile } from '../downloadFiles';
import { readTriggerSettings, webhookOf } from '../settings';
import { botCredential, webhookKey } from './keys';
import type { SecretLocation } from './secret';
import { handOverTestEvent } from './testEvent';
import { SECRET_PATH_PARAMETER, deriveSecret, presentedSecret, registeredUrl, secretsMatch } from './secret';
import { identifyBot } from '../../shared/updates/botIdentity';

/** What every delivery is answered with, at once (facts §4: libraries answer 200 `{"status":"OK"}`). */
const OK_ANSWER: IDataObject = { status: 'OK' };

/** The node's `webhook()`: every route of the trigger ends here. */
export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const result = await handleDelivery(context);
	if (result.workflowData !== undefined && context.getMode() === 'manual') handOverTestEvent(context, result.workflowData);
	return result;
}

async function handleDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const { credential, token } = await botCredential(context);
	const settings = readTriggerSettings(context);
	const { secretLocation: location, tapRepeatWindowMs } = webhookOf(settings);
	const registration = registrationRecord(context);
	if (location !== 'off') {
		const expected = deriveSecret(token, webhookKey(context));
		const presented =
			location === 'path' ? pathSecret(context.getParamsData()) : presentedSecret(context.getQueryData());
		if (!secretsMatch(presented, expected) && !isRegisteredSecret(context, registration, location, presented)) {
			// Rubika sends the secret on every delivery; without it, this is someone else.
			answerNow(context, 403, { status: 'FORBIDDEN', message: 'Missing or wrong secret' });
			return { noWebhookResponse: true };
		}
	}
	if (context.getMode() !== 'manual') {
		// A record written before bot ids were kept has none: getMe, once per credential in this process.
		const bot = registration?.bot ?? (await identifyBot(context, credential).then(({ id }) => id, () => undefined));
		if (bot !== undefined) takeBotOnDelivery(context, bot);
	}

	const body = readDeliveryBody(context);
	const item = deliveryToItem(body);
	if (item === undefined) {
		// Not JSON at all. Answer OK anyway: an error would make Rubika pause deliveries (facts §4).
		context.logger.warn('Rubika webhook: ignored a delivery whose body is not a JSON object');
		return { webhookResponse: OK_ANSWER };
	}

	const answerButton = answerButtonOf(item);
	if (answerButton !== undefined) {
		// An answer to a waiting Send and Wait, not an update for this workflow: Rubika gets its OK first.
		answerNow(context, 200, OK_ANSWER);
		await handOnAnswerTap(context, waitingAddressOf(context), token, item, answerButton);
		return { noWebhookResponse: true };
	}

	const wanted = matchesFilters(item, settings.filters);
	const { download } = settings;
	const repeated = isRepeatedDelivery(context, item, wanted, tapRepeatWindowMs, Date.now());
	if (!wanted || repeated) return { webhookResponse: OK_ANSWER };
	takeBackIfNotHandled(context, item);

	const senders = settings.addSenderDetails ? directoryFor(credential) : undefined;
	const withSender = async () => (senders ? await senders.addTo(context, item, { credential }) : item);
	const fileId = fileToDownload(item, download);
	if (fileId === undefined && senders?.mustAsk(item) !== true) {
		const output: INodeExecutionData = { json: await withSender() };
		return { webhookResponse: OK_ANSWER, workflowData: [[output]] };
	}
	// Rubika's delivery timeout is unknown and a late answer may pause the bot's deliveries (facts §4), so
	// the answer does not wait for the file or for the sender's details. Every failure then ends up on the
	// item (`file_error`, also for a failure that might pass later): the sender has its OK and no reason to
	// deliver the event again, so failing here would lose the message.
	answerNow(context, 200, OK_ANSWER);
	const withDetails = await withSender();
	const output =
		fileId === undefined
			? { json: withDetails }
			: itemWithFile(withDetails, download, await downloadItemFile(context, withDetails, fileId, download, { credential }));
	return { noWebhookResponse: true, workflowData: [[output]] };
}

/**
 * The registration record of static data or, when static data lost it, the one this process's activation made
 * (in memory, botHolders.ts). n8n saves static data whole, as a call read it: a call that read it before the
 * activation had saved its record can save it without the record. Without this, every delivery after the token
 * changed would be refused (403), though Rubika still posts to the registered address.
 */
function registrationRecord(context: IWebhookFunctions): RegistrationRecord | undefined {
	const saved = readRegistration(context.getWorkflowStaticData('node'));
	if (saved !== undefined || context.getMode() === 'manual') return saved;
	const held = heldRegistration(context);
	return held && registrationRecordOf(held.registration.url, held.registration.endpoints, held.bot);
}

/**
 * Whether the secret presented is the one in the URL registered at activation (a production delivery only):
 * what Rubika sends until the workflow registers again, whatever the credential's token is now.
 */
function isRegisteredSecret(
	context: IWebhookFunctions,
	registration: RegistrationRecord | undefined,
	location: SecretLocation,
	presented: string | undefined,
): boolean {
	if (presented === undefined || context.getMode() === 'manual') return false;
	const webhookUrl = context.getNodeWebhookUrl('default');
	return webhookUrl !== undefined && isRegisteredUrl(registration, registeredUrl(webhookUrl, location, presented));
}

/** The secret a delivery presents in its path (n8n's route parameter), if any. */
function pathSecret(params: unknown): string | undefined {
	const value = (params as Record<string, unknown> | undefined)?.[SECRET_PATH_PARAMETER];
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Answers the sender now, with a JSON body, instead of leaving it to n8n (the webhook then returns
 * `noWebhookResponse`).
 */
function answerNow(context: IWebhookFunctions, status: number, body: IDataObject): void {
	const response = context.getResponseObject();
	response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify(body));
}

import type {
	IDataObject,
	IHookFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import type { DownloadSettings } from '../shared/downloads';
import {
	binaryPropertyNameOption,
	downloadFilesOption,
	fileToDownload,
	readDownloadSettings,
	withDownloadedFile,
} from '../shared/downloads';
import { toNodeError } from '../shared/errors';
import { parseJsonKeepingBigIntegers } from '../shared/json';
import { CREDENTIAL_TYPE, callRubika } from '../shared/transport';
import type { UpdateEndpointType } from '../shared/types';
import { UPDATE_ENDPOINT_TYPES, UPDATE_TYPES } from '../shared/types';
import { updateFiltersProperty, updateTypesProperty } from '../shared/updates/filterFields';
import type { UpdateFilters } from '../shared/updates/filters';
import { matchesFilters, parseUpdateFilters } from '../shared/updates/filters';
import { RecentKeys } from '../shared/updates/identity';
import type { UpdateItem } from '../shared/updates/item';
import { derived, webhookBodyToItem } from '../shared/updates/item';
import { INLINE_MESSAGE_TYPE } from '../shared/updates/raw';
import { changeRememberedState, withDeliveryState } from './memory';
import {
	forgetRegistration,
	normaliseTypes,
	readRegistration,
	registrationMatches,
	saveRegistration,
} from './registration';
import {
	ENDPOINT_SUFFIXES,
	SECRET_PATH_PARAMETER,
	deriveSecret,
	hideSecret,
	presentedSecret,
	registeredUrl,
	secretLocationOf,
	secretsMatch,
	webhookPathFor,
} from './secret';
import type { SecretLocation } from './secret';
import { RECENT_TAPS_FIELD, forgetTap, isRepeatedTap } from './taps';

/** What every delivery is answered with, at once (facts §4: libraries answer 200 `{"status":"OK"}`). */
const OK_ANSWER: IDataObject = { status: 'OK' };

/** The `type` of a delivery that is neither `{update}` nor `{inline_message}`; its format is undocumented. */
export const OTHER_DELIVERY_TYPE = 'Other';

/** Where the recently delivered event keys live in the node's static data. */
const RECENT_KEYS_FIELD = 'recentKeys';

const DEFAULT_TAP_WINDOW_SECONDS = 5;

/**
 * How n8n answers every delivery: at once (`onReceived`: before the workflow runs), with n8n's default
 * status, 200.
 *
 * `responseData` must be there and empty. When a delivery starts an execution, n8n answers with the
 * description's `responseData` if it has a value, and only falls back to the node's `webhookResponse`
 * (OK_ANSWER) when it is empty; left out, it defaults to the text "firstEntryJson", which n8n then sends as
 * the body. Deliveries that start nothing get `webhookResponse` either way. A delivery whose file is to be
 * downloaded is answered by the node itself, before the download (see `webhook()`).
 */
const ANSWER_AT_ONCE = { responseMode: 'onReceived', responseData: '' } as const;

/**
 * The webhook's own path, plus the same path with each suffix the service may append (facts §4). Only the
 * first is named `default`: n8n runs checkExists/create/delete per webhook name, and the bot must be
 * registered once, not six times. The suffix routes carry no lifecycle methods of their own.
 *
 * With the secret in the path (the default), each path has a `:secret` route parameter after `webhook`:
 * n8n fills it from the request (getParamsData) and shows it as `:secret` in the editor's URL.
 */
const WEBHOOK_PATH = 'webhook';
const SECRET_PARAMETER = 'secretLocation';
/** The path for the chosen Secret, as an expression n8n evaluates when it registers the routes. */
const SECRET_NOT_IN_PATH = `["query", "off"].includes($parameter["${SECRET_PARAMETER}"])`;
function pathExpression(suffix?: string): string {
	const byLocation = (location: SecretLocation) => JSON.stringify(webhookPathFor(location, WEBHOOK_PATH, suffix));
	return `={{ ${SECRET_NOT_IN_PATH} ? ${byLocation('query')} : ${byLocation('path')} }}`;
}
/**
 * n8n finds a path with a route parameter by the node's webhook id in the request's first segment and the
 * number of segments after it, counted on the path as registered: so that path must be given without the
 * webhook id ("full path"); n8n still puts the id in front of it in the URL. Static paths keep the id prefix.
 */
// n8n evaluates isFullPath as an expression like path (WebhookService.getNodeWebhooks, on 2.8 and 2.41);
// its type only says boolean.
const IS_FULL_PATH = `={{ !${SECRET_NOT_IN_PATH} }}` as unknown as boolean;
const webhooks: IWebhookDescription[] = [
	{ name: 'default', httpMethod: 'POST', path: pathExpression(), isFullPath: IS_FULL_PATH, ...ANSWER_AT_ONCE },
	...ENDPOINT_SUFFIXES.map(
		(suffix): IWebhookDescription => ({
			name: 'setup',
			httpMethod: 'POST',
			path: pathExpression(suffix),
			isFullPath: IS_FULL_PATH,
			ndvHideUrl: true,
			...ANSWER_AT_ONCE,
		}),
	),
];

const endpointOptions: Array<{ name: string; value: UpdateEndpointType; description: string }> = [
	{
		name: 'Inline Keypad Taps (ReceiveInlineMessage)',
		value: 'ReceiveInlineMessage',
		description: 'Taps on buttons of inline keypads under the bot\'s messages. They arrive only here, never through polling.',
	},
	{
		name: 'Queries (ReceiveQuery)',
		value: 'ReceiveQuery',
		description: 'Rubika does not document what it sends here; deliveries arrive as type "Other" with the raw body',
	},
	{
		name: 'Selection Item Requests (GetSelectionItem)',
		value: 'GetSelectionItem',
		description: 'For Selection buttons that load items from the bot. Undocumented body: arrives as type "Other".',
	},
	{
		name: 'Selection Searches (SearchSelectionItems)',
		value: 'SearchSelectionItems',
		description: 'For Selection buttons with API search. Undocumented body: arrives as type "Other".',
	},
	{
		name: 'Updates (ReceiveUpdate)',
		value: 'ReceiveUpdate',
		description: 'New, edited and removed messages, chat keypad taps, bot started and stopped, payments',
	},
];

/** The polling trigger's Update Types, plus the two kinds of event only a webhook receives. */
const webhookUpdateTypes: INodeProperties = {
	...updateTypesProperty,
	options: [
		...(updateTypesProperty.options ?? []),
		{
			name: 'Inline Keypad Tap',
			value: INLINE_MESSAGE_TYPE,
			description: 'A user tapped a button of an inline keypad (needs the ReceiveInlineMessage endpoint)',
		},
		{
			name: 'Other Delivery',
			value: OTHER_DELIVERY_TYPE,
			description:
				'A body that is neither an update nor an inline keypad tap, e.g. from ReceiveQuery; the raw body is in "update"',
		},
	].sort((a, b) => a.name.localeCompare(b.name)),
	default: ['NewMessage', INLINE_MESSAGE_TYPE],
};

export class RubikaWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Rubika Webhook Trigger',
		name: 'rubikaWebhookTrigger',
		icon: { light: 'file:../../icons/rubika.svg', dark: 'file:../../icons/rubika.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Endpoints: " + ($parameter["endpoints"] || []).join(", ")}}',
		description:
			'Starts the workflow the moment Rubika delivers a message, an update or an inline keypad tap to your bot',
		defaults: { name: 'Rubika Webhook Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'rubikaApi', required: true }],
		webhooks,
		properties: [
			{
				displayName:
					'Rubika keeps one address per bot and endpoint. Activating this workflow, or listening for a test event, points the bot here and takes its deliveries away from any other workflow or program using the same bot. Rubika has no call to unregister: after deactivating, or after a test, the bot keeps posting to the old address until something registers again, so deactivate and reactivate the production workflow after testing. Rubika needs a public HTTPS address; on a local n8n use the Rubika Trigger (polling) instead.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Secret',
				name: SECRET_PARAMETER,
				type: 'options',
				options: [
					{
						name: 'In the Path (Recommended)',
						value: 'path',
						description: 'The registered address ends in /(secret), which every service and proxy passes on',
					},
					{
						name: 'As a Query Parameter',
						value: 'query',
						description:
							'The registered address ends in ?secret=(secret). Whether Rubika keeps query strings is not documented: use it only if something in front of n8n cannot route the longer path.',
					},
					{
						name: 'Off',
						value: 'off',
						description: 'No secret: anyone who learns the address can start this workflow with made-up updates',
					},
				],
				default: 'path',
				description:
					'A secret derived from the bot token goes into the address registered with Rubika, and deliveries without it are refused (403). Rubika signs nothing it sends, so this is what tells its deliveries from anyone else\'s.',
			},
			{
				displayName:
					'Without a secret, anyone who knows or guesses this workflow\'s webhook address can make it run with fake updates (fake senders, fake texts). Turn it off only when something in front of n8n checks the deliveries.',
				name: 'secretOffWarning',
				type: 'notice',
				default: '',
				displayOptions: { show: { [SECRET_PARAMETER]: ['off'] } },
			},
			{
				displayName: 'Endpoints',
				name: 'endpoints',
				type: 'multiOptions',
				required: true,
				options: endpointOptions,
				default: ['ReceiveUpdate', 'ReceiveInlineMessage'],
				description:
					'Which of the bot\'s endpoints to point at this workflow when it is activated. Each one is taken over from whatever held it before.',
			},
			webhookUpdateTypes,
			updateFiltersProperty,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					downloadFilesOption(
						'Rubika is answered before the download starts, so a large file never delays the answer. A file that cannot be downloaded still starts the workflow, without binary data and with file_error saying why.',
					),
					binaryPropertyNameOption,
					{
						displayName: 'Repeated Tap Window (Seconds)',
						name: 'tapRepeatWindow',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: DEFAULT_TAP_WINDOW_SECONDS,
						description:
							'Identical inline keypad taps (same user, message and button) arriving within this many seconds start one execution. Rubika\'s taps carry no ID or time, so a tap delivered twice cannot be told apart from a second tap any other way. 0 treats every tap as new.',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			/** True when this node already registered this exact URL (same n8n address, bot and endpoints). */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const { url, endpoints } = await registrationTarget(this);
				return registrationMatches(readRegistration(this.getWorkflowStaticData('node')), url, endpoints);
			},

			/** Registers the URL, secret included, for every chosen endpoint; any refusal fails the activation. */
			async create(this: IHookFunctions): Promise<boolean> {
				const { url, endpoints, secret } = await registrationTarget(this);
				readFilters(this, endpoints);
				readDownloadOptions(this);
				const staticData = this.getWorkflowStaticData('node');
				// A half-done registration must not look complete to checkExists.
				forgetRegistration(staticData);
				for (const type of endpoints) {
					const answer = await callRubika(this, 'updateBotEndpoints', { url, type });
					const status = String(answer?.status ?? '');
					if (status !== 'Done') throw refusal(this, type, status, hideSecret(url, secret));
				}
				saveRegistration(staticData, url, endpoints);
				return true;
			},

			/**
			 * Forgets the registration. Rubika has no call to remove an endpoint, so the bot keeps posting
			 * to this URL until something else registers; n8n answers those posts with 404 once inactive.
			 */
			async delete(this: IHookFunctions): Promise<boolean> {
				forgetRegistration(this.getWorkflowStaticData('node'));
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const token = await botToken(this);
		const location = secretLocationOf(this.getNodeParameter(SECRET_PARAMETER, 'path'));
		if (location !== 'off') {
			const expected = deriveSecret(token, webhookKey(this));
			const presented =
				location === 'path' ? pathSecret(this.getParamsData()) : presentedSecret(this.getQueryData());
			if (!secretsMatch(presented, expected)) {
				// Rubika sends the secret on every delivery; without it, this is someone else.
				answerNow(this, 403, { status: 'FORBIDDEN', message: 'Missing or wrong secret' });
				return { noWebhookResponse: true };
			}
		}

		const body = readDeliveryBody(this);
		const item = deliveryToItem(body);
		if (item === undefined) {
			// Not JSON at all. Answer OK anyway: an error would make Rubika pause deliveries (facts §4).
			this.logger.warn('Rubika webhook: ignored a delivery whose body is not a JSON object');
			return { webhookResponse: OK_ANSWER };
		}

		const endpoints = normaliseTypes(this.getNodeParameter('endpoints', []) as string[]);
		const wanted = matchesFilters(item, readFilters(this, endpoints));
		const download = readDownloadOptions(this);
		const tapWindowMs = tapRepeatWindowMs(this);
		const now = Date.now();
		const repeated = onDeliveryState(this, (state) => {
			if (!wanted) {
				noteFiltered(state, item);
				return false;
			}
			return isRepeat(state, item, tapWindowMs, now);
		});
		if (!wanted || repeated) return { webhookResponse: OK_ANSWER };
		takeBackIfNotHandled(this, item);

		if (fileToDownload(item, download) === undefined) {
			const output: INodeExecutionData = { json: item };
			return { webhookResponse: OK_ANSWER, workflowData: [[output]] };
		}
		// Rubika's delivery timeout is unknown and a late answer may pause the bot's deliveries (facts §4), so
		// the answer does not wait for the file. Every failure then ends up on the item: the sender has its OK
		// and no reason to deliver the event again, so failing here would lose the message.
		answerNow(this, 200, OK_ANSWER);
		const output = await withDownloadedFile(this, item, download, 'every');
		return { noWebhookResponse: true, workflowData: [[output]] };
	}
}

/** The node's fields that de-duplication keeps. */
const DELIVERY_STATE_FIELDS = [RECENT_KEYS_FIELD, RECENT_TAPS_FIELD];

/**
 * Runs a de-duplication step on the node's state. Live deliveries use the state mirrored in memory and
 * in static data (see memory.ts). A test event works on the static data alone, as n8n keeps nothing of a
 * test run, so that sending the same sample again starts the workflow again.
 */
function onDeliveryState<T>(context: IWebhookFunctions, use: (state: IDataObject) => T): T {
	const staticData = context.getWorkflowStaticData('node');
	if (context.getMode() === 'manual') return use(staticData);
	return withDeliveryState(deliveryScope(context), staticData, DELIVERY_STATE_FIELDS, use);
}

/** Which remembered state is this node's: the workflow and the node's webhook id. */
function deliveryScope(context: IWebhookFunctions): string {
	return `${context.getWorkflow().id ?? ''}/${webhookKey(context)}`;
}

/**
 * Whether this event was delivered before (a retry, a duplicate), recording it when it was not. Updates
 * are remembered by key in the bounded set the polling trigger uses; inline taps only for a short window
 * (see taps.ts); bodies of unknown format have no identity, so each of them counts.
 */
function isRepeat(state: IDataObject, item: UpdateItem, tapWindowMs: number, now: number): boolean {
	if (item.type === OTHER_DELIVERY_TYPE) return false;
	if (item.type === INLINE_MESSAGE_TYPE) return isRepeatedTap(state, item.update_key, tapWindowMs, now);
	const recent = RecentKeys.load(state, RECENT_KEYS_FIELD);
	if (recent.has(item.update_key)) return true;
	recent.remember(item.update_key);
	recent.save(state, RECENT_KEYS_FIELD);
	return false;
}

/**
 * A filtered-out update starts nothing, but a filtered "bot stopped" still ends the chat's "started" state,
 * so that the next start is not mistaken for a repeat (RecentKeys.observe).
 */
function noteFiltered(state: IDataObject, item: UpdateItem): void {
	if (item.type === OTHER_DELIVERY_TYPE || item.type === INLINE_MESSAGE_TYPE) return;
	const recent = RecentKeys.load(state, RECENT_KEYS_FIELD);
	const before = recent.size;
	recent.observe(item.update_key);
	if (recent.size !== before) recent.save(state, RECENT_KEYS_FIELD);
}

/**
 * If n8n then fails to start the execution (it answers with an error and saves nothing), the event is
 * forgotten again in memory, so that a redelivery of it goes through. A delivery the node answered itself
 * (before downloading its file) has had its 200 already: n8n can no longer tell the sender of a failure.
 */
function takeBackIfNotHandled(context: IWebhookFunctions, item: UpdateItem): void {
	if (context.getMode() === 'manual' || item.type === OTHER_DELIVERY_TYPE) return;
	const scope = deliveryScope(context);
	const response = context.getResponseObject();
	response.once('finish', () => {
		if (response.statusCode < 400) return;
		changeRememberedState(scope, (state) => {
			if (item.type === INLINE_MESSAGE_TYPE) {
				forgetTap(state, item.update_key);
				return;
			}
			const recent = RecentKeys.load(state, RECENT_KEYS_FIELD);
			recent.forget(item.update_key);
			recent.save(state, RECENT_KEYS_FIELD);
		});
	});
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

/** Options → Download Files and Put Output in Field, validated. */
function readDownloadOptions(context: IHookFunctions | IWebhookFunctions): DownloadSettings {
	return readDownloadSettings(context.getNode(), context.getNodeParameter('options', {}) as IDataObject);
}

/** Options → Repeated Tap Window, in milliseconds. */
function tapRepeatWindowMs(context: IWebhookFunctions): number {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const seconds = Number(options.tapRepeatWindow ?? DEFAULT_TAP_WINDOW_SECONDS);
	return Number.isFinite(seconds) ? seconds * 1000 : 0;
}

/** The URL to register (n8n's webhook URL plus the secret) and the chosen endpoints, validated. */
async function registrationTarget(
	context: IHookFunctions,
): Promise<{ url: string; endpoints: UpdateEndpointType[]; secret: string }> {
	const chosen = context.getNodeParameter('endpoints', []) as string[];
	const endpoints = normaliseTypes(chosen);
	if (endpoints.length === 0) {
		throw new NodeOperationError(context.getNode(), 'Endpoints: choose at least one endpoint to register', {
			description: `Known endpoints: ${UPDATE_ENDPOINT_TYPES.join(', ')}`,
		});
	}
	const webhookUrl = context.getNodeWebhookUrl('default');
	if (!webhookUrl) {
		throw new NodeOperationError(context.getNode(), 'n8n did not provide a webhook URL for this node');
	}
	const location = secretLocationOf(context.getNodeParameter(SECRET_PARAMETER, 'path'));
	const secret = location === 'off' ? '' : deriveSecret(await botToken(context), webhookKey(context));
	return { url: registeredUrl(webhookUrl, location, secret), endpoints, secret };
}

/** The secret a delivery presents in its path (n8n's route parameter), if any. */
function pathSecret(params: unknown): string | undefined {
	const value = (params as Record<string, unknown> | undefined)?.[SECRET_PATH_PARAMETER];
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The filters, validated. Also checks that the chosen update types can arrive at all through the chosen
 * endpoints, because a tap filter without the inline endpoint would wait forever without a word.
 */
function readFilters(context: IHookFunctions | IWebhookFunctions, endpoints: UpdateEndpointType[]): UpdateFilters {
	const types = context.getNodeParameter('updateTypes', []) as string[];
	const raw = context.getNodeParameter('filters', {}) as IDataObject;
	let filters: UpdateFilters;
	try {
		filters = parseUpdateFilters(types, raw);
	} catch (error) {
		throw toNodeError(context.getNode(), error);
	}
	const wantsInline = filters.types.includes(INLINE_MESSAGE_TYPE);
	const wantsUpdates = filters.types.some((type) => (UPDATE_TYPES as readonly string[]).includes(type));
	if (wantsInline && !endpoints.includes('ReceiveInlineMessage')) {
		throw new NodeOperationError(
			context.getNode(),
			'Update Types: Inline Keypad Tap needs the ReceiveInlineMessage endpoint',
			{ description: 'Add "Inline Keypad Taps (ReceiveInlineMessage)" to Endpoints, or remove Inline Keypad Tap from Update Types.' },
		);
	}
	if (wantsUpdates && !endpoints.includes('ReceiveUpdate')) {
		throw new NodeOperationError(
			context.getNode(),
			'Update Types: messages and other updates need the ReceiveUpdate endpoint',
			{ description: 'Add "Updates (ReceiveUpdate)" to Endpoints, or keep only Inline Keypad Tap in Update Types.' },
		);
	}
	return filters;
}

/** What a person sees when Rubika does not answer `Done`. */
/** `shown` is the URL with its secret hidden. */
function refusal(context: IHookFunctions, type: string, status: string, shown: string): NodeOperationError {
	if (status === 'InvalidUrl') {
		return new NodeOperationError(
			context.getNode(),
			`Rubika refused the webhook URL for ${type} (InvalidUrl): it needs a public HTTPS address, and this n8n's webhook URL is ${shown}`,
			{
				description:
					'Rubika only delivers to a public HTTPS address on a real domain. Set n8n\'s WEBHOOK_URL to the public HTTPS address of this instance (for example behind a reverse proxy or a tunnel), or use the Rubika Trigger (polling) node, which works on a local n8n without any public address.',
			},
		);
	}
	return new NodeOperationError(
		context.getNode(),
		`Rubika did not register the webhook URL for ${type}: it answered "${status || 'nothing'}" instead of "Done"`,
		{ description: `URL: ${shown}` },
	);
}

async function botToken(context: IHookFunctions | IWebhookFunctions): Promise<string> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	const token = String(credentials?.accessToken ?? '').trim();
	if (token === '') {
		throw new NodeOperationError(context.getNode(), 'The Rubika credential has no bot token');
	}
	return token;
}

/** What the secret is bound to: the node's webhook id, which n8n keeps for the node's whole life. */
function webhookKey(context: IHookFunctions | IWebhookFunctions): string {
	const node = context.getNode();
	return node.webhookId ?? `${context.getWorkflow().id ?? ''}/${node.name}`;
}

/**
 * The delivery as JSON. The raw bytes are preferred: n8n parses JSON bodies with plain JSON.parse, which
 * rounds a bare numeric message id above 2^53 (facts §2), and parses nothing when the content type is not
 * exactly application/json.
 */
function readDeliveryBody(context: IWebhookFunctions): unknown {
	const raw = (context.getRequestObject() as unknown as { rawBody?: unknown }).rawBody;
	const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : typeof raw === 'string' ? raw : undefined;
	if (text !== undefined && text.trim() !== '') {
		const parsed = parseOrUndefined(text);
		if (parsed !== undefined) return parsed;
	}
	const body = context.getBodyData() as unknown;
	return typeof body === 'string' ? parseOrUndefined(body) : body;
}

function parseOrUndefined(text: string): unknown {
	try {
		return parseJsonKeepingBigIntegers(text);
	} catch {
		// Not JSON: the caller treats it as an unusable delivery.
		return undefined;
	}
}

/** `{update}` and `{inline_message}` become the shared item shape; any other object becomes type Other. */
function deliveryToItem(body: unknown): UpdateItem | undefined {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
	const item = webhookBodyToItem(body);
	if (item !== undefined) return item;
	return derived({
		type: OTHER_DELIVERY_TYPE,
		chat_id: null,
		message_id: null,
		text: null,
		sender_id: null,
		sender_type: null,
		button_id: null,
		start_id: null,
		file: null,
		time_iso: null,
		time: null,
		update_key: '',
		update: body as IDataObject,
	}, null);
}

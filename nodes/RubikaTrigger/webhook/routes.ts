/**
 * The webhook trigger's description per version: its webhooks (routes and how n8n answers them) and its
 * parameters. Parameter names, defaults, displayOptions and webhook paths are part of saved workflows and
 * registered addresses: never change them. A version's whole description is `webhookTriggerVersionDescription`.
 */
import type {
	INodeProperties,
	INodeTypeBaseDescription,
	INodeTypeDescription,
	IWebhookDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { optionsCollection, sortedByName } from '../../shared/descriptions';
import { binaryPropertyNameOption, downloadFilesOption } from '../../shared/downloads';
import type { UpdateEndpointType } from '../../shared/types';
import { updateFiltersProperty, updateTypesProperty } from '../../shared/updates/filterFields';
import { addSenderDetailsOption } from '../../shared/updates/sender';
import { INLINE_MESSAGE_TYPE } from '../../shared/updates/raw';
import { OTHER_DELIVERY_TYPE } from './deliveryItem';
import { DEFAULT_TAP_WINDOW_SECONDS, SECRET_PARAMETER } from './parameters';
import type { SecretLocation } from './secret';
import { ENDPOINT_SUFFIXES, webhookPathFor } from './secret';

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
/** The path for the chosen Secret, as an expression n8n evaluates when it registers the routes. */
const SECRET_NOT_IN_PATH = `["query", "off"].includes($parameter["${SECRET_PARAMETER}"])`;
/**
 * Version 2 starts every path with the node's webhook id (`$webhookId` in n8n's expressions, on 2.8 and
 * 2.41), so that no two nodes share one; see `webhookRoutes`.
 */
const NODE_PREFIX = '$webhookId + "/" + ';
function pathExpression(suffix: string | undefined, prefix: string): string {
	const byLocation = (location: SecretLocation) =>
		`${prefix}${JSON.stringify(webhookPathFor(location, WEBHOOK_PATH, suffix))}`;
	return `={{ ${SECRET_NOT_IN_PATH} ? ${byLocation('query')} : ${byLocation('path')} }}`;
}

/**
 * How n8n routes and stores a version's paths.
 *
 * n8n finds a path with a route parameter by the node's webhook id in the request's first segment and the
 * number of segments after it, counted on the path as registered: so that path must be given without the
 * webhook id ("full path"); n8n still puts the id in front of it in the URL. Static paths keep the id prefix.
 *
 * - Version 1 gives the path with the secret as `webhook/:secret`, full path. n8n stores it as it is, and its
 *   webhook table holds one row per path and method: every such node has the same one, so only one of them
 *   can be active in an n8n (a second one fails with "The URL path … is already taken").
 * - Version 2 gives `<webhook id>/webhook/:secret`, full path, and `<webhook id>/webhook` for the static
 *   forms: every node's stored path is its own. The URL n8n builds and routes is then
 *   `<webhook id>/<webhook id>/webhook/<secret>` (the id in front, as for any path with a route parameter),
 *   and `<webhook id>/webhook` without the secret in the path, the same as version 1's.
 */
const ROUTING = {
	// n8n evaluates isFullPath as an expression like path (WebhookService.getNodeWebhooks, on 2.8 and 2.41);
	// its type only says boolean.
	sharedPath: { prefix: '', isFullPath: `={{ !${SECRET_NOT_IN_PATH} }}` as unknown as boolean },
	pathPerNode: { prefix: NODE_PREFIX, isFullPath: true },
} as const;
type WebhookRouting = keyof typeof ROUTING;

/** A version's webhooks: its own path and the suffix routes, routed as `routing` says. */
function webhookRoutes(routing: WebhookRouting): IWebhookDescription[] {
	const { prefix, isFullPath } = ROUTING[routing];
	return [
		{ name: 'default', httpMethod: 'POST', path: pathExpression(undefined, prefix), isFullPath, ...ANSWER_AT_ONCE },
		...ENDPOINT_SUFFIXES.map(
			(suffix): IWebhookDescription => ({
				name: 'setup',
				httpMethod: 'POST',
				path: pathExpression(suffix, prefix),
				isFullPath,
				ndvHideUrl: true,
				...ANSWER_AT_ONCE,
			}),
		),
	];
}

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
	options: sortedByName([
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
	]),
	default: ['NewMessage', INLINE_MESSAGE_TYPE],
};

/** Every parameter after the notice, the same in both versions. */
const sharedProperties: INodeProperties[] = [
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
	optionsCollection([
		addSenderDetailsOption,
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
	]),
];

/** The trigger's parameters, in the order the panel shows them: the version's notice first. */
function webhookTriggerProperties(notice: string): INodeProperties[] {
	return [{ displayName: notice, name: 'notice', type: 'notice', default: '' }, ...sharedProperties];
}

/** What one version of the trigger says about itself beyond what both versions share. */
export interface WebhookTriggerVersion {
	version: number;
	/** The notice at the top of the panel: what activating does with the bot. */
	notice: string;
	routing: WebhookRouting;
}

/**
 * A version's whole description: the node's base description, no inputs, one output, the Rubika credential,
 * the version's routes and its panel. Only the default version's description carries `defaultVersion`, so
 * that version 1's stays exactly what it was when the node had one version.
 */
export function webhookTriggerVersionDescription(
	base: INodeTypeBaseDescription,
	own: WebhookTriggerVersion,
): INodeTypeDescription {
	return {
		displayName: base.displayName,
		name: base.name,
		icon: base.icon,
		group: base.group,
		version: own.version,
		...(own.version === base.defaultVersion ? { defaultVersion: base.defaultVersion } : {}),
		subtitle: '={{"Endpoints: " + ($parameter["endpoints"] || []).join(", ")}}',
		description: base.description,
		defaults: { name: 'Rubika Webhook Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'rubikaApi', required: true }],
		webhooks: webhookRoutes(own.routing),
		properties: webhookTriggerProperties(own.notice),
	};
}

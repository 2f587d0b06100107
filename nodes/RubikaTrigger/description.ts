/**
 * Rubika Trigger's panel and webhooks, for both ways of receiving updates (Receive
 * Updates): reading getUpdates (no public address needed) or a webhook Rubika posts to (instant, and the only
 * way inline keypad taps arrive). Parameter names, defaults and webhook paths are part of saved workflows and
 * registered addresses: never change them. Reading the panel: settings.ts.
 */
import type { INodeProperties } from 'n8n-workflow';

import { optionsCollection, sortedByName } from '../shared/descriptions';
import type { UpdateEndpointType } from '../shared/types';
import { updateFiltersProperty, updateTypesProperty } from '../shared/updates/filterFields';
import { INLINE_MESSAGE_TYPE } from '../shared/updates/raw';
import { addSenderDetailsOption } from '../shared/updates/sender';
import { binaryPropertyNameOption, downloadFilesOption, maxDownloadTimeOption, maxFileSizeOption } from './downloadFiles';
import { OTHER_DELIVERY_TYPE } from './webhook/deliveryItem';
import { webhookRoutes } from './webhook/routes';

export const RECEIVE_UPDATES_PARAMETER = 'receiveUpdates';
export type ReceiveUpdates = 'reading' | 'webhook';
/** The Secret parameter: where the secret goes in the registered address. */
export const SECRET_PARAMETER = 'secretLocation';

export const DEFAULT_PAGE_SIZE = 100;
export const DEFAULT_INTERVAL_SECONDS = 1;
export const DEFAULT_IDLE_INTERVAL_SECONDS = 3;
/** Options → Idle After: the quiet minutes before Idle Interval, long enough that a chat's next message after a pause
 * of ten minutes or so is still read within about a second (issue 33; BENCHMARKS.md B6). */
export const DEFAULT_IDLE_AFTER_MINUTES = 15;
export const MAX_IDLE_AFTER_MINUTES = 1440;
export const DEFAULT_CONVERSATION_INTERVAL_SECONDS = 0.25;
export const MIN_INTERVAL_SECONDS = 0.2;
export const MAX_INTERVAL_SECONDS = 3600;
/** Options → Repeated Tap Window when it is not set. */
export const DEFAULT_TAP_WINDOW_SECONDS = 5;

/** What the trigger may do when Rubika rejects the saved position (Options → If Rubika Rejects the Saved Position). */
export const ON_REJECTED_POSITION = ['error', 'restartFromOldest', 'skipToNow'] as const;
export type OnRejectedPosition = (typeof ON_REJECTED_POSITION)[number];

const reading = { show: { [RECEIVE_UPDATES_PARAMETER]: ['reading'] } };
const byWebhook = { show: { [RECEIVE_UPDATES_PARAMETER]: ['webhook'] } };
/** The same, for an option inside Options (n8n reads a top-level parameter there with a leading slash). */
const readingOption = { show: { [`/${RECEIVE_UPDATES_PARAMETER}`]: ['reading'] } };
const webhookOption = { show: { [`/${RECEIVE_UPDATES_PARAMETER}`]: ['webhook'] } };

const receiveUpdatesProperty: INodeProperties = {
	displayName: 'Receive Updates',
	name: RECEIVE_UPDATES_PARAMETER,
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'By Reading (No Public Address Needed)',
			value: 'reading',
			description: 'Asks Rubika for new updates about once a second (getUpdates). Works on any n8n, also without a public address.',
		},
		{
			name: 'By Webhook (Instant, Inline Keypad Taps)',
			value: 'webhook',
			description: 'Rubika posts each update to this n8n the moment it happens. Needs n8n at a public HTTPS address; the only way taps on buttons under a message arrive.',
		},
	],
	default: 'reading',
	description: 'How the bot\'s updates reach this trigger',
};

const notices: INodeProperties[] = [
	{
		displayName:
			'Reads new updates from Rubika about once a second, so n8n needs no public address. Each update starts its own execution. Taps on buttons under a message reach only a webhook: choose By Webhook for those. If this bot also has a webhook registered, Rubika may deliver updates there instead.',
		name: 'readingNotice',
		type: 'notice',
		default: '',
		displayOptions: reading,
	},
	{
		displayName:
			'Rubika sends each bot\'s updates to one address. Publishing this workflow points the bot here; while another published workflow receives the same bot, publishing fails with an error that names it. Rubika needs a public HTTPS address (n8n\'s WEBHOOK_URL); on a local n8n choose By Reading.',
		name: 'webhookNotice',
		type: 'notice',
		default: '',
		displayOptions: byWebhook,
	},
];

const endpointOptions: Array<{ name: string; value: UpdateEndpointType; description: string }> = [
	{
		name: 'Inline Keypad Taps (ReceiveInlineMessage)',
		value: 'ReceiveInlineMessage',
		description: 'Taps on buttons of inline keypads under the bot\'s messages. They arrive only here, never by reading.',
	},
	{
		name: 'Queries (ReceiveQuery)',
		value: 'ReceiveQuery',
		description: 'Rubika does not document what it sends here; deliveries arrive as type "Other" with the raw body',
	},
	{
		name: 'Selection Item Requests (GetSelectionItem)',
		value: 'GetSelectionItem',
		description: 'Rubika asks here for the items of a Selection button whose items come from the bot. The body is undocumented and arrives as type "Other"; the answer is always {"status":"OK"}, never items.',
	},
	{
		name: 'Selection Searches (SearchSelectionItems)',
		value: 'SearchSelectionItems',
		description: 'Rubika asks here to search a Selection button\'s items on the bot. The body is undocumented and arrives as type "Other"; the answer is always {"status":"OK"}, never items.',
	},
	{
		name: 'Updates (ReceiveUpdate)',
		value: 'ReceiveUpdate',
		description: 'New, edited and removed messages, chat keypad taps, bot started and stopped, payments',
	},
];

const webhookProperties: INodeProperties[] = [
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
		displayOptions: byWebhook,
		description:
			'A secret derived from the bot token goes into the address registered with Rubika, and deliveries without it are refused (403). Rubika signs nothing it sends, so this is what tells its deliveries from anyone else\'s.',
	},
	{
		displayName:
			'Without a secret, anyone who knows or guesses this workflow\'s webhook address can make it run with fake updates (fake senders, fake texts). Turn it off only when something in front of n8n checks the deliveries.',
		name: 'secretOffWarning',
		type: 'notice',
		default: '',
		displayOptions: { show: { [RECEIVE_UPDATES_PARAMETER]: ['webhook'], [SECRET_PARAMETER]: ['off'] } },
	},
	{
		displayName: 'Endpoints',
		name: 'endpoints',
		type: 'multiOptions',
		required: true,
		options: endpointOptions,
		default: ['ReceiveUpdate', 'ReceiveInlineMessage'],
		displayOptions: byWebhook,
		description:
			'Which of the bot\'s endpoints to point at this workflow when it is published. Each one is taken over from whatever held it before.',
	},
];

/** By webhook, Update Types offer the two kinds of event only a webhook receives too. */
const updateTypesProperties: INodeProperties[] = [
	{ ...updateTypesProperty, displayOptions: reading },
	{
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
		displayOptions: byWebhook,
	},
];

const firstActivationProperty: INodeProperties = {
	displayName: 'On First Activation',
	name: 'firstActivation',
	type: 'options',
	options: [
		{
			name: 'Start From Now',
			value: 'startFromNow',
			description: 'Skip the updates that were waiting before the workflow was first published',
		},
		{
			name: 'Process Backlog',
			value: 'processBacklog',
			description: 'Also process the updates Rubika still keeps from before the first publishing',
		},
	],
	default: 'startFromNow',
	displayOptions: reading,
	description:
		'What to do with older updates the first time the workflow is published. Later activations always continue where the trigger stopped.',
};

const options = optionsCollection([
	addSenderDetailsOption,
	downloadFilesOption,
	{
		displayName: 'Idle Interval (Seconds)',
		name: 'idleInterval',
		type: 'number',
		typeOptions: { minValue: MIN_INTERVAL_SECONDS, maxValue: MAX_INTERVAL_SECONDS, numberPrecision: 1 },
		default: DEFAULT_IDLE_INTERVAL_SECONDS,
		displayOptions: readingOption,
		description:
			'The wait used instead of Interval once the bot has had no update for Idle After, to send fewer requests while nobody writes. The first message after such a spell waits up to as long. Set it equal to Interval to never slow down.',
	},
	{
		displayName: 'Idle After (Minutes)',
		name: 'idleAfter',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_IDLE_AFTER_MINUTES, numberPrecision: 2 },
		default: DEFAULT_IDLE_AFTER_MINUTES,
		displayOptions: readingOption,
		description:
			'How long the bot must have had no update before the trigger waits Idle Interval instead of Interval. Until then the first message after a pause is read within about Interval; 0 waits Idle Interval whenever no conversation is on.',
	},
	{
		displayName: 'Interval During a Conversation (Seconds)',
		name: 'conversationInterval',
		type: 'number',
		typeOptions: { minValue: MIN_INTERVAL_SECONDS, maxValue: MAX_INTERVAL_SECONDS, numberPrecision: 2 },
		default: DEFAULT_CONVERSATION_INTERVAL_SECONDS,
		displayOptions: readingOption,
		description:
			'The wait used instead of Interval for a minute after any update, and after the bot posts in a chat from this n8n (a reply, a Send and Wait question): answers and taps on a chat keypad then start their execution within a fraction of a second. At most Interval; set it equal to Interval to never speed up.',
	},
	{
		displayName: 'If Rubika Rejects the Saved Position',
		name: 'onRejectedPosition',
		type: 'options',
		options: [
			{
				name: 'Stop With an Error',
				value: 'error',
				description: 'Report an error and read nothing until you choose one of the others',
			},
			{
				name: 'Restart From the Oldest Kept Update',
				value: 'restartFromOldest',
				description: 'Read again everything Rubika still keeps; updates already delivered are recognised and dropped',
			},
			{
				name: 'Skip to Now',
				value: 'skipToNow',
				description: 'Continue with updates that arrive from now on',
			},
		],
		default: 'restartFromOldest',
		displayOptions: readingOption,
		description:
			'What to do when Rubika no longer accepts the position the trigger saved (for example after Rubika lost it)',
	},
	{
		displayName: 'Interval (Seconds)',
		name: 'interval',
		type: 'number',
		typeOptions: { minValue: MIN_INTERVAL_SECONDS, maxValue: MAX_INTERVAL_SECONDS, numberPrecision: 1 },
		default: DEFAULT_INTERVAL_SECONDS,
		displayOptions: readingOption,
		description:
			'How long to wait before asking Rubika again when it had nothing new. While updates keep coming, the next request goes out at once.',
	},
	maxDownloadTimeOption,
	maxFileSizeOption,
	{
		displayName: 'Page Size',
		name: 'pageSize',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1000 },
		default: DEFAULT_PAGE_SIZE,
		displayOptions: readingOption,
		description: 'How many updates to ask Rubika for in one getUpdates request',
	},
	binaryPropertyNameOption,
	{
		displayName: 'Repeated Tap Window (Seconds)',
		name: 'tapRepeatWindow',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: DEFAULT_TAP_WINDOW_SECONDS,
		displayOptions: webhookOption,
		description:
			'Identical inline keypad taps (same user, message and button) arriving within this many seconds start one execution. Rubika\'s taps carry no ID or time, so a tap delivered twice cannot be told apart from a second tap any other way. 0 treats every tap as new.',
	},
]);

/** The panel, in the order the editor shows it. */
export const triggerProperties: INodeProperties[] = [
	receiveUpdatesProperty,
	...notices,
	...webhookProperties,
	...updateTypesProperties,
	firstActivationProperty,
	updateFiltersProperty,
	options,
];

/** The trigger's webhooks (they exist only while it receives by webhook). */
export const triggerWebhooks = webhookRoutes(RECEIVE_UPDATES_PARAMETER, SECRET_PARAMETER);

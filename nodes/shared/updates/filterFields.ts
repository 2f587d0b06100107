/**
 * The filter parameters both triggers show: Update Types and the Filters collection, whose values
 * filters.ts reads. Names and defaults are part of saved workflows: never change them.
 */
import type { INodeProperties } from 'n8n-workflow';

import { sortedByName } from '../descriptions';
import type { ChatKind, ContentKind } from './item';

/** Each chat kind's option: [name, description]. */
const CHAT_KIND_LABELS: Record<ChatKind, [string, string]> = {
	private: ['Private Chat', 'A person\'s chat with the bot (IDs starting b0)'],
	group: ['Group', 'Groups (IDs starting g0)'],
	channel: ['Channel', 'Channels (IDs starting c0)'],
};

/** Each content kind's option: [name, description]. */
const CONTENT_KIND_LABELS: Record<ContentKind, [string, string]> = {
	text: ['Text', 'Text only'],
	file: ['File', 'A file, photo, video, voice or music'],
	location: ['Location', 'A shared location'],
	contact: ['Contact', 'A shared contact'],
	poll: ['Poll', 'A poll'],
	sticker: ['Sticker', 'A sticker'],
};

/** A filter choosing among kinds, with one option per kind (every kind has one), ordered by name. */
function kindFilter<T extends string>(
	displayName: string,
	name: string,
	labels: Record<T, [string, string]>,
	description: string,
): INodeProperties {
	const options = sortedByName(
		Object.entries<[string, string]>(labels).map(([value, [label, detail]]) => ({ name: label, value, description: detail })),
	);
	return { displayName, name, type: 'multiOptions', options, default: [], description };
}

/** "Update Types": which kinds of update start the workflow. */
export const updateTypesProperty: INodeProperties = {
	displayName: 'Update Types',
	name: 'updateTypes',
	type: 'multiOptions',
	options: [
		{ name: 'Bot Started', value: 'StartedBot', description: 'A user started the bot (pressed Start)' },
		{ name: 'Bot Stopped', value: 'StoppedBot', description: 'A user stopped or blocked the bot' },
		{ name: 'Message Edited', value: 'UpdatedMessage', description: 'A message was edited' },
		{ name: 'Message Removed', value: 'RemovedMessage', description: 'A message was deleted' },
		{
			name: 'New Message',
			value: 'NewMessage',
			description: 'A message to the bot, including chat keypad (reply keyboard) taps',
		},
		{ name: 'Payment Updated', value: 'UpdatedPayment', description: 'The status of a payment changed' },
	],
	default: ['NewMessage'],
	description: 'Which updates start the workflow. Leave empty for every type.',
};

/** "Filters": applied to each update before anything else is done with it (downloads included). */
export const updateFiltersProperty: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add filter',
	default: {},
	description: 'Only updates that pass every filter set here start the workflow',
	options: [
		{
			displayName: 'Button IDs',
			name: 'buttonIds',
			type: 'string',
			default: '',
			placeholder: 'yes, no, r1b2',
			description:
				'Only taps on these buttons: chat keypad taps (New Message with the button\'s ID) and, for the webhook trigger, inline keypad taps. Separate IDs with commas.',
		},
		{
			displayName: 'Chat IDs',
			name: 'chatIds',
			type: 'string',
			default: '',
			placeholder: 'b0abc…, g0def…',
			description: 'Only updates from these chats. Separate IDs with commas.',
		},
		kindFilter('Chat Types', 'chatTypes', CHAT_KIND_LABELS, 'Only updates from chats of these kinds'),
		{
			displayName: 'Command List',
			name: 'commands',
			type: 'string',
			default: '',
			placeholder: '/start, /help',
			description:
				'Only messages starting with one of these commands (case-insensitive, separated by commas). Implies Only Commands.',
		},
		kindFilter('Content Types', 'contentKinds', CONTENT_KIND_LABELS, 'Only messages that hold these kinds of content'),
		{
			displayName: 'Ignore Messages From Bots',
			name: 'ignoreBots',
			type: 'boolean',
			default: true,
			description: 'Whether to drop messages whose sender is a bot, so that bots cannot trigger each other in loops',
		},
		{
			displayName: 'Ignore Updates Older Than (Seconds)',
			name: 'maxAgeSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'Drop updates that are older than this when read, e.g. after the workflow was off for a long time. Updates without a time (inline taps) pass. 0 keeps every update.',
		},
		{
			displayName: 'Only Commands',
			name: 'onlyCommands',
			type: 'boolean',
			default: true,
			description: 'Whether to keep only messages whose text starts with a slash command such as /start',
		},
		{
			displayName: 'Sender IDs',
			name: 'senderIds',
			type: 'string',
			default: '',
			placeholder: 'u0abc…, u0def…',
			description:
				'Only messages from these users. Separate IDs with commas. Updates without a sender (bot started/stopped, removals, payments) do not pass.',
		},
		{
			displayName: 'Text Pattern',
			name: 'textPattern',
			type: 'string',
			default: '',
			placeholder: '^order\\s+\\d+',
			description:
				'Only messages whose text matches this regular expression. Write /pattern/flags for flags such as i (ignore case).',
		},
	],
};

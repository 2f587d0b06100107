import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { optionsNamedByValue } from '../../../shared/descriptions';
import { InputError } from '../../../shared/errors';
import { callRubika } from '../../../shared/transport';
import { UPDATE_ENDPOINT_TYPES } from '../../../shared/types';
import type { UpdateEndpointType } from '../../../shared/types';
import { requireString } from '../../helpers/params';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';

const URL_FIELD = 'URL';

const TYPE_DESCRIPTIONS: Record<UpdateEndpointType, string> = {
	ReceiveUpdate: 'New, edited and deleted messages, chat keypad taps, bot started or stopped',
	ReceiveInlineMessage: 'Taps on inline keypad buttons',
	ReceiveQuery: 'Queries sent to the bot',
	GetSelectionItem: 'Requests for the items of a selection button',
	SearchSelectionItems: 'Searches inside a selection button',
};

const TYPE_OPTIONS = optionsNamedByValue(UPDATE_ENDPOINT_TYPES, TYPE_DESCRIPTIONS);

export const updateBotEndpoints: RubikaOperation = {
	value: 'updateBotEndpoints',
	name: 'Set Endpoint',
	action: 'Set the bot endpoint',
	description: 'Tell Rubika where to send one kind of event, e.g. updates or inline keypad taps (updateBotEndpoints)',
	properties: [
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://example.com/webhook/rubika',
			description:
				'Address Rubika will POST the events to. It must be a public HTTPS URL. The Rubika Trigger registers itself when it receives by webhook; use this for other receivers.',
		},
		{
			displayName: 'Endpoint Type',
			name: 'endpointType',
			type: 'options',
			options: TYPE_OPTIONS,
			default: 'ReceiveUpdate',
			description: 'Which events go to this URL; each type has its own URL',
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const url = requireString(this, 'url', itemIndex, URL_FIELD);
		// Catch typos here; whether the address is acceptable (public, HTTPS) is Rubika's call.
		let parsed: URL | undefined;
		try {
			parsed = new URL(url);
		} catch {
			parsed = undefined;
		}
		if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
			throw new InputError(URL_FIELD, `"${url}" is not a web address; enter a full URL such as https://example.com/rubika`);
		}
		const type = this.getNodeParameter('endpointType', itemIndex, 'ReceiveUpdate') as string;
		if (!(UPDATE_ENDPOINT_TYPES as readonly string[]).includes(type)) {
			throw new InputError('Endpoint Type', `must be one of ${UPDATE_ENDPOINT_TYPES.join(', ')}, got "${type}"`);
		}
		const data = await callRubika(this, 'updateBotEndpoints', { url, type }, call);
		// The call itself succeeds either way: Rubika reports a refused address only in data.status.
		if (data.status !== 'Done') {
			const status = String(data.status ?? 'no status');
			const refused = status === 'InvalidUrl';
			throw new NodeApiError(
				this.getNode(),
				{ method: 'updateBotEndpoints', status, url, type },
				{
					message: refused
						? `Rubika refused the URL ${url} (InvalidUrl)`
						: `Rubika did not set the endpoint: it answered "${status}" instead of "Done"`,
					description: refused
						? 'Rubika needs a public HTTPS URL on a real domain that it can reach from the internet; plain http, localhost and private addresses are refused.'
						: 'The endpoint may not be registered. Check the URL and try again.',
					itemIndex,
				},
			);
		}
		return { status: data.status, url, type };
	},
};

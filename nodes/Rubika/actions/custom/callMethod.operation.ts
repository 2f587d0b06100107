import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { InputError } from '../../../shared/errors';
import { isPlainObject } from '../../../shared/json';
import { callAnyMethod } from '../../../shared/transport';
import { readJsonObject, requireString } from '../../helpers/params';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';

const METHOD_FIELD = 'Method';
const BODY_FIELD = 'Body (JSON)';

/**
 * Bot API method names are plain camelCase words. Anything else is refused, so the name can never add
 * path segments, a query or a different host to the request URL the credential builds from it.
 */
const METHOD_NAME = /^[A-Za-z]+$/;

export const callMethod: RubikaOperation = {
	value: 'callMethod',
	name: 'Call Method',
	action: 'Call a bot API method',
	description:
		'Call any Rubika Bot API method with a JSON body, for what the node does not offer yet; outputs the answer\'s data',
	properties: [
		{
			displayName: 'Method',
			name: 'method',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'getChat',
			description: 'Name of the Bot API method, e.g. getChat or sendMessage (letters only)',
		},
		{
			displayName: 'Body (JSON)',
			name: 'body',
			type: 'json',
			default: '{}',
			placeholder: '{"chat_id": "b0…"}',
			description: 'The request body as a JSON object. Keep IDs as strings.',
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const method = requireString(this, 'method', itemIndex, METHOD_FIELD);
		if (!METHOD_NAME.test(method)) {
			throw new InputError(METHOD_FIELD, `"${method}" is not a method name; use letters only, such as getChat`);
		}
		const body = readJsonObject(this, 'body', itemIndex, BODY_FIELD) as IDataObject;
		const data = await callAnyMethod(this, method, body, call);
		// `data` is an object for every known method; anything else is wrapped so it still makes one item.
		if (isPlainObject(data)) return { ...(data as IDataObject) };
		return { data: data as IDataObject };
	},
};

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { InputError } from '../../../shared/errors';
import { parseJsonKeepingBigIntegers } from '../../../shared/json';
import { callRubika } from '../../../shared/transport';
import { requireString } from '../../helpers/params';
import type { RubikaOperation } from '../types';
import { chatIdProperty, readChatId, readSendExtras, sendExtrasProperties } from './common';

const OPTIONS_FIELD = 'Poll Options';
const OPTIONS_JSON_FIELD = 'Poll Options (JSON)';

export const sendPoll: RubikaOperation = {
	value: 'sendPoll',
	name: 'Send Poll',
	action: 'Send a poll',
	description: 'Send a poll with a question and at least two answers (sendPoll)',
	properties: [
		chatIdProperty(),
		{
			displayName: 'Question',
			name: 'question',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'Where shall we have lunch?',
			description: 'The question the poll asks',
		},
		{
			displayName: 'Poll Options Input',
			name: 'pollOptionsMode',
			type: 'options',
			options: [
				{ name: 'List', value: 'list', description: 'Add the answers one by one' },
				{
					name: 'JSON',
					value: 'json',
					description: 'Give the answers as a JSON list, or as a list from an expression',
				},
			],
			default: 'list',
			description: 'How the answers are given: one by one, or as a list (JSON or an expression)',
		},
		{
			displayName: 'Poll Options',
			name: 'pollOptions',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Poll Option',
			default: {},
			description: 'The answers people can choose, in order; at least two',
			displayOptions: { show: { pollOptionsMode: ['list'] } },
			options: [
				{
					displayName: 'Option',
					name: 'option',
					values: [
						{
							displayName: 'Text',
							name: 'text',
							type: 'string',
							default: '',
							description: 'One answer',
						},
					],
				},
			],
		},
		{
			displayName: 'Poll Options (JSON)',
			name: 'pollOptionsJson',
			type: 'json',
			default: '',
			placeholder: '["Yes", "No", "Maybe"]',
			description: 'A list of at least two answers, e.g. ["Yes", "No"]',
			displayOptions: { show: { pollOptionsMode: ['json'] } },
		},
		...sendExtrasProperties(),
	],
	recipient: readChatId,
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const chatId = readChatId(this, itemIndex);
		const question = requireString(this, 'question', itemIndex, 'Question', { keepSpaces: true });
		const mode = this.getNodeParameter('pollOptionsMode', itemIndex, 'list') as string;
		const options =
			mode === 'json'
				? parsePollOptionsJson(this.getNodeParameter('pollOptionsJson', itemIndex, '') as unknown)
				: listOptions(this.getNodeParameter('pollOptions', itemIndex, {}) as { option?: Array<{ text?: unknown }> });
		const body: IDataObject = { chat_id: chatId, question, options, ...readSendExtras(this, itemIndex) };
		const data = await callRubika(this, 'sendPoll', body, { itemIndex });
		return { ...data, chat_id: chatId, question, options };
	},
};

function listOptions(value: { option?: Array<{ text?: unknown }> }): string[] {
	return checkOptions(
		(value.option ?? []).map((entry) => entry.text),
		OPTIONS_FIELD,
	);
}

/** A JSON list, or the list an expression produced; numbers are accepted as answers ("1", "2"). */
export function parsePollOptionsJson(input: unknown): string[] {
	let value = input;
	if (typeof value === 'string') {
		if (value.trim() === '') throw new InputError(OPTIONS_JSON_FIELD, 'is empty; enter a list such as ["Yes", "No"]');
		let problem: string | undefined;
		try {
			value = parseJsonKeepingBigIntegers(value);
		} catch (error) {
			problem = (error as Error).message;
		}
		if (problem !== undefined) throw new InputError(OPTIONS_JSON_FIELD, `is not valid JSON: ${problem}`);
	}
	if (!Array.isArray(value)) {
		throw new InputError(OPTIONS_JSON_FIELD, 'must be a list of answers such as ["Yes", "No"]');
	}
	return checkOptions(value, OPTIONS_JSON_FIELD);
}

function checkOptions(values: unknown[], field: string): string[] {
	const options = values.map((value, index) => {
		const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
		if (typeof text !== 'string' || text.trim() === '') {
			throw new InputError(field, `answer ${index + 1} must be a non-empty text, got ${JSON.stringify(value) ?? 'nothing'}`);
		}
		return text;
	});
	if (options.length < 2) {
		throw new InputError(field, `a poll needs at least 2 answers, got ${options.length}`);
	}
	return options;
}

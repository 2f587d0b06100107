import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputError } from '../../../shared/errors';
import { parseJsonField } from '../../../shared/json';
import { callRubika } from '../../../shared/transport';
import { inputModeProperties } from '../../helpers/inputMode';
import { readInteger, readString, readSwitch, requireString } from '../../helpers/params';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { UNDOCUMENTED_NOTE } from '../undocumented';
import { SEND_TO_CHAT_DESCRIPTION, chatIdProperty, readChatId, readSendExtras, sendExtrasProperties } from './common';

const OPTIONS_FIELD = 'Poll Options';
const OPTIONS_JSON_FIELD = 'Poll Options (JSON)';
const POLL_TYPE_FIELD = 'Poll Type';
const CORRECT_ANSWER_FIELD = 'Correct Answer';
const EXPLANATION_FIELD = 'Explanation';

export const sendPoll: RubikaOperation = {
	value: 'sendPoll',
	name: 'Send Poll',
	action: 'Send a poll',
	description:
		'Send a poll with a question and at least two answers, or a quiz with one correct answer (sendPoll)',
	properties: [
		chatIdProperty(SEND_TO_CHAT_DESCRIPTION),
		{
			displayName: 'Question',
			name: 'question',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'Where shall we have lunch?',
			description: 'The question the poll asks',
		},
		...inputModeProperties(
			{
				displayName: 'Poll Options Input',
				name: 'pollOptionsMode',
				default: 'list',
				description: 'How the answers are given: one by one, or as a list (JSON or an expression)',
			},
			[
				{
					name: 'List',
					value: 'list',
					description: 'Add the answers one by one',
					fields: [
						{
							displayName: 'Poll Options',
							name: 'pollOptions',
							type: 'fixedCollection',
							typeOptions: { multipleValues: true, sortable: true },
							placeholder: 'Add Poll Option',
							default: {},
							description: 'The answers people can choose, in order; at least two',
							options: [
								{
									displayName: 'Option',
									name: 'option',
									values: [{ displayName: 'Text', name: 'text', type: 'string', default: '', description: 'One answer' }],
								},
							],
						},
					],
				},
				{
					name: 'JSON',
					value: 'json',
					description: 'Give the answers as a JSON list, or as a list from an expression',
					fields: [
						{
							displayName: 'Poll Options (JSON)',
							name: 'pollOptionsJson',
							type: 'json',
							default: '',
							placeholder: '["Yes", "No", "Maybe"]',
							description: 'A list of at least two answers, e.g. ["Yes", "No"]',
						},
					],
				},
			],
		),
		...pollKindProperties(),
		...sendExtrasProperties(),
	],
	recipient: readChatId,
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const question = requireString(this, 'question', itemIndex, 'Question', { keepSpaces: true });
		const mode = this.getNodeParameter('pollOptionsMode', itemIndex, 'list') as string;
		const options =
			mode === 'json'
				? parsePollOptionsJson(this.getNodeParameter('pollOptionsJson', itemIndex, '') as unknown)
				: listOptions(this.getNodeParameter('pollOptions', itemIndex, {}) as { option?: Array<{ text?: unknown }> });
		const kind = readPollKind(this, itemIndex, options.length);
		const body: IDataObject = { chat_id: chatId, question, options, ...kind, ...readSendExtras(this, itemIndex) };
		const data = await callRubika(this, 'sendPoll', body, call);
		return { ...data, chat_id: chatId, question, options, ...kind };
	},
};

/**
 * Quizzes, multiple answers and public voting: fields the client libraries send (rubpy, rubka) but the
 * official documentation does not list (docs/api-facts.md §9), so each says so. A regular poll left at their
 * defaults adds nothing to the request, which then stays the documented one.
 */
function pollKindProperties(): INodeProperties[] {
	return [
		{
			displayName: `Poll Type, Correct Answer, Explanation, Allow Multiple Answers and Anonymous: ${UNDOCUMENTED_NOTE}. A regular poll left at their defaults adds nothing to the request.`,
			name: 'pollKindNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Poll Type',
			name: 'pollType',
			type: 'options',
			options: [
				{ name: 'Quiz', value: 'quiz', description: 'One answer is correct; people see whether they chose it' },
				{ name: 'Regular', value: 'regular', description: 'People vote for the answers they like' },
			],
			default: 'regular',
			description: 'A regular poll, or a quiz with one correct answer',
		},
		{
			displayName: 'Correct Answer',
			name: 'correctAnswer',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			required: true,
			default: 1,
			description: 'Which answer is correct, counted from 1 (1 = the first answer)',
			displayOptions: { show: { pollType: ['quiz'] } },
		},
		{
			displayName: 'Explanation',
			name: 'explanation',
			type: 'string',
			default: '',
			description: 'Optional text shown to people after they answer, e.g. why the answer is correct',
			displayOptions: { show: { pollType: ['quiz'] } },
		},
		{
			displayName: 'Allow Multiple Answers',
			name: 'allowMultipleAnswers',
			type: 'boolean',
			default: false,
			description: 'Whether people may choose more than one answer',
			displayOptions: { show: { pollType: ['regular'] } },
		},
		{
			displayName: 'Anonymous',
			name: 'anonymous',
			type: 'boolean',
			default: true,
			description: 'Whether votes are anonymous; off shows who voted for what',
		},
	];
}

/**
 * The poll's kind as request fields. A regular poll sends only what differs from an anonymous single-answer
 * poll, so the default one is the documented request. A quiz always carries allows_multiple_answers (false:
 * one answer is correct) and is_anonymous, as every quiz of the libraries that make them (rubpy, rubka) does.
 */
function readPollKind(context: IExecuteFunctions, itemIndex: number, answerCount: number): IDataObject {
	const fields: IDataObject = {};
	const anonymous = readSwitch(context, 'anonymous', itemIndex, 'Anonymous', true);
	const type = readString(context, 'pollType', itemIndex, POLL_TYPE_FIELD).trim().toLowerCase() || 'regular';
	if (type !== 'regular' && type !== 'quiz') {
		throw new InputError(POLL_TYPE_FIELD, `must be regular or quiz, got "${type}"`);
	}
	if (type === 'quiz') {
		const correct = readInteger(context, 'correctAnswer', itemIndex, CORRECT_ANSWER_FIELD, { min: 1, fallback: 1 });
		if (correct > answerCount) {
			throw new InputError(CORRECT_ANSWER_FIELD, `is answer ${correct}, but the poll has only ${answerCount} answers`);
		}
		fields.type = 'Quiz';
		fields.allows_multiple_answers = false;
		fields.is_anonymous = anonymous;
		fields.correct_option_index = correct - 1;
		const explanation = readString(context, 'explanation', itemIndex, EXPLANATION_FIELD).trim();
		if (explanation !== '') fields.explanation = explanation;
		return fields;
	}
	if (readSwitch(context, 'allowMultipleAnswers', itemIndex, 'Allow Multiple Answers', false)) fields.allows_multiple_answers = true;
	if (!anonymous) fields.is_anonymous = false;
	return fields;
}

function listOptions(value: { option?: Array<{ text?: unknown }> }): string[] {
	return checkOptions(
		(value.option ?? []).map((entry) => entry.text),
		OPTIONS_FIELD,
	);
}

/** A JSON list, or the list an expression produced; numbers are accepted as answers ("1", "2"). */
function parsePollOptionsJson(input: unknown): string[] {
	const value = parseJsonField(input, OPTIONS_JSON_FIELD);
	if (value === undefined && typeof input === 'string') {
		throw new InputError(OPTIONS_JSON_FIELD, 'is empty; enter a list such as ["Yes", "No"]');
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

/**
 * Choose One of Several: 2–10 choices, each a label the person sees and a value the workflow gets. In the
 * chat one Simple button per choice (one per row: labels may be long, and Persian ones read best alone); on
 * the web page a dropdown of the labels. Output `{ value, label }`.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_CHOICES, choiceDecision, choiceIndexOf } from '../../../shared/chatAnswers';
import { InputError } from '../../../shared/errors';
import { isPlainObject, parseJsonField } from '../../../shared/json';
import { inputModeProperties } from '../../helpers/inputMode';
import type { QuestionKind } from './types';

const CHOICES_FIELD = 'Choices';
const MIN_CHOICES = 2;

interface Choice {
	label: string;
	value: unknown;
}

/** Reads the builder's rows or the JSON list (objects with label and value, or plain labels). */
function readChoices(parameters: (name: string, fallback: unknown) => unknown): Choice[] {
	const json = parameters('defineChoices', 'fields') === 'json';
	const raw = json ? parseJsonField(parameters('choicesJson', ''), `${CHOICES_FIELD} (JSON)`) : parameters('choices.values', []);
	const field = json ? `${CHOICES_FIELD} (JSON)` : CHOICES_FIELD;
	if (!Array.isArray(raw) || raw.length < MIN_CHOICES || raw.length > MAX_CHOICES) {
		throw new InputError(field, `needs ${MIN_CHOICES} to ${MAX_CHOICES} choices, got ${Array.isArray(raw) ? raw.length : 'none'}`);
	}
	const labels = new Set<string>();
	return raw.map((entry: unknown, index) => {
		const where = `choice ${index + 1}`;
		const object: IDataObject = isPlainObject(entry) ? (entry as IDataObject) : { label: entry as IDataObject[string] };
		const label = typeof object.label === 'string' || typeof object.label === 'number' ? String(object.label).trim() : '';
		if (label === '') throw new InputError(field, `${where} has no label`);
		if (labels.has(label)) throw new InputError(field, `${where}: the label "${label}" is used twice`);
		labels.add(label);
		const value = object.value === undefined || object.value === null || object.value === '' ? label : object.value;
		return { label, value };
	});
}

export const choice: QuestionKind = {
	value: 'choice',
	name: 'Choose One of Several',
	description: 'The person picks one of 2 to 10 choices you define',
	fields: inputModeProperties(
		{ displayName: 'Define Choices', name: 'defineChoices', noDataExpression: true, default: 'fields', description: 'How the choices are given' },
		[
			{
				name: 'Using Fields Below',
				value: 'fields',
				description: 'Add the choices one by one',
				fields: [
					{
						displayName: 'Choices',
						name: 'choices',
						type: 'fixedCollection',
						placeholder: 'Add Choice',
						typeOptions: { multipleValues: true, sortable: true },
						default: {},
						description: 'Between 2 and 10 choices; the answer is the value of the one picked',
						options: [
							{
								displayName: 'Values',
								name: 'values',
								values: [
									{
										displayName: 'Label',
										name: 'label',
										type: 'string',
										default: '',
										required: true,
										placeholder: 'e.g. Tomorrow morning',
										description: 'What the button (or the dropdown on the web page) shows',
									},
									{
										displayName: 'Value',
										name: 'value',
										type: 'string',
										default: '',
										placeholder: 'e.g. morning',
										description: 'What the workflow gets when this choice is picked; empty: the label',
									},
								],
							},
						],
					},
				],
			},
			{
				name: 'Using JSON',
				value: 'json',
				description: 'A JSON list of choices, e.g. from an expression',
				fields: [
					{
						displayName: 'Choices (JSON)',
						name: 'choicesJson',
						type: 'json',
						default: '[\n  { "label": "Tomorrow morning", "value": "morning" },\n  { "label": "Tomorrow evening", "value": "evening" }\n]',
						description: 'A list of 2 to 10 choices: objects with a label and a value (any JSON value), or plain labels (the value is the label)',
					},
				],
			},
		],
	),
	question(parameters) {
		const choices = readChoices(parameters);
		return {
			rows: choices.map((entry, index) => [{ decision: choiceDecision(index), type: 'Simple', text: entry.label }]),
			web: {
				form: [{ label: 'Your choice', type: 'dropdown', required: true, options: choices.map((entry) => entry.label) }],
				given: ([label]) => {
					const index = choices.findIndex((entry) => entry.label === label.trim());
					// A label that is not offered decides nothing: read() refuses the unknown decision.
					return { decision: index >= 0 ? choiceDecision(index) : 'input' };
				},
			},
			read({ decision }) {
				const picked = choices[choiceIndexOf(decision) ?? -1];
				if (!picked) return { ok: false, problem: 'that is not one of the choices' };
				return { ok: true, data: { value: picked.value, label: picked.label } as IDataObject, shown: picked.label };
			},
		};
	},
};

/**
 * The form a person fills in for "Free Text" and "Custom Form": its fields as the node defines them (builder
 * or JSON, n8n Form's JSON shape), and the submitted body read back into values named by field label.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { InputError } from '../../shared/errors';
import { isPlainObject, parseJsonField } from '../../shared/json';
import { inputModeProperties } from '../helpers/inputMode';

/** The types the form reads; exported for the test that checks the Field Type dropdown offers exactly these. */
export const FORM_FIELD_TYPES = ['text', 'textarea', 'number', 'email', 'date', 'dropdown', 'checkbox'] as const;
type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

export interface FormField {
	label: string;
	type: FormFieldType;
	required: boolean;
	/** Choices of a dropdown. */
	options: string[];
	placeholder?: string;
	/** The least and greatest value a number or date field takes (the browser checks; the node reads it again). */
	min?: string;
	max?: string;
}

const FORM_FIELDS_FIELD = 'Form Fields';

/** The field Free Text shows: one required text box. */
export const FREE_TEXT_FIELDS: FormField[] = [{ label: 'Response', type: 'textarea', required: true, options: [] }];

/**
 * How the Custom Form's fields are given: one by one, or as JSON. Send and Wait shows them under Response
 * Type "Custom Form".
 */
export const formDefinitionProperties: INodeProperties[] = inputModeProperties(
	{
		displayName: 'Define Form',
		name: 'defineForm',
		noDataExpression: true,
		default: 'fields',
		description: 'How the form\'s fields are given',
	},
	[
		{
			name: 'Using Fields Below',
			value: 'fields',
			description: 'Add the fields one by one',
			fields: [
				{
					displayName: 'Form Fields',
					name: 'formFields',
					type: 'fixedCollection',
					placeholder: 'Add Form Field',
					typeOptions: { multipleValues: true, sortable: true },
					default: {},
					description: 'The fields the person fills in; the answer holds one value per field, named by its label',
					options: [
						{
							displayName: 'Values',
							name: 'values',
							values: [
								{
									displayName: 'Choices',
									name: 'fieldOptions',
									type: 'string',
									default: '',
									placeholder: 'Red, Green, Blue',
									description: 'The dropdown\'s choices, separated by commas',
									displayOptions: { show: { fieldType: ['dropdown'] } },
								},
								{
									displayName: 'Field Label',
									name: 'fieldLabel',
									type: 'string',
									default: '',
									placeholder: 'e.g. Your name',
									required: true,
									description: 'Shown above the field, and the key of its value in the answer',
								},
								{
									displayName: 'Field Type',
									name: 'fieldType',
									type: 'options',
									default: 'text',
									description: 'What the person enters',
									options: [
										{ name: 'Checkbox', value: 'checkbox', description: 'Yes or no (true or false in the answer)' },
										{ name: 'Date', value: 'date', description: 'A date (YYYY-MM-DD)' },
										{ name: 'Dropdown', value: 'dropdown', description: 'One of the choices below' },
										{ name: 'Email', value: 'email', description: 'An email address' },
										{ name: 'Number', value: 'number', description: 'A number' },
										{ name: 'Text', value: 'text', description: 'One line of text' },
										{ name: 'Textarea', value: 'textarea', description: 'Several lines of text' },
									],
								},
								{
									displayName: 'Placeholder',
									name: 'placeholder',
									type: 'string',
									default: '',
									description: 'Sample text shown in the empty field',
									displayOptions: { hide: { fieldType: ['dropdown', 'checkbox', 'date'] } },
								},
								{
									displayName: 'Required Field',
									name: 'requiredField',
									type: 'boolean',
									default: false,
									description: 'Whether the form can be sent without this field',
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
			description: 'A JSON array of fields, as n8n\'s Form node takes it',
			fields: [
				{
					displayName: 'Form Fields (JSON)',
					name: 'jsonOutput',
					type: 'json',
					default:
						'[\n  {\n    "fieldLabel": "Your name",\n    "requiredField": true\n  },\n  {\n    "fieldLabel": "Priority",\n    "fieldType": "dropdown",\n    "fieldOptions": { "values": [{ "option": "Low" }, { "option": "High" }] }\n  }\n]',
					description:
						'A list of fields: fieldLabel, fieldType (text, textarea, number, email, date, dropdown, checkbox), requiredField, placeholder, and for a dropdown fieldOptions {"values": [{"option": "…"}]} or a plain "options" list',
				},
			],
		},
	],
);

/** Reads the builder's rows or the JSON list into checked fields; InputError names what is wrong. */
export function parseFormFields(defineForm: string, builderValues: unknown, json: unknown): FormField[] {
	let raw: unknown = builderValues;
	if (defineForm === 'json') {
		raw = parseJsonField(json, FORM_FIELDS_FIELD);
		if (raw === undefined && typeof json === 'string') throw new InputError(FORM_FIELDS_FIELD, 'is empty; give a list of fields');
	}
	if (!Array.isArray(raw) || raw.length === 0) {
		throw new InputError(FORM_FIELDS_FIELD, 'needs at least one field');
	}
	const labels = new Set<string>();
	return raw.map((entry: unknown, index) => {
		const where = `field ${index + 1}`;
		if (!isPlainObject(entry)) {
			throw new InputError(FORM_FIELDS_FIELD, `${where} must be an object with a fieldLabel`);
		}
		const field = entry as IDataObject;
		const label = typeof field.fieldLabel === 'string' ? field.fieldLabel.trim() : '';
		if (label === '') throw new InputError(FORM_FIELDS_FIELD, `${where} has no fieldLabel`);
		if (labels.has(label)) throw new InputError(FORM_FIELDS_FIELD, `${where}: the label "${label}" is used twice`);
		labels.add(label);
		const type = String(field.fieldType ?? 'text').toLowerCase() as FormFieldType;
		if (!(FORM_FIELD_TYPES as readonly string[]).includes(type)) {
			throw new InputError(FORM_FIELDS_FIELD, `${where}: fieldType "${String(field.fieldType)}" is not one of ${FORM_FIELD_TYPES.join(', ')}`);
		}
		const options = readChoices(field);
		if (type === 'dropdown' && options.length === 0) {
			throw new InputError(FORM_FIELDS_FIELD, `${where}: a dropdown needs at least one choice`);
		}
		const placeholder = typeof field.placeholder === 'string' && field.placeholder !== '' ? field.placeholder : undefined;
		return { label, type, required: field.requiredField === true || field.requiredField === 'true', options, placeholder };
	});
}

function readChoices(field: IDataObject): string[] {
	const source = field.fieldOptions ?? field.options;
	let list: unknown[] = [];
	if (typeof source === 'string') list = source.split(',');
	else if (Array.isArray(source)) list = source;
	else if (typeof source === 'object' && source !== null && Array.isArray((source as IDataObject).values)) {
		list = ((source as IDataObject).values as unknown[]).map((value) =>
			typeof value === 'object' && value !== null ? (value as IDataObject).option : value,
		);
	}
	return list.map((choice) => String(choice ?? '').trim()).filter((choice) => choice !== '');
}

/** The name of the `index`-th field in the page's form (labels may hold any character). */
export function inputName(index: number): string {
	return `field-${index}`;
}

export type Submission = { ok: true; values: IDataObject } | { ok: false; problems: string[] };

/** The submitted fields: n8n parses a multipart form into `{ data: fields, files }`, a urlencoded one into the fields. */
export function submittedFields(body: unknown): IDataObject {
	if (!isPlainObject(body)) return {};
	const { data } = body;
	if ('files' in body && isPlainObject(data)) return data as IDataObject;
	return body as IDataObject;
}

/** The text submitted for each field, in the fields' order ('' for one left out). */
export function submittedTexts(fields: FormField[], body: IDataObject): string[] {
	return fields.map((_, index) => {
		const raw = body[inputName(index)];
		return Array.isArray(raw) ? String(raw[0] ?? '') : raw === undefined || raw === null ? '' : String(raw);
	});
}

/** Reads a submitted form body (urlencoded, parsed by n8n) against the fields. */
export function readSubmission(fields: FormField[], body: unknown): Submission {
	const data = (typeof body === 'object' && body !== null ? body : {}) as IDataObject;
	const values: IDataObject = {};
	const problems: string[] = [];
	const texts = submittedTexts(fields, data);
	fields.forEach((field, index) => {
		const text = texts[index];
		if (field.type === 'checkbox') {
			const checked = text !== '' && text !== 'false';
			if (field.required && !checked) problems.push(`${field.label} must be ticked`);
			values[field.label] = checked;
			return;
		}
		const value = text.trim();
		if (value === '') {
			if (field.required) problems.push(`${field.label} is required`);
			values[field.label] = field.type === 'number' ? null : '';
			return;
		}
		if (field.type === 'number') {
			const number = Number(value);
			if (!Number.isFinite(number)) problems.push(`${field.label} must be a number`);
			values[field.label] = number;
		} else if (field.type === 'dropdown' && !field.options.includes(value)) {
			problems.push(`${field.label} must be one of the choices`);
		} else if (field.type === 'email' && !/^[^\s@]+@[^\s@]+$/.test(value)) {
			problems.push(`${field.label} must be an email address`);
		} else if (field.type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
			problems.push(`${field.label} must be a date`);
		}
		if (field.type !== 'number') values[field.label] = field.type === 'textarea' ? text : value;
	});
	return problems.length > 0 ? { ok: false, problems } : { ok: true, values };
}

/**
 * What every kind of question Send and Wait can ask has to say (one file per kind beside this one): the
 * fields it adds to the panel, the buttons it puts in the chat, what it shows on the web page, and how an
 * answer — given in the chat or on the page — is read into the node's output. The chat path
 * (../chatAnswer.ts) and the web path (../webhook.ts) both go through it, so an answer has the same shape
 * wherever it was given.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ChatAnswerContent, ChatDecision } from '../../../shared/chatAnswers';
import { InputError } from '../../../shared/errors';
import type { ButtonSettingsFields } from '../../keypad/settings';
import { buttonSettings, buttonSettingsKey } from '../../keypad/settings';
import type { FormField } from '../responseForm';

/** Reads one of the node's parameters (its name, the fallback), in whichever context asks. */
export type ParameterReader = (name: string, fallback: unknown) => unknown;

/**
 * An answer, wherever it was given: the decision (the button tapped, the link opened, the choice in the
 * form) and, for an input button or a form, what it carries (text, place, phone number).
 */
export interface GivenAnswer {
	decision: ChatDecision;
	content?: ChatAnswerContent;
}

/** An answer read: the output's `data` and how the chat shows it; or why it cannot be taken. */
type AnswerReading = { ok: true; data: IDataObject; shown: string } | { ok: false; problem: string };

/** One button of the question in the chat, before its id is made: what it decides and what it shows. */
export interface QuestionButton {
	decision: ChatDecision;
	type: string;
	text: string;
	/** The settings object of an input button (`button_calendar`, …), made by the keypad builder. */
	settings?: { key: string; value: Record<string, unknown> };
}

/** How the question is answered on the web page: links that answer at once, or a form. */
export type WebAnswering =
	| { links: Array<{ id: string; label: string; approved: 'true' | 'false' }> }
	| { form: FormField[]; given(values: string[]): GivenAnswer };

/** A question as the node's parameters define it. */
export interface Question {
	/** The buttons in the chat, row by row. */
	rows: QuestionButton[][];
	web: WebAnswering;
	read(answer: GivenAnswer): AnswerReading;
}

/** A Response Type that can be answered in the chat. */
export interface QuestionKind {
	value: string;
	name: string;
	description: string;
	/** Its fields, shown while it is chosen. */
	fields?: INodeProperties[];
	/** The question its fields define; an InputError naming the field when they are wrong. */
	question(parameters: ParameterReader): Question;
}

/** The decisions a question offers: those of its buttons. */
export function offeredDecisions(question: Question): ChatDecision[] {
	return question.rows.flat().map((button) => button.decision);
}

/**
 * What the proof of a fallback link (answer buttons Rubika refused, sent as links) is over: the answer an
 * approval link stands for (`approved`), or `form` for the link to a form.
 */
export function fallbackLinkKind(question: Question, approved: unknown): string {
	return 'links' in question.web ? String(approved) : 'form';
}

/** A label the user set in Options, trimmed, or the fallback. */
function optionText(parameters: ParameterReader, name: string, fallback: string): string {
	const value = parameters(`options.${name}`, '');
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

/**
 * The one input button of a question that asks for a value, labelled by Input Button Label (Chat), with the
 * settings object the keypad builder makes of `settings.fields` (its problems named after `settings.field`).
 */
export function inputButton(
	parameters: ParameterReader,
	type: string,
	defaultLabel: string,
	settings?: { fields: ButtonSettingsFields; field: string },
): QuestionButton[][] {
	const value = settings && buttonSettings(type, settings.fields, (message) => new InputError(settings.field, message));
	const key = buttonSettingsKey(type);
	return [[{ decision: 'input', type, text: optionText(parameters, 'inputButtonLabel', defaultLabel), ...(value && key ? { settings: { key, value } } : {}) }]];
}

/** A form of one field whose text is the input button's answer. */
export function oneFieldForm(field: FormField): WebAnswering {
	return { form: [field], given: ([text]) => ({ decision: 'input', content: { text } }) };
}

/** What an input answer says in its text, or '' (a phone number or a place may come elsewhere). */
export function answerText(answer: GivenAnswer): string {
	return typeof answer.content?.text === 'string' ? answer.content.text : '';
}

/** A long answer shortened for the chat's outcome reply. */
export function shortened(text: string, length = 200): string {
	return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

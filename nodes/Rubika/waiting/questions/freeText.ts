/**
 * Free Text: in the chat a Textbox button (one line or several) the person types into; on the web page a text
 * area. Output `{ text }`, as typed.
 */
import { FREE_TEXT_FIELDS } from '../responseForm';
import type { QuestionKind } from './types';
import { answerText, inputButton, oneFieldForm, shortened } from './types';

export const freeText: QuestionKind = {
	value: 'freeText',
	name: 'Free Text',
	description: 'The person writes an answer',
	fields: [
		{
			displayName: 'Lines (Chat)',
			name: 'textLines',
			type: 'options',
			default: 'MultiLine',
			options: [
				{ name: 'Several Lines', value: 'MultiLine' },
				{ name: 'One Line', value: 'SingleLine' },
			],
			displayOptions: { show: { answerIn: ['inlineButtons', 'chatKeypad'] } },
			description: 'Whether the chat\'s text box takes line breaks',
		},
	],
	question(parameters) {
		const textboxLines = String(parameters('textLines', 'MultiLine'));
		return {
			rows: inputButton(parameters, 'Textbox', '✍️ Write the answer', { fields: { textboxLines }, field: 'Lines (Chat)' }),
			web: oneFieldForm(FREE_TEXT_FIELDS[0]),
			read(answer) {
				const text = answerText(answer);
				if (answer.decision !== 'input' || text.trim() === '') return { ok: false, problem: 'the answer is empty' };
				return { ok: true, data: { text }, shown: shortened(text) };
			},
		};
	},
};

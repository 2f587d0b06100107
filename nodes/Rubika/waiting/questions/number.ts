/**
 * Number: in the chat a Number Picker (Smallest to Largest); on the web page a number field. Output
 * `{ number }`, a number whatever digits it was written in.
 */
import { readNumber } from './normalise';
import type { QuestionKind } from './types';
import { answerText, inputButton, oneFieldForm } from './types';

export const number: QuestionKind = {
	value: 'number',
	name: 'Number',
	description: 'The person picks a number within a range',
	fields: [
		{
			displayName: 'Smallest Number',
			name: 'minNumber',
			type: 'number',
			default: 0,
			description: 'The smallest number that can be picked',
		},
		{
			displayName: 'Largest Number',
			name: 'maxNumber',
			type: 'number',
			default: 100,
			description: 'The largest number that can be picked',
		},
	],
	question(parameters) {
		const minValue = Number(parameters('minNumber', 0));
		const maxValue = Number(parameters('maxNumber', 100));
		return {
			rows: inputButton(parameters, 'NumberPicker', '🔢 Pick a number', { fields: { minValue, maxValue }, field: 'Smallest Number' }),
			web: oneFieldForm({ label: 'Number', type: 'number', required: true, options: [], min: String(minValue), max: String(maxValue) }),
			read(answer) {
				const picked = answer.decision === 'input' ? readNumber(answerText(answer)) : undefined;
				if (picked === undefined) return { ok: false, problem: 'that is not a number' };
				if (picked < minValue || picked > maxValue) return { ok: false, problem: `the number must be from ${minValue} to ${maxValue}` };
				return { ok: true, data: { number: picked }, shown: String(picked) };
			},
		};
	},
};

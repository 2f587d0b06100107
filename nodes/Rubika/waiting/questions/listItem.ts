/**
 * Item From a List: in the chat a String Picker of the items; on the web page a dropdown. Output `{ value }`,
 * the item as listed here (an answer written in other digits or with other spaces still finds it).
 */
import { InputError } from '../../../shared/errors';
import { plainDigits } from './normalise';
import type { QuestionKind } from './types';
import { answerText, inputButton, oneFieldForm } from './types';

const ITEMS_FIELD = 'Items';

/** An item as compared: ASCII digits, single spaces, no spaces at the ends. */
function comparable(text: string): string {
	return plainDigits(text).replace(/\s+/g, ' ').trim();
}

export const listItem: QuestionKind = {
	value: 'listItem',
	name: 'Item From a List',
	description: 'The person picks one item of a list (in the chat, a scrolling picker)',
	fields: [
		{
			displayName: 'Items',
			name: 'listItems',
			type: 'string',
			typeOptions: { rows: 5 },
			default: '',
			required: true,
			placeholder: 'Tehran\nShiraz\nTabriz',
			description: 'One item per line; the answer is the item picked',
		},
	],
	question(parameters) {
		const items = [...new Set(String(parameters('listItems', '')).split(/\r?\n/).map((item) => item.trim()).filter((item) => item !== ''))];
		if (items.length === 0) throw new InputError(ITEMS_FIELD, 'needs at least one item (one per line)');
		return {
			rows: inputButton(parameters, 'StringPicker', '📋 Pick one', { fields: { choices: items.join('\n') }, field: ITEMS_FIELD }),
			web: oneFieldForm({ label: 'Item', type: 'dropdown', required: true, options: items }),
			read(answer) {
				const text = answerText(answer);
				const item = answer.decision === 'input' ? (items.find((entry) => entry === text) ?? items.find((entry) => comparable(entry) === comparable(text))) : undefined;
				if (item === undefined) return { ok: false, problem: 'that is not one of the items' };
				return { ok: true, data: { value: item }, shown: item };
			},
		};
	},
};

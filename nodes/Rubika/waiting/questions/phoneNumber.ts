/**
 * Phone Number: in the chat a button that shares the person's own number (AskMyPhoneNumber); on the web page a
 * text field. Output `{ phone_number }`: `+` and digits. Rubika may send the number as a contact or as text
 * (facts §11): both are read.
 */
import { readPhoneNumber } from './normalise';
import type { QuestionKind } from './types';
import { answerText, inputButton, oneFieldForm } from './types';

export const phoneNumber: QuestionKind = {
	value: 'phoneNumber',
	name: 'Phone Number',
	description: 'The person shares their phone number (in the chat, with one tap)',
	question(parameters) {
		return {
			rows: inputButton(parameters, 'AskMyPhoneNumber', '📞 Share my phone number'),
			web: oneFieldForm({ label: 'Phone number', type: 'text', required: true, options: [], placeholder: '+98 912 345 6789' }),
			read(answer) {
				const given = answer.content?.phone_number ?? answerText(answer);
				const phone = answer.decision === 'input' ? readPhoneNumber(given) : undefined;
				if (phone === undefined) return { ok: false, problem: 'that is not a phone number' };
				return { ok: true, data: { phone_number: phone }, shown: phone };
			},
		};
	},
};

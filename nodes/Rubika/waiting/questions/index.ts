/**
 * The questions Send and Wait asks that can be answered in the chat as well as on the web page, one file each
 * (types.ts says what each one has to say). Custom Form is answered on the web page only (../responseForm.ts).
 */
import { approval } from './approval';
import { choice } from './choice';
import { date } from './date';
import { freeText } from './freeText';
import { listItem } from './listItem';
import { location } from './location';
import { number } from './number';
import { phoneNumber } from './phoneNumber';
import type { ParameterReader, Question, QuestionKind } from './types';

/** In the order the Response Type dropdown shows them. */
export const QUESTION_KINDS: readonly QuestionKind[] = [approval, choice, freeText, date, number, listItem, phoneNumber, location];

/** The question the node's parameters define for a Response Type; undefined for Custom Form. */
export function questionOf(responseType: string, parameters: ParameterReader): Question | undefined {
	return QUESTION_KINDS.find((kind) => kind.value === responseType)?.question(parameters);
}

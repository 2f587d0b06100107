/**
 * Marking the operations that use methods only Rubika's client libraries know of (UNDOCUMENTED_METHODS,
 * docs/api-facts.md §9): the same words in the operation's description, in a notice above its fields and in
 * the README, so nobody mistakes them for documented behaviour.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { UndocumentedMethod } from '../../shared/types';

export const UNDOCUMENTED_NOTE = "Not in Rubika's official documentation; behaviour taken from Rubika's client libraries";

/** The operation's description: what it does, its method, then the note. */
export function undocumentedDescription(what: string, method: UndocumentedMethod): string {
	return `${what} (${method}). ${UNDOCUMENTED_NOTE}`;
}

/** A notice shown above the operation's fields, naming the error a Rubika without the method produces. */
export function undocumentedNotice(method: UndocumentedMethod): INodeProperties {
	return {
		displayName: `${UNDOCUMENTED_NOTE}. A Rubika that does not offer ${method} makes this node fail with "Rubika does not know the method ${method}".`,
		name: 'undocumentedNotice',
		type: 'notice',
		default: '',
	};
}

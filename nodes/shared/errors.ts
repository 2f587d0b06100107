import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/**
 * A problem with what the user entered, found before any request goes out.
 *
 * Pure helpers (keypad, metadata, Markdown) throw this with the name of the field as the user sees it in the
 * node's panel; the action node turns it into a NodeOperationError that also names the item.
 */
export class InputError extends Error {
	constructor(
		readonly field: string,
		message: string,
	) {
		super(message);
		this.name = 'InputError';
	}
}

/** Whether Rubika answered with one of these envelope statuses (not a network or HTTP failure). */
export function isRefusal(error: unknown, ...statuses: string[]): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const status = (error.errorResponse as IDataObject | undefined)?.status;
	return typeof status === 'string' && statuses.includes(status);
}

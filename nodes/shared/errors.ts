import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

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

/**
 * The one conversion of anything thrown into the error n8n shows. An `InputError` becomes a
 * NodeOperationError reading "<field>: <message>", with " [item N]" when an item is concerned; n8n's own
 * errors pass through as the same object (the item index filled in when they lack one); anything else is
 * wrapped, keeping its message.
 */
export function toNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	const item = itemIndex === undefined ? {} : { itemIndex };
	if (error instanceof InputError) {
		const where = itemIndex === undefined ? '' : ` [item ${itemIndex}]`;
		return new NodeOperationError(node, `${error.field}: ${error.message}${where}`, item);
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined && error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(node, error instanceof Error ? error : String(error), item);
}

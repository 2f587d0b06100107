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

import { InputError } from '../../nodes/shared/errors';

/** Runs `action`, expects an InputError and returns it for checks on field and message. */
export function inputError(action: () => unknown): InputError {
	try {
		action();
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		return error as InputError;
	}
	throw new Error('expected an InputError, nothing was thrown');
}

/**
 * Two kinds of failure inside the sandbox:
 * - ApiError: what a Rubika method answers with an error envelope (`{"status": …, "dev_message": …}`);
 * - ActionError: a mistake in how a test or the admin API drives the simulated users (plain HTTP 4xx),
 *   which must never be confused with an answer of the fake service.
 */
export class ApiError extends Error {
	constructor(
		readonly status: string,
		readonly devMessage: string,
		/** Overrides the configured HTTP status for error envelopes. */
		readonly httpStatus?: number,
	) {
		super(`${status}: ${devMessage}`);
		this.name = 'ApiError';
	}
}

export function invalidInput(devMessage: string): ApiError {
	return new ApiError('INVALID_INPUT', devMessage);
}

export function invalidAccess(devMessage: string): ApiError {
	return new ApiError('INVALID_ACCESS', devMessage);
}

export class ActionError extends Error {
	constructor(
		message: string,
		readonly httpStatus = 400,
	) {
		super(message);
		this.name = 'ActionError';
	}
}

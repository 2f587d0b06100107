/**
 * "Limit Wait Time" of Send and Wait for Response: how long the execution waits for the person, as the
 * date n8n resumes it without an answer.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { WAIT_INDEFINITELY } from 'n8n-workflow';

import { InputError } from '../../shared/errors';
import { inputModeProperties } from '../helpers/inputMode';

const LIMIT_WAIT_TIME_FIELD = 'Limit Wait Time';

export const limitWaitTimeOption: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	description: 'Stop waiting after a while: the workflow then goes on with this node\'s input items, unchanged (no data field)',
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: inputModeProperties(
				{ displayName: 'Limit Type', name: 'limitType', default: 'afterTimeInterval', description: 'How the limit is given' },
				[
					{
						name: 'After Time Interval',
						value: 'afterTimeInterval',
						description: 'Wait at most this long',
						fields: [
							{
								displayName: 'Amount',
								name: 'resumeAmount',
								type: 'number',
								typeOptions: { minValue: 0, numberPrecision: 2 },
								default: 1,
								description: 'How long to wait',
							},
							{
								displayName: 'Unit',
								name: 'resumeUnit',
								type: 'options',
								options: [
									{ name: 'Seconds', value: 'seconds' },
									{ name: 'Minutes', value: 'minutes' },
									{ name: 'Hours', value: 'hours' },
									{ name: 'Days', value: 'days' },
								],
								default: 'hours',
								description: 'Unit of the amount',
							},
						],
					},
					{
						name: 'At Specified Time',
						value: 'atSpecifiedTime',
						description: 'Wait until this date and time',
						fields: [
							{
								displayName: 'Max Date and Time',
								name: 'maxDateAndTime',
								type: 'dateTime',
								default: '',
								description: 'Continue without an answer at this date and time',
							},
						],
					},
				],
			),
		},
	],
};

const UNIT_MS: Record<string, number> = { seconds: 1000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/** The date n8n resumes the execution without an answer; WAIT_INDEFINITELY without a limit. */
export function waitUntil(limit: IDataObject | undefined, now = Date.now()): Date {
	const values = (limit?.values ?? limit) as IDataObject | undefined;
	if (!values || Object.keys(values).length === 0) return WAIT_INDEFINITELY;
	if (values.limitType === 'atSpecifiedTime') {
		const raw = values.maxDateAndTime;
		const date = new Date(typeof raw === 'string' || typeof raw === 'number' ? raw : String(raw ?? ''));
		if (raw === undefined || raw === '' || Number.isNaN(date.getTime())) {
			throw new InputError(LIMIT_WAIT_TIME_FIELD, `"${String(raw ?? '')}" is not a date and time`);
		}
		return date;
	}
	const amount = Number(values.resumeAmount ?? 1);
	const unit = UNIT_MS[String(values.resumeUnit ?? 'hours')];
	if (!Number.isFinite(amount) || amount < 0 || unit === undefined) {
		throw new InputError(LIMIT_WAIT_TIME_FIELD, 'needs an amount of 0 or more and a unit');
	}
	return new Date(now + amount * unit);
}

/** Shared setup for the polling trigger's tests: a sandbox per file, a harness per test. */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RubikaSandbox } from '../../sandbox';
import { DEMO_BOT_TOKEN, DEMO_USERS } from '../../sandbox';
import type { PollingTriggerHarnessOptions } from '../../tooling/harness/polling';
import { PollingTriggerHarness } from '../../tooling/harness/polling';
import { useSandbox as useSandboxFixture } from '../harness/sandbox';

export const { sara, reza, ali } = DEMO_USERS;

export interface PollingTriggerTestContext {
	readonly sandbox: RubikaSandbox;
	harness(parameters?: INodeParameters, options?: Partial<PollingTriggerHarnessOptions>): PollingTriggerHarness;
}

/** Starts one sandbox for the file, resets it before each test. */
export function useSandbox(): PollingTriggerTestContext {
	const fixture = useSandboxFixture();
	return {
		get sandbox() {
			return fixture.sandbox;
		},
		harness: (parameters = {}, options = {}) =>
			new PollingTriggerHarness({
				parameters,
				credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: fixture.sandbox.baseUrl },
				...options,
			}),
	};
}

export function texts(items: INodeExecutionData[]): Array<string | null> {
	return items.map((item) => item.json.text as string | null);
}

export function keys(items: INodeExecutionData[]): string[] {
	return items.map((item) => item.json.update_key as string);
}

/** `offset_id` of every getUpdates request the sandbox received, in order (undefined = none sent). */
export function offsetsSent(sandbox: RubikaSandbox): Array<string | undefined> {
	return sandbox.requestsFor('getUpdates').map((entry) => (entry.body as IDataObject | undefined)?.offset_id as string | undefined);
}

/** A deep copy, to compare static data before and after. */
export function copy<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}

/** Sends `count` private messages from a user ("<prefix> 1" …). */
export function sendMany(sandbox: RubikaSandbox, count: number, prefix = 'm', userId: string = sara.user_id): string[] {
	const sent: string[] = [];
	for (let index = 1; index <= count; index++) {
		const text = `${prefix} ${index}`;
		sandbox.userSendMessage({ userId, text });
		sent.push(text);
	}
	return sent;
}

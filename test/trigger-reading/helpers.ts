/** Shared setup for the tests of the trigger by reading: a sandbox per file, a harness per test. */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RubikaSandbox } from '../../sandbox';
import { DEMO_BOT_TOKEN, DEMO_USERS } from '../../sandbox';
import type { ReadingTriggerHarnessOptions } from '../../tooling/harness/reading';
import { ReadingTriggerHarness } from '../../tooling/harness/reading';
import { useSandbox as useSandboxFixture } from '../support/sandbox';

export const { sara, reza, ali } = DEMO_USERS;

export interface ReadingTriggerTestContext {
	readonly sandbox: RubikaSandbox;
	/** A harness on the demo bot; `interval` defaults to 0.2 s here so that tests run quickly. */
	harness(parameters?: INodeParameters, options?: Partial<ReadingTriggerHarnessOptions>): ReadingTriggerHarness;
}

export function useSandbox(): ReadingTriggerTestContext {
	const fixture = useSandboxFixture();
	afterEach(async () => {
		// No loop outlives its test.
		await ReadingTriggerHarness.stopAll();
		fixture.sandbox.clearFaults();
	});
	return {
		get sandbox() {
			return fixture.sandbox;
		},
		harness: (parameters = {}, options = {}) => {
			const { options: nodeOptions, ...rest } = parameters as INodeParameters & { options?: object };
			return new ReadingTriggerHarness({
				parameters: { ...rest, options: { interval: 0.2, ...(nodeOptions ?? {}) } },
				credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: fixture.sandbox.baseUrl },
				...options,
			});
		},
	};
}

export function texts(items: INodeExecutionData[]): Array<string | null> {
	return items.map((item) => item.json.text as string | null);
}

export function say(sandbox: RubikaSandbox, text: string, user: { user_id: string } = sara): void {
	sandbox.userSendMessage({ userId: user.user_id, text });
}

export const pauseMs = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for `count` executions, then for three more reads (0.2 s apart in these tests), and returns the items of
 * every execution started: one more than expected would show.
 */
export async function received(harness: ReadingTriggerHarness, count: number, timeoutMs?: number): Promise<INodeExecutionData[]> {
	await harness.waitForExecutions(count, timeoutMs);
	await pauseMs(600);
	return harness.items;
}

export function keys(items: INodeExecutionData[]): string[] {
	return items.map((item) => item.json.update_key as string);
}

/** Sends `count` private messages from a user ("<prefix> 1" …) and returns their texts. */
export function sendMany(sandbox: RubikaSandbox, count: number, prefix = 'm', userId: string = sara.user_id): string[] {
	const sent: string[] = [];
	for (let index = 1; index <= count; index++) {
		const text = `${prefix} ${index}`;
		sandbox.userSendMessage({ userId, text });
		sent.push(text);
	}
	return sent;
}

/** `offset_id` of every getUpdates request the sandbox received, in order (undefined = none sent). */
export function offsetsSent(sandbox: RubikaSandbox): Array<string | undefined> {
	return sandbox.requestsFor('getUpdates').map((entry) => (entry.body as IDataObject | undefined)?.offset_id as string | undefined);
}

/** A deep copy, to compare static data before and after. */
export function copy<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * What the action tests share: one sandbox per test file with a fresh demo world before each test, runs of
 * the Rubika node against it, and the checks every test file makes the same way.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RubikaSandbox } from '../../sandbox';
import { DEMO_BOT_TOKEN, startSandbox } from '../../sandbox';
import type { InputItem, NodeRunResult } from '../harness/n8n';
import { runNode } from '../harness/n8n';

export interface ActionSandbox {
	/** The file's sandbox; available from beforeAll on. */
	readonly sandbox: RubikaSandbox;
	/** Runs the Rubika node with `resource` preset, over `items` (one empty item when left out). */
	run(parameters: INodeParameters, items?: InputItem[], options?: { continueOnFail?: boolean }): Promise<NodeRunResult>;
	/** The bodies the sandbox received for one API method, in order. */
	bodies(method: string): unknown[];
	/** The run stopped on bad input with exactly this message (or pattern), and nothing reached the sandbox. */
	expectRefused(result: NodeRunResult, message: string | RegExp): void;
	/** One test per case: `base` with the case's parameters over it is refused with the case's message. */
	refusesEach(base: INodeParameters, cases: RefusalCase[]): void;
}

/** What is wrong, the parameters that make it so, and the error message (or its pattern) the user sees. */
export type RefusalCase = [name: string, parameters: INodeParameters, message: string | RegExp];

/** Registers beforeAll/afterAll/beforeEach for one sandbox shared by the calling test file. */
export function useActionSandbox(resource: string): ActionSandbox {
	let started: RubikaSandbox | undefined;
	beforeAll(async () => {
		started = await startSandbox();
	});
	afterAll(async () => {
		await started?.close();
	});
	beforeEach(() => {
		started?.reset();
	});
	const current = (): RubikaSandbox => {
		if (!started) throw new Error('the sandbox is started in beforeAll; use it inside a test');
		return started;
	};
	const expectRefused = (result: NodeRunResult, message: string | RegExp) => {
		expect(result.error?.name).toBe('NodeOperationError');
		if (typeof message === 'string') expect(result.error?.message).toBe(message);
		else expect(result.error?.message).toMatch(message);
		expect(result.items).toEqual([]);
		expect(current().requests).toEqual([]);
	};
	const run: ActionSandbox['run'] = async (parameters, items, options = {}) =>
		await runNode({
			parameters: { resource, ...parameters },
			credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: current().baseUrl },
			items,
			continueOnFail: options.continueOnFail,
		});
	return {
		get sandbox() {
			return current();
		},
		run,
		bodies: (method) => current().requestsFor(method).map((entry) => entry.body),
		expectRefused,
		refusesEach(base, cases) {
			test.each(cases)('refuses %s before sending', async (_case, parameters, message) => {
				expectRefused(await run({ ...base, ...parameters }), message);
			});
		},
	};
}

/** A button as Rubika receives it. */
export const button = (id: string, text: string, type = 'Simple'): IDataObject => ({ id, type, button_text: text });

/** A keypad as Rubika receives it, one list of buttons per row. */
export const keypad = (...rows: IDataObject[][]) => ({ rows: rows.map((buttons) => ({ buttons })) });

/** Builder rows as n8n stores the keypad builder's fields, one list of buttons per row. */
export const builderRows = (...rows: INodeParameters[][]): INodeParameters => ({ rows: rows.map((buttons) => ({ buttons: { button: buttons } })) });

/** The JSON of the items that came out. */
export const jsonOf = (result: NodeRunResult) => result.items.map((item) => item.json);

/** Which input item each output item is paired with. */
export const pairingOf = (result: NodeRunResult) => result.items.map((item) => item.pairedItem);

/** No output item and no error carries the bot token. */
export function expectNoToken(result: NodeRunResult): void {
	const error = result.error as (Error & { description?: string }) | undefined;
	const seen = JSON.stringify({ items: result.items, error, message: error?.message, description: error?.description, stack: error?.stack });
	expect(seen).not.toContain(DEMO_BOT_TOKEN);
}

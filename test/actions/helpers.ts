/**
 * What the action tests share: one sandbox per test file with a fresh demo world before each test, runs of
 * the Rubika node against it, and the checks every test file makes the same way.
 */
import http from 'node:http';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RubikaSandbox } from '../../sandbox';
import { DEMO_BOT_TOKEN } from '../../sandbox';
import type { BinaryMode, InputItem, NodeRunResult } from '../../tooling/harness/n8n';
import { runNode, useBinaryMode } from '../../tooling/harness/n8n';
import { useSandbox } from '../support/sandbox';

export interface ActionSandbox {
	/** The file's sandbox; available from beforeAll on. */
	readonly sandbox: RubikaSandbox;
	/** Runs the Rubika node with `resource` preset, over `items` (one empty item when left out). */
	run(parameters: INodeParameters, items?: InputItem[], options?: RunOptions): Promise<NodeRunResult>;
	/** The bodies the sandbox received for one API method, in order. */
	bodies(method: string): unknown[];
	/** The API methods the sandbox received (upload and download included), in order. */
	methods(): string[];
	/** The run stopped on bad input with exactly this message (or pattern), and nothing reached the sandbox. */
	expectRefused(result: NodeRunResult, message: string | RegExp): void;
	/**
	 * One test per case: `base` with the case's parameters over it is refused with the case's message;
	 * `afterwards` checks what else must have stayed as it was.
	 */
	refusesEach(base: INodeParameters, cases: RefusalCase[], afterwards?: () => void): void;
}

/** How one run differs from the default: Continue On Fail, or a node version other than 1. */
interface RunOptions {
	continueOnFail?: boolean;
	typeVersion?: number;
}

export interface ActionSandboxOptions {
	/** Where n8n keeps binary data in this file's runs; process-wide, so one mode per test file. */
	binaryMode?: BinaryMode;
}

/** What is wrong, the parameters that make it so, and the error message (or its pattern) the user sees. */
export type RefusalCase = [name: string, parameters: INodeParameters, message: string | RegExp];

/**
 * Registers beforeAll/afterAll/beforeEach for one sandbox shared by the calling test file. `resource` is
 * preset on every run; a run's own `resource` parameter wins.
 */
export function useActionSandbox(resource: string, options: ActionSandboxOptions = {}): ActionSandbox {
	const binaryMode = options.binaryMode;
	if (binaryMode) beforeAll(async () => await useBinaryMode(binaryMode));
	const fixture = useSandbox();
	const current = (): RubikaSandbox => fixture.sandbox;
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
			typeVersion: options.typeVersion,
		});
	return {
		get sandbox() {
			return current();
		},
		run,
		bodies: (method) => current().requestsFor(method).map((entry) => entry.body),
		methods: () => current().requests.map((entry) => entry.method),
		expectRefused,
		refusesEach(base, cases, afterwards) {
			test.each(cases)('refuses %s before sending', async (_case, parameters, message) => {
				expectRefused(await run({ ...base, ...parameters }), message);
				afterwards?.();
			});
		},
	};
}

/** An input item carrying one file as n8n binary data (in field `data` unless `property` says otherwise). */
export function fileItem(
	data: Buffer,
	fileName: string,
	mimeType: string,
	options: { property?: string; json?: IDataObject } = {},
): InputItem {
	return { json: options.json ?? {}, binary: { [options.property ?? 'data']: { data, fileName, mimeType } } };
}

/** Bytes that differ at every position, so a shifted, cut or repeated chunk shows. */
export function pattern(size: number, seed = 7): Buffer {
	const bytes = Buffer.alloc(size);
	let state = seed;
	for (let index = 0; index < size; index++) {
		state = (state * 1103515245 + 12345) & 0x7fffffff;
		bytes[index] = state >> 16;
	}
	return bytes;
}

/**
 * Records the Buffers n8n's HTTP client writes to sockets from here on (until jest.restoreAllMocks), to see
 * how a file went out: in chunks or whole, copied or as views of one Buffer.
 */
export function recordSocketWrites(): Buffer[] {
	const written: Buffer[] = [];
	const originalWrite = http.ClientRequest.prototype.write;
	jest.spyOn(http.ClientRequest.prototype, 'write').mockImplementation(function (this: http.ClientRequest, chunk: unknown, ...rest: unknown[]) {
		if (Buffer.isBuffer(chunk)) written.push(chunk);
		return (originalWrite as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
	});
	return written;
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

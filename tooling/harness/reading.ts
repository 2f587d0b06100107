/**
 * Runs the Rubika Trigger receiving by reading the way a published n8n workflow does, in-process.
 *
 * The node gets n8n-core's real `TriggerContext`. What n8n does with an emit is modelled explicitly, as
 * `ReadingTriggerHarness` plays n8n:
 * - static data is saved (a deep copy into `database.staticData`) at every emit, as n8n does, and at
 *   activation; never when a trigger stops (n8n 2.8 saves the copy it loaded from its database then);
 * - an emit with a deduplication key already stored starts nothing (n8n 2.41's unique index): `dropped`
 *   counts those, `executions` holds the ones that started;
 * - an execution "finishes" when the test says so (`finish()`), or at once with `autoFinish`; finishing
 *   resolves the emit's done promise, which is what the trigger waits for before moving its cursor.
 * `crash()` forgets everything that was not saved and starts a new harness from `saved`, with the same
 * stored executions (the database survives a crash); `withoutDeduplication` models n8n before 2.41, whose
 * emit has no deduplication parameter.
 */
import { TriggerContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IRun,
	ITriggerFunctions,
	ITriggerResponse,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { RubikaTrigger } from '../../nodes/RubikaTrigger/RubikaTrigger.node';
import type { BinaryMode, TestCredentials } from './n8n';
import { NodeTypes, credentialResolutions, makeAdditionalData, useBinaryMode } from './n8n';

const TRIGGER_NODE = 'Rubika Trigger';

type DonePromise = NonNullable<Parameters<ITriggerFunctions['emit']>[2]>;

export interface Execution {
	item: INodeExecutionData;
	deduplicationKey?: string;
	finished: boolean;
	done?: DonePromise;
}

/** What survives a restart: the saved static data and the stored executions. */
export interface Database {
	staticData: IDataObject;
	executions: Execution[];
}

export interface ReadingTriggerHarnessOptions {
	parameters: INodeParameters;
	credentials: TestCredentials;
	database?: Database;
	/** Finish every execution as soon as it starts (default true). */
	autoFinish?: boolean;
	/** n8n before 2.41: the deduplication key is ignored. */
	withoutDeduplication?: boolean;
	mode?: WorkflowExecuteMode;
	activation?: WorkflowActivateMode;
	/** n8n's address for waiting executions, where the trigger hands on answer taps. */
	webhookWaitingBaseUrl?: string;
	/**
	 * The workflow's id; a new one for each harness made without it, kept by crash(): what n8n keeps per
	 * workflow (deduplication keys, the trigger's memory of an outage) is then the test's own.
	 */
	workflowId?: string;
	/** Where n8n keeps binary data (downloaded files): in memory ('default') or on disk ('filesystem'). */
	binaryMode?: BinaryMode;
}

export class ReadingTriggerHarness {
	/** Harnesses whose trigger is running, so that a test file can stop every loop it started. */
	static readonly running = new Set<ReadingTriggerHarness>();

	private static workflowsMade = 0;

	static async stopAll(): Promise<void> {
		await Promise.all([...ReadingTriggerHarness.running].map(async (harness) => await harness.stop()));
	}

	readonly workflow: Workflow;

	readonly node: INode;

	readonly database: Database;

	/** Executions started by this harness's life (a subset of database.executions). */
	readonly started: Execution[] = [];

	/** Emits n8n refused because their deduplication key was stored already. */
	dropped = 0;

	readonly failures: Error[] = [];

	readonly emitErrors: Error[] = [];

	private response: ITriggerResponse | undefined;

	private additionalData: IWorkflowExecuteAdditionalData | undefined;

	private manualResult: Promise<INodeExecutionData[][]> | undefined;

	constructor(private readonly options: ReadingTriggerHarnessOptions) {
		const nodeType = new RubikaTrigger();
		options.workflowId ??= `reading-workflow-${++ReadingTriggerHarness.workflowsMade}`;
		this.database = options.database ?? { staticData: {}, executions: [] };
		this.node = {
			id: 'rubika-trigger',
			name: TRIGGER_NODE,
			type: nodeType.description.name,
			typeVersion: 1,
			position: [0, 0],
			parameters: options.parameters,
			credentials: { rubikaApi: { id: 'cred-1', name: 'Rubika test bot' } },
		};
		this.workflow = new Workflow({
			id: options.workflowId,
			name: 'reading trigger test',
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes: new NodeTypes({ [nodeType.description.name]: nodeType }),
			staticData: clone(this.database.staticData),
			settings: { executionOrder: 'v1' },
		});
	}

	/** The trigger node's live static data. */
	get nodeStaticData(): IDataObject {
		return this.workflow.getStaticData('node', this.node);
	}

	/** The trigger node's static data as last saved to the "database". */
	get savedNodeStaticData(): IDataObject {
		return (this.database.staticData[`node:${TRIGGER_NODE}`] as IDataObject | undefined) ?? {};
	}

	/** Items of the executions started so far by this harness, in order. */
	get items(): INodeExecutionData[] {
		return this.started.map((execution) => execution.item);
	}

	/** Activates the workflow: runs trigger(); a thrown error is what n8n shows as a failed activation. */
	async activate(): Promise<void> {
		await useBinaryMode(this.options.binaryMode ?? 'default');
		const mode = this.options.mode ?? 'trigger';
		// n8n before 2.41 declares emit with three parameters: the trigger reads that to know there is no key.
		let emit: ITriggerFunctions['emit'] = this.options.withoutDeduplication
			? (data, _response, done) => this.onEmit(data, done as DonePromise | undefined)
			: (data, _response, done, deduplicationKey) => this.onEmit(data, done as DonePromise | undefined, deduplicationKey);
		let emitError: ITriggerFunctions['emitError'] = (error) => {
			this.emitErrors.push(error);
		};
		if (mode === 'manual') {
			// As n8n does for a manual trigger: the first emit (or emitError) answers the test.
			this.manualResult = new Promise((resolve, reject) => {
				emit = (data) => resolve(data);
				emitError = (error) => reject(error);
			});
		}
		this.additionalData = makeAdditionalData(this.options.credentials, `reading-${Date.now()}`);
		if (this.options.webhookWaitingBaseUrl) this.additionalData.webhookWaitingBaseUrl = this.options.webhookWaitingBaseUrl;
		const context = new TriggerContext(
			this.workflow,
			this.node,
			this.additionalData,
			mode,
			this.options.activation ?? 'activate',
			emit,
			emitError,
			(error) => {
				this.failures.push(error);
			},
		);
		const nodeType = this.workflow.nodeTypes.getByNameAndVersion(this.node.type, this.node.typeVersion);
		this.response = await nodeType.trigger!.call(context as ITriggerFunctions);
		// n8n saves static data once the trigger is active.
		if (mode !== 'manual') this.database.staticData = clone(this.workflow.staticData);
		ReadingTriggerHarness.running.add(this);
	}

	/** How often the trigger had its credential resolved since it was activated. */
	get credentialResolutions(): number {
		return this.additionalData ? credentialResolutions(this.additionalData) : 0;
	}

	/** "Listen for test event": what the first emit handed over. */
	async testEvent(): Promise<INodeExecutionData[][]> {
		if (!this.manualResult) throw new Error('not in manual mode');
		return await this.manualResult;
	}

	/** Deactivation or a graceful shutdown: the close function; what changed since the last emit is not saved. */
	async deactivate(): Promise<void> {
		await this.stop();
	}

	/** Shutdown without saving (n8n's SIGTERM path saves nothing for triggers). */
	async stop(): Promise<void> {
		ReadingTriggerHarness.running.delete(this);
		await this.response?.closeFunction?.();
		this.response = undefined;
	}

	/** Finishes the started executions that are still running (all, or the first `count`). */
	finish(count = Infinity): number {
		let finished = 0;
		for (const execution of this.started) {
			if (finished >= count) break;
			if (execution.finished) continue;
			execution.finished = true;
			execution.done?.resolve({} as IRun);
			finished++;
		}
		return finished;
	}

	/** Waits until `count` executions were started by this harness. */
	async waitForExecutions(count: number, timeoutMs = 15_000): Promise<INodeExecutionData[]> {
		const deadline = Date.now() + timeoutMs;
		while (this.started.length < count) {
			if (Date.now() > deadline) {
				throw new Error(`only ${this.started.length} of ${count} executions after ${timeoutMs} ms`);
			}
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		return this.items;
	}

	/** n8n is killed: nothing in memory survives; a new harness reads what the database holds. */
	async crash(overrides: Partial<ReadingTriggerHarnessOptions> = {}): Promise<ReadingTriggerHarness> {
		await this.stop();
		return new ReadingTriggerHarness({ ...this.options, ...overrides, database: this.database });
	}

	private onEmit(data: INodeExecutionData[][], done: DonePromise | undefined, deduplicationKey?: string): void {
		// n8n saves static data when a trigger emits, before the execution is stored.
		this.database.staticData = clone(this.workflow.staticData);
		const key = deduplicationKey;
		if (key !== undefined && this.database.executions.some((execution) => execution.deduplicationKey === key)) {
			this.dropped++;
			done?.resolve(undefined as unknown as IRun);
			return;
		}
		for (const item of data[0] ?? []) {
			const execution: Execution = { item, deduplicationKey: key, finished: false, done };
			this.database.executions.push(execution);
			this.started.push(execution);
		}
		if (this.options.autoFinish !== false) this.finish();
	}
}

function clone<T>(value: T): T {
	return JSON.parse(JSON.stringify(value ?? {})) as T;
}

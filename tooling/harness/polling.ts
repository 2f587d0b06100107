/**
 * Runs a polling trigger the way an active n8n workflow does, in-process.
 *
 * Each tick builds n8n-core's real `PollContext` and hands it to n8n-core's real `PollTriggerExecutor`, which
 * calls `poll()`, then `__emit` (items) or `__commitCursor` (nothing) or `__emitError` (a thrown error).
 * Static data lives where n8n keeps it, on the `Workflow` object, and `getWorkflowStaticData('node')` returns
 * the very object the node mutates.
 *
 * What n8n saves to its database is modelled explicitly as `saved`: a deep copy taken when a poll emits (what
 * every n8n version does) and, only when `saveOnEmptyPoll` is on, when a poll emits nothing (what n8n 2.41's
 * cursor commit adds). `restart()` builds a new harness from `saved`, as n8n does after a crash or restart.
 */
import { Container } from '@n8n/di';
import { PollContext, PollTriggerExecutor } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IPollFunctions,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { RubikaTrigger } from '../../nodes/RubikaTrigger/RubikaTrigger.node';
import type { BinaryMode, TestCredentials } from './n8n';
import { NodeTypes, makeAdditionalData, useBinaryMode } from './n8n';

const TRIGGER_NODE = 'Rubika Trigger';

export interface PollingTriggerHarnessOptions {
	parameters: INodeParameters;
	credentials: TestCredentials;
	/** The workflow's static data as saved in the database (deep-copied in). */
	staticData?: IDataObject;
	/** Model n8n 2.41+, which also saves static data after a poll that emitted nothing. */
	saveOnEmptyPoll?: boolean;
	/** What `getPollBudgetMs()` answers (n8n's default is five minutes). */
	pollBudgetMs?: number;
	nodeType?: INodeType;
	/** Where n8n keeps binary data (downloaded files): in memory ('default', as before) or on disk. */
	binaryMode?: BinaryMode;
}

export interface TickResult {
	/** Items emitted by this tick (empty when it emitted nothing or failed). */
	items: INodeExecutionData[];
	/** The error n8n received through `__emitError`. */
	error?: Error;
}

export class PollingTriggerHarness {
	readonly workflow: Workflow;

	readonly node: INode;

	/** What n8n's database holds: updated on emit (and on empty polls when `saveOnEmptyPoll`). */
	saved: IDataObject;

	/** Every emitted item of this harness's life, in order. */
	readonly emitted: INodeExecutionData[] = [];

	readonly errors: Error[] = [];

	private activation: WorkflowActivateMode = 'activate';

	private readonly executor = Container.get(PollTriggerExecutor);

	constructor(private readonly options: PollingTriggerHarnessOptions) {
		const nodeType = options.nodeType ?? new RubikaTrigger();
		this.node = {
			id: 'rubika-trigger',
			name: TRIGGER_NODE,
			type: nodeType.description.name,
			typeVersion: 1,
			position: [0, 0],
			parameters: options.parameters,
			credentials: { rubikaApi: { id: 'cred-1', name: 'Rubika test bot' } },
		};
		this.saved = clone(options.staticData ?? {});
		this.workflow = new Workflow({
			id: 'poll-workflow',
			name: 'poll test',
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes: new NodeTypes({ [nodeType.description.name]: nodeType }),
			staticData: clone(this.saved),
			settings: { executionOrder: 'v1' },
		});
	}

	/** The live static data of the trigger node (what `getWorkflowStaticData('node')` returns). */
	get nodeStaticData(): IDataObject {
		return this.workflow.getStaticData('node', this.node);
	}

	/** The trigger node's static data as last saved to the "database". */
	get savedNodeStaticData(): IDataObject {
		return (this.saved[`node:${TRIGGER_NODE}`] as IDataObject | undefined) ?? {};
	}

	/** One scheduled poll, through n8n-core's executor. The first tick is the activation poll. */
	async tick(): Promise<TickResult> {
		await useBinaryMode(this.options.binaryMode ?? 'default');
		const result: TickResult = { items: [] };
		const context = new PollContext(
			this.workflow,
			this.node,
			makeAdditionalData(this.options.credentials, `poll-${Date.now()}`),
			'trigger',
			this.activation,
			(data) => {
				result.items = data[0] ?? [];
				this.emitted.push(...result.items);
				// n8n saves static data before it starts the execution with the emitted items.
				this.saved = clone(this.workflow.staticData);
			},
			(error) => {
				result.error = error;
				this.errors.push(error);
			},
			async () => {
				if (this.options.saveOnEmptyPoll) this.saved = clone(this.workflow.staticData);
			},
			undefined,
			undefined,
			this.options.pollBudgetMs === undefined ? undefined : () => this.options.pollBudgetMs as number,
		);
		this.activation = 'init';
		await this.executor.create(this.workflow, this.node, context as IPollFunctions, () => true)(false);
		return result;
	}

	/** Polls until a tick emits nothing and fails nothing, or `maxTicks` is reached. */
	async drain(maxTicks = 100): Promise<INodeExecutionData[]> {
		const items: INodeExecutionData[] = [];
		for (let tick = 0; tick < maxTicks; tick++) {
			const result = await this.tick();
			if (result.error) throw result.error;
			if (result.items.length === 0) return items;
			items.push(...result.items);
		}
		throw new Error(`still emitting after ${maxTicks} ticks`);
	}

	/**
	 * "Fetch Test Event" in the editor: n8n runs `poll()` with mode 'manual' on this very workflow object
	 * and returns what it gives (or throws), persisting nothing.
	 */
	async manual(): Promise<INodeExecutionData[][] | null> {
		await useBinaryMode(this.options.binaryMode ?? 'default');
		const context = new PollContext(
			this.workflow,
			this.node,
			makeAdditionalData(this.options.credentials, `manual-${Date.now()}`),
			'manual',
			'manual',
		);
		const nodeType = this.workflow.nodeTypes.getByNameAndVersion(this.node.type, 1);
		return await nodeType.poll!.call(context);
	}

	/** n8n restarts: a new workflow object from what the database holds. */
	restart(overrides: Partial<PollingTriggerHarnessOptions> = {}): PollingTriggerHarness {
		return new PollingTriggerHarness({ ...this.options, ...overrides, staticData: this.saved });
	}
}

function clone<T>(value: T): T {
	return JSON.parse(JSON.stringify(value ?? {})) as T;
}

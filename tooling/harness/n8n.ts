/**
 * Runs our nodes through n8n-core's real execution engine, in-process.
 *
 * A workflow of two nodes is built: an "Input" node that emits the given items (binary data stored the way
 * n8n stores it, in memory or on disk) and the node under test. `WorkflowExecute` resolves parameters and
 * expressions, applies our credential's `authenticate`, performs HTTP with n8n's own client, and records
 * the run. Tests then read the items that came out, or the error a person would see.
 */
import { Container } from '@n8n/di';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	BinaryDataConfig,
	BinaryDataService,
	ExecutionLifecycleHooks,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	ExecutionError,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeConnectionTypes, Workflow, createRunExecutionData } from 'n8n-workflow';

import { RubikaApi } from '../../credentials/RubikaApi.credentials';
import { Rubika } from '../../nodes/Rubika/Rubika.node';
import { useProcessedItemsStore } from './processedItems';

export type BinaryMode = 'default' | 'filesystem';

export interface TestCredentials {
	accessToken: string;
	baseUrl: string;
	/** The credential's optional proxy (an address), and its user name and password. */
	proxy?: string;
	proxyUsername?: string;
	proxyPassword?: string;
}

export interface InputItem {
	json?: IDataObject;
	/** Binary properties to attach, stored through n8n's binary data service like any real upload. */
	binary?: Record<string, { data: Buffer; fileName?: string; mimeType?: string }>;
}

export interface RunNodeOptions {
	parameters: INodeParameters;
	credentials: TestCredentials;
	items?: InputItem[];
	/** "Continue On Fail" in the node's settings. */
	continueOnFail?: boolean;
	nodeType?: INodeType;
	typeVersion?: number;
	/** The execution's id (default `test-execution`). */
	executionId?: string;
	/**
	 * The execution's resume token, as n8n 2.14 and later give each execution (64 hex digits): then
	 * `$execution.resumeUrl` ends in `?signature=<token>`. None: as on n8n 2.8.4.
	 */
	resumeToken?: string;
}

export interface NodeRunResult {
	/** Items on the node's first output (empty when it failed). */
	items: INodeExecutionData[];
	/** The error the execution ended with, as n8n records it. */
	error?: ExecutionError;
	run: IRun;
	/** The workflow that ran (the input node and the node under test), e.g. to call a waiting node's webhook. */
	workflow: Workflow;
}

const NODE_UNDER_TEST = 'Rubika';
const INPUT_NODE = 'Input';
/** The ids every run uses, so runs share what n8n keeps per workflow and node (processed items). */
export const HARNESS_WORKFLOW_ID = 'test-workflow';
export const NODE_UNDER_TEST_ID = 'under-test';
const credentialTypes: Record<string, ICredentialType> = { rubikaApi: new RubikaApi() };

/** A stand-in for the node before ours: emits the test's items, binary data stored as n8n does. */
class HarnessInput implements INodeType {
	description = {
		displayName: 'Harness Input',
		name: 'harnessInput',
		group: ['input'],
		version: 1,
		description: 'Emits the items a test provides',
		defaults: { name: INPUT_NODE },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = (this as unknown as { harnessItems: InputItem[] }).harnessItems;
		const output: INodeExecutionData[] = [];
		for (const item of items) {
			const out: INodeExecutionData = { json: item.json ?? {}, pairedItem: { item: 0 } };
			if (item.binary) {
				out.binary = {};
				for (const [key, file] of Object.entries(item.binary)) {
					out.binary[key] = await this.helpers.prepareBinaryData(file.data, file.fileName, file.mimeType);
				}
			}
			output.push(out);
		}
		return [output];
	}
}

export class NodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType | IVersionedNodeType>) {}

	getByName(type: string): INodeType | IVersionedNodeType {
		const found = this.types[type];
		if (!found) throw new Error(`Unknown node type ${type}`);
		return found;
	}

	/** The node type of one version, as n8n's registry hands it out (a versioned type picks its version). */
	getByNameAndVersion(type: string, version?: number): INodeType {
		const found = this.getByName(type);
		return 'nodeVersions' in found ? found.getNodeType(version) : found;
	}

	getKnownTypes() {
		return {};
	}
}

/** Resolves credentials the way n8n's CredentialsHelper does for a function-style `authenticate`. */
class CredentialsHelper extends ICredentialsHelper {
	/** How often a node had its credential resolved (each is a database read and a decryption in n8n). */
	resolutions = 0;

	constructor(private readonly credentials: TestCredentials) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const authenticate = credentialTypes[typeName]?.authenticate;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		return requestOptions;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('not used by the harness');
	}

	async getDecrypted(): Promise<ICredentialDataDecryptedObject> {
		this.resolutions++;
		// A fresh copy per call, as n8n decrypts anew: nodes must not be able to change the stored one.
		return { ...this.credentials };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties() {
		return [];
	}
}

let binaryModeReady: BinaryMode | undefined;

/** Where n8n keeps binary data for this test file (or benchmark run), made when first needed. */
let binaryDataFolder: string | undefined;

/** Removes the binary data folder (test/setup/afterEachFile.ts, after every test file): they piled up in /tmp. */
export function removeBinaryDataFolder(): void {
	if (binaryDataFolder !== undefined) rmSync(binaryDataFolder, { recursive: true, force: true });
	binaryDataFolder = undefined;
	binaryModeReady = undefined;
}

/** Sets where n8n keeps binary data for this test file: in memory ('default') or on disk. */
export async function useBinaryMode(mode: BinaryMode): Promise<void> {
	if (binaryModeReady === mode) return;
	const config = Container.get(BinaryDataConfig);
	config.mode = mode;
	binaryDataFolder ??= mkdtempSync(join(tmpdir(), 'rubika-binary-'));
	config.localStoragePath = binaryDataFolder;
	await Container.get(BinaryDataService).init();
	binaryModeReady = mode;
}

/** How often the nodes run with this additional data had their credential resolved. */
export function credentialResolutions(additionalData: IWorkflowExecuteAdditionalData): number {
	return (additionalData.credentialsHelper as CredentialsHelper).resolutions;
}

export function makeAdditionalData(credentials: TestCredentials, executionId = 'test-execution'): IWorkflowExecuteAdditionalData {
	const unsupported = async () => {
		throw new Error('not supported in the test harness');
	};
	return {
		credentialsHelper: new CredentialsHelper(credentials),
		executionId,
		hooks: new ExecutionLifecycleHooks('manual', executionId, {
			id: HARNESS_WORKFLOW_ID,
			name: 'test',
			active: false,
			nodes: [],
			connections: {},
			createdAt: new Date(),
			updatedAt: new Date(),
		} as never),
		executeWorkflow: unsupported,
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		formBaseUrl: 'http://127.0.0.1/form',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1/form-test',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1/mcp-test',
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: unsupported,
		// Executions are not persisted here; n8n-core only needs these to be present.
		encryptedRunnerIdentity: undefined,
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** Runs one node (the Rubika action node unless another is given) over the given input items. */
export async function runNode(options: RunNodeOptions): Promise<NodeRunResult> {
	await useBinaryMode(binaryModeReady ?? 'default');
	await useProcessedItemsStore();
	const items = options.items ?? [{ json: {} }];
	const input = new HarnessInput();
	// The engine calls execute() with its own context; hand the items over through that context.
	const inputType: INodeType = {
		description: input.description,
		execute: async function (this: IExecuteFunctions) {
			return await input.execute.call(Object.assign(Object.create(this), { harnessItems: items }));
		},
	};
	const nodeType = options.nodeType ?? new Rubika();
	const nodes: INode[] = [
		{
			id: 'input',
			name: INPUT_NODE,
			type: 'harnessInput',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: NODE_UNDER_TEST_ID,
			name: NODE_UNDER_TEST,
			type: nodeType.description.name,
			typeVersion: options.typeVersion ?? 1,
			position: [200, 0],
			parameters: options.parameters,
			credentials: { rubikaApi: { id: 'cred-1', name: 'Rubika test bot' } },
			continueOnFail: options.continueOnFail ?? false,
			...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		},
	];
	const workflow = new Workflow({
		id: HARNESS_WORKFLOW_ID,
		name: 'test',
		nodes,
		connections: {
			[INPUT_NODE]: { main: [[{ node: NODE_UNDER_TEST, type: NodeConnectionTypes.Main, index: 0 }]] },
		},
		active: false,
		nodeTypes: new NodeTypes({ harnessInput: inputType, [nodeType.description.name]: nodeType }),
		settings: { executionOrder: 'v1' },
	});
	const execution = new WorkflowExecute(
		makeAdditionalData(options.credentials, options.executionId),
		'manual',
		createRunExecutionData({ resumeToken: options.resumeToken }),
	);
	const run = await execution.run({ workflow, startNode: workflow.getNode(INPUT_NODE)! });
	const error = run.data.resultData.error;
	const taskData = run.data.resultData.runData[NODE_UNDER_TEST]?.[0];
	return { items: taskData?.data?.main?.[0] ?? [], error, run, workflow };
}

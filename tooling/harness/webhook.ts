/**
 * Runs the Rubika Trigger receiving by webhook the way n8n does, in-process, behind a real HTTP server.
 *
 * - Activation builds the node's webhooks the way n8n's WebhookService does (one per description, paths from
 *   `NodeHelpers.getNodeWebhookPath`) and runs `checkExists` then `create` through n8n-core's real
 *   `HookContext`, only for webhook names that have lifecycle methods. A failure runs `delete` and rethrows,
 *   as n8n's activation does.
 * - The server answers under `/webhook/…` (production) or `/webhook-test/…` ("Listen for test event"), with
 *   n8n's base URLs pointing at it, so what the node registers with the sandbox is reachable. Each request
 *   is matched to a webhook by method and exact path (404 otherwise), its body parsed as n8n does (raw bytes
 *   kept in `rawBody`, JSON parsed only for application/json), and handed to the node's `webhook()` through
 *   n8n-core's real `WebhookContext`. The result is answered the way n8n (2.8 and 2.41) answers it:
 *   `noWebhookResponse` (the node answered itself); without `workflowData`, the node's `webhookResponse`
 *   or n8n's default message; with `workflowData` (an execution starts) in response mode `onReceived`, the
 *   webhook description's `responseData` evaluated with n8n's default `firstEntryJson` decides, and the
 *   node's `webhookResponse` only counts when that is empty. `workflowData` becomes one recorded execution.
 * - Static data behaves as in n8n: every call gets a fresh `Workflow` built from what the "database" holds
 *   (`saved`), and changes are written back only when n8n would save them (after activation, deactivation
 *   and production webhook calls, and only if the observable static data says it changed). n8n 2.41 (the
 *   default here) does not save what a webhook call changed when the call starts an execution: it builds
 *   the execution's Workflow on the same static data object, which clears the "changed" flag first. n8n
 *   2.8 saves it (option `n8n: '2.8'`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { HookContext, TriggerContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
	IWebhookData,
	ITriggerFunctions,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WebhookSetupMethodNames,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, Workflow, createRunExecutionData } from 'n8n-workflow';
import { WorkflowExecute } from 'n8n-core';

import { RubikaTrigger } from '../../nodes/RubikaTrigger/RubikaTrigger.node';
import type { TestCredentials } from './n8n';
import { NodeTypes, makeAdditionalData } from './n8n';
import { readAll, sendJson, sendText } from './http';

const WEBHOOK_TRIGGER_NODE = 'Rubika Trigger';
const TEST_WORKFLOW = { id: 'webhook-workflow', name: 'webhook test' };

export interface WebhookHarnessOptions {
	/** The trigger's parameters; Receive Updates is By Webhook unless they say otherwise. */
	parameters: INodeParameters;
	credentials: TestCredentials;
	/** The workflow's static data as the database holds it (deep-copied in). */
	staticData?: IDataObject;
	/** The node's webhook id, which n8n assigns once when the node is added. Random by default. */
	webhookId?: string;
	/** "Listen for test event": the test URL, manual mode, static data kept with the registration only. */
	test?: boolean;
	/** What n8n believes its public address is (WEBHOOK_URL). Defaults to this harness's own server. */
	publicOrigin?: string;
	/** n8n's address for waiting executions, where the trigger hands on answer taps. */
	webhookWaitingBaseUrl?: string;
	/** Port for the server (default: any free one); reuse a closed harness's port to model a restart. */
	port?: number;
	/**
	 * The trigger's node type (default: a new RubikaTrigger). Harnesses given the same object share
	 * the node's memory, as workflows in one n8n process do; `freshTriggerNodeType()` is a new process.
	 */
	nodeType?: INodeType | IVersionedNodeType;
	/** The node's version (default 1). */
	typeVersion?: number;
	/** The workflow the node is in (default: one test workflow). */
	workflow?: { id: string; name: string };
	/** The name of the node's credential, as the workflow refers to it. */
	credentialName?: string;
	/** Whose static-data saving to model (see above). Default '2.41'. */
	n8n?: '2.41' | '2.8';
}

/** One workflow execution the webhook started. */
export interface Execution {
	items: INodeExecutionData[];
	/** Request path below the webhook prefix, e.g. `<webhookId>/webhook/receiveUpdate`. */
	path: string;
}

/** One HTTP request the server answered. */
export interface ServedRequest {
	method: string;
	/** Path and query as received. */
	url: string;
	status: number;
	/** The Content-Type header of the answer ('' when none was set). */
	contentType: string;
	responseBody: string;
	startedExecution: boolean;
}

/** What a direct POST got back. */
export interface PostAnswer {
	status: number;
	contentType: string;
	body: string;
}

export class WebhookHarness {
	readonly node: INode;

	/** What n8n's database holds for this workflow's static data. */
	saved: IDataObject;

	readonly executions: Execution[] = [];

	readonly served: ServedRequest[] = [];

	/** Errors thrown by `webhook()` (answered 500, as n8n does). */
	readonly errors: Error[] = [];

	/** Whether the webhooks are registered with n8n (requests to them are routed). */
	active = false;

	/** The node type as n8n's registry holds it (a versioned type holds every version). */
	private readonly registeredType: INodeType | IVersionedNodeType;

	/** The node's version of it. */
	private readonly nodeType: INodeType;

	private server!: http.Server;

	origin = '';

	private executionCounter = 0;

	/** While set, requests wait here after the node ran, before n8n saves static data and answers. */
	private answerGate: Promise<void> | undefined;

	/** Requests waiting at the gate of `holdAnswers()`. */
	held = 0;

	/**
	 * n8n cannot start executions (a database error, say): a call that would start one is answered 500,
	 * as n8n does, and nothing is saved.
	 */
	failStartingExecutions = false;

	private constructor(readonly options: WebhookHarnessOptions) {
		this.registeredType = options.nodeType ?? new RubikaTrigger();
		const typeVersion = options.typeVersion ?? 1;
		this.nodeType =
			'nodeVersions' in this.registeredType ? this.registeredType.getNodeType(typeVersion) : this.registeredType;
		this.node = {
			id: 'rubika-webhook-trigger',
			name: WEBHOOK_TRIGGER_NODE,
			type: this.registeredType.description.name,
			typeVersion,
			position: [0, 0],
			parameters: { receiveUpdates: 'webhook', ...options.parameters },
			webhookId: options.webhookId ?? randomUUID(),
			credentials: { rubikaApi: { id: 'cred-1', name: options.credentialName ?? 'Rubika test bot' } },
		};
		this.saved = clone(options.staticData ?? {});
	}

	/** Starts the HTTP server on 127.0.0.1 (a free port). Nothing is registered until `activate()`. */
	static async start(options: WebhookHarnessOptions): Promise<WebhookHarness> {
		const harness = new WebhookHarness(options);
		harness.server = http.createServer((req, res) => {
			harness.handle(req, res).catch((error: Error) => {
				if (!res.headersSent) sendJson(res, 500, { code: 0, message: error.message });
			});
		});
		await new Promise<void>((resolve, reject) => {
			harness.server.once('error', reject);
			harness.server.listen(options.port ?? 0, '127.0.0.1', resolve);
		});
		harness.origin = `http://127.0.0.1:${(harness.server.address() as AddressInfo).port}`;
		return harness;
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	/** The server's port (still known after `close()`, to start a "restarted" harness on it). */
	get port(): number {
		return Number(new URL(this.origin).port);
	}

	get test(): boolean {
		return this.options.test === true;
	}

	/** n8n's base URL for this kind of webhook: WEBHOOK_URL + /webhook or /webhook-test. */
	get webhookBaseUrl(): string {
		return `${this.options.publicOrigin ?? this.origin}${this.prefix}`;
	}

	private get prefix(): string {
		return this.test ? '/webhook-test' : '/webhook';
	}

	/** The trigger node's static data as last saved. */
	get savedNodeStaticData(): IDataObject {
		return (this.saved[`node:${WEBHOOK_TRIGGER_NODE}`] as IDataObject | undefined) ?? {};
	}

	/** The node's default webhook URL, as n8n computes it (without the node's secret). */
	webhookUrl(): string {
		const workflow = this.loadWorkflow();
		const context = new HookContext(workflow, this.node, this.additionalData(), this.executeMode, 'activate', this.webhooks(workflow)[0]);
		return context.getNodeWebhookUrl('default') as string;
	}

	/**
	 * Activating the workflow (or starting to listen for a test event): checkExists, then create if needed; then,
	 * for a published workflow, n8n starts the trigger (`startTrigger`) on the same workflow object. n8n 2.8's
	 * start is this with activation `init` (it activates every published workflow again); n8n 2.41's is
	 * `startAs241()`.
	 */
	async activate(activation: WorkflowActivateMode = this.test ? 'manual' : 'activate'): Promise<void> {
		const workflow = this.loadWorkflow();
		try {
			await this.createWebhooks(workflow, activation);
		} catch (error) {
			// n8n clears the workflow's webhooks when one of them fails to activate.
			for (const webhook of this.webhooks(workflow)) await this.runLifecycle('delete', workflow, webhook, 'update');
			this.persist(workflow);
			throw error;
		}
		this.active = true;
		if (!this.test) await this.runTrigger(workflow, activation);
		this.persist(workflow, this.test);
	}

	/**
	 * n8n runs `trigger()` of every trigger node of a published workflow (ours has one), after its webhooks, at
	 * every activation and at each start of n8n, through n8n-core's real TriggerContext.
	 */
	private async runTrigger(workflow: Workflow, activation: WorkflowActivateMode): Promise<void> {
		const context = new TriggerContext(
			workflow,
			this.node,
			this.additionalData(),
			'trigger',
			activation,
			() => {
				throw new Error('the trigger emitted while it receives by webhook');
			},
			(error) => {
				throw error;
			},
		);
		await this.nodeType.trigger?.call(context as ITriggerFunctions);
	}

	/**
	 * The rows n8n's webhook table would hold for this node (`<method> <path>`), a table with one row per
	 * path and method across all workflows.
	 */
	storedWebhooks(): string[] {
		return this.webhooks(this.loadWorkflow()).map((webhook) => `${webhook.httpMethod} ${webhook.path}`);
	}

	/** `checkExists` alone, on a fresh workflow object built from the saved static data. */
	async checkExists(): Promise<boolean> {
		const workflow = this.loadWorkflow();
		const [first] = this.webhooks(workflow);
		return (await this.runLifecycle('checkExists', workflow, first, 'activate')) === true;
	}

	/**
	 * n8n 2.41's start: the webhooks stay in its table, and it starts every published trigger node again (its
	 * publication service, activation `init`). For a node with a `trigger()`, as ours, that runs the webhook
	 * methods (checkExists, create if needed) and `trigger()` at the same time, on one workflow object
	 * (WorkflowTriggerActivator.activateInternal: Promise.allSettled of the webhook and the other triggers).
	 */
	async startAs241(): Promise<void> {
		this.active = true;
		const workflow = this.loadWorkflow();
		const results = await Promise.allSettled([this.createWebhooks(workflow, 'init'), this.runTrigger(workflow, 'init')]);
		this.persist(workflow);
		for (const result of results) if (result.status === 'rejected') throw result.reason;
	}

	/** n8n's createWebhookIfNotExists for each webhook: checkExists, then create when it answers false. */
	private async createWebhooks(workflow: Workflow, activation: WorkflowActivateMode): Promise<void> {
		for (const webhook of this.webhooks(workflow)) {
			const exists = await this.runLifecycle('checkExists', workflow, webhook, activation);
			if (!exists) await this.runLifecycle('create', workflow, webhook, activation);
		}
	}

	/** Deactivating: `delete` for every webhook, then the routes go away. */
	async deactivate(): Promise<void> {
		const workflow = this.loadWorkflow();
		for (const webhook of this.webhooks(workflow)) await this.runLifecycle('delete', workflow, webhook, 'update');
		this.active = false;
		this.persist(workflow);
	}

	/**
	 * Holds every request after the node's `webhook()` has returned and before static data is saved and the
	 * answer sent, as a slow database would in n8n, so that a second request can run meanwhile. Returns the
	 * function that lets them all go on.
	 */
	holdAnswers(): () => void {
		let release!: () => void;
		this.answerGate = new Promise<void>((resolve) => {
			release = resolve;
		});
		return () => {
			this.answerGate = undefined;
			release();
		};
	}

	/** POSTs straight to the server, for requests the sandbox would never make. */
	async post(
		pathAndQuery: string,
		body: unknown,
		headers: Record<string, string> = { 'Content-Type': 'application/json' },
	): Promise<PostAnswer> {
		const payload = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
		// A connection of its own each time (no pooled socket), so that a harness restarted on the same port
		// is never sent a request on a connection of the closed one.
		return await new Promise<PostAnswer>((resolve, reject) => {
			const request = http.request(new URL(pathAndQuery, this.origin), {
				method: 'POST',
				agent: false,
				headers: { ...headers, 'Content-Length': String(payload.length) },
			});
			request.on('error', reject);
			request.on('response', (response) => {
				readAll(response).then(
					(answer) =>
						resolve({
							status: response.statusCode ?? 0,
							contentType: String(response.headers['content-type'] ?? ''),
							body: answer.toString('utf8'),
						}),
					reject,
				);
			});
			request.end(payload);
		});
	}

	private get executeMode(): WorkflowExecuteMode {
		return this.test ? 'manual' : 'trigger';
	}

	private additionalData(extra: Partial<IWorkflowExecuteAdditionalData> = {}): IWorkflowExecuteAdditionalData {
		const base = makeAdditionalData(this.options.credentials, `webhook-${++this.executionCounter}`);
		const origin = this.options.publicOrigin ?? this.origin;
		const waiting = this.options.webhookWaitingBaseUrl ? { webhookWaitingBaseUrl: this.options.webhookWaitingBaseUrl } : {};
		return { ...base, webhookBaseUrl: `${origin}/webhook`, webhookTestBaseUrl: `${origin}/webhook-test`, ...waiting, ...extra };
	}

	/** A new Workflow from the saved static data, as n8n builds one per activation and per request. */
	private loadWorkflow(): Workflow {
		const { id, name } = this.options.workflow ?? TEST_WORKFLOW;
		return new Workflow({
			id,
			name,
			nodes: [this.node],
			connections: {},
			active: !this.test,
			nodeTypes: new NodeTypes({ [this.registeredType.description.name]: this.registeredType }),
			staticData: clone(this.saved),
			settings: { executionOrder: 'v1' },
		});
	}

	/** n8n saves static data only when its observable object says something changed. */
	private persist(workflow: Workflow, force = false): void {
		if (force || workflow.staticData.__dataChanged === true) this.saved = clone(workflow.staticData);
	}

	/**
	 * The node's webhooks as n8n's WebhookService.getNodeWebhooks lists them: a description whose method
	 * evaluates to nothing gives no webhook (on 2.8 and 2.41).
	 */
	private webhooks(workflow: Workflow): IWebhookData[] {
		const list: IWebhookData[] = [];
		for (const description of this.nodeType.description.webhooks ?? []) {
			const httpMethod = String(workflow.expression.getSimpleParameterValue(this.node, description.httpMethod, 'internal', {}, undefined, 'GET'));
			if (httpMethod === '') continue;
			const rawPath = String(workflow.expression.getSimpleParameterValue(this.node, description.path, 'internal', {}))
				.replace(/^\/+/, '')
				.replace(/\/+$/, '');
			const isFullPath = workflow.expression.getSimpleParameterValue(
				this.node,
				description.isFullPath,
				'internal',
				{},
				undefined,
				false,
			) as boolean;
			const path = NodeHelpers.getNodeWebhookPath(workflow.id, this.node, rawPath, isFullPath, false);
			const dynamic = path.startsWith(':') || path.includes('/:');
			list.push({
				httpMethod: httpMethod as IWebhookData['httpMethod'],
				node: this.node.name,
				path,
				webhookDescription: description,
				workflowId: workflow.id,
				workflowExecuteAdditionalData: this.additionalData(),
				...(dynamic ? { webhookId: this.node.webhookId } : {}),
				...(this.test ? { isTest: true } : {}),
			});
		}
		return list;
	}

	/** n8n's runWebhookMethod: nothing happens for a webhook name without lifecycle methods. */
	private async runLifecycle(
		method: WebhookSetupMethodNames,
		workflow: Workflow,
		webhook: IWebhookData,
		activation: WorkflowActivateMode,
	): Promise<boolean | undefined> {
		const fn = this.nodeType.webhookMethods?.[webhook.webhookDescription.name]?.[method];
		if (fn === undefined) return undefined;
		const mode: WorkflowExecuteMode = method === 'delete' ? 'internal' : this.executeMode;
		const context = new HookContext(workflow, this.node, webhook.workflowExecuteAdditionalData, mode, activation, webhook);
		return await fn.call(context);
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', this.origin);
		const method = req.method ?? 'GET';
		const rawBody = await readAll(req);
		const sent = captureAnswer(res);
		const record = (startedExecution = false) =>
			this.served.push({
				method,
				url: req.url ?? '',
				status: res.statusCode,
				contentType: sent.contentType,
				responseBody: sent.body,
				startedExecution,
			});

		const prefix = `${this.prefix}/`;
		const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length).replace(/\/+$/, '') : undefined;
		const workflow = this.loadWorkflow();
		const webhook =
			path === undefined || !this.active
				? undefined
				: this.webhooks(workflow).find((candidate) => candidate.httpMethod === method && routeMatches(candidate, path));
		if (!webhook || path === undefined) {
			sendJson(res, 404, { code: 404, message: `The requested webhook "${method} ${url.pathname}" is not registered.` });
			record();
			return;
		}

		const request = req as http.IncomingMessage & IDataObject;
		const contentType = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
		let body: unknown = undefined;
		if (rawBody.length > 0) {
			try {
				if (contentType === 'application/json') body = JSON.parse(rawBody.toString('utf8'));
				else if (contentType === 'text/plain') body = rawBody.toString('utf8');
			} catch (error) {
				// n8n's body parser answers a malformed JSON body with 422 before any node sees it.
				sendJson(res, 422, { code: 422, message: 'Failed to parse request body', hint: (error as Error).message });
				record();
				return;
			}
		}
		Object.assign(request, { body: body ?? {}, rawBody, query: parseQuery(url), params: routeParams(webhook, path), contentType });

		const additionalData = this.additionalData({
			httpRequest: request as never,
			httpResponse: res as never,
		});
		const mode: WorkflowExecuteMode = this.test ? 'manual' : 'webhook';
		const context = new WebhookContext(workflow, this.node, additionalData, mode, webhook, [], null);
		let result: IWebhookResponseData;
		try {
			result = await this.nodeType.webhook!.call(context);
		} catch (error) {
			this.errors.push(error as Error);
			if (!res.headersSent) sendJson(res, 500, { code: 0, message: (error as Error).message });
			record();
			return;
		}
		if (this.answerGate) {
			this.held += 1;
			await this.answerGate;
			this.held -= 1;
		}
		const startsExecution = result.workflowData !== undefined;
		if (startsExecution && this.failStartingExecutions) {
			// A node that answered the sender itself has had its answer sent; n8n cannot send another.
			if (!res.headersSent) sendJson(res, 500, { code: 0, message: 'The execution could not be started' });
			record();
			return;
		}
		// n8n saves the static data of a production webhook call before it answers (see the top).
		if (!this.test && (!startsExecution || this.options.n8n === '2.8')) this.persist(workflow);

		const answeredByNode = result.noWebhookResponse === true;
		if (answeredByNode && !res.writableEnded) res.end();
		const description = webhook.webhookDescription;
		const responseCode = Number(
			workflow.expression.getSimpleParameterValue(this.node, description.responseCode, mode, {}, undefined, 200),
		);
		if (result.workflowData === undefined) {
			if (!answeredByNode) sendJson(res, responseCode, result.webhookResponse ?? { message: 'Webhook call received' });
			record();
			return;
		}
		const responseMode = workflow.expression.getSimpleParameterValue(
			this.node,
			description.responseMode,
			mode,
			{},
			undefined,
			'onReceived',
		);
		if (responseMode !== 'onReceived') throw new Error(`the harness models responseMode "onReceived" only, not "${String(responseMode)}"`);
		// A test event starts a manual execution, in which n8n runs the node again (see runTestExecution).
		const items = this.test
			? await this.runTestExecution(result.workflowData, additionalData).catch((error: Error) => {
					this.errors.push(error);
					return [];
				})
			: (result.workflowData[0] ?? []);
		this.executions.push({ items, path });
		if (!answeredByNode) {
			const responseData = workflow.expression.getComplexParameterValue(
				this.node,
				description.responseData,
				mode,
				{},
				undefined,
				'firstEntryJson',
			);
			if (responseData === 'noData') {
				res.writeHead(responseCode);
				res.end();
			} else if (responseData) {
				// n8n sends a string as it is (Express makes it text/html) and anything else as JSON.
				if (typeof responseData === 'string') sendText(res, responseCode, responseData);
				else sendJson(res, responseCode, responseData);
			} else {
				sendJson(res, responseCode, result.webhookResponse ?? { message: 'Workflow was started' });
			}
		}
		record(true);
	}

	/**
	 * The trigger's output in the manual execution a test event starts, run by n8n-core's engine as n8n runs it:
	 * the webhook's items on the node's execution stack, and, because the node type has a trigger(), that
	 * trigger() called in manual mode and its emit taken as the output (WorkflowExecute.executeTriggerNode).
	 * An execution that does not end within the limit is an error: in n8n it would wait forever.
	 */
	async runTestExecution(
		workflowData: INodeExecutionData[][],
		additionalData: IWorkflowExecuteAdditionalData = this.additionalData(),
	): Promise<INodeExecutionData[]> {
		const runExecutionData = createRunExecutionData({
			executionData: { nodeExecutionStack: [{ node: this.node, data: { main: workflowData }, source: null }] },
		});
		const execution = new WorkflowExecute(additionalData, 'manual', runExecutionData).processRunExecutionData(this.loadWorkflow());
		let timer: NodeJS.Timeout | undefined;
		const limit = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error('the manual execution of the test event did not end within 5 s')), 5000);
		});
		try {
			const run = await Promise.race([execution, limit]);
			const task = run.data.resultData.runData[this.node.name]?.[0];
			const error = run.data.resultData.error ?? task?.error;
			if (error) throw error;
			return task?.data?.main?.[0] ?? [];
		} finally {
			clearTimeout(timer);
			execution.cancel();
		}
	}
}

/** Exact match, with `:name` segments matching any one segment (n8n's dynamic webhooks). */
function pathMatches(pattern: string, path: string): boolean {
	const want = pattern.split('/');
	const got = path.split('/');
	return want.length === got.length && want.every((segment, index) => segment.startsWith(':') || segment === got[index]);
}

/**
 * The request path as n8n's WebhookService matches it: a path with a route parameter (`…/:secret`) is found
 * by the node's webhook id in the first segment and the rest against the registered path (which has no id
 * in front); any other path whole.
 */
function matchedPart(webhook: IWebhookData, path: string): string | undefined {
	if (webhook.webhookId === undefined) return path;
	const [id, ...rest] = path.split('/');
	return id === webhook.webhookId ? rest.join('/') : undefined;
}

function routeMatches(webhook: IWebhookData, path: string): boolean {
	const part = matchedPart(webhook, path);
	return part !== undefined && pathMatches(webhook.path, part);
}

/** The route parameters of a dynamic path (`…/:secret`), as n8n puts them on the request. */
function routeParams(webhook: IWebhookData, path: string): Record<string, string> {
	const params: Record<string, string> = {};
	const got = (matchedPart(webhook, path) ?? '').split('/');
	webhook.path.split('/').forEach((segment, index) => {
		if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(got[index]);
	});
	return params;
}

/** Express's query object: one string per key, an array when a key repeats. */
function parseQuery(url: URL): Record<string, string | string[]> {
	const query: Record<string, string | string[]> = {};
	for (const key of new Set(url.searchParams.keys())) {
		const values = url.searchParams.getAll(key);
		query[key] = values.length === 1 ? values[0] : values;
	}
	return query;
}

/**
 * Watches what is written to the response, by the harness or by the node itself (a 403, say), so that
 * `served` shows the Content-Type and body the sender got.
 */
function captureAnswer(res: http.ServerResponse): { contentType: string; body: string } {
	const sent = { contentType: '', body: '' };
	const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
	(res as { writeHead: unknown }).writeHead = (...args: unknown[]) => {
		const headers = args.find((arg): arg is Record<string, unknown> => typeof arg === 'object' && arg !== null);
		const type = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
		sent.contentType = String(type ?? res.getHeader('content-type') ?? '');
		return writeHead(...args);
	};
	const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
	(res as { end: unknown }).end = (...args: unknown[]) => {
		const [chunk] = args;
		if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) sent.body = chunk.toString();
		return end(...args);
	};
	return sent;
}


function clone<T>(value: T): T {
	return JSON.parse(JSON.stringify(value ?? {})) as T;
}

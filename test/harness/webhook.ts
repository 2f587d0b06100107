/**
 * Runs a webhook trigger the way n8n does, in-process, behind a real HTTP server.
 *
 * - Activation builds the node's webhooks the way n8n's WebhookService does (one per description, paths from
 *   `NodeHelpers.getNodeWebhookPath`) and runs `checkExists` then `create` through n8n-core's real
 *   `HookContext`, only for webhook names that have lifecycle methods. A failure runs `delete` and rethrows,
 *   as n8n's activation does.
 * - The server answers under `/webhook/…` (production) or `/webhook-test/…` ("Listen for test event"), with
 *   n8n's base URLs pointing at it, so what the node registers with the sandbox is reachable. Each request
 *   is matched to a webhook by method and exact path (404 otherwise), its body parsed as n8n does (raw bytes
 *   kept in `rawBody`, JSON parsed only for application/json), and handed to the node's `webhook()` through
 *   n8n-core's real `WebhookContext`. The result is answered the way n8n answers it: `noWebhookResponse`
 *   (the node answered itself), `webhookResponse` (sent as JSON), or n8n's default messages; `workflowData`
 *   becomes one recorded execution.
 * - Static data behaves as in n8n: every call gets a fresh `Workflow` built from what the "database" holds
 *   (`saved`), and changes are written back only when n8n would save them (after activation, deactivation
 *   and every production webhook call, and only if the observable static data says it changed).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { HookContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WebhookSetupMethodNames,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { RubikaWebhookTrigger } from '../../nodes/RubikaWebhookTrigger/RubikaWebhookTrigger.node';
import type { TestCredentials } from './n8n';
import { NodeTypes, makeAdditionalData } from './n8n';

export const WEBHOOK_TRIGGER_NODE = 'Rubika Webhook Trigger';
const WORKFLOW_ID = 'webhook-workflow';

export interface WebhookHarnessOptions {
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
	/** Port for the server (default: any free one); reuse a closed harness's port to model a restart. */
	port?: number;
	nodeType?: INodeType;
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
	responseBody: string;
	startedExecution: boolean;
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

	private readonly nodeType: INodeType;

	private server!: http.Server;

	origin = '';

	private executionCounter = 0;

	private constructor(private readonly options: WebhookHarnessOptions) {
		this.nodeType = options.nodeType ?? new RubikaWebhookTrigger();
		this.node = {
			id: 'rubika-webhook-trigger',
			name: WEBHOOK_TRIGGER_NODE,
			type: this.nodeType.description.name,
			typeVersion: 1,
			position: [0, 0],
			parameters: options.parameters,
			webhookId: options.webhookId ?? randomUUID(),
			credentials: { rubikaApi: { id: 'cred-1', name: 'Rubika test bot' } },
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

	/** Activating the workflow (or starting to listen for a test event): checkExists, then create if needed. */
	async activate(activation: WorkflowActivateMode = this.test ? 'manual' : 'activate'): Promise<void> {
		const workflow = this.loadWorkflow();
		try {
			for (const webhook of this.webhooks(workflow)) {
				const exists = await this.runLifecycle('checkExists', workflow, webhook, activation);
				if (!exists) await this.runLifecycle('create', workflow, webhook, activation);
			}
		} catch (error) {
			// n8n clears the workflow's webhooks when one of them fails to activate.
			for (const webhook of this.webhooks(workflow)) await this.runLifecycle('delete', workflow, webhook, 'update');
			this.persist(workflow);
			throw error;
		}
		this.active = true;
		this.persist(workflow, this.test);
	}

	/** `checkExists` alone, on a fresh workflow object built from the saved static data. */
	async checkExists(): Promise<boolean> {
		const workflow = this.loadWorkflow();
		const [first] = this.webhooks(workflow);
		return (await this.runLifecycle('checkExists', workflow, first, 'activate')) === true;
	}

	/** Deactivating: `delete` for every webhook, then the routes go away. */
	async deactivate(): Promise<void> {
		const workflow = this.loadWorkflow();
		for (const webhook of this.webhooks(workflow)) await this.runLifecycle('delete', workflow, webhook, 'update');
		this.active = false;
		this.persist(workflow);
	}

	/** POSTs straight to the server, for requests the sandbox would never make. */
	async post(
		pathAndQuery: string,
		body: unknown,
		headers: Record<string, string> = { 'Content-Type': 'application/json' },
	): Promise<{ status: number; body: string }> {
		const payload = typeof body === 'string' ? body : JSON.stringify(body);
		const response = await fetch(new URL(pathAndQuery, this.origin), { method: 'POST', headers, body: payload });
		return { status: response.status, body: await response.text() };
	}

	private get executeMode(): WorkflowExecuteMode {
		return this.test ? 'manual' : 'trigger';
	}

	private additionalData(extra: Partial<IWorkflowExecuteAdditionalData> = {}): IWorkflowExecuteAdditionalData {
		const base = makeAdditionalData(this.options.credentials, `webhook-${++this.executionCounter}`);
		const origin = this.options.publicOrigin ?? this.origin;
		return { ...base, webhookBaseUrl: `${origin}/webhook`, webhookTestBaseUrl: `${origin}/webhook-test`, ...extra };
	}

	/** A new Workflow from the saved static data, as n8n builds one per activation and per request. */
	private loadWorkflow(): Workflow {
		return new Workflow({
			id: WORKFLOW_ID,
			name: 'webhook test',
			nodes: [this.node],
			connections: {},
			active: !this.test,
			nodeTypes: new NodeTypes({ [this.nodeType.description.name]: this.nodeType }),
			staticData: clone(this.saved),
			settings: { executionOrder: 'v1' },
		});
	}

	/** n8n saves static data only when its observable object says something changed. */
	private persist(workflow: Workflow, force = false): void {
		if (force || workflow.staticData.__dataChanged === true) this.saved = clone(workflow.staticData);
	}

	/** The node's webhooks as n8n's WebhookService.getNodeWebhooks lists them. */
	private webhooks(workflow: Workflow): IWebhookData[] {
		const list: IWebhookData[] = [];
		for (const description of this.nodeType.description.webhooks ?? []) {
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
				httpMethod: String(description.httpMethod) as IWebhookData['httpMethod'],
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
		const record = (startedExecution = false) =>
			this.served.push({
				method,
				url: req.url ?? '',
				status: res.statusCode,
				responseBody: (res as { harnessBody?: string }).harnessBody ?? '',
				startedExecution,
			});

		const prefix = `${this.prefix}/`;
		const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length).replace(/\/+$/, '') : undefined;
		const workflow = this.loadWorkflow();
		const webhook =
			path === undefined || !this.active
				? undefined
				: this.webhooks(workflow).find((candidate) => candidate.httpMethod === method && pathMatches(candidate.path, path));
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
		Object.assign(request, { body: body ?? {}, rawBody, query: parseQuery(url), params: {}, contentType });

		// Keep what the node itself writes (a 403, say) for `served`.
		const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
		(res as { end: unknown }).end = (...args: unknown[]) => {
			const [chunk] = args;
			if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) (res as { harnessBody?: string }).harnessBody = chunk.toString();
			return end(...args);
		};
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
		// n8n saves the static data of a production webhook call before it answers.
		if (!this.test) this.persist(workflow);

		if (result.noWebhookResponse === true) {
			if (!res.writableEnded) res.end();
			record();
			return;
		}
		let answered = false;
		if (result.webhookResponse !== undefined) {
			sendJson(res, 200, result.webhookResponse);
			answered = true;
		}
		if (result.workflowData === undefined) {
			if (!answered) sendJson(res, 200, { message: 'Webhook call received' });
			record();
			return;
		}
		this.executions.push({ items: result.workflowData[0] ?? [], path });
		if (!answered) sendJson(res, 200, { message: 'Workflow was started' });
		record(true);
	}
}

/** Exact match, with `:name` segments matching any one segment (n8n's dynamic webhooks). */
function pathMatches(pattern: string, path: string): boolean {
	const want = pattern.split('/');
	const got = path.split('/');
	return want.length === got.length && want.every((segment, index) => segment.startsWith(':') || segment === got[index]);
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

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
	const text = JSON.stringify(value);
	(res as { harnessBody?: string }).harnessBody = text;
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	res.end(text);
}

async function readAll(req: http.IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

function clone<T>(value: T): T {
	return JSON.parse(JSON.stringify(value ?? {})) as T;
}

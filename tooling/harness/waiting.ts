/**
 * A Send and Wait execution waiting for its answer, in-process, behind a real HTTP server that stands where
 * n8n's `/webhook-waiting` is.
 *
 * - `start()` runs the Rubika node through n8n-core's real engine (tooling/harness/n8n.ts) until it waits,
 *   with the execution id and, like n8n 2.14 and later, the resume token it is given (none: like 2.8.4).
 * - The server answers `<base>/<execution id>` (the address a trigger hands an answer to) and
 *   `<base>/<execution id>/<node id>` (the web page's links and form) as n8n does: a request to an execution
 *   that went on gets 409; with a resume token, the first address needs `?signature=<token>` and the second
 *   n8n's own signature of the link (`validateUrlSignature` with the instance's secret), else 401. The node's
 *   `webhook()` runs through n8n-core's real `WebhookContext` on the waiting execution's data (its
 *   parameters, custom data and resume address). When it gives workflow data the execution resumes — once: a
 *   request that finds it resuming gets 500, as n8n answers "already being resumed" — and the node's output is
 *   kept in `resumed`; its answer goes back to the caller the way n8n sends it (the node's own answer, else
 *   `webhookResponse` as JSON, or as HTML when it is a string).
 * What the workflow does after the node is not run: `resumed` is what the next node would get.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Container } from '@n8n/di';
import { InstanceSettings, WebhookContext, validateUrlSignature } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, INodeParameters, IWebhookData, IWebhookResponseData } from 'n8n-workflow';

import { Rubika } from '../../nodes/Rubika/Rubika.node';
import type { InputItem, NodeRunResult, TestCredentials } from './n8n';
import { makeAdditionalData, runNode } from './n8n';
import { readAll, sendJson, sendText } from './http';

export interface WaitingHarnessOptions {
	/** The Rubika node's parameters (operation Send and Wait). */
	parameters: INodeParameters;
	credentials: TestCredentials;
	/** The execution's id; a new one per harness by default. */
	executionId?: string;
	/** The execution's resume token (64 hex digits), as n8n 2.14+ give one; none as on 2.8.4. */
	resumeToken?: string;
	items?: InputItem[];
}

/** One request the waiting address answered. */
export interface WaitingAnswer {
	method: string;
	url: string;
	status: number;
	body: string;
}

let executions = 0;

export class WaitingExecution {
	/** The run that sent the question and put the execution to wait. */
	readonly question: NodeRunResult;

	/** The node's output once the execution resumed, as the next node gets it. */
	resumed: INodeExecutionData[] | undefined;

	/** Every request answered, in order. */
	readonly answers: WaitingAnswer[] = [];

	/** Errors thrown by the node's `webhook()` (answered 500, as n8n does). */
	readonly errors: Error[] = [];

	private server!: http.Server;

	private origin = '';

	private resuming = false;

	private constructor(
		readonly options: WaitingHarnessOptions,
		readonly executionId: string,
		question: NodeRunResult,
	) {
		this.question = question;
	}

	/** Sends the question and serves the waiting address; fails when the node did not put the execution to wait. */
	static async start(options: WaitingHarnessOptions): Promise<WaitingExecution> {
		const executionId = options.executionId ?? String(9_000 + ++executions);
		const question = await runNode({
			parameters: options.parameters,
			credentials: options.credentials,
			items: options.items,
			executionId,
			resumeToken: options.resumeToken,
		});
		if (question.error) throw new Error(`the question was not sent: ${question.error.message}`);
		if (question.run.status !== 'waiting') throw new Error(`the execution is ${question.run.status}, not waiting`);
		const harness = new WaitingExecution(options, executionId, question);
		harness.server = http.createServer((req, res) => {
			harness.handle(req, res).catch((error: Error) => {
				harness.errors.push(error);
				if (!res.headersSent) sendJson(res, 500, { code: 0, message: error.message });
			});
		});
		await new Promise<void>((resolve) => harness.server.listen(0, '127.0.0.1', resolve));
		harness.origin = `http://127.0.0.1:${(harness.server.address() as AddressInfo).port}`;
		return harness;
	}

	/** n8n's address for waiting executions, `<origin>/webhook-waiting`: a trigger hands answers on below it. */
	get base(): string {
		return `${this.origin}/webhook-waiting`;
	}

	/** The question's message as the node sent it (its output while waiting). */
	get sent(): IDataObject {
		return this.question.items[0]?.json ?? {};
	}

	/** The answer `data` the node gave the execution when it resumed. */
	get data(): IDataObject | undefined {
		return this.resumed?.[0]?.json.data as IDataObject | undefined;
	}

	/** Rebases a link the node put in its message (n8n's address in the harness) onto this server. */
	here(link: string): string {
		const url = new URL(link);
		return `${this.origin}${url.pathname}${url.search}`;
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', this.origin);
		const method = req.method ?? 'GET';
		const raw = await readAll(req);
		const answered = record(res, (status, body) => this.answers.push({ method, url: req.url ?? '', status, body }));
		const [, prefix, executionId, nodeId, ...rest] = url.pathname.split('/');
		const node = this.question.workflow.getNode('Rubika') as INode;
		if (prefix !== 'webhook-waiting' || executionId !== this.executionId || rest.length > 0 || (nodeId !== undefined && nodeId !== node.id)) {
			return answered(sendJson(res, 404, { code: 404, message: 'The requested webhook is not registered.' }));
		}
		if (this.resumed !== undefined) return answered(sendJson(res, 409, { code: 409, message: `The execution "${executionId}" is running already.` }));
		if (!this.signed(url, nodeId)) return answered(sendJson(res, 401, { code: 401, message: 'Invalid token' }));

		const description = new Rubika().description.webhooks?.find((webhook) => webhook.httpMethod === method && (nodeId === undefined ? webhook.path === '' : webhook.path !== ''));
		if (!description) return answered(sendJson(res, 404, { code: 404, message: `The requested webhook "${method}" is not registered.` }));
		const request = Object.assign(req, {
			body: parseBody(String(req.headers['content-type'] ?? ''), raw),
			query: Object.fromEntries(url.searchParams),
			params: {},
		});
		const additionalData = {
			...makeAdditionalData(this.options.credentials, this.executionId),
			webhookWaitingBaseUrl: this.base,
			httpRequest: request,
			httpResponse: expressLike(res),
		} as never;
		const webhook: IWebhookData = {
			httpMethod: method as IWebhookData['httpMethod'],
			node: node.name,
			path: nodeId ?? '',
			webhookDescription: description,
			workflowId: this.question.workflow.id,
			workflowExecuteAdditionalData: additionalData,
		};
		const context = new WebhookContext(this.question.workflow, node, additionalData, 'webhook', webhook, [], this.question.run.data);
		const result: IWebhookResponseData = await new Rubika().webhook.call(context);
		if (result.workflowData !== undefined) {
			if (this.resuming) {
				if (!res.headersSent) sendJson(res, 500, { code: 500, message: 'Execution is already being resumed by another process' });
				return answered();
			}
			this.resuming = true;
			this.resumed = result.workflowData[0] ?? [];
		}
		if (result.noWebhookResponse !== true && !res.headersSent) {
			const response = result.webhookResponse ?? { message: 'Workflow was started' };
			if (typeof response === 'string') sendText(res, 200, response);
			else sendJson(res, 200, response);
		}
		if (!res.writableEnded) res.end();
		return answered();
	}

	/** n8n 2.14+: the resume token on the bare address, n8n's signature on the node's; 2.8.4 checks neither here. */
	private signed(url: URL, nodeId: string | undefined): boolean {
		const token = this.options.resumeToken;
		if (token === undefined) return true;
		const signature = url.searchParams.get('signature') ?? '';
		if (nodeId === undefined) return signature === token;
		return signature !== '' && validateUrlSignature(signature, url, Container.get(InstanceSettings).hmacSignatureSecret);
	}
}

/** The request body as n8n parses it: JSON, or the fields of a urlencoded form; anything else as nothing. */
function parseBody(contentType: string, raw: Buffer): unknown {
	const type = contentType.split(';')[0].trim().toLowerCase();
	if (raw.length === 0) return {};
	if (type === 'application/json') return JSON.parse(raw.toString('utf8'));
	if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
	return {};
}

/** The parts of Express's response the node uses: status, setHeader, json, send. */
function expressLike(res: http.ServerResponse): http.ServerResponse & { status(code: number): unknown; json(body: unknown): void; send(body: string): void } {
	return Object.assign(res, {
		status(code: number) {
			res.statusCode = code;
			return res;
		},
		json(body: unknown) {
			if (!res.getHeader('content-type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
			res.end(JSON.stringify(body));
		},
		send(body: string) {
			res.end(body);
		},
	});
}

/** Records the answer once the response ended: its status and body. */
function record(res: http.ServerResponse, done: (status: number, body: string) => void): (ignored?: unknown) => void {
	let body = '';
	const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
	(res as { end: unknown }).end = (...args: unknown[]) => {
		const [chunk] = args;
		if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) body = chunk.toString();
		return end(...args);
	};
	return () => done(res.statusCode, body);
}

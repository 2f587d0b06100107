/**
 * The sandbox's HTTP wiring: one node:http server on a host and port, each request handed to the route
 * module its path names, keep-alive connections cut on close.
 *
 * Routes: `/v3/{token}/{method}` and `/via/{name}/v3/{token}/{method}` (API, api.ts), `/upload/<slot>` and `/files/<id>/<name>` (files, no token,
 * files.ts), the chat page `/`, `/chat`, `/web/…`, `/_sandbox/events` (web/serve.ts), and `/_sandbox/…`
 * (admin API, admin.ts).
 */
import http from 'node:http';
import type { Socket } from 'node:net';

import type { AdminContext } from './admin';
import { handleAdmin } from './admin';
import type { ApiContext } from './api';
import { handleApiRequest } from './api';
import type { FilesContext } from './files';
import { handleDownload, handleUpload } from './files';
import { send } from './http';
import { READ_ONLY_METHODS } from './methods';
import type { WebContext } from './web/serve';
import { handleWeb, isWebPath } from './web/serve';

/** What each route module is given. */
export interface SandboxRoutes {
	api: ApiContext;
	files: FilesContext;
	web: WebContext;
	admin: AdminContext;
	/**
	 * Called after every request is answered. `mayHaveChangedState` is false for requests that only read:
	 * GET and HEAD (every route keeps those read-only) and the API's read methods.
	 */
	afterRequest(mayHaveChangedState: boolean): void;
}

/**
 * `/v3/{token}/{method}`, also under `/via/{name}`: a second address of the same sandbox (as a gateway or a
 * proxy in front of Rubika would be), for a credential whose Base URL changes while the bot stays the same.
 */
const API_PATH = /^(\/via\/[A-Za-z0-9_-]+)?\/v3\/([^/]*)\/([^/]+)\/?$/;

export class SandboxHttpServer {
	readonly #server: http.Server;
	readonly #sockets = new Set<Socket>();

	constructor(routes: SandboxRoutes) {
		this.#server = http.createServer((req, res) => {
			route(routes, req, res)
				.catch((error: unknown) => {
					console.error('[rubika-sandbox] request failed', error);
					send(res, 500, JSON.stringify({ status: 'SANDBOX_INTERNAL_ERROR', dev_message: String(error) }));
				})
				.finally(() => routes.afterRequest(mayChangeState(req)));
		});
		this.#server.on('connection', (socket) => {
			this.#sockets.add(socket);
			socket.on('close', () => this.#sockets.delete(socket));
		});
	}

	/** Listens; resolves with the port bound (a free one for port 0). */
	async listen(port: number, host: string): Promise<number> {
		await new Promise<void>((resolve, reject) => {
			this.#server.once('error', reject);
			this.#server.listen(port, host, () => {
				this.#server.off('error', reject);
				resolve();
			});
		});
		const address = this.#server.address();
		return typeof address === 'object' && address ? address.port : 0;
	}

	/** Stops listening and cuts every open connection, kept-alive ones included. */
	async close(): Promise<void> {
		const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
		for (const socket of this.#sockets) socket.destroy();
		this.#server.closeAllConnections();
		if (this.#server.listening) await closed;
	}
}

async function route(routes: SandboxRoutes, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
	const url = requestUrl(req);
	const path = url.pathname;
	if (isRubikaRoute(path) && !answersClient(routes.api.config.answerOnlyFrom, req.socket.remoteAddress)) {
		// Never answered: the client's timeout ends it, or the sandbox's close (answerOnlyFrom, config.ts).
		req.resume();
		return;
	}
	let match: RegExpExecArray | null;
	if ((match = API_PATH.exec(path))) {
		await handleApiRequest(routes.api, req, res, safeDecode(match[2]), safeDecode(match[3]), match[1] ?? '');
	} else if ((match = /^\/upload\/([^/]+)\/?$/.exec(path))) {
		await handleUpload(routes.files, req, res, safeDecode(match[1]));
	} else if ((match = /^\/files\/([^/]+)(?:\/[^/]*)?$/.exec(path))) {
		await handleDownload(routes.files, req, res, safeDecode(match[1]));
	} else if (isWebPath(path)) {
		await handleWeb(routes.web, req, res, path);
	} else if (path === '/_sandbox' || path.startsWith('/_sandbox/')) {
		await handleAdmin(routes.admin, req, res, url);
	} else {
		req.resume();
		send(res, 404, 'Not Found', 'text/plain; charset=utf-8');
	}
}

/** The routes that stand for Rubika's servers: the Bot API, uploads and downloads. */
function isRubikaRoute(path: string): boolean {
	return API_PATH.test(path) || /^\/(upload|files)\//.test(path);
}

/** Whether a request from `address` is answered under `answerOnlyFrom` (an IPv4 address may come as ::ffff:a.b.c.d). */
function answersClient(answerOnlyFrom: string[] | null, address: string | undefined): boolean {
	if (answerOnlyFrom === null) return true;
	const client = (address ?? '').replace(/^::ffff:/, '');
	return answerOnlyFrom.includes(client);
}

function requestUrl(req: http.IncomingMessage): URL {
	return new URL(req.url ?? '/', 'http://sandbox.invalid');
}

/** False for requests that only read: GET and HEAD (every route keeps them read-only), and the API's read methods. */
function mayChangeState(req: http.IncomingMessage): boolean {
	if (req.method === 'GET' || req.method === 'HEAD') return false;
	const api = API_PATH.exec(requestUrl(req).pathname);
	return !api || !READ_ONLY_METHODS.has(safeDecode(api[3]));
}

function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

/**
 * A small HTTP proxy for the tests: the way into Iran that a user abroad reaches Rubika through.
 *
 * It forwards plain requests sent to it with an absolute address (`GET http://host/path`, what a client does
 * through a proxy for an `http://` target) and tunnels `CONNECT host:port` (what it does for `https://`). Its own
 * connections leave from `outgoingAddress` (127.0.0.2 by default), which the sandbox's `answerOnlyFrom` knob can
 * require, the way Rubika answers only some addresses (facts §1). With `auth` it asks for Basic
 * Proxy-Authorization (407 without it). `hosts` maps names that do not resolve (`rubika.test:80`) to where the
 * sandbox listens, so a credential can name a public-looking Base URL that only the proxy can reach.
 *
 * It records what went through it (method, target, whether authorised), never the credentials themselves.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ProxyOptions {
	host?: string;
	port?: number;
	/** Where the proxy's own connections leave from. */
	outgoingAddress?: string;
	auth?: { username: string; password: string };
	/** `name:port` → `host:port` the proxy connects to instead. */
	hosts?: Record<string, string>;
}

interface ProxiedRequest {
	method: string;
	/** `host:port` the client asked for (before `hosts` mapped it). */
	target: string;
	/** The path of a forwarded request, a bot token in it replaced by `<token>` (none for CONNECT). */
	path?: string;
	authorized: boolean;
}

export interface TestProxy {
	/** `http://host:port` of the proxy, without credentials. */
	url: string;
	port: number;
	readonly requests: ProxiedRequest[];
	close(): Promise<void>;
}

export async function startProxy(options: ProxyOptions = {}): Promise<TestProxy> {
	const outgoing = options.outgoingAddress ?? '127.0.0.2';
	const requests: ProxiedRequest[] = [];
	const sockets = new Set<net.Socket>();
	const resolveTarget = (target: string): { host: string; port: number } => {
		const mapped = options.hosts?.[target.toLowerCase()] ?? target;
		const at = mapped.lastIndexOf(':');
		return { host: mapped.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(mapped.slice(at + 1)) };
	};
	const authorized = (header: string | undefined): boolean => {
		if (!options.auth) return true;
		const expected = `Basic ${Buffer.from(`${options.auth.username}:${options.auth.password}`).toString('base64')}`;
		return header === expected;
	};

	// Lenient about data after a request that said `Connection: close`: n8n 2.8.4 (http-proxy-agent 7 under n8n-core's
	// per-request proxy agent) sometimes writes the reading trigger's getUpdates twice on one connection, the second
	// copy after `Connection: close` (seen 9-10 times in each e2e/reach.mjs run on 2.8.4, never on 2.41.1). Node's
	// strict parser refuses both with HTTP 400, and every read failed from then on; this proxy forwards both, as a
	// lenient proxy does (Rubika then answers the same page twice; the trigger delivers each update once).
	const server = http.createServer({ insecureHTTPParser: true }, (req, res) => {
		let target: URL;
		try {
			target = new URL(req.url ?? '');
		} catch {
			res.writeHead(400).end('a proxy request needs an absolute address');
			return;
		}
		const port = target.port || (target.protocol === 'https:' ? '443' : '80');
		const ok = authorized(req.headers['proxy-authorization']);
		const path = target.pathname.replace(/\/v3\/[^/]+\//, '/v3/<token>/');
		requests.push({ method: req.method ?? 'GET', target: `${target.hostname}:${port}`, path, authorized: ok });
		if (!ok) {
			res.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="test proxy"' }).end();
			return;
		}
		const { host, port: toPort } = resolveTarget(`${target.hostname}:${port}`);
		const headers: http.OutgoingHttpHeaders = { ...req.headers, host: target.host, via: '1.1 rubika-test-proxy' };
		delete headers['proxy-authorization'];
		delete headers['proxy-connection'];
		const upstream = http.request(
			{ host, port: toPort, localAddress: outgoing, agent: false, method: req.method, path: `${target.pathname}${target.search}`, headers },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => {
			if (!res.headersSent) res.writeHead(502).end();
			else res.destroy();
		});
		req.pipe(upstream);
	});

	server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
		const target = req.url ?? '';
		const ok = authorized(req.headers['proxy-authorization']);
		requests.push({ method: 'CONNECT', target, authorized: ok });
		if (!ok) {
			client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\n\r\n');
			return;
		}
		const { host, port } = resolveTarget(target);
		const upstream = net.connect({ host, port, localAddress: outgoing }, () => {
			client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head.length) upstream.write(head);
			upstream.pipe(client);
			client.pipe(upstream);
		});
		track(upstream);
		upstream.on('error', () => client.destroy());
		client.on('error', () => upstream.destroy());
	});
	const track = (socket: net.Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	};
	server.on('connection', track);

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
	});
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://${options.host ?? '127.0.0.1'}:${port}`,
		port,
		requests,
		async close() {
			for (const socket of sockets) socket.destroy();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** Raw-HTTP helpers for the sandbox's own tests: what a client sees on the wire, nothing interpreted. */
import axios from 'axios';
import http from 'node:http';

import type { RubikaSandbox } from '../../sandbox';
import { DEMO_BOT_TOKEN } from '../../sandbox';

export interface RawAnswer {
	httpStatus: number;
	text: string;
	/** Parsed body, or undefined when it is not JSON. */
	json: any;
	headers: Record<string, unknown>;
}

function parse(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** POSTs to a method; `body` undefined sends no body, a string is sent as is, anything else as JSON. */
export async function api(sandbox: RubikaSandbox, method: string, body?: unknown, token = DEMO_BOT_TOKEN): Promise<RawAnswer> {
	const response = await axios.post(sandbox.methodUrl(method, token), typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body), {
		headers: { 'Content-Type': 'application/json' },
		responseType: 'text',
		transformResponse: (data: string) => data,
		validateStatus: () => true,
	});
	return { httpStatus: response.status, text: response.data, json: parse(response.data), headers: response.headers as Record<string, unknown> };
}

/** Calls a method that must succeed; returns `data`. */
export async function ok(sandbox: RubikaSandbox, method: string, body?: unknown): Promise<any> {
	const answer = await api(sandbox, method, body);
	if (answer.json?.status !== 'OK') throw new Error(`${method} failed: ${answer.httpStatus} ${answer.text}`);
	expect(answer.httpStatus).toBe(200);
	return answer.json.data;
}

/** Calls a method that must fail with `status` (HTTP 200 by default); returns dev_message. */
export async function fails(sandbox: RubikaSandbox, method: string, body: unknown, status = 'INVALID_INPUT'): Promise<string> {
	const answer = await api(sandbox, method, body);
	expect(answer.json).toEqual({ status, dev_message: expect.any(String) });
	expect(answer.httpStatus).toBe(200);
	return answer.json.dev_message;
}

export async function adminCall(sandbox: RubikaSandbox, httpMethod: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
	const response = await axios.request({
		method: httpMethod,
		url: `${sandbox.baseUrl}/_sandbox${path}`,
		data: Buffer.isBuffer(body) ? body : body === undefined ? undefined : JSON.stringify(body),
		headers: { 'Content-Type': 'application/json', ...headers },
		responseType: 'text',
		transformResponse: (data: string) => data,
		validateStatus: () => true,
	});
	return { httpStatus: response.status, text: response.data, json: parse(response.data), headers: response.headers as Record<string, unknown> };
}

/** A multipart/form-data body with one part per entry, built by hand so tests control every byte. */
export function multipartBody(
	parts: Array<{ name: string; filename?: string; contentType?: string; data: Buffer | string }>,
	boundary = `----sandboxTest${Math.random().toString(16).slice(2)}`,
): { body: Buffer; contentType: string } {
	const chunks: Buffer[] = [];
	for (const part of parts) {
		let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
		if (part.filename !== undefined) head += `; filename="${part.filename}"`;
		head += '\r\n';
		if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
		chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(part.data), Buffer.from('\r\n'));
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`));
	return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function postRaw(url: string, body: Buffer | string, contentType: string): Promise<RawAnswer> {
	const response = await axios.post(url, body, {
		headers: { 'Content-Type': contentType },
		responseType: 'text',
		transformResponse: (data: string) => data,
		validateStatus: () => true,
		maxBodyLength: Infinity,
	});
	return { httpStatus: response.status, text: response.data, json: parse(response.data), headers: response.headers as Record<string, unknown> };
}

export async function uploadFile(
	sandbox: RubikaSandbox,
	data: Buffer,
	options: { type?: string; filename?: string; contentType?: string } = {},
): Promise<string> {
	const { upload_url } = await ok(sandbox, 'requestSendFile', { type: options.type ?? 'File' });
	const form = multipartBody([
		{ name: 'file', filename: options.filename ?? 'data.bin', contentType: options.contentType ?? 'application/octet-stream', data },
	]);
	const answer = await postRaw(upload_url, form.body, form.contentType);
	if (answer.json?.status !== 'OK') throw new Error(`upload failed: ${answer.text}`);
	return answer.json.data.file_id;
}

export interface Receiver {
	url: string;
	hits: Array<{ path: string; body: any; raw: string }>;
	/** What the receiver answers (default 200). */
	status: number;
	close(): Promise<void>;
}

/**
 * A receiver for a whole test file: started before its tests, emptied (and answering 200 again) before each,
 * closed after them.
 */
export function useReceiver(): Receiver {
	let current: Receiver | undefined;
	const started = (): Receiver => {
		if (current === undefined) throw new Error('the receiver is started in beforeAll: use it inside a test');
		return current;
	};
	beforeAll(async () => {
		current = await startReceiver();
	});
	afterAll(async () => {
		await current?.close();
	});
	beforeEach(() => {
		started().hits.length = 0;
		started().status = 200;
	});
	return {
		get url() {
			return started().url;
		},
		get hits() {
			return started().hits;
		},
		get status() {
			return started().status;
		},
		set status(status: number) {
			started().status = status;
		},
		close: async () => await started().close(),
	};
}

/** A tiny webhook receiver on 127.0.0.1 that records every POST. */
export async function startReceiver(): Promise<Receiver> {
	const receiver: Receiver = { url: '', hits: [], status: 200, close: async () => undefined };
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			receiver.hits.push({ path: req.url ?? '', body: parse(raw), raw });
			res.writeHead(receiver.status, { 'Content-Type': 'application/json' });
			res.end('{"status":"OK"}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address() as { port: number };
	receiver.url = `http://127.0.0.1:${address.port}`;
	receiver.close = () =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	return receiver;
}

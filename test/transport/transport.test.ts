import { LoggerProxy, NodeApiError } from 'n8n-workflow';
import type { INodeParameters } from 'n8n-workflow';

import { DEMO_BOT_TOKEN, DEMO_USERS, startSandbox } from '../../sandbox';
import { runNode } from '../../tooling/harness/n8n';
import { useSandbox } from '../support/sandbox';
import { TransportProbe } from './probe';

const t = useSandbox();
const logLines: string[] = [];

beforeAll(() => {
	// Capture every log line n8n and our code write, to prove the token never reaches a log.
	const capture = (level: string) => (message: string, meta?: object) =>
		logLines.push(`${level} ${message} ${meta ? JSON.stringify(meta) : ''}`);
	LoggerProxy.init({
		error: capture('error'),
		warn: capture('warn'),
		info: capture('info'),
		debug: capture('debug'),
		scoped: () => LoggerProxy,
	} as never);
});

function probe(method: string, body: object = {}, extra: INodeParameters = {}, token = DEMO_BOT_TOKEN) {
	return runNode({
		nodeType: new TransportProbe(),
		parameters: { method, body: body as INodeParameters, ...extra },
		credentials: { accessToken: token, baseUrl: t.sandbox.baseUrl },
	});
}

/** Everything an error carries, own and inherited fields, as one searchable text. */
function everythingIn(value: unknown): string {
	const seen = new Set<unknown>();
	const walk = (v: unknown, depth: number): string => {
		if (v === null || v === undefined || depth > 6) return '';
		if (typeof v !== 'object') return String(v);
		if (seen.has(v)) return '';
		seen.add(v);
		const keys = new Set<string>([...Object.getOwnPropertyNames(v), 'message', 'stack', 'cause', 'description']);
		return [...keys].map((k) => `${k}=${walk((v as Record<string, unknown>)[k], depth + 1)}`).join('\n');
	};
	return walk(value, 0);
}

describe('calls', () => {
	test('POSTs JSON to {base}/v3/{token}/{method} and returns the envelope data', async () => {
		const result = await probe('getChat', { chat_id: DEMO_USERS.sara.chat_id });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ chat: { chat_id: DEMO_USERS.sara.chat_id, chat_type: 'User' } });
		const [request] = t.sandbox.requestsFor('getChat');
		expect(request.body).toEqual({ chat_id: DEMO_USERS.sara.chat_id });
		expect(request.tokenValid).toBe(true);
	});

	test('message ids above 2^53 sent as bare numbers keep every digit', async () => {
		t.sandbox.configure({ bareNumericIds: true });
		const result = await probe('sendMessage', { chat_id: DEMO_USERS.sara.chat_id, text: 'hi' });
		expect(result.error).toBeUndefined();
		const id = result.items[0].json.message_id;
		expect(typeof id).toBe('string');
		const stored = t.sandbox.messages(DEMO_USERS.sara.chat_id).at(-1)!;
		expect(id).toBe(stored.message_id);
		expect(BigInt(id as string)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
	});
});

describe('Rubika errors', () => {
	test('INVALID_INPUT becomes a NodeApiError with status, dev_message, method and HTTP code, not retried', async () => {
		const result = await probe('getChat', { chat_id: 'b0doesnotexist' });
		// The engine records errors as plain objects; the name says which class was thrown.
		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toMatch(/^Rubika getChat failed: INVALID_INPUT – /);
		expect(error.description).toMatch(/invalid/i);
		expect(error.httpCode).toBe('200');
		expect((error as unknown as { errorResponse: object }).errorResponse).toMatchObject({
			method: 'getChat',
			status: 'INVALID_INPUT',
			dev_message: expect.any(String),
			http_code: 200,
		});
		expect(t.sandbox.requestsFor('getChat')).toHaveLength(1);
	});

	test('INVALID_ACCESS is explained and never retried', async () => {
		t.sandbox.injectFault({ kind: 'status', status: 'INVALID_ACCESS', devMessage: 'bot is not admin', method: 'getMe' });
		const result = await probe('getMe');
		expect(result.error?.message).toBe('Rubika getMe failed: INVALID_ACCESS – bot is not admin');
		expect(result.error?.description).toMatch(/not allowed/);
		expect(t.sandbox.requestsFor('getMe')).toHaveLength(1);
	});

	test('an unknown status keeps its name in the message', async () => {
		t.sandbox.injectFault({ kind: 'status', status: 'SERVER_BUSY_NEW', devMessage: 'try later', method: 'getMe' });
		const result = await probe('getMe', {}, { retries: 0 });
		expect(result.error?.message).toBe('Rubika getMe failed: SERVER_BUSY_NEW – try later');
		expect(result.error?.description).toMatch(/SERVER_BUSY_NEW/);
	});

	test('a wrong token gives the error the service gives, without the token', async () => {
		const result = await probe('getMe', {}, {}, 'WrongToken0123456789');
		expect(result.error?.message).toMatch(/INVALID_INPUT/);
		expect(everythingIn(result.error)).not.toContain('WrongToken0123456789');
	});
});

describe('retries', () => {
	test('TOO_REQUESTS in an HTTP 200 envelope is retried until it succeeds', async () => {
		t.sandbox.injectFault({ kind: 'status', status: 'TOO_REQUESTS', method: 'getMe', times: 2 });
		const result = await probe('getMe');
		expect(result.error).toBeUndefined();
		expect(t.sandbox.requestsFor('getMe')).toHaveLength(3);
	});

	test('HTTP 429 is retried', async () => {
		t.sandbox.injectFault({ kind: 'status', status: 'TOO_REQUESTS', httpStatus: 429, method: 'getMe', times: 1 });
		const result = await probe('getMe');
		expect(result.error).toBeUndefined();
		expect(t.sandbox.requestsFor('getMe')).toHaveLength(2);
	});

	test.each([500, 502, 503, 504])('HTTP %i is retried', async (httpStatus) => {
		t.sandbox.injectFault({ kind: 'httpStatus', httpStatus, method: 'getMe' });
		const result = await probe('getMe');
		expect(result.error).toBeUndefined();
		expect(t.sandbox.requestsFor('getMe')).toHaveLength(2);
	});

	test('a dropped connection is retried', async () => {
		t.sandbox.injectFault({ kind: 'drop', method: 'getMe' });
		const result = await probe('getMe');
		expect(result.error).toBeUndefined();
		expect(t.sandbox.requestsFor('getMe')).toHaveLength(2);
	});

	test('a timeout is retried', async () => {
		t.sandbox.injectFault({ kind: 'delay', ms: 1500, method: 'getMe' });
		const result = await probe('getMe', {}, { timeoutMs: 300 });
		expect(result.error).toBeUndefined();
		expect(t.sandbox.requestsFor('getMe')).toHaveLength(2);
	});

	test('attempts are bounded, and the error says how many were made', async () => {
		t.sandbox.injectFault({ kind: 'status', status: 'TOO_REQUESTS', method: 'getMe', times: -1 });
		const result = await probe('getMe', {}, { retries: 2 });
		expect(result.error?.message).toMatch(/TOO_REQUESTS/);
		expect((result.error as unknown as { errorResponse: object }).errorResponse).toMatchObject({ attempts: 3 });
		expect(t.sandbox.requestsFor('getMe')).toHaveLength(3);
	});

	test('an unreachable host fails clearly after its retries', async () => {
		const closed = await startSandbox();
		const baseUrl = closed.baseUrl;
		await closed.close();
		const result = await runNode({
			nodeType: new TransportProbe(),
			parameters: { method: 'getMe', retries: 1 },
			credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl },
		});
		expect(result.error?.message).toBe(`Could not reach Rubika at ${new URL(baseUrl).host} for getMe: the connection was refused`);
		expect((result.error as unknown as { description: string }).description).toMatch(/check the Base URL, that this n8n can reach that host \(DNS, firewall\).*proxy/);
	});

	test('a host name that does not resolve is named, with what to check', async () => {
		const result = await runNode({
			nodeType: new TransportProbe(),
			parameters: { method: 'getMe', retries: 0 },
			credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: 'http://rubika-gateway.invalid' },
		});
		expect(result.error?.message).toMatch(/^Could not reach Rubika at rubika-gateway\.invalid for getMe: /);
		expect(JSON.stringify(result.error)).not.toContain(DEMO_BOT_TOKEN);
	});
});

describe('answers that are not the Bot API', () => {
	test.each([
		['html', /HTTP 502 with an HTML page/],
		['empty', /HTTP 200 with an empty body/],
		['truncated', /HTTP 200 with JSON that is cut off or malformed/],
		['malformed', /HTTP 200 with (JSON that is cut off or malformed|a body that is not JSON)/],
	] as const)('%s body gives a clear error', async (kind, message) => {
		t.sandbox.injectFault({ kind, method: 'getMe', times: -1 });
		const result = await probe('getMe', {}, { retries: 1 });
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(message);
	});

	test('a server that is not Rubika at all (404 page) points at the Base URL', async () => {
		t.sandbox.injectFault({ kind: 'httpStatus', httpStatus: 404, body: 'Not Found', method: 'getMe' });
		const result = await probe('getMe');
		expect(result.error?.message).toBe('Rubika getMe did not answer like the Bot API: HTTP 404 with a body that is not JSON');
		expect(result.error?.description).toMatch(/Base URL/);
		expect(t.sandbox.requestsFor('getMe')).toHaveLength(1);
	});
});

describe('the bot token never leaks', () => {
	const canary = 'CanaryTokenZZ' + 'q'.repeat(64 - 'CanaryTokenZZ'.length);

	beforeEach(() => {
		t.sandbox.addBot({ token: canary });
		logLines.length = 0;
	});

	test.each([
		['a Rubika error echoing the token', { kind: 'status', status: 'INVALID_INPUT', devMessage: `bad token ${canary} at /v3/${canary}/getMe` }],
		['an HTML page echoing the URL', { kind: 'httpStatus', httpStatus: 400, body: `<html><title>Bad /v3/${canary}/getMe</title></html>`, contentType: 'text/html' }],
		['a dropped connection', { kind: 'drop', times: -1 }],
		['rate limiting until the retries run out', { kind: 'status', status: 'TOO_REQUESTS', times: -1 }],
	] as const)('%s', async (_name, fault) => {
		t.sandbox.injectFault({ ...fault, method: 'getMe' });
		const result = await probe('getMe', {}, { retries: 1 }, canary);
		expect(result.error).toBeDefined();
		expect(everythingIn(result.error)).not.toContain(canary);
		expect(everythingIn(result.run.data)).not.toContain(canary);
		expect(logLines.join('\n')).not.toContain(canary);
	});

	test('the canary does reach the sandbox (so the checks above can fail)', async () => {
		const result = await probe('getMe', {}, {}, canary);
		expect(result.error).toBeUndefined();
		expect(t.sandbox.requestsFor('getMe')[0].tokenValid).toBe(true);
	});
});

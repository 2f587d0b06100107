/**
 * Reaching Rubika through the credential's Proxy, with n8n-core 2.41's own HTTP client and a real proxy on
 * 127.0.0.2's side: the sandbox plays a Rubika that answers only the proxy's address (`answerOnlyFrom`), as
 * Rubika answers only addresses in Iran. Each behaviour both ways: with and without the proxy, with the right and
 * a wrong proxy password, the proxy up and down.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { RubikaApi, rubikaProxy } from '../../credentials/RubikaApi.credentials';
import { networkProblem } from '../../nodes/shared/transport/failures';
import type { TestProxy } from '../../sandbox';
import { DEMO_BOT_TOKEN, DEMO_USERS, startProxy } from '../../sandbox';
import { testRubikaCredential } from '../../tooling/harness/credentialTest';
import type { TestCredentials } from '../../tooling/harness/n8n';
import { runNode } from '../../tooling/harness/n8n';
import { fileItem, pattern } from '../actions/helpers';
import { useSandbox } from '../support/sandbox';
import { TransportProbe } from './probe';

const t = useSandbox();
let proxy: TestProxy;

beforeEach(async () => {
	proxy = await startProxy();
});
afterEach(async () => {
	await proxy.close();
});

/** Rubika answering only the proxy's outgoing address: anything else waits until the client gives up. */
const geoBlocked = () => t.sandbox.configure({ answerOnlyFrom: ['127.0.0.2'] });

const credentials = (extra: Partial<TestCredentials> = {}): TestCredentials => ({ accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl, ...extra });

const getMe = async (creds: TestCredentials, parameters: Record<string, unknown> = {}) =>
	await runNode({ nodeType: new TransportProbe(), parameters: { method: 'getMe', retries: 0, timeoutMs: 600, ...parameters }, credentials: creds });

describe('a Rubika that answers only some addresses', () => {
	test('without a proxy: the request times out, and the error names the restriction and the Proxy', async () => {
		geoBlocked();
		const result = await getMe(credentials());
		const host = new URL(t.sandbox.baseUrl).host;
		expect(result.error?.message).toBe(
			`Could not reach Rubika at ${host} for getMe: the request timed out (Rubika often answers only addresses in Iran: from elsewhere, set a Proxy in the Rubika credential)`,
		);
		expect((result.error as unknown as { description: string }).description).toMatch(/only addresses in Iran.*Proxy.*HTTPS_PROXY.*gateway in Iran as the Base URL/);
		expect(t.sandbox.requestsFor('getMe')).toHaveLength(0);
	});

	test('through the credential\'s proxy: answered, and the request went through the proxy', async () => {
		geoBlocked();
		const result = await getMe(credentials({ proxy: proxy.url }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ bot: { bot_id: expect.any(String) } });
		expect(proxy.requests).toEqual([{ method: 'POST', target: new URL(t.sandbox.baseUrl).host, path: '/v3/<token>/getMe', authorized: true }]);
		expect(t.sandbox.requestsFor('getMe')).toHaveLength(1);
	});

	test('a proxy that times out too: the message says which proxy the request went through', async () => {
		t.sandbox.configure({ answerOnlyFrom: ['127.0.0.3'] });
		const result = await getMe(credentials({ proxy: proxy.url }));
		expect(result.error?.message).toBe(
			`Could not reach Rubika at ${new URL(t.sandbox.baseUrl).host} through the proxy at ${new URL(proxy.url).host} for getMe: the request timed out (Rubika often answers only addresses in Iran)`,
		);
	});

	test('the credential test goes through the proxy: OK with it; without it no answer comes', async () => {
		geoBlocked();
		expect(await testRubikaCredential(credentials({ proxy: proxy.url }))).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(proxy.requests.map((request) => request.path)).toEqual(['/v3/<token>/getMe']);
		// The tester has no timeout of its own here: the sandbox's close (after the test) ends the request.
		const direct = testRubikaCredential(credentials());
		const outcome = await Promise.race([direct, new Promise((resolve) => setTimeout(() => resolve('no answer after 1 s'), 1000))]);
		expect(outcome).toBe('no answer after 1 s');
		expect(proxy.requests).toHaveLength(1);
	});

	test('a file upload and download through the proxy; a file at the user\'s own address is fetched directly', async () => {
		geoBlocked();
		const note = Buffer.from('from the user\'s server');
		const files = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(note.length) }).end(note));
		await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
		try {
			const creds = credentials({ proxy: proxy.url });
			const chatId = DEMO_USERS.sara.chat_id;
			const data = pattern(20_000);
			const sent = await runNode({ parameters: { resource: 'message', operation: 'sendFile', chatId }, credentials: creds, items: [fileItem(data, 'a.bin', 'application/octet-stream')] });
			expect(sent.error).toBeUndefined();
			const fileId = String(sent.items[0].json.file_id);
			expect(t.sandbox.file(fileId)?.bytes.equals(data)).toBe(true);
			const downloaded = await runNode({ parameters: { resource: 'file', operation: 'download', fileId }, credentials: creds });
			expect(downloaded.error).toBeUndefined();
			const paths = proxy.requests.map((request) => request.path?.replace(/\/[^/]+$/, '/…'));
			expect(paths).toEqual(expect.arrayContaining(['/upload/…', '/v3/<token>/…']));
			expect(proxy.requests.some((request) => request.path?.startsWith('/files/'))).toBe(true);

			const before = proxy.requests.length;
			const byUrl = await runNode({
				parameters: { resource: 'message', operation: 'sendFile', chatId, fileSource: 'url', fileUrl: `http://127.0.0.1:${(files.address() as AddressInfo).port}/note.txt` },
				credentials: creds,
			});
			expect(byUrl.error).toBeUndefined();
			const filePort = String((files.address() as AddressInfo).port);
			expect(proxy.requests.slice(before).some((request) => request.target.endsWith(`:${filePort}`))).toBe(false);
		} finally {
			files.close();
		}
	});
});

describe('the proxy\'s own failures', () => {
	test('a proxy that asks for a password: the right one passes, a wrong one is named without being shown', async () => {
		await proxy.close();
		proxy = await startProxy({ auth: { username: 'ir', password: 'S3cret-pass' } });
		geoBlocked();
		const good = await getMe(credentials({ proxy: proxy.url, proxyUsername: 'ir', proxyPassword: 'S3cret-pass' }));
		expect(good.error).toBeUndefined();
		const inAddress = await getMe(credentials({ proxy: proxy.url.replace('http://', 'http://ir:S3cret-pass@') }));
		expect(inAddress.error).toBeUndefined();
		const bad = await getMe(credentials({ proxy: proxy.url, proxyUsername: 'ir', proxyPassword: 'wrong-pass-123' }));
		expect(bad.error?.message).toMatch(/HTTP 407/);
		expect(JSON.stringify(bad.error)).not.toContain('wrong-pass-123');
		expect(proxy.requests.map((request) => request.authorized)).toEqual([true, true, false]);
	});

	test('a proxy that is down: the message names the proxy, not Rubika', async () => {
		const address = new URL(proxy.url).host;
		await proxy.close();
		const result = await getMe(credentials({ proxy: `http://${address}` }));
		expect(result.error?.message).toBe(`Could not reach the proxy at ${address} for getMe: the connection was refused`);
	});

	test('a proxy address n8n cannot use fails before anything is sent', async () => {
		const result = await getMe(credentials({ proxy: 'socks5://127.0.0.1:1080' }));
		expect(result.error?.message).toMatch(/Proxy in the Rubika credential must be an http:\/\/ or https:\/\/ address/);
		expect(t.sandbox.requests).toHaveLength(0);
	});
});

test("n8n 2.8's words for axios's timeout (its NodeApiError text for ECONNABORTED) count as a timeout, which names the restriction", () => {
	expect(networkProblem(new Error('The connection was aborted, perhaps the server is offline'))).toMatchObject({ timedOut: true, reason: 'the request timed out' });
});

describe('the Proxy fields', () => {
	test.each([
		['', undefined],
		['http://proxy.example:3128', { protocol: 'http', host: 'proxy.example', port: 3128 }],
		['proxy.example:8080', { protocol: 'http', host: 'proxy.example', port: 8080 }],
		['https://proxy.example', { protocol: 'https', host: 'proxy.example', port: 443 }],
		['http://u%40x:p%3Aw@10.0.0.5:3128', { protocol: 'http', host: '10.0.0.5', port: 3128, auth: { username: 'u@x', password: 'p:w' } }],
		['http://[::1]:3128', { protocol: 'http', host: '::1', port: 3128 }],
	])('%p → %p', (address, expected) => {
		expect(rubikaProxy({ proxy: address })).toEqual(expected);
	});

	test('the user name and password fields win over the address\'s', () => {
		expect(rubikaProxy({ proxy: 'http://a:b@proxy.example:1', proxyUsername: 'c', proxyPassword: 'd' })).toEqual({
			protocol: 'http',
			host: 'proxy.example',
			port: 1,
			auth: { username: 'c', password: 'd' },
		});
	});

	test('authenticate puts the proxy on every request, unless the request names its own', async () => {
		const authenticate = new RubikaApi().authenticate as (c: object, r: object) => Promise<{ proxy?: unknown }>;
		const creds = { accessToken: 'T', baseUrl: 'https://botapi.rubika.ir', proxy: 'http://p.example:3128' };
		expect((await authenticate(creds, { url: 'getMe' })).proxy).toEqual({ protocol: 'http', host: 'p.example', port: 3128 });
		expect((await authenticate(creds, { url: 'https://files.rubika.ir/upload/1' })).proxy).toEqual({ protocol: 'http', host: 'p.example', port: 3128 });
		expect((await authenticate(creds, { url: 'getMe', proxy: 'http://own.example:1' })).proxy).toBe('http://own.example:1');
		expect((await authenticate({ accessToken: 'T', baseUrl: '' }, { url: 'getMe' })).proxy).toBeUndefined();
	});
});

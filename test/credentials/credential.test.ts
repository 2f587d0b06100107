import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { RubikaApi, rubikaRequestUrl } from '../../credentials/RubikaApi.credentials';
import { DEMO_BOT_TOKEN, startSandbox } from '../../sandbox';
import { testRubikaCredential } from '../../tooling/harness/credentialTest';
import { useSandbox } from '../support/sandbox';

const t = useSandbox();

async function withServer(answer: (res: http.ServerResponse) => void, run: (baseUrl: string) => Promise<void>) {
	const server = http.createServer((_req, res) => answer(res));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
	} finally {
		server.close();
	}
}

describe('credential test (getMe)', () => {
	test('a good token passes, and getMe went to the sandbox with it', async () => {
		const outcome = await testRubikaCredential({ accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl });
		expect(outcome).toEqual({ status: 'OK', message: 'Connection successful!' });
		const [request] = t.sandbox.requestsFor('getMe');
		expect(request.tokenValid).toBe(true);
	});

	test('a wrong token says the token was rejected', async () => {
		const outcome = await testRubikaCredential({ accessToken: 'x'.repeat(64), baseUrl: t.sandbox.baseUrl });
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toMatch(/rejected the bot token/);
	});

	test('a rate-limited bot is told to wait', async () => {
		t.sandbox.injectFault({ kind: 'status', status: 'TOO_REQUESTS', method: 'getMe' });
		const outcome = await testRubikaCredential({ accessToken: DEMO_BOT_TOKEN, baseUrl: t.sandbox.baseUrl });
		expect(outcome.message).toMatch(/rate limiting/);
	});

	test('a server that answers 200 but is not the Bot API points at the Base URL', async () => {
		await withServer(
			(res) => {
				res.setHeader('content-type', 'text/html');
				res.end('<html><body>Welcome to nginx!</body></html>');
			},
			async (baseUrl) => {
				const outcome = await testRubikaCredential({ accessToken: DEMO_BOT_TOKEN, baseUrl });
				expect(outcome.status).toBe('Error');
				expect(outcome.message).toMatch(/not like the Rubika Bot API.*Check the Base URL/);
			},
		);
		await withServer(
			(res) => res.end(JSON.stringify({ ok: true, result: {} })),
			async (baseUrl) => {
				const outcome = await testRubikaCredential({ accessToken: DEMO_BOT_TOKEN, baseUrl });
				expect(outcome.message).toMatch(/Check the Base URL/);
			},
		);
	});

	test('an unreachable host fails with the connection error n8n shows', async () => {
		const closed = await startSandbox();
		const baseUrl = closed.baseUrl;
		await closed.close();
		const outcome = await testRubikaCredential({ accessToken: DEMO_BOT_TOKEN, baseUrl });
		expect(outcome).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});
});

describe('authenticate', () => {
	test.each([
		['https://botapi.rubika.ir', 'sendMessage', 'https://botapi.rubika.ir/v3/TOKEN/sendMessage'],
		['https://botapi.rubika.ir/', '/getMe', 'https://botapi.rubika.ir/v3/TOKEN/getMe'],
		['https://gateway.example/v3', 'getMe', 'https://gateway.example/v3/TOKEN/getMe'],
		['', 'getMe', 'https://botapi.rubika.ir/v3/TOKEN/getMe'],
	])('base %p + %p → %p', (baseUrl, method, expected) => {
		expect(rubikaRequestUrl({ accessToken: ' TOKEN ', baseUrl }, method)).toBe(expected);
	});

	test.each([
		['https://botapi.rubika.ir/v3/sendMessage', 'https://botapi.rubika.ir/v3/TOKEN/sendMessage'],
		['https://botapi.rubika.ir/getMe', 'https://botapi.rubika.ir/v3/TOKEN/getMe'],
		['https://BOTAPI.rubika.ir/v3/getUpdates?x=1', 'https://botapi.rubika.ir/v3/TOKEN/getUpdates?x=1'],
		['https://botapi.rubika.ir/v3/OTHER/getMe', 'https://botapi.rubika.ir/v3/OTHER/getMe'],
		['https://upload.example/v3/getMe', 'https://upload.example/v3/getMe'],
		['https://botapi.rubika.ir.evil.example/v3/getMe', 'https://botapi.rubika.ir.evil.example/v3/getMe'],
	])('the absolute address %p (HTTP Request node) → %p', (address, expected) => {
		expect(rubikaRequestUrl({ accessToken: 'TOKEN', baseUrl: 'https://botapi.rubika.ir' }, address)).toBe(expected);
	});

	test('legacy request options with `uri` (HTTP Request node) get the token there, and no crash', async () => {
		const authenticate = new RubikaApi().authenticate as (c: object, r: object) => Promise<{ uri?: string; url?: string }>;
		const out = await authenticate({ accessToken: 'TOKEN', baseUrl: 'https://botapi.rubika.ir' }, {
			uri: 'https://botapi.rubika.ir/v3/getMe',
			method: 'POST',
		});
		expect(out).toEqual({ uri: 'https://botapi.rubika.ir/v3/TOKEN/getMe', method: 'POST' });
	});

	test('absolute upload and download addresses pass through without the token', async () => {
		const type = new RubikaApi();
		const authenticate = type.authenticate as (c: object, r: object) => Promise<{ url: string }>;
		const out = await authenticate({ accessToken: 'TOKEN', baseUrl: 'https://botapi.rubika.ir' }, {
			url: 'https://upload.example/u/123',
			method: 'POST',
		});
		expect(out.url).toBe('https://upload.example/u/123');
	});
});

/**
 * The webhook address is checked before anything is registered: Rubika delivers only to public HTTPS. The
 * check follows the Rubika the credential reaches: a Base URL on a public-looking name (here `rubika.test`,
 * which only the test proxy resolves, to the sandbox) gets the check; a local Base URL (the sandbox itself, as
 * in every other test) does not.
 */
import type { TestProxy } from '../../sandbox';
import { DEMO_BOT_TOKEN, startProxy } from '../../sandbox';
import { addressProblem, isLocalAddress, isLocalHost } from '../../nodes/RubikaTrigger/webhook/publicAddress';
import type { WebhookHarnessOptions } from '../../tooling/harness/webhook';
import { harness, registered, sandbox, useSandboxPerTest } from './helpers';

useSandboxPerTest();

let proxy: TestProxy;
beforeEach(async () => {
	proxy = await startProxy({ hosts: { 'rubika.test:80': new URL(sandbox.baseUrl).host } });
});
afterEach(async () => {
	await proxy.close();
});

/** A trigger whose credential reaches the sandbox as `http://rubika.test`, through the proxy. */
const publicRubika = async (options: Partial<WebhookHarnessOptions> = {}) =>
	await harness({}, { credentials: { accessToken: DEMO_BOT_TOKEN, baseUrl: 'http://rubika.test', proxy: proxy.url }, ...options });

describe('a Rubika on a public address', () => {
	test('n8n\'s own local address (WEBHOOK_URL unset) is refused before any registration, with what to do', async () => {
		const trigger = await publicRubika();
		const failure = await trigger.activate().catch((error: unknown) => error as Error & { description?: string });
		expect(failure?.message).toBe(
			`Rubika cannot deliver to this n8n's webhook URL ${trigger.webhookUrl().replace(':secret', '***')}: it is an address of this machine or of a private network, which Rubika cannot reach. Set n8n's WEBHOOK_URL to this instance's public HTTPS address, or receive By Reading.`,
		);
		expect(failure?.description).toMatch(/public HTTPS address.*WEBHOOK_URL.*By Reading/);
		expect(sandbox.requestsFor('updateBotEndpoints')).toHaveLength(0);
		expect(trigger.active).toBe(false);
	});

	test('plain http on a public name is refused: not HTTPS', async () => {
		const trigger = await publicRubika({ publicOrigin: 'http://n8n.example.com' });
		await expect(trigger.activate()).rejects.toThrow(/webhook URL http:\/\/n8n\.example\.com\/webhook\/.*\/\*\*\*: it is not HTTPS\. Set n8n's WEBHOOK_URL/);
		expect(sandbox.requestsFor('updateBotEndpoints')).toHaveLength(0);
	});

	test('listening for a test event is checked the same way', async () => {
		const trigger = await publicRubika({ test: true });
		await expect(trigger.activate()).rejects.toThrow(/Rubika cannot deliver to this n8n's webhook URL http:\/\/127\.0\.0\.1:\d+\/webhook-test\//);
		expect(sandbox.requestsFor('updateBotEndpoints')).toHaveLength(0);
	});

	test('a public HTTPS address is registered, through the proxy', async () => {
		const trigger = await publicRubika({ publicOrigin: 'https://n8n.example.com' });
		await trigger.activate();
		expect(registered('ReceiveUpdate')).toMatch(/^https:\/\/n8n\.example\.com\/webhook\//);
		expect(proxy.requests.filter((request) => request.path?.endsWith('/updateBotEndpoints'))).toHaveLength(2);
	});
});

test('a local Base URL (the sandbox): a local webhook address is registered as it is', async () => {
	const trigger = await harness();
	await trigger.activate();
	expect(registered('ReceiveUpdate').startsWith(`${trigger.origin}/webhook/`)).toBe(true);
});

describe('which addresses Rubika cannot deliver to', () => {
	test.each([
		['https://n8n.example.com/webhook/x', undefined],
		['https://203.0.113.9/webhook/x', undefined],
		['http://n8n.example.com/webhook/x', 'it is not HTTPS'],
		['https://localhost:5678/webhook/x', 'local'],
		['https://127.0.0.1/webhook/x', 'local'],
		['https://0.0.0.0/webhook/x', 'local'],
		['https://10.1.2.3/webhook/x', 'local'],
		['https://172.16.0.1/webhook/x', 'local'],
		['https://172.31.255.255/webhook/x', 'local'],
		['https://172.32.0.1/webhook/x', undefined],
		['https://192.168.1.10/webhook/x', 'local'],
		['https://169.254.1.1/webhook/x', 'local'],
		['https://100.64.0.1/webhook/x', 'local'],
		['https://[::1]/webhook/x', 'local'],
		['https://[fd00::1]/webhook/x', 'local'],
		['https://[fe80::1]/webhook/x', 'local'],
		['https://[::ffff:10.0.0.1]/webhook/x', 'local'],
		['https://[2001:db8::1]/webhook/x', undefined],
		['https://n8n:5678/webhook/x', 'local'],
		['https://box.local/webhook/x', 'local'],
		['https://n8n.internal/webhook/x', 'local'],
		['not a url', 'it is not a valid address'],
	])('%s → %p', (address, expected) => {
		const problem = addressProblem(address);
		if (expected === 'local') expect(problem).toMatch(/this machine or of a private network/);
		else expect(problem).toBe(expected);
	});

	test('host names alone, and Base URLs', () => {
		expect(isLocalHost('LOCALHOST')).toBe(true);
		expect(isLocalHost('api.localhost')).toBe(true);
		expect(isLocalHost('botapi.rubika.ir')).toBe(false);
		expect(isLocalAddress('http://127.0.0.1:8765')).toBe(true);
		expect(isLocalAddress('https://botapi.rubika.ir')).toBe(false);
		expect(isLocalAddress('')).toBe(false);
	});
});

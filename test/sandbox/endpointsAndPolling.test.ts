/**
 * What the facts leave open about endpoints (§4): whether a registered ReceiveUpdate endpoint stops getUpdates
 * (`endpointStopsPolling`), and how an endpoint is removed (`endpointRemoval`). Each knob both ways.
 */
import { DEMO_USERS } from '../../sandbox';
import { useSandbox } from '../support/sandbox';
import { fails, ok, useReceiver } from './helpers';

const { sara } = DEMO_USERS;
const t = useSandbox();
const receiver = useReceiver();
beforeEach(() => {
	receiver.hits.length = 0;
	t.sandbox.configure({ endpointStopsPolling: false, endpointRemoval: 'none' });
});

const register = (type = 'ReceiveUpdate') => ok(t.sandbox, 'updateBotEndpoints', { url: `${receiver.url}/hook`, type });
const polledTexts = async () => ((await ok(t.sandbox, 'getUpdates', { limit: 100 })).updates as any[]).map((update) => update.new_message?.text);

async function sendAndSettle(text: string): Promise<void> {
	t.sandbox.userSendMessage({ userId: sara.user_id, text });
	await t.sandbox.deliveriesSettled();
}

test('endpointStopsPolling off: an update goes to the endpoint and stays in getUpdates', async () => {
	await register();
	await sendAndSettle('both');
	expect(receiver.hits.map((hit) => hit.body.update.new_message.text)).toEqual(['both']);
	expect(await polledTexts()).toEqual(['both']);
});

test('endpointStopsPolling on: while a ReceiveUpdate endpoint is registered getUpdates sees nothing; other endpoint types do not stop it', async () => {
	t.sandbox.configure({ endpointStopsPolling: true, endpointRemoval: 'emptyUrl' });
	await sendAndSettle('before');
	await register('ReceiveInlineMessage');
	await sendAndSettle('inline endpoint only');
	await register();
	await sendAndSettle('webhook only');
	expect(receiver.hits.map((hit) => hit.body.update.new_message.text)).toEqual(['webhook only']);
	expect(await polledTexts()).toEqual(['before', 'inline endpoint only']);
	// Removed again: getUpdates gets the next one.
	expect(await ok(t.sandbox, 'updateBotEndpoints', { url: '', type: 'ReceiveUpdate' })).toEqual({ status: 'Done' });
	await sendAndSettle('after');
	expect(await polledTexts()).toEqual(['before', 'inline endpoint only', 'after']);
});

test('endpointRemoval none: neither an empty nor a missing url removes an endpoint', async () => {
	await register();
	expect(await fails(t.sandbox, 'updateBotEndpoints', { url: '', type: 'ReceiveUpdate' })).toBe('url must not be empty');
	expect(await fails(t.sandbox, 'updateBotEndpoints', { url: null, type: 'ReceiveUpdate' })).toBe('url is required');
	expect(t.sandbox.endpoints().map((endpoint) => endpoint.type)).toEqual(['ReceiveUpdate']);
});

test('endpointRemoval emptyUrl removes with url "", and nullUrl with url null or left out; the other way is refused', async () => {
	t.sandbox.configure({ endpointRemoval: 'emptyUrl' });
	await register();
	expect(await fails(t.sandbox, 'updateBotEndpoints', { type: 'ReceiveUpdate' })).toBe('url is required');
	expect(await ok(t.sandbox, 'updateBotEndpoints', { url: '', type: 'ReceiveUpdate' })).toEqual({ status: 'Done' });
	expect(t.sandbox.endpoints()).toEqual([]);

	t.sandbox.configure({ endpointRemoval: 'nullUrl' });
	await register();
	await register('ReceiveInlineMessage');
	expect(await fails(t.sandbox, 'updateBotEndpoints', { url: '', type: 'ReceiveUpdate' })).toBe('url must not be empty');
	expect(await ok(t.sandbox, 'updateBotEndpoints', { url: null, type: 'ReceiveUpdate' })).toEqual({ status: 'Done' });
	expect(await ok(t.sandbox, 'updateBotEndpoints', { type: 'ReceiveInlineMessage' })).toEqual({ status: 'Done' });
	expect(t.sandbox.endpoints()).toEqual([]);
	// A removed endpoint gets nothing more.
	await sendAndSettle('nobody listens');
	expect(receiver.hits).toEqual([]);
});

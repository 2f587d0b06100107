/**
 * The Rubika node's Request Options reach every request of an item through the call options the node creates
 * once per execution and hands to each item (nodes/Rubika/actions/types.ts, ItemCall); and the transport's
 * method names are checked when compiling.
 */
import type { INodeParameters } from 'n8n-workflow';

import { callAnyMethod, callRubika } from '../../nodes/shared/transport';
import { DEMO_USERS } from '../../sandbox';
import { useActionSandbox } from '../actions/helpers';

const t = useActionSandbox('message');
const send = (requestOptions: INodeParameters) =>
	t.run({ operation: 'sendMessage', chatId: DEMO_USERS.sara.chat_id, text: 'Hi', requestOptions }, [{ json: {} }]);
const attempts = () => t.sandbox.requestsFor('sendMessage').length;

test('Retries: 0 makes a server error fail at the first attempt', async () => {
	t.sandbox.injectFault({ kind: 'httpStatus', httpStatus: 500, method: 'sendMessage' });
	const result = await send({ retries: 0 });
	expect(result.error?.message).toMatch(/HTTP 500/);
	expect(attempts()).toBe(1);
});

test('Retries: 2 gets through two server errors', async () => {
	t.sandbox.injectFault({ kind: 'httpStatus', httpStatus: 500, method: 'sendMessage', times: 2 });
	const result = await send({ retries: 2 });
	expect(result.error).toBeUndefined();
	expect(attempts()).toBe(3);
	expect(t.sandbox.messages(DEMO_USERS.sara.chat_id).at(-1)?.text).toBe('Hi');
});

test('Timeout abandons a slow answer and tries again', async () => {
	t.sandbox.injectFault({ kind: 'delay', ms: 2500, method: 'sendMessage' });
	const started = Date.now();
	const result = await send({ timeoutSeconds: 1 });
	expect(result.error).toBeUndefined();
	expect(attempts()).toBe(2);
	expect(Date.now() - started).toBeLessThan(2500);
});

test('callRubika takes only Rubika\'s method names; callAnyMethod takes any name', () => {
	const calls = (context: Parameters<typeof callRubika>[0]) => [
		// @ts-expect-error a misspelt method name does not compile
		callRubika(context, 'sendMesage'),
		callAnyMethod(context, 'sendMesage'),
	];
	expect(calls).toBeInstanceOf(Function);
});

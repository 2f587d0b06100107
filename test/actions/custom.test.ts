import type { NodeApiError } from 'n8n-workflow';

import type { INodeParameters } from 'n8n-workflow';

import { DEMO_BOT_ID, DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import type { InputItem } from '../../tooling/harness/n8n';
import { useActionSandbox } from './helpers';

const { sara } = DEMO_USERS;
const actions = useActionSandbox('custom');
const { run, bodies, expectRefused } = actions;
const call = (parameters: INodeParameters, items?: InputItem[]) => run({ operation: 'callMethod', ...parameters }, items);

describe('Custom → Call Method', () => {
	test('sends the JSON body as written and outputs the answer\'s data', async () => {
		const result = await call({ method: 'getChat', body: `{"chat_id": "${DEMO_GROUP_ID}"}` });
		expect(result.error).toBeUndefined();
		expect(bodies('getChat')).toEqual([{ chat_id: DEMO_GROUP_ID }]);
		expect(result.items.map((item) => item.json)).toEqual([
			{ chat: { chat_id: DEMO_GROUP_ID, chat_type: 'Group', title: 'Sandbox Group' } },
		]);
	});

	test('a body from an expression, per item; the call has its effect', async () => {
		const result = await call({ method: ' sendMessage ', body: '={{ { chat_id: $json.chat, text: $json.text } }}' }, [
			{ json: { chat: sara.chat_id, text: 'first' } },
			{ json: { chat: sara.chat_id, text: 'second' } },
		]);
		expect(result.error).toBeUndefined();
		expect(bodies('sendMessage')).toEqual([
			{ chat_id: sara.chat_id, text: 'first' },
			{ chat_id: sara.chat_id, text: 'second' },
		]);
		const sent = actions.sandbox.messages(sara.chat_id).slice(-2);
		expect(sent.map((message) => message.text)).toEqual(['first', 'second']);
		expect(result.items.map((item) => item.json)).toEqual(sent.map((message) => ({ message_id: message.message_id })));
	});

	test('an empty body is {}', async () => {
		const result = await call({ method: 'getMe', body: '' });
		expect(result.error).toBeUndefined();
		expect([null, {}]).toContainEqual(bodies('getMe')[0]);
		expect(result.items[0].json).toMatchObject({ bot: { bot_id: DEMO_BOT_ID } });
	});

	test('big integers in the body keep every digit', async () => {
		const message = actions.sandbox.userSendMessage({ userId: sara.user_id, text: 'hello' });
		await call({
			method: 'forwardMessage',
			body: `{"from_chat_id": "${sara.chat_id}", "message_id": ${message.message_id}, "to_chat_id": "${DEMO_GROUP_ID}"}`,
		});
		expect(bodies('forwardMessage')[0]).toMatchObject({ message_id: message.message_id });
	});

	test.each([
		['a path', 'getChat/../getMe'],
		['a query', 'getMe?x=1'],
		['a full URL', 'https://evil.example/steal'],
		['digits', 'getMe2'],
		['a slash', '/getMe'],
	])('a method name with %s is refused before sending', async (_case, method) => {
		const result = await call({ method, body: '{}' });
		expectRefused(result, `Method: "${method}" is not a method name; use letters only, such as getChat [item 0]`);
	});

	test('an empty method name is refused', async () => {
		expectRefused(await call({ method: '={{ "" }}', body: '{}' }), 'Method: is required [item 0]');
	});

	test.each([
		['JSON that does not parse', '{"chat_id": ', /^Body \(JSON\): is not valid JSON: .+ \[item 0\]$/],
		['a list', '[1, 2]', /^Body \(JSON\): must be a JSON object such as \{"chat_id": "b0…"\}, got a list \[item 0\]$/],
		['a string', '"getMe"', /^Body \(JSON\): must be a JSON object .*, got string \[item 0\]$/],
	])('a body that is %s is refused before sending', async (_case, body, message) => {
		expectRefused(await call({ method: 'getChat', body }), message);
	});

	test('the bad item is named; earlier items were sent', async () => {
		const result = await call({ method: 'getChat', body: '={{ $json.body }}' }, [
			{ json: { body: `{"chat_id": "${DEMO_GROUP_ID}"}` } },
			{ json: { body: '{oops' } },
		]);
		expect(result.error?.message).toMatch(/^Body \(JSON\): is not valid JSON: .+ \[item 1\]$/);
		expect(actions.sandbox.requestsFor('getChat')).toHaveLength(1);
	});

	test('Rubika errors come back as NodeApiError: unknown method, unknown chat', async () => {
		const unknown = await call({ method: 'fooBar', body: '{}' });
		const unknownError = unknown.error as NodeApiError;
		expect(unknownError.name).toBe('NodeApiError');
		expect(unknownError.message).toBe('Rubika does not know the method fooBar');
		expect(unknownError.description).toBe(
			"The Rubika at the credential's Base URL answered as if there were no method named fooBar; check its spelling (method names are case-sensitive, e.g. sendMessage) (INVALID_INPUT – Unknown method: fooBar). Nothing was changed.",
		);
		expect(unknownError.errorResponse).toMatchObject({ method: 'fooBar', status: 'INVALID_INPUT', dev_message: 'Unknown method: fooBar' });

		const noChat = await call({ method: 'getChat', body: '{"chat_id": "g0Missing"}' });
		const error = noChat.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe('Rubika getChat failed: INVALID_INPUT – chat_id: chat g0Missing not found');
		expect(error.context.itemIndex).toBe(0);
	});
});

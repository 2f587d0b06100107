/**
 * The Rubika Trigger receiving by webhook, against the sandbox: the node's own `create` registers the harness's address
 * with the sandbox, the sandbox delivers real HTTP POSTs there, and the harness runs the node's `webhook()`
 * through n8n-core's WebhookContext for each one.
 */
import type { INodeType } from 'n8n-workflow';

import { RubikaTrigger } from '../../nodes/RubikaTrigger/RubikaTrigger.node';
import { answerButtonId, tapProblem } from '../../nodes/shared/chatAnswers';
import { fakeWaitingEndpoint, waitFor } from '../support/waitingEndpoint';
import { DEMO_BOT_TOKEN, DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import {
	OK_ANSWER,
	answer,
	answers,
	harness,
	newMessageDelivery,
	registered,
	restart,
	sandbox,
	sendKeypad,
	until,
	useSandboxPerTest,
} from './helpers';

const { sara, reza } = DEMO_USERS;

useSandboxPerTest();

/** The secret in a registered URL, wherever the trigger put it (the query form, else the path's last segment). */
function secretIn(url: string): string {
	const parsed = new URL(url);
	return parsed.searchParams.get('secret') ?? parsed.pathname.split('/').at(-1) ?? '';
}

/** The secret with its last character changed: one character off, and never the secret itself (a random secret may end in any letter). */
function almost(secret: string): string {
	return `${secret.slice(0, -1)}${secret.endsWith('x') ? 'y' : 'x'}`;
}

describe('activation', () => {
	test('registers the webhook URL plus a secret for each chosen endpoint', async () => {
		const trigger = await harness();
		expect(await trigger.checkExists()).toBe(false);
		await trigger.activate();

		const calls = sandbox.requestsFor('updateBotEndpoints').map((entry) => entry.body as { url: string; type: string });
		expect(calls.map((call) => call.type)).toEqual(['ReceiveUpdate', 'ReceiveInlineMessage']);
		expect(calls[1].url).toBe(calls[0].url);
		// By default the secret is the path's last segment, where n8n's URL has its :secret route parameter.
		expect(trigger.webhookUrl()).toBe(`${trigger.origin}/webhook/${trigger.node.webhookId}/${trigger.node.webhookId}/webhook/:secret`);
		const secret = secretIn(calls[0].url);
		expect(calls[0].url).toBe(trigger.webhookUrl().replace(':secret', secret));
		expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
		expect(calls[0].url).not.toContain(DEMO_BOT_TOKEN);
		expect(registered('ReceiveUpdate')).toBe(calls[0].url);

		// What n8n saved: a fingerprint, never the URL (and so never the secret).
		const saved = JSON.stringify(trigger.saved);
		expect(saved).not.toContain(secret);
		expect(trigger.savedNodeStaticData.registration).toMatchObject({ types: ['ReceiveUpdate', 'ReceiveInlineMessage'] });
	});

	test('each node and each bot gets its own secret; the same node always gets the same one', async () => {
		const first = await harness();
		await first.activate();
		const firstUrl = registered('ReceiveUpdate');

		const again = await harness({}, { webhookId: first.node.webhookId });
		await again.activate();
		expect(secretIn(registered('ReceiveUpdate'))).toBe(secretIn(firstUrl));

		const other = await harness();
		await other.activate();
		expect(secretIn(registered('ReceiveUpdate'))).not.toBe(secretIn(firstUrl));

		const bot = sandbox.addBot();
		const otherBot = await harness({}, {
			webhookId: first.node.webhookId,
			credentials: { accessToken: bot.token, baseUrl: sandbox.baseUrl },
		});
		await otherBot.activate();
		const otherBotUrl = sandbox.endpoints(bot.bot_id)[0].url;
		expect(secretIn(otherBotUrl)).not.toBe(secretIn(firstUrl));
	});

	test('Secret: as a query parameter, or off (a plain address); switching re-registers', async () => {
		const inQuery = await harness({ secretLocation: 'query' });
		await inQuery.activate();
		expect(inQuery.webhookUrl()).toBe(`${inQuery.origin}/webhook/${inQuery.node.webhookId}/webhook`);
		const queryUrl = registered('ReceiveUpdate');
		expect(queryUrl).toBe(`${inQuery.webhookUrl()}?secret=${secretIn(queryUrl)}`);
		expect(secretIn(queryUrl)).toMatch(/^[A-Za-z0-9_-]{32}$/);

		const off = await harness({ secretLocation: 'off' }, { webhookId: inQuery.node.webhookId, staticData: inQuery.saved });
		expect(await off.checkExists()).toBe(false);
		await off.activate();
		expect(registered('ReceiveUpdate')).toBe(off.webhookUrl());
		// Without a secret anything is let in: that is what the editor warns about.
		expect(answer(await off.post(new URL(off.webhookUrl()).pathname, newMessageDelivery('77', 'no secret at all')))).toEqual(OK_ANSWER);
		expect(off.executions).toHaveLength(1);
	});

	test('the editor warns when the secret is off, and only then', () => {
		const { properties } = new RubikaTrigger().description;
		const warning = properties.find((property) => property.name === 'secretOffWarning');
		expect(warning).toMatchObject({ type: 'notice', displayOptions: { show: { receiveUpdates: ['webhook'], secretLocation: ['off'] } } });
		expect(warning?.displayName).toMatch(/fake updates/);
		expect(properties.find((property) => property.name === 'secretLocation')).toMatchObject({ default: 'path' });
	});

	test('registers only the chosen endpoints, including the undocumented ones', async () => {
		const trigger = await harness({ endpoints: ['SearchSelectionItems', 'ReceiveQuery', 'GetSelectionItem'], updateTypes: [] });
		await trigger.activate();
		expect(sandbox.requestsFor('updateBotEndpoints').map((entry) => (entry.body as { type: string }).type)).toEqual([
			'ReceiveQuery',
			'GetSelectionItem',
			'SearchSelectionItems',
		]);
	});

	test('InvalidUrl fails the activation with a message that says what to do, and records nothing', async () => {
		sandbox.configure({ requireHttpsEndpoints: true });
		const trigger = await harness();
		const failure = trigger.activate();
		await expect(failure).rejects.toThrow(/InvalidUrl/);
		await expect(failure).rejects.toThrow(/public HTTPS address/);
		const error = (await failure.catch((caught: unknown) => caught)) as Error & { description?: string };
		// The address as n8n has it, the secret hidden.
		expect(error.message).toContain(trigger.webhookUrl().replace(':secret', '***'));
		expect(error.message).not.toContain(secretIn((sandbox.requestsFor('updateBotEndpoints')[0].body as { url: string }).url));
		expect(error.description).toMatch(/WEBHOOK_URL/);
		expect(error.description).toMatch(/Receive Updates to By Reading/);
		expect(trigger.active).toBe(false);
		expect(trigger.savedNodeStaticData.registration).toBeUndefined();
		expect(await trigger.checkExists()).toBe(false);
	});

	test('a partial registration does not count as done', async () => {
		const trigger = await harness();
		// The first endpoint is registered, the second refused.
		sandbox.injectFault({ kind: 'status', method: 'updateBotEndpoints', status: 'INVALID_INPUT', devMessage: 'nope', skip: 1 });
		await expect(trigger.activate()).rejects.toThrow(/updateBotEndpoints/);
		expect(sandbox.requestsFor('updateBotEndpoints')).toHaveLength(2);
		expect(await trigger.checkExists()).toBe(false);
	});

	test('checkExists: true only for the same URL, bot and endpoints; delete forgets', async () => {
		const trigger = await harness();
		expect(await trigger.checkExists()).toBe(false);
		await trigger.activate();
		expect(await trigger.checkExists()).toBe(true);

		// Reactivation (n8n restart, same public address) with nothing changed: checkExists finds it registered
		// (create is not run); the trigger's start registers the same URL again (handBack.ts).
		const same = { webhookId: trigger.node.webhookId, staticData: trigger.saved, publicOrigin: trigger.origin };
		const restarted = await harness({}, same);
		await restarted.activate('init');
		const urls = sandbox.requestsFor('updateBotEndpoints').map((entry) => (entry.body as { url: string }).url);
		expect(urls).toHaveLength(4);
		expect(new Set(urls).size).toBe(1);

		const fewerEndpoints = await harness({ endpoints: ['ReceiveUpdate'], updateTypes: ['NewMessage'] }, same);
		expect(await fewerEndpoints.checkExists()).toBe(false);

		const bot = sandbox.addBot();
		const otherBot = await harness({}, { ...same, credentials: { accessToken: bot.token, baseUrl: sandbox.baseUrl } });
		expect(await otherBot.checkExists()).toBe(false);

		const moved = await harness({}, { ...same, publicOrigin: 'https://n8n.example.com' });
		expect(await moved.checkExists()).toBe(false);

		const otherNode = await harness({}, { ...same, webhookId: 'another-node' });
		expect(await otherNode.checkExists()).toBe(false);

		await trigger.deactivate();
		expect(await trigger.checkExists()).toBe(false);
		// Rubika cannot unregister: the endpoint still points here.
		expect(registered('ReceiveUpdate')).toBe(trigger.webhookUrl().replace(':secret', secretIn(registered('ReceiveUpdate'))));
	});

	test('an update type that cannot arrive through the chosen endpoints fails before any request', async () => {
		const trigger = await harness({ endpoints: ['ReceiveUpdate'], updateTypes: ['NewMessage', 'InlineMessage'] });
		await expect(trigger.activate()).rejects.toThrow(/Inline Keypad Tap needs the ReceiveInlineMessage endpoint/);
		const updatesOnly = await harness({ endpoints: ['ReceiveInlineMessage'], updateTypes: ['NewMessage'] });
		await expect(updatesOnly.activate()).rejects.toThrow(/need the ReceiveUpdate endpoint/);
		const badPattern = await harness({ filters: { textPattern: '([' } });
		await expect(badPattern.activate()).rejects.toThrow(/Text Pattern/);
		expect(sandbox.requestsFor('updateBotEndpoints')).toHaveLength(0);
	});

	test('listening for a test event takes the endpoint over from the production workflow', async () => {
		const production = await harness();
		await production.activate();
		const test = await harness({}, { webhookId: production.node.webhookId, test: true });
		await test.activate();
		expect(registered('ReceiveUpdate')).toContain(`${test.origin}/webhook-test/`);

		sandbox.userSendMessage({ userId: sara.user_id, text: 'during the test' });
		await sandbox.deliveriesSettled();
		expect(production.executions).toHaveLength(0);
		// The test execution's trigger outputs the event (n8n runs the node's trigger() in it: testEvent.ts).
		expect(test.errors).toEqual([]);
		expect(test.executions.map((execution) => execution.items.map((item) => item.json.text))).toEqual([['during the test']]);
	});
});

describe('deliveries', () => {
	test('a user message becomes one item shaped as by reading, answered 200 {"status":"OK"}', async () => {
		const trigger = await harness();
		await trigger.activate();
		const message = sandbox.userSendMessage({ userId: sara.user_id, text: 'hello bot' });
		await sandbox.deliveriesSettled();

		expect(trigger.executions).toHaveLength(1);
		const [item] = trigger.executions[0].items;
		expect(item.json).toMatchObject({
			type: 'NewMessage',
			chat_id: sara.chat_id,
			message_id: message.message_id,
			text: 'hello bot',
			sender_id: sara.user_id,
			sender_type: 'User',
			button_id: null,
		});
		expect(item.json.time_iso).toMatch(/^\d{4}-\d\d-\d\dT/);
		expect((item.json.update as { new_message: { text: string } }).new_message.text).toBe('hello bot');

		// What the sender got, on the wire: status, body and type.
		const [delivery] = sandbox.deliveries;
		expect([delivery.httpStatus, delivery.responseBody]).toEqual([200, '{"status":"OK"}']);
		expect(trigger.served.map((served) => served.startedExecution)).toEqual([true]);
		expect(answers(trigger.served)).toEqual([OK_ANSWER]);
	});

	test('without an empty responseData in its webhook description, n8n would answer "firstEntryJson" (what the harness models)', async () => {
		const fixed = new RubikaTrigger();
		const withoutResponseData: INodeType = Object.assign(new RubikaTrigger(), {
			description: {
				...fixed.description,
				webhooks: fixed.description.webhooks?.map(({ responseData: _dropped, ...rest }) => rest),
			},
		});
		const trigger = await harness({}, { nodeType: withoutResponseData });
		await trigger.activate();
		sandbox.userSendMessage({ userId: sara.user_id, text: 'hello bot' });
		await sandbox.deliveriesSettled();
		expect(trigger.executions).toHaveLength(1);
		expect(sandbox.deliveries.map((delivery) => delivery.responseBody)).toEqual(['firstEntryJson']);
	});

	test('an inline keypad tap becomes an item with the button, the bot\'s message, the chat and the user', async () => {
		const trigger = await harness();
		await trigger.activate();
		const messageId = await sendKeypad();
		sandbox.userTapInlineButton({ userId: sara.user_id, chatId: sara.chat_id, messageId, buttonId: 'pasta' });
		await sandbox.deliveriesSettled();

		expect(trigger.executions).toHaveLength(1);
		expect(trigger.executions[0].items[0].json).toMatchObject({
			type: 'InlineMessage',
			button_id: 'pasta',
			message_id: messageId,
			chat_id: sara.chat_id,
			sender_id: sara.user_id,
			text: 'Pasta',
		});
		expect(sandbox.deliveries.map((delivery) => [delivery.kind, delivery.httpStatus])).toEqual([['inline_message', 200]]);
		expect(answers(trigger.served)).toEqual([OK_ANSWER]);
	});

	test('deliveries to the suffixed paths (/receiveUpdate, /receiveInlineMessage) work the same', async () => {
		sandbox.configure({ appendEndpointSuffix: true });
		const trigger = await harness();
		await trigger.activate();
		sandbox.userSendMessage({ userId: sara.user_id, text: 'via suffix' });
		const messageId = await sendKeypad();
		sandbox.userTapInlineButton({ userId: sara.user_id, chatId: sara.chat_id, messageId, buttonId: 'pizza' });
		await sandbox.deliveriesSettled();

		const secret = secretIn(registered('ReceiveUpdate'));
		expect(sandbox.deliveries.map((delivery) => new URL(delivery.url ?? '').pathname)).toEqual([
			`/webhook/${trigger.node.webhookId}/${trigger.node.webhookId}/webhook/${secret}/receiveUpdate`,
			`/webhook/${trigger.node.webhookId}/${trigger.node.webhookId}/webhook/${secret}/receiveInlineMessage`,
		]);
		expect(answers(trigger.served)).toEqual([OK_ANSWER, OK_ANSWER]);
		expect(trigger.executions.map((execution) => execution.items[0].json.type)).toEqual(['NewMessage', 'InlineMessage']);
	});

	test('secret in the path: every known suffix is served after it; no secret, a wrong one or one in the query gets 403 or 404', async () => {
		const trigger = await harness({ updateTypes: [] });
		await trigger.activate();
		const url = new URL(registered('ReceiveUpdate'));
		const secret = secretIn(url.toString());
		const base = url.pathname.slice(0, -secret.length - 1);
		const update = (id: string) => newMessageDelivery(id, `m${id}`, reza);
		for (const [index, suffix] of ['', '/receiveUpdate', '/receiveInlineMessage', '/searchSelectionItems'].entries()) {
			const got = await trigger.post(`${base}/${secret}${suffix}`, update(String(1000 + index)));
			expect({ suffix, ...answer(got) }).toEqual({ suffix, ...OK_ANSWER });
		}
		for (const attempt of [`${base}/${almost(secret)}`, `${base}/${DEMO_BOT_TOKEN}`, `${base}/${secret}${secret}/receiveUpdate`]) {
			const refused = await trigger.post(attempt, update('9'));
			expect({ attempt, status: refused.status }).toEqual({ attempt, status: 403 });
			expect(refused.body).not.toContain(secret);
		}
		// No path segment for the secret: no route at all.
		expect((await trigger.post(`${base}?secret=${secret}`, update('9'))).status).toBe(404);
		expect(trigger.executions.map((execution) => execution.items[0].json.message_id)).toEqual(['1000', '1001', '1002', '1003']);
	});

	test('secret in the query: every known suffix is served, the kind comes from the body not the path, and a suffix glued into the query is accepted', async () => {
		const trigger = await harness({ updateTypes: [], secretLocation: 'query' });
		await trigger.activate();
		const url = new URL(registered('ReceiveUpdate'));
		const secret = url.searchParams.get('secret');
		const base = url.pathname;
		const update = (id: string) => newMessageDelivery(id, `m${id}`, reza);
		const paths = ['receiveUpdate', 'receiveInlineMessage', 'receiveQuery', 'getSelectionItem', 'searchSelectionItems'];
		for (const [index, suffix] of paths.entries()) {
			const got = await trigger.post(`${base}/${suffix}?secret=${secret}`, update(String(1000 + index)));
			expect({ suffix, ...answer(got) }).toEqual({ suffix, ...OK_ANSWER });
		}
		const glued = await trigger.post(`${base}?secret=${secret}/receiveUpdate`, update('2000'));
		expect(answer(glued)).toEqual(OK_ANSWER);
		const unknownSuffix = await trigger.post(`${base}/somethingElse?secret=${secret}`, update('3000'));
		expect(unknownSuffix.status).toBe(404);

		expect(trigger.executions.map((execution) => execution.items[0].json.message_id)).toEqual([
			'1000',
			'1001',
			'1002',
			'1003',
			'1004',
			'2000',
		]);
		expect(trigger.executions.every((execution) => execution.items[0].json.type === 'NewMessage')).toBe(true);
	});

	test('secret in the query: a missing or wrong secret gets 403 and starts nothing', async () => {
		const trigger = await harness({ secretLocation: 'query' });
		await trigger.activate();
		const url = new URL(registered('ReceiveUpdate'));
		const secret = url.searchParams.get('secret') ?? '';
		const body = newMessageDelivery('42', 'forged');
		const attempts = [
			url.pathname,
			`${url.pathname}?secret=`,
			`${url.pathname}?secret=${almost(secret)}`,
			`${url.pathname}?secret=${secret}${secret}`,
			`${url.pathname}?secret=${DEMO_BOT_TOKEN}`,
			`${url.pathname}?secret=${secret}&secret=${secret}`,
			`${url.pathname}?secret=${secret}/notASuffix`,
			`${url.pathname}/receiveUpdate`,
			`${url.pathname}/receiveInlineMessage?token=${secret}`,
		];
		for (const attempt of attempts) {
			const refused = await trigger.post(attempt, body);
			expect({ attempt, status: refused.status }).toEqual({ attempt, status: 403 });
			expect(refused.body).not.toContain(secret);
		}
		expect(trigger.executions).toHaveLength(0);
		expect(trigger.savedNodeStaticData.recentKeys).toBeUndefined();

		// The same body with the secret goes through, so the refusals above were about the secret alone.
		expect((await trigger.post(`${url.pathname}?secret=${secret}`, body)).status).toBe(200);
		expect(trigger.executions).toHaveLength(1);
	});

	test('a duplicated delivery starts one execution, also after a restart', async () => {
		sandbox.configure({ duplicateDeliveries: true });
		const trigger = await harness();
		await trigger.activate();
		sandbox.userSendMessage({ userId: sara.user_id, text: 'once' });
		sandbox.userSendMessage({ userId: sara.user_id, text: 'twice' });
		await sandbox.deliveriesSettled();

		expect(sandbox.deliveries.map((delivery) => [delivery.duplicate, delivery.httpStatus, delivery.responseBody])).toEqual([
			[false, 200, '{"status":"OK"}'],
			[true, 200, '{"status":"OK"}'],
			[false, 200, '{"status":"OK"}'],
			[true, 200, '{"status":"OK"}'],
		]);
		expect(trigger.served.map((served) => served.startedExecution)).toEqual([true, false, true, false]);
		expect(answers(trigger.served)).toEqual([OK_ANSWER, OK_ANSWER, OK_ANSWER, OK_ANSWER]);
		expect(trigger.executions.map((execution) => execution.items[0].json.text)).toEqual(['once', 'twice']);

		// After a restart (the same address registered again) Rubika delivers the same event once more. The
		// repeated copies started nothing, so n8n saved the keys with them, 2.41 included.
		const before = registered('ReceiveUpdate');
		const restarted = await restart(trigger);
		expect(registered('ReceiveUpdate')).toBe(before);
		const url = new URL(registered('ReceiveUpdate'));
		const again = await restarted.post(`${url.pathname}${url.search}`, sandbox.deliveries[0].body);
		expect(answer(again)).toEqual(OK_ANSWER);
		expect(restarted.executions).toHaveLength(0);
		sandbox.configure({ duplicateDeliveries: false });
		sandbox.userSendMessage({ userId: sara.user_id, text: 'after the restart' });
		await sandbox.deliveriesSettled();
		expect(restarted.executions.map((execution) => execution.items[0].json.text)).toEqual(['after the restart']);
	});

	test('n8n 2.41 saves nothing of a delivery that starts an execution: memory catches the repeat, the static data gets the key with the next delivery that starts nothing', async () => {
		const trigger = await harness();
		await trigger.activate();
		const url = new URL(registered('ReceiveUpdate'));
		const first = newMessageDelivery('601', 'first');
		expect(answer(await trigger.post(`${url.pathname}${url.search}`, first))).toEqual(OK_ANSWER);
		expect(trigger.savedNodeStaticData.recentKeys).toBeUndefined();

		expect(answer(await trigger.post(`${url.pathname}${url.search}`, first))).toEqual(OK_ANSWER);
		expect(trigger.executions).toHaveLength(1);
		expect(trigger.savedNodeStaticData.recentKeys).toHaveLength(1);

		const restarted = await restart(trigger);
		expect(answer(await restarted.post(`${url.pathname}${url.search}`, first))).toEqual(OK_ANSWER);
		expect(restarted.executions).toHaveLength(0);
	});

	test('n8n 2.8 saves the key with the delivery that starts the execution, so a restart right after it loses nothing', async () => {
		const trigger = await harness({}, { n8n: '2.8' });
		await trigger.activate();
		const url = new URL(registered('ReceiveUpdate'));
		const first = newMessageDelivery('602', 'first');
		await trigger.post(`${url.pathname}${url.search}`, first);
		expect(trigger.savedNodeStaticData.recentKeys).toHaveLength(1);
		const restarted = await restart(trigger);
		expect(answer(await restarted.post(`${url.pathname}${url.search}`, first))).toEqual(OK_ANSWER);
		expect(trigger.executions.length + restarted.executions.length).toBe(1);
	});

	test('when n8n fails to start the execution, the event is not remembered, so its redelivery goes through', async () => {
		const trigger = await harness();
		await trigger.activate();
		const url = new URL(registered('ReceiveUpdate'));
		const update = newMessageDelivery('603', 'unlucky');
		trigger.failStartingExecutions = true;
		expect((await trigger.post(`${url.pathname}${url.search}`, update)).status).toBe(500);
		expect(trigger.executions).toHaveLength(0);
		trigger.failStartingExecutions = false;
		expect(answer(await trigger.post(`${url.pathname}${url.search}`, update))).toEqual(OK_ANSWER);
		expect(trigger.executions).toHaveLength(1);
	});

	test('a one-off duplicated inline tap starts one execution; a later identical tap is a new tap', async () => {
		const trigger = await harness();
		await trigger.activate();
		const messageId = await sendKeypad();
		sandbox.injectFault({ kind: 'duplicateDelivery' });
		sandbox.userTapInlineButton({ userId: sara.user_id, chatId: sara.chat_id, messageId, buttonId: 'pizza' });
		await sandbox.deliveriesSettled();
		expect(sandbox.deliveries.filter((delivery) => delivery.kind === 'inline_message')).toHaveLength(2);
		expect(trigger.executions).toHaveLength(1);
		expect(answers(trigger.served)).toEqual([OK_ANSWER, OK_ANSWER]);

		// Same tap, with the window set to 0: every tap counts.
		const noWindow = await harness({ options: { tapRepeatWindow: 0 } });
		await noWindow.activate();
		sandbox.clearDeliveries();
		sandbox.userTapInlineButton({ userId: sara.user_id, chatId: sara.chat_id, messageId, buttonId: 'pizza' });
		sandbox.userTapInlineButton({ userId: sara.user_id, chatId: sara.chat_id, messageId, buttonId: 'pizza' });
		await sandbox.deliveriesSettled();
		expect(noWindow.executions).toHaveLength(2);
	});

	test('filters run first: filtered deliveries are answered OK and start nothing', async () => {
		const trigger = await harness({ updateTypes: ['NewMessage'], endpoints: ['ReceiveUpdate'], filters: { chatIds: DEMO_GROUP_ID } });
		await trigger.activate();
		sandbox.userSendMessage({ userId: sara.user_id, text: 'private, filtered out' });
		sandbox.userSendMessage({ userId: reza.user_id, chatId: DEMO_GROUP_ID, text: 'in the group' });
		await sandbox.deliveriesSettled();
		expect(trigger.served.map((served) => served.startedExecution)).toEqual([false, true]);
		expect(answers(trigger.served)).toEqual([OK_ANSWER, OK_ANSWER]);
		expect(trigger.executions.map((execution) => execution.items[0].json.text)).toEqual(['in the group']);
	});

	test('overlapping deliveries of one event (a retry while the first is still handled) start one execution', async () => {
		const trigger = await harness();
		await trigger.activate();
		const url = new URL(registered('ReceiveUpdate'));
		const update = newMessageDelivery('555', 'retried');
		const messageId = await sendKeypad();
		const tap = { inline_message: { sender_id: sara.user_id, text: 'Pizza', message_id: messageId, chat_id: sara.chat_id, aux_data: { button_id: 'pizza' } } };

		// Both copies are read before either one's static data is saved, as with a slow database.
		for (const body of [update, tap]) {
			const release = trigger.holdAnswers();
			const pending = Promise.all([1, 2].map(async () => await trigger.post(`${url.pathname}${url.search}`, body)));
			await until(() => trigger.held === 2);
			release();
			expect((await pending).map(answer)).toEqual([OK_ANSWER, OK_ANSWER]);
		}
		expect(trigger.executions.map((execution) => execution.items[0].json.type)).toEqual(['NewMessage', 'InlineMessage']);
	});

	test('a test event is not remembered: sending the same sample to the test URL again starts the workflow again', async () => {
		// n8n keeps no static data of a test run; the node's memory of live deliveries stays out of it too.
		const trigger = await harness({}, { test: true });
		await trigger.activate();
		const url = new URL(registered('ReceiveUpdate'));
		const update = newMessageDelivery('556', 'sample');
		expect(answer(await trigger.post(`${url.pathname}${url.search}`, update))).toEqual(OK_ANSWER);
		expect(answer(await trigger.post(`${url.pathname}${url.search}`, update))).toEqual(OK_ANSWER);
		expect(trigger.errors).toEqual([]);
		expect(trigger.executions.map((execution) => execution.items.map((item) => item.json.text))).toEqual([['sample'], ['sample']]);
	});

	test('a test execution that no test event of this process started fails saying why, instead of waiting', async () => {
		// What a queue-mode worker sees when n8n offloads manual executions: the event reached main, not the worker.
		const trigger = await harness({}, { test: true });
		await trigger.activate();
		const outcome = await trigger.runTestExecution([[{ json: { text: 'seen by another process' } }]]).then(
			(items) => ({ items }),
			(error: Error) => ({ error: error.message }),
		);
		expect(outcome).toEqual({ error: 'The test event reached n8n, but not the process running this test execution' });
	});

	test('message ids above 2^53 keep every digit', async () => {
		sandbox.configure({ bareNumericIds: true });
		const trigger = await harness();
		await trigger.activate();
		const message = sandbox.userSendMessage({ userId: sara.user_id, text: 'big id' });
		await sandbox.deliveriesSettled();
		expect(sandbox.deliveries[0].httpStatus).toBe(200);
		expect(BigInt(message.message_id)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
		expect(trigger.executions[0].items[0].json.message_id).toBe(message.message_id);
	});

	test('bodies that are neither an update nor a tap: "Other" when asked for, otherwise ignored; non-JSON is ignored', async () => {
		const trigger = await harness({ endpoints: ['ReceiveUpdate', 'ReceiveQuery'], updateTypes: ['Other'] });
		await trigger.activate();
		const url = new URL(registered('ReceiveQuery'));
		const query = { query: { chat_id: sara.chat_id, text: 'abc' } };
		expect(answer(await trigger.post(`${url.pathname}/receiveQuery${url.search}`, query))).toEqual(OK_ANSWER);
		expect(answer(await trigger.post(`${url.pathname}${url.search}`, 'not json', { 'Content-Type': 'text/plain' }))).toEqual(OK_ANSWER);
		expect(trigger.executions).toHaveLength(1);
		expect(trigger.executions[0].items[0].json).toMatchObject({ type: 'Other', chat_id: null, update: query });

		sandbox.userSendMessage({ userId: sara.user_id, text: 'not an Other' });
		await sandbox.deliveriesSettled();
		expect(trigger.executions).toHaveLength(1);
	});

	test('a body sent without a JSON content type is still read', async () => {
		const trigger = await harness();
		await trigger.activate();
		const url = new URL(registered('ReceiveUpdate'));
		const body = JSON.stringify(newMessageDelivery('77', 'octet'));
		const got = await trigger.post(`${url.pathname}${url.search}`, body, { 'Content-Type': 'application/octet-stream' });
		expect(answer(got)).toEqual(OK_ANSWER);
		expect(trigger.executions[0]?.items[0].json.text).toBe('octet');
	});

	test('after deactivation n8n no longer routes the deliveries', async () => {
		const trigger = await harness();
		await trigger.activate();
		await trigger.deactivate();
		sandbox.userSendMessage({ userId: sara.user_id, text: 'nobody listens' });
		await sandbox.deliveriesSettled();
		expect(sandbox.deliveries[0].httpStatus).toBe(404);
		expect(trigger.executions).toHaveLength(0);
	});
});

describe('start and stop', () => {
	test('a filtered "bot stopped" still ends the "started" state, so starting again is a new event', async () => {
		const trigger = await harness({ endpoints: ['ReceiveUpdate'], updateTypes: ['StartedBot'] });
		await trigger.activate();
		sandbox.userStartBot({ userId: reza.user_id });
		await sandbox.deliveriesSettled();
		sandbox.userStopBot({ userId: reza.user_id });
		await sandbox.deliveriesSettled();
		sandbox.userStartBot({ userId: reza.user_id });
		await sandbox.deliveriesSettled();
		expect(sandbox.deliveries.map((delivery) => (delivery.body as { update: { type: string } }).update.type)).toEqual(
			expect.arrayContaining(['StartedBot', 'StoppedBot']),
		);
		expect(trigger.executions.map((execution) => execution.items[0].json.type)).toEqual(['StartedBot', 'StartedBot']);
	});
});

describe('taps on Send and Wait\'s answer buttons', () => {

	test('are handed to the waiting execution\'s resume address, not to the workflow; Rubika gets its OK', async () => {
		const waiting = await fakeWaitingEndpoint();
		try {
			const trigger = await harness({}, { webhookWaitingBaseUrl: waiting.base });
			await trigger.activate();
			const id = answerButtonId(DEMO_BOT_TOKEN, { executionId: '17', decision: 'approve', chatId: sara.chat_id, resumeToken: 'cd'.repeat(32) });
			const messageId = await sendKeypad([{ id, type: 'Simple', button_text: 'Approve' }]);
			sandbox.userTapInlineButton({ userId: sara.user_id, chatId: sara.chat_id, messageId, buttonId: id });
			await sandbox.deliveriesSettled();
			await waitFor(() => waiting.received.length === 1);

			expect(trigger.executions).toHaveLength(0);
			expect(sandbox.deliveries.map((delivery) => [delivery.kind, delivery.httpStatus])).toEqual([['inline_message', 200]]);
			const [{ url, body }] = waiting.received;
			expect(url).toBe(`/webhook-waiting/17?signature=${'cd'.repeat(32)}`);
			expect(tapProblem(DEMO_BOT_TOKEN, body, { executionId: '17', resumeToken: 'cd'.repeat(32), decisions: ['approve'], chatId: sara.chat_id, messageId }, Date.now())).toBeUndefined();
			expect(body.rubikaChatAnswer).toMatchObject({ button_id: id, decision: 'approve', chat_id: sara.chat_id, message_id: messageId, sender_id: sara.user_id });
		} finally {
			await waiting.close();
		}
	});

	test('once n8n accepted the tap, the buttons go from its message and a reply to it tells the outcome', async () => {
		const waiting = await fakeWaitingEndpoint({ status: 200, body: { status: 'resumed', removeButtons: true, reply: '❌ Decline — Sara Karimi' } });
		try {
			const trigger = await harness({}, { webhookWaitingBaseUrl: waiting.base });
			await trigger.activate();
			const id = answerButtonId(DEMO_BOT_TOKEN, { executionId: '18', decision: 'decline', chatId: sara.chat_id });
			const messageId = await sendKeypad([{ id, type: 'Simple', button_text: 'Decline' }]);
			sandbox.userTapInlineButton({ userId: sara.user_id, chatId: sara.chat_id, messageId, buttonId: id });
			await sandbox.deliveriesSettled();
			await waitFor(() => sandbox.messages(sara.chat_id).at(-1)?.text === '❌ Decline — Sara Karimi');
			const question = sandbox.messages(sara.chat_id).find((message) => message.message_id === messageId);
			expect(question?.inline_keypad?.rows ?? []).toEqual([]);
			expect(sandbox.messages(sara.chat_id).at(-1)?.reply_to_message_id).toBe(messageId);
		} finally {
			await waiting.close();
		}
	});
});

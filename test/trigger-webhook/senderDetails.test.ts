/**
 * Options → Add Sender Details by webhook: the same option as by reading (same fields), with
 * what the process remembers per bot, a delivery answered before a lookup it has to make, and a failed
 * lookup that starts the workflow all the same.
 */
import type { IDataObject } from 'n8n-workflow';

import { SENDER_CACHE } from '../../nodes/shared/updates/sender';
import { DEMO_USERS } from '../../sandbox';
import { RubikaTrigger } from '../../nodes/RubikaTrigger/RubikaTrigger.node';
import { OK_ANSWER, answers, handled, harness, sandbox, sendKeypad, useSandboxPerTest } from './helpers';

const { sara, reza, ali } = DEMO_USERS;

useSandboxPerTest();

const DEFAULT_CACHE = { ...SENDER_CACHE };
afterEach(() => {
	Object.assign(SENDER_CACHE, DEFAULT_CACHE);
});

const withDetails = { options: { addSenderDetails: true } };

const getChatAsked = () => sandbox.requestsFor('getChat').map((entry) => (entry.body as IDataObject).chat_id);

const say = (user: { user_id: string }, text: string) => sandbox.userSendMessage({ userId: user.user_id, text });

test('fills the names of a private chat\'s person, asking once per sender', async () => {
	const trigger = await harness(withDetails);
	await trigger.activate();
	say(sara, 'one');
	say(reza, 'two');
	say(sara, 'three');
	say(ali, 'four');
	say(reza, 'five');

	const items = await handled(trigger);
	expect(items.map((item) => [item.json.text, (item.json.sender as IDataObject).full_name])).toEqual([
		['one', 'Sara Karimi'],
		['two', 'Reza Rahimi'],
		['three', 'Sara Karimi'],
		['four', 'Ali'],
		['five', 'Reza Rahimi'],
	]);
	expect(items[0].json.sender).toEqual({
		user_id: sara.user_id,
		first_name: 'Sara',
		last_name: 'Karimi',
		full_name: 'Sara Karimi',
		username: 'sara_k',
	});
	expect(getChatAsked()).toEqual([sara.chat_id, reza.chat_id, ali.chat_id]);
	expect(answers(trigger.served)).toEqual(Array(5).fill(OK_ANSWER));
});

test('an inline keypad tap gets the tapping person\'s names', async () => {
	const trigger = await harness(withDetails);
	await trigger.activate();
	const messageId = await sendKeypad([{ id: 'tea', type: 'Simple', button_text: 'Tea' }], reza.chat_id);
	sandbox.userTapInlineButton({ userId: reza.user_id, chatId: reza.chat_id, messageId, buttonId: 'tea' });

	const [item] = await handled(trigger);
	expect(item.json).toMatchObject({ type: 'InlineMessage', button_id: 'tea', sender: { user_id: reza.user_id, username: 'reza_r' } });
});

test('Rubika gets its answer before a lookup: a slow getChat does not hold it up', async () => {
	const trigger = await harness(withDetails);
	await trigger.activate();
	sandbox.injectFault({ kind: 'delay', method: 'getChat', ms: 1500 });
	say(sara, 'slow');

	await sandbox.deliveriesSettled();
	expect(sandbox.deliveries.map((delivery) => [delivery.httpStatus, delivery.responseBody])).toEqual([[200, '{"status":"OK"}']]);
	expect(trigger.executions).toHaveLength(0);

	const [item] = await handled(trigger);
	expect(item.json.sender).toMatchObject({ first_name: 'Sara' });
});

test('a failed lookup is one request; the workflow starts without the details and nothing is lost', async () => {
	const trigger = await harness(withDetails);
	await trigger.activate();
	sandbox.injectFault({ kind: 'httpStatus', method: 'getChat', httpStatus: 502 });
	say(sara, 'first');
	say(reza, 'second');

	const items = await handled(trigger);
	expect(items.map((item) => item.json.text)).toEqual(['first', 'second']);
	expect(items[0].json.sender).toBeNull();
	expect(items[0].json.sender_details_error).toContain('502');
	expect(items[1].json.sender).toMatchObject({ first_name: 'Reza' });
	expect(items[1].json).not.toHaveProperty('sender_details_error');
	expect(getChatAsked()).toEqual([sara.chat_id, reza.chat_id]);
	expect(sandbox.deliveries.map((delivery) => delivery.httpStatus)).toEqual([200, 200]);
});

test('keeps at most SENDER_CACHE.capacity senders per bot', async () => {
	SENDER_CACHE.capacity = 2;
	// The node as this file loaded it, so that it reads the capacity set here.
	const trigger = await harness(withDetails, { nodeType: new RubikaTrigger() });
	await trigger.activate();
	for (const user of [sara, reza, ali, sara]) say(user, user.first_name);

	await handled(trigger);
	// Ali's lookup pushed Sara, the least recently used, out.
	expect(getChatAsked()).toEqual([sara.chat_id, reza.chat_id, ali.chat_id, sara.chat_id]);
});

test('off (the default): no lookup, and the item has no sender field', async () => {
	const trigger = await harness();
	await trigger.activate();
	say(sara, 'plain');

	const [item] = await handled(trigger);
	expect(item.json).not.toHaveProperty('sender');
	expect(getChatAsked()).toEqual([]);
});

/**
 * Options → Add Sender Details by reading: the sender's names from getChat
 * (private chats) or getChatMember (groups), one request per new sender, remembered in a bounded cache, and a
 * failed lookup that costs the update nothing but its details. Real n8n-core TriggerContext, real HTTP to the
 * sandbox.
 */
import type { IDataObject } from 'n8n-workflow';

import { SENDER_CACHE } from '../../nodes/shared/updates/sender';
import { DEMO_GROUP_ID, DEMO_QUIET_GROUP_ID } from '../../sandbox';
import { ali, pauseMs, reza, sara, say, texts, useSandbox } from './helpers';

const t = useSandbox();

const DEFAULT_CACHE = { ...SENDER_CACHE };
afterEach(() => {
	Object.assign(SENDER_CACHE, DEFAULT_CACHE);
	t.sandbox.configure({ absentMethods: [], explicitNulls: false });
});

const withDetails = { options: { addSenderDetails: true } };

/** The chat ids getChat was asked for, in order. */
const getChatAsked = () => t.sandbox.requestsFor('getChat').map((entry) => (entry.body as IDataObject).chat_id);

describe('Add Sender Details', () => {
	it('fills the names of a private chat\'s person from getChat', async () => {
		const harness = t.harness(withDetails);
		await harness.activate();
		say(t.sandbox, 'hello', sara);
		say(t.sandbox, 'salam', ali);
		const [fromSara, fromAli] = await harness.waitForExecutions(2);
		expect(fromSara.json).toMatchObject({
			text: 'hello',
			sender_id: sara.user_id,
			sender: { user_id: sara.user_id, first_name: 'Sara', last_name: 'Karimi', full_name: 'Sara Karimi', username: 'sara_k' },
		});
		// Ali has neither a last name nor a username.
		expect(fromAli.json.sender).toEqual({ user_id: ali.user_id, first_name: 'Ali', last_name: null, full_name: 'Ali', username: null });
		expect(fromAli.json).not.toHaveProperty('sender_details_error');
	});

	it('reads a getChat answer that writes missing fields as null the same way', async () => {
		t.sandbox.configure({ explicitNulls: true });
		const harness = t.harness(withDetails);
		await harness.activate();
		say(t.sandbox, 'salam', ali);
		const [item] = await harness.waitForExecutions(1);
		expect(item.json.sender).toEqual({ user_id: ali.user_id, first_name: 'Ali', last_name: null, full_name: 'Ali', username: null });
	});

	it('asks once per sender, however many messages each sends', async () => {
		const harness = t.harness(withDetails);
		await harness.activate();
		for (const [text, user] of [['1', sara], ['2', reza], ['3', sara], ['4', reza], ['5', sara]] as const) say(t.sandbox, text, user);
		const items = await harness.waitForExecutions(5);
		expect(items.map((item) => (item.json.sender as IDataObject).first_name)).toEqual(['Sara', 'Reza', 'Sara', 'Reza', 'Sara']);
		expect(getChatAsked()).toEqual([sara.chat_id, reza.chat_id]);
	});

	it('fills a bot start and stop, which have no sender_id, from the chat', async () => {
		const harness = t.harness({ ...withDetails, updateTypes: ['StartedBot', 'StoppedBot'] });
		await harness.activate();
		t.sandbox.userStartBot({ userId: reza.user_id });
		t.sandbox.userStopBot({ userId: reza.user_id });
		const items = await harness.waitForExecutions(2);
		expect(items.map((item) => item.json)).toMatchObject([
			{ type: 'StartedBot', sender_id: null, sender: { user_id: reza.user_id, full_name: 'Reza Rahimi' } },
			{ type: 'StoppedBot', sender_id: null, sender: { user_id: reza.user_id, full_name: 'Reza Rahimi' } },
		]);
		expect(getChatAsked()).toEqual([reza.chat_id]);
	});

	it('keeps at most SENDER_CACHE.capacity senders: the least recently used is asked again', async () => {
		SENDER_CACHE.capacity = 2;
		const harness = t.harness(withDetails);
		await harness.activate();
		// Ali pushes Sara out of a cache of two; Reza is found; Sara, asked again, pushes Ali out; Ali is asked again.
		for (const [text, user] of [['1', sara], ['2', reza], ['3', ali], ['4', reza], ['5', sara], ['6', ali]] as const) say(t.sandbox, text, user);
		await harness.waitForExecutions(6);
		expect(getChatAsked()).toEqual([sara.chat_id, reza.chat_id, ali.chat_id, sara.chat_id, ali.chat_id]);
	});

	it('asks again once a found sender is older than SENDER_CACHE.ttlMs', async () => {
		SENDER_CACHE.ttlMs = 0;
		const harness = t.harness(withDetails);
		await harness.activate();
		say(t.sandbox, '1', sara);
		say(t.sandbox, '2', sara);
		await harness.waitForExecutions(2);
		expect(getChatAsked()).toEqual([sara.chat_id, sara.chat_id]);
	});

	it('a failed lookup is one request: the update goes out without details, and nothing is lost', async () => {
		// A server fault that the transport would otherwise retry.
		t.sandbox.injectFault({ kind: 'httpStatus', method: 'getChat', httpStatus: 500 });
		const harness = t.harness(withDetails);
		await harness.activate();
		say(t.sandbox, 'first', sara);
		say(t.sandbox, 'second', sara);
		say(t.sandbox, 'third', reza);
		const items = await harness.waitForExecutions(3);
		expect(texts(items)).toEqual(['first', 'second', 'third']);
		expect(items[0].json.sender).toBeNull();
		expect(items[0].json.sender_details_error).toMatch(/getChat.*500|500.*getChat/);
		// The failure is remembered for a minute (SENDER_CACHE.failureTtlMs): Sara is not asked again at once.
		expect(items[1].json).toMatchObject({ sender: null, sender_details_error: items[0].json.sender_details_error });
		expect(items[2].json.sender).toMatchObject({ first_name: 'Reza' });
		expect(getChatAsked()).toEqual([sara.chat_id, reza.chat_id]);
		await pauseMs(400);
		expect(harness.started).toHaveLength(3);
	});

	it('a failed lookup is asked again once SENDER_CACHE.failureTtlMs has passed', async () => {
		SENDER_CACHE.failureTtlMs = 0;
		t.sandbox.injectFault({ kind: 'status', method: 'getChat', status: 'INVALID_INPUT', devMessage: 'try later' });
		const harness = t.harness(withDetails);
		await harness.activate();
		say(t.sandbox, '1', sara);
		say(t.sandbox, '2', sara);
		const items = await harness.waitForExecutions(2);
		expect(items[0].json.sender_details_error).toContain('INVALID_INPUT');
		expect(items[1].json.sender).toMatchObject({ first_name: 'Sara' });
		expect(getChatAsked()).toEqual([sara.chat_id, sara.chat_id]);
	});

	it('in a group, fills a member\'s names from getChatMember, once per member', async () => {
		const harness = t.harness(withDetails);
		await harness.activate();
		t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'hi all' });
		t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'again' });
		const items = await harness.waitForExecutions(2);
		for (const item of items) {
			expect(item.json).toMatchObject({ chat_type: 'group', sender: { user_id: ali.user_id, first_name: 'Ali', full_name: 'Ali', username: null } });
		}
		expect(t.sandbox.requestsFor('getChatMember').map((entry) => entry.body)).toEqual([{ chat_id: DEMO_GROUP_ID, user_id: ali.user_id }]);
		expect(getChatAsked()).toEqual([]);
	});

	it('in a group where Rubika refuses getChatMember, the item says why', async () => {
		// The bot is only a member of the quiet group; the sandbox lets admins alone read members.
		const harness = t.harness(withDetails);
		await harness.activate();
		t.sandbox.userSendMessage({ userId: sara.user_id, chatId: DEMO_QUIET_GROUP_ID, text: 'quiet' });
		const [item] = await harness.waitForExecutions(1);
		expect(item.json).toMatchObject({ text: 'quiet', sender: null });
		expect(item.json.sender_details_error).toContain('INVALID_ACCESS');
	});

	it('a Rubika without getChatMember is not asked it again for other members', async () => {
		t.sandbox.configure({ absentMethods: ['getChatMember'] });
		const harness = t.harness(withDetails);
		await harness.activate();
		t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'one' });
		t.sandbox.userSendMessage({ userId: reza.user_id, chatId: DEMO_GROUP_ID, text: 'two' });
		say(t.sandbox, 'private', sara);
		const items = await harness.waitForExecutions(3);
		for (const item of items.slice(0, 2)) {
			expect(item.json).toMatchObject({ sender: null, sender_details_error: 'Rubika does not know the method getChatMember' });
		}
		expect(items[2].json.sender).toMatchObject({ first_name: 'Sara' });
		expect(t.sandbox.requestsFor('getChatMember')).toHaveLength(1);
	});

	it('asks only for updates that pass the filters', async () => {
		const harness = t.harness({ ...withDetails, filters: { senderIds: reza.user_id } });
		await harness.activate();
		say(t.sandbox, 'dropped', sara);
		say(t.sandbox, 'kept', reza);
		await harness.waitForExecutions(1);
		await pauseMs(400);
		expect(texts(harness.items)).toEqual(['kept']);
		expect(getChatAsked()).toEqual([reza.chat_id]);
	});

	it('off (the default): no lookup, and the item has no sender field', async () => {
		const harness = t.harness();
		await harness.activate();
		say(t.sandbox, 'plain', sara);
		const [item] = await harness.waitForExecutions(1);
		expect(item.json).not.toHaveProperty('sender');
		expect(t.sandbox.requestsFor('getChat')).toHaveLength(0);
		expect(t.sandbox.requestsFor('getChatMember')).toHaveLength(0);
	});

	it('"Listen for test event" fills the sender too', async () => {
		const harness = t.harness(withDetails, { mode: 'manual' });
		await harness.activate();
		say(t.sandbox, 'test me', reza);
		const [[item]] = await harness.testEvent();
		expect(item.json).toMatchObject({ text: 'test me', sender: { full_name: 'Reza Rahimi', username: 'reza_r' } });
	});
});

/**
 * Update types, each filter and the output item, on real updates from the sandbox, through the reading
 * trigger in n8n-core's TriggerContext: what waits is read with Process Backlog, and what passes starts one
 * execution each. (The filter predicates alone: test/updates/updates.test.ts.)
 */
import type { INodeParameters } from 'n8n-workflow';

import { DEMO_BOT_ID, DEMO_GROUP_ID } from '../../sandbox';
import { ali, pauseMs, received, reza, sara, say, texts, useSandbox } from './helpers';

const t = useSandbox();

/** Activates a trigger that processes what waits, and returns what it delivered (`count` executions expected). */
async function deliveredFromBacklog(parameters: INodeParameters, count: number) {
	const harness = t.harness({ firstActivation: 'processBacklog', ...parameters });
	await harness.activate();
	const items = await received(harness, count);
	expect(harness.failures).toEqual([]);
	return { harness, items };
}

describe('update types', () => {
	it('default: new messages only; edits, removals and start/stop are read past, not delivered, also after a restart', async () => {
		t.sandbox.userStartBot({ userId: sara.user_id, sendStartMessage: false });
		const message = t.sandbox.userSendMessage({ userId: sara.user_id, text: 'hello' });
		t.sandbox.userEditMessage({ userId: sara.user_id, chatId: sara.chat_id, messageId: message.message_id, text: 'hello!' });
		t.sandbox.userDeleteMessage({ userId: sara.user_id, chatId: sara.chat_id, messageId: message.message_id });
		t.sandbox.userStopBot({ userId: sara.user_id });
		const { harness, items } = await deliveredFromBacklog({}, 1);
		expect(items.map((item) => [item.json.type, item.json.text])).toEqual([['NewMessage', 'hello']]);
		// The others were consumed: the trigger started again delivers nothing new.
		await harness.deactivate();
		const again = await harness.crash();
		await again.activate();
		say(t.sandbox, 'later');
		expect(texts(await received(again, 1))).toEqual(['later']);
	});

	it('edits and removals, shaped with the fields expressions need', async () => {
		const message = t.sandbox.userSendMessage({ userId: sara.user_id, text: 'draft' });
		t.sandbox.userEditMessage({ userId: sara.user_id, chatId: sara.chat_id, messageId: message.message_id, text: 'final' });
		t.sandbox.userDeleteMessage({ userId: sara.user_id, chatId: sara.chat_id, messageId: message.message_id });
		const { items } = await deliveredFromBacklog({ updateTypes: ['UpdatedMessage', 'RemovedMessage'] }, 2);
		expect(items.map((item) => item.json)).toEqual([
			expect.objectContaining({ type: 'UpdatedMessage', chat_id: sara.chat_id, message_id: message.message_id, text: 'final', sender_id: sara.user_id }),
			expect.objectContaining({ type: 'RemovedMessage', chat_id: sara.chat_id, message_id: message.message_id, text: null }),
		]);
	});

	/** Start → stop → start from the backlog, one second's events, then a later stop: each is an execution. */
	async function startStopStart(withoutDeduplication: boolean) {
		t.sandbox.userStartBot({ userId: reza.user_id, sendStartMessage: false });
		t.sandbox.userStopBot({ userId: reza.user_id });
		t.sandbox.userStartBot({ userId: reza.user_id, sendStartMessage: false });
		const harness = t.harness({ firstActivation: 'processBacklog', updateTypes: ['StartedBot', 'StoppedBot'] }, { withoutDeduplication });
		await harness.activate();
		expect((await received(harness, 3, 5000)).map((item) => item.json.type)).toEqual(['StartedBot', 'StoppedBot', 'StartedBot']);
		t.sandbox.userStopBot({ userId: reza.user_id });
		expect((await received(harness, 4)).map((item) => item.json.type)).toEqual(['StartedBot', 'StoppedBot', 'StartedBot', 'StoppedBot']);
	}

	it('start → stop → start is three events; each is delivered once, and a later stop is a fourth (n8n before 2.41)', async () => {
		await startStopStart(true);
	});

	// With n8n's deduplication keys (2.41+) a start or stop is told from an earlier one of its chat by where it
	// was read (found porting the polling trigger's test: the second start of the same second was taken for the
	// first, and only 2 executions started).
	it('start → stop → start is three events; each is delivered once, and a later stop is a fourth (n8n 2.41+)', async () => {
		await startStopStart(false);
	});

	// Rubika's start/stop updates may carry only type and chat_id (facts §5, inferred): every start of a chat then
	// has the identity of its first one, and without the place it was read n8n 2.41+ would drop every later start.
	it('a person who stops the bot and starts it again later starts the workflow again, when Rubika sends no update_time (n8n 2.41+)', async () => {
		const bot = t.sandbox.state.requireBot(DEMO_BOT_ID);
		const harness = t.harness({ updateTypes: ['StartedBot', 'StoppedBot'] });
		await harness.activate();
		for (const [type, count] of [['StartedBot', 1], ['StoppedBot', 2], ['StartedBot', 3]] as const) {
			t.sandbox.state.appendUpdate(bot, { type, chat_id: reza.chat_id });
			await harness.waitForExecutions(count, 3000);
		}
		await pauseMs(600);
		expect(harness.items.map((item) => item.json.type)).toEqual(['StartedBot', 'StoppedBot', 'StartedBot']);
	});

	it('an empty list means every type', async () => {
		t.sandbox.userStartBot({ userId: ali.user_id });
		const { items } = await deliveredFromBacklog({ updateTypes: [] }, 2);
		expect(items.map((item) => item.json.type)).toEqual(['StartedBot', 'NewMessage']);
		expect(items[1].json).toMatchObject({ text: '/start', start_id: null });
	});
});

describe('filters', () => {
	it('chat IDs', async () => {
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'from sara' });
		t.sandbox.userSendMessage({ userId: reza.user_id, text: 'from reza' });
		t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'in the group' });
		const { items } = await deliveredFromBacklog({ filters: { chatIds: `${reza.chat_id}, ${DEMO_GROUP_ID}` } }, 2);
		expect(texts(items)).toEqual(['from reza', 'in the group']);
	});

	it('sender IDs', async () => {
		t.sandbox.userSendMessage({ userId: sara.user_id, chatId: DEMO_GROUP_ID, text: 'sara in group' });
		t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'ali in group' });
		t.sandbox.userSendMessage({ userId: ali.user_id, text: 'ali private' });
		const { items } = await deliveredFromBacklog({ filters: { senderIds: ali.user_id } }, 2);
		expect(texts(items)).toEqual(['ali in group', 'ali private']);
		expect(items.every((item) => item.json.sender_id === ali.user_id)).toBe(true);
	});

	it('only commands', async () => {
		for (const text of ['hello', '/help', ' /start now', 'not /a command', '/Settings@sandbox_demo_bot']) say(t.sandbox, text);
		const { items } = await deliveredFromBacklog({ filters: { onlyCommands: true } }, 3);
		expect(texts(items)).toEqual(['/help', ' /start now', '/Settings@sandbox_demo_bot']);
	});

	it('a command list', async () => {
		for (const text of ['/start abc', '/HELP', '/other', 'start', '/starter']) say(t.sandbox, text);
		const { items } = await deliveredFromBacklog({ filters: { commands: '/start, help' } }, 2);
		expect(texts(items)).toEqual(['/start abc', '/HELP']);
	});

	it.each([
		['plain', '^Order \\d+$', ['Order 12']],
		['/…/flags', '/^order \\d+$/i', ['Order 12', 'order 7']],
	])('a text pattern, %s', async (_name, textPattern, expected) => {
		for (const text of ['Order 12', 'order 7', 'my order 3', 'Order x']) say(t.sandbox, text);
		const { items } = await deliveredFromBacklog({ filters: { textPattern } }, expected.length);
		expect(texts(items)).toEqual(expected);
	});

	it.each([
		['on: only the person', true, ['a person']],
		['off: the bot too', false, ['a person', 'a bot']],
	])('ignore messages from bots %s', async (_name, ignoreBots, expected) => {
		const other = t.sandbox.addBot({ bot_title: 'Other bot' });
		t.sandbox.userSendMessage({ userId: sara.user_id, chatId: DEMO_GROUP_ID, text: 'a person' });
		// What the demo bot would receive if another bot posted in the group.
		t.sandbox.state.appendUpdate(t.sandbox.state.requireBot(DEMO_BOT_ID), {
			type: 'NewMessage',
			chat_id: DEMO_GROUP_ID,
			new_message: { message_id: '9000000000000000001', text: 'a bot', time: '1700000000', sender_type: 'Bot', sender_id: other.bot_id },
		});
		const { items } = await deliveredFromBacklog({ filters: { ignoreBots } }, expected.length);
		expect(texts(items)).toEqual(expected);
	});

	it('filters combine: every filter set must pass', async () => {
		t.sandbox.userSendMessage({ userId: sara.user_id, chatId: DEMO_GROUP_ID, text: '/report 1' });
		t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: '/report 2' });
		t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'report 3' });
		t.sandbox.userSendMessage({ userId: ali.user_id, text: '/report 4' });
		const { items } = await deliveredFromBacklog({ filters: { chatIds: DEMO_GROUP_ID, senderIds: ali.user_id, commands: '/report' } }, 1);
		expect(texts(items)).toEqual(['/report 2']);
	});
});

describe('output item', () => {
	it('puts the fields at the top and keeps the raw update', async () => {
		say(t.sandbox, 'shape');
		const raw = t.sandbox.updates().at(-1)!;
		const { items } = await deliveredFromBacklog({}, 1);
		expect(items[0].json).toEqual({
			type: 'NewMessage',
			chat_id: sara.chat_id,
			message_id: raw.new_message!.message_id,
			text: 'shape',
			sender_id: sara.user_id,
			sender_type: 'User',
			button_id: null,
			start_id: null,
			file: null,
			time: raw.new_message!.time,
			time_iso: new Date(Number(raw.new_message!.time) * 1000).toISOString(),
			update_key: `NewMessage:${sara.chat_id}:${raw.new_message!.message_id}`,
			chat_type: 'private',
			content_kind: 'text',
			// What n8n's AI Agent and its chat memory read without mapping.
			chatInput: 'shape',
			sessionId: sara.chat_id,
			update: raw,
		});
		expect(items[0].binary).toBeUndefined();
	});
});

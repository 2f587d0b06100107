/**
 * The operations whose methods only Rubika's client libraries know (pin, members, stickers, quizzes): the exact
 * request, the output, the sandbox's state, bad input refused before sending, and a Rubika that lacks the method.
 */
import type { NodeApiError } from 'n8n-workflow';

import { Rubika } from '../../nodes/Rubika/Rubika.node';
import { UNDOCUMENTED_METHODS } from '../../nodes/shared/types';
import { DEMO_BOT_ID, DEMO_CHANNEL_ID, DEMO_GROUP_ID, DEMO_QUIET_GROUP_ID, DEMO_STICKERS, DEMO_USERS } from '../../sandbox';
import { jsonOf, useActionSandbox } from './helpers';

const { sara, reza, ali } = DEMO_USERS;
const actions = useActionSandbox('chat');
const { run, bodies, refusesEach } = actions;
const NOTE = "Not in Rubika's official documentation; behaviour taken from Rubika's client libraries";

afterEach(() => {
	actions.sandbox.configure({
		absentMethods: [],
		pollExtras: 'accept',
		memberAnswerKey: 'member',
		nonMemberAnswer: 'status',
		unpinAllMessageId: 'ignore',
		unknownMethod: { httpStatus: 200, status: 'INVALID_INPUT', devMessage: 'Unknown method' },
	});
});

/** A message from Sara in the group, to pin. */
const groupMessage = () => actions.sandbox.userSendMessage({ userId: sara.user_id, chatId: DEMO_GROUP_ID, text: 'Rules: be kind' });
const pinnedIds = (chatId: string) => actions.sandbox.chat(chatId).pinned_message_ids;

describe('every undocumented operation says so', () => {
	const description = new Rubika().description;
	const operations = description.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) => (property.options ?? []) as Array<{ value: string; description?: string }>);

	test.each([...UNDOCUMENTED_METHODS])('%s: in its description and in a notice above its fields', (method) => {
		const operation = operations.find((option) => option.value === method);
		expect(operation?.description).toContain(`(${method}). ${NOTE}`);
		const notice = description.properties.find(
			(property) => property.type === 'notice' && property.displayOptions?.show?.operation?.includes(method),
		);
		expect(notice?.displayName).toContain(`Rubika does not know the method ${method}`);
	});
});

describe('Chat → Pin Message / Unpin Message / Unpin All Messages', () => {
	test('pin two messages, unpin one, unpin all: the requests, the outputs and the chat\'s pinned messages', async () => {
		const first = groupMessage();
		const second = actions.sandbox.userSendMessage({ userId: reza.user_id, chatId: DEMO_GROUP_ID, text: 'Meeting at 5' });
		const pinned = await run({ operation: 'pinChatMessage', chatId: DEMO_GROUP_ID, messageId: '={{ $json.id }}' }, [
			{ json: { id: first.message_id } },
			{ json: { id: second.message_id } },
		]);
		expect(pinned.error).toBeUndefined();
		expect(bodies('pinChatMessage')).toEqual([
			{ chat_id: DEMO_GROUP_ID, message_id: first.message_id },
			{ chat_id: DEMO_GROUP_ID, message_id: second.message_id },
		]);
		expect(jsonOf(pinned)).toEqual([
			{ chat_id: DEMO_GROUP_ID, message_id: first.message_id, pinned: true },
			{ chat_id: DEMO_GROUP_ID, message_id: second.message_id, pinned: true },
		]);
		expect(pinnedIds(DEMO_GROUP_ID)).toEqual([first.message_id, second.message_id]);

		const unpinned = await run({ operation: 'unpinChatMessage', chatId: DEMO_GROUP_ID, messageId: first.message_id });
		expect(bodies('unpinChatMessage')).toEqual([{ chat_id: DEMO_GROUP_ID, message_id: first.message_id }]);
		expect(jsonOf(unpinned)).toEqual([{ chat_id: DEMO_GROUP_ID, message_id: first.message_id, pinned: false }]);
		expect(pinnedIds(DEMO_GROUP_ID)).toEqual([second.message_id]);

		const cleared = await run({ operation: 'unpinAllChatMessages', chatId: DEMO_GROUP_ID, messageId: second.message_id });
		expect(bodies('unpinAllChatMessages')).toEqual([{ chat_id: DEMO_GROUP_ID, message_id: second.message_id }]);
		expect(jsonOf(cleared)).toEqual([{ chat_id: DEMO_GROUP_ID, message_id: second.message_id, all_unpinned: true }]);
		expect(pinnedIds(DEMO_GROUP_ID)).toEqual([]);
	});

	test('Unpin All Messages sends a Message ID, as rubpy does; any message of the chat will do', async () => {
		actions.sandbox.configure({ unpinAllMessageId: 'require' });
		const message = groupMessage();
		await run({ operation: 'pinChatMessage', chatId: DEMO_GROUP_ID, messageId: message.message_id });
		const cleared = await run({ operation: 'unpinAllChatMessages', chatId: DEMO_GROUP_ID, messageId: message.message_id });
		expect(cleared.error).toBeUndefined();
		expect(bodies('unpinAllChatMessages')).toEqual([{ chat_id: DEMO_GROUP_ID, message_id: message.message_id }]);
		expect(jsonOf(cleared)).toEqual([{ chat_id: DEMO_GROUP_ID, message_id: message.message_id, all_unpinned: true }]);
		expect(pinnedIds(DEMO_GROUP_ID)).toEqual([]);
	});

	test('Unpin All Messages without a Message ID: refused before sending', async () => {
		actions.expectRefused(
			await run({ operation: 'unpinAllChatMessages', chatId: DEMO_GROUP_ID, messageId: '={{ $json.message_id }}' }),
			'Message ID: is required [item 0]',
		);
	});

	test('Disable Notification goes out only when switched on', async () => {
		const message = groupMessage();
		await run({ operation: 'pinChatMessage', chatId: DEMO_GROUP_ID, messageId: message.message_id, disableNotification: true });
		expect(bodies('pinChatMessage')).toEqual([{ chat_id: DEMO_GROUP_ID, message_id: message.message_id, disable_notification: true }]);
	});

	test('where the bot is not an admin: Rubika\'s INVALID_ACCESS, with the note that the method may be missing; nothing pinned', async () => {
		const message = actions.sandbox.userSendMessage({ userId: sara.user_id, chatId: DEMO_QUIET_GROUP_ID, text: 'pin me' });
		const result = await run({ operation: 'pinChatMessage', chatId: DEMO_QUIET_GROUP_ID, messageId: message.message_id });
		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toMatch(/^Rubika pinChatMessage failed: INVALID_ACCESS/);
		expect(error.description).toContain("pinChatMessage is not in Rubika's official documentation");
		expect(pinnedIds(DEMO_QUIET_GROUP_ID)).toEqual([]);
	});

	refusesEach({ operation: 'pinChatMessage', chatId: DEMO_GROUP_ID, messageId: '123' }, [
		['a missing chat id', { chatId: '={{ $json.chat }}' }, 'Chat ID: is required [item 0]'],
		['a missing message id', { messageId: '={{ "" }}' }, 'Message ID: is required [item 0]'],
		['a message id with spaces', { messageId: '12 34' }, 'Message ID: must be a single ID without spaces, got "12 34" [item 0]'],
		['a switch that is not a switch', { disableNotification: '={{ "maybe" }}' }, 'Disable Notification: must be true or false, got "maybe" [item 0]'],
	]);
	refusesEach({ operation: 'unpinChatMessage', chatId: DEMO_GROUP_ID, messageId: '123' }, [
		['a missing message id', { messageId: '={{ $json.message_id }}' }, 'Message ID: is required [item 0]'],
	]);
	refusesEach({ operation: 'unpinAllChatMessages', chatId: DEMO_GROUP_ID, messageId: '123' }, [
		['a chat id with spaces', { chatId: 'g0 x' }, 'Chat ID: must be a single ID without spaces, got "g0 x" [item 0]'],
	]);
});

describe('Chat → Get Member / Get Administrators / Get Member Count', () => {
	const roleOf = (chatId: string, id: string) => actions.sandbox.chat(chatId).members.find((member) => member.id === id)?.role;

	test('Get Member: the member flat, with is_member; someone who left is not a member', async () => {
		const result = await run({ operation: 'getChatMember', chatId: DEMO_GROUP_ID, userId: '={{ $json.user }}' }, [
			{ json: { user: sara.user_id } },
			{ json: { user: ali.user_id } },
		]);
		expect(result.error).toBeUndefined();
		expect(bodies('getChatMember')).toEqual([
			{ chat_id: DEMO_GROUP_ID, user_id: sara.user_id },
			{ chat_id: DEMO_GROUP_ID, user_id: ali.user_id },
		]);
		expect(jsonOf(result)[0]).toMatchObject({ chat_id: DEMO_GROUP_ID, user_id: sara.user_id, first_name: 'Sara', is_member: true });
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);

		await run({ operation: 'banChatMember', chatId: DEMO_GROUP_ID, userId: ali.user_id });
		const after = await run({ operation: 'getChatMember', chatId: DEMO_GROUP_ID, userId: ali.user_id });
		expect(jsonOf(after)).toEqual([expect.objectContaining({ user_id: ali.user_id, status: 'Banned', is_member: false })]);
	});

	test('Get Member in a channel: who has not joined is not a member', async () => {
		const before = roleOf(DEMO_CHANNEL_ID, reza.user_id);
		const result = await run({ operation: 'getChatMember', chatId: DEMO_CHANNEL_ID, userId: reza.user_id });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0].is_member).toBe(before !== undefined);
	});

	test.each(['member', 'chat_member', 'in_chat_member', 'user'] as const)(
		'Get Member when Rubika answers {"%s": null} for who is not in the chat: is_member false',
		async (key) => {
			actions.sandbox.configure({ memberAnswerKey: key, nonMemberAnswer: 'null' });
			await run({ operation: 'banChatMember', chatId: DEMO_GROUP_ID, userId: ali.user_id });
			const result = await run({ operation: 'getChatMember', chatId: DEMO_GROUP_ID, userId: '={{ $json.user }}' }, [
				{ json: { user: ali.user_id } },
				{ json: { user: sara.user_id } },
			]);
			expect(result.error).toBeUndefined();
			const [banned, owner] = jsonOf(result);
			expect(banned).toEqual({ [key]: null, chat_id: DEMO_GROUP_ID, user_id: ali.user_id, is_member: false });
			expect(owner).toMatchObject({ chat_id: DEMO_GROUP_ID, user_id: sara.user_id, status: 'Creator', is_member: true });
		},
	);

	test('Get Administrators: one item per owner or admin, the bot included where it is one', async () => {
		const result = await run({ operation: 'getChatAdministrators', chatId: DEMO_GROUP_ID });
		expect(result.error).toBeUndefined();
		expect(bodies('getChatAdministrators')).toEqual([{ chat_id: DEMO_GROUP_ID }]);
		const expected = actions.sandbox
			.chat(DEMO_GROUP_ID)
			.members.filter((member) => member.role === 'owner' || member.role === 'admin')
			.map((member) => member.id);
		expect(jsonOf(result).map((admin) => admin.user_id).sort()).toEqual([...expected].sort());
		expect(jsonOf(result).map((admin) => admin.user_id)).toContain(DEMO_BOT_ID);
		expect(jsonOf(result).every((admin) => admin.chat_id === DEMO_GROUP_ID)).toBe(true);
		expect(result.items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
	});

	test('Get Member Count: a number, and it follows a ban', async () => {
		const members = actions.sandbox.chat(DEMO_GROUP_ID).members.length;
		const result = await run({ operation: 'getChatMemberCount', chatId: DEMO_GROUP_ID });
		expect(bodies('getChatMemberCount')).toEqual([{ chat_id: DEMO_GROUP_ID }]);
		expect(jsonOf(result)).toEqual([{ chat_id: DEMO_GROUP_ID, member_count: members }]);
		await run({ operation: 'banChatMember', chatId: DEMO_GROUP_ID, userId: ali.user_id });
		const after = await run({ operation: 'getChatMemberCount', chatId: DEMO_GROUP_ID });
		expect(jsonOf(after)).toEqual([{ chat_id: DEMO_GROUP_ID, member_count: members - 1 }]);
	});

	refusesEach({ operation: 'getChatMember', chatId: DEMO_GROUP_ID, userId: sara.user_id }, [
		['a missing user id', { userId: '={{ $json.sender_id }}' }, 'User ID: is required [item 0]'],
		['a user id too large to be exact', { userId: '={{ 12345678901234567890 }}' }, /^User ID: \d+ is a number too large to be exact; keep the ID as text/],
	]);
});

describe('Message → Send Sticker', () => {
	const sticker = Object.values(DEMO_STICKERS)[0];

	test('sends the sticker with the send options; the chat shows it', async () => {
		const result = await run({
			resource: 'message',
			operation: 'sendSticker',
			chatId: sara.chat_id,
			stickerId: sticker.sticker_id,
			sendOptions: { disableNotification: true },
		});
		expect(result.error).toBeUndefined();
		expect(bodies('sendSticker')).toEqual([{ chat_id: sara.chat_id, sticker_id: sticker.sticker_id, disable_notification: true }]);
		const [output] = jsonOf(result);
		expect(output).toEqual({ message_id: expect.stringMatching(/^\d+$/), chat_id: sara.chat_id, sticker_id: sticker.sticker_id });
		expect(actions.sandbox.message(sara.chat_id, output.message_id as string)?.sticker?.sticker_id).toBe(sticker.sticker_id);
	});

	test('an unknown sticker is Rubika\'s INVALID_INPUT', async () => {
		const result = await run({ resource: 'message', operation: 'sendSticker', chatId: sara.chat_id, stickerId: 'nope' });
		expect(result.error?.message).toMatch(/^Rubika sendSticker failed: INVALID_INPUT – sticker_id/);
	});

	refusesEach({ resource: 'message', operation: 'sendSticker', chatId: sara.chat_id, stickerId: 's1' }, [
		['a missing sticker id', { stickerId: '={{ $json.sticker_id }}' }, 'Sticker ID: is required [item 0]'],
		['a bad inline keypad', { inlineKeypadMode: 'json', inlineKeypadJson: '[[{"text": ""}]]' }, /^Inline Keypad/],
	]);
});

describe('Message → Send Poll: quizzes, multiple answers, public votes', () => {
	const poll = { resource: 'message', operation: 'sendPoll', chatId: DEMO_GROUP_ID, question: '2 + 2?', pollOptionsMode: 'json', pollOptionsJson: '["3", "4", "5"]' };

	test('a plain poll sends none of the extra fields: the documented request', async () => {
		await run(poll);
		expect(bodies('sendPoll')).toEqual([{ chat_id: DEMO_GROUP_ID, question: '2 + 2?', options: ['3', '4', '5'] }]);
	});

	test('a quiz: type, single answer and anonymous (always, as the libraries send them), the correct answer counted from 0, the explanation; the output says what was sent; stored', async () => {
		const result = await run({ ...poll, pollType: 'quiz', correctAnswer: 2, explanation: ' Two and two make four ' });
		expect(result.error).toBeUndefined();
		const sent = { type: 'Quiz', allows_multiple_answers: false, is_anonymous: true, correct_option_index: 1, explanation: 'Two and two make four' };
		expect(bodies('sendPoll')).toEqual([{ chat_id: DEMO_GROUP_ID, question: '2 + 2?', options: ['3', '4', '5'], ...sent }]);
		const [output] = jsonOf(result);
		expect(output).toMatchObject({ chat_id: DEMO_GROUP_ID, question: '2 + 2?', options: ['3', '4', '5'], ...sent });
		expect(actions.sandbox.message(DEMO_GROUP_ID, output.message_id as string)?.poll).toMatchObject(sent);
	});

	test('a quiz with public votes says is_anonymous false', async () => {
		await run({ ...poll, pollType: 'quiz', correctAnswer: 3, anonymous: false });
		expect(bodies('sendPoll')).toEqual([
			{ chat_id: DEMO_GROUP_ID, question: '2 + 2?', options: ['3', '4', '5'], type: 'Quiz', allows_multiple_answers: false, is_anonymous: false, correct_option_index: 2 },
		]);
	});

	test('multiple answers and public votes on a regular poll', async () => {
		await run({ ...poll, allowMultipleAnswers: true, anonymous: false });
		expect(bodies('sendPoll')).toEqual([
			{ chat_id: DEMO_GROUP_ID, question: '2 + 2?', options: ['3', '4', '5'], allows_multiple_answers: true, is_anonymous: false },
		]);
	});

	test('a Rubika that does not know the fields refuses them: its error, nothing sent twice', async () => {
		actions.sandbox.configure({ pollExtras: 'reject' });
		const result = await run({ ...poll, pollType: 'quiz', correctAnswer: 1 });
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(/^Rubika sendPoll failed: INVALID_INPUT/);
		expect(bodies('sendPoll')).toHaveLength(1);
	});

	refusesEach(poll, [
		['a correct answer beyond the answers', { pollType: 'quiz', correctAnswer: 4 }, 'Correct Answer: is answer 4, but the poll has only 3 answers [item 0]'],
		['a correct answer of 0', { pollType: 'quiz', correctAnswer: 0 }, 'Correct Answer: must be at least 1, got 0 [item 0]'],
		['a fractional correct answer', { pollType: 'quiz', correctAnswer: 1.5 }, 'Correct Answer: must be a whole number, got 1.5 [item 0]'],
		['an unknown poll type', { pollType: '={{ "survey" }}' }, 'Poll Type: must be regular or quiz, got "survey" [item 0]'],
		['a switch that is not a switch', { anonymous: '={{ "perhaps" }}' }, 'Anonymous: must be true or false, got "perhaps" [item 0]'],
	]);
});

describe('a Rubika that does not offer the method', () => {
	test.each([
		['as the sandbox answers unknown methods (INVALID_INPUT, "Unknown method")', { httpStatus: 200, status: 'INVALID_INPUT', devMessage: 'Unknown method' }],
		['with HTTP 404 and no envelope', { httpStatus: 404, status: 'NOT_FOUND', devMessage: '' }],
	])('%s: "Rubika does not know the method pinChatMessage", at once, without retries', async (_name, unknownMethod) => {
		actions.sandbox.configure({ absentMethods: ['pinChatMessage'], unknownMethod });
		const message = groupMessage();
		const result = await run({ operation: 'pinChatMessage', chatId: DEMO_GROUP_ID, messageId: message.message_id });
		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe('Rubika does not know the method pinChatMessage');
		expect(error.description).toContain("pinChatMessage is not in Rubika's official Bot API documentation");
		expect(actions.sandbox.requestsFor('pinChatMessage')).toHaveLength(1);
		expect(pinnedIds(DEMO_GROUP_ID)).toEqual([]);
	});

	test('Continue On Fail: the item says so, the next method still works', async () => {
		actions.sandbox.configure({ absentMethods: ['getChatMemberCount'] });
		const result = await run({ operation: 'getChatMemberCount', chatId: DEMO_GROUP_ID }, undefined, { continueOnFail: true });
		expect(jsonOf(result)).toEqual([expect.objectContaining({ error: 'Rubika does not know the method getChatMemberCount' })]);
		const other = await run({ operation: 'getChatAdministrators', chatId: DEMO_GROUP_ID });
		expect(other.error).toBeUndefined();
	});
});

/**
 * The methods only Rubika's client libraries call (sendSticker, pin/unpin, members) and sendPoll's extra
 * fields, over real HTTP: what each answers, the state it changes, each refusal, the knobs that play a
 * Rubika without them (absentMethods, pollExtras) and the knobs for what is unknown about them
 * (memberAnswerKey, nonMemberAnswer, unpinAllMessageId).
 */
import axios from 'axios';

import {
	DEMO_BOT_ID,
	DEMO_BOT_TITLE,
	DEMO_BOT_USERNAME,
	DEMO_CHANNEL_ID,
	DEMO_GROUP_ID,
	DEMO_QUIET_GROUP_ID,
	DEMO_STICKERS,
	DEMO_USERS,
} from '../../sandbox';
import { UNDOCUMENTED_METHODS } from '../../nodes/shared/types';
import { useSandbox, withSandbox } from '../support/sandbox';
import { adminCall, api, fails, ok } from './helpers';

const { sara, reza, ali } = DEMO_USERS;
const UNKNOWN_USER = 'u0' + 'q'.repeat(30);
const t = useSandbox();

// After useSandbox's reset: every test starts from the same config.
beforeEach(() => {
	t.sandbox.configure({
		absentMethods: [],
		pollExtras: 'accept',
		explicitNulls: false,
		memberAnswerKey: 'member',
		nonMemberAnswer: 'status',
		unpinAllMessageId: 'ignore',
		unknownMethod: { httpStatus: 200, status: 'INVALID_INPUT', devMessage: 'Unknown method' },
	});
});

const pinned = (chatId: string) => t.sandbox.chat(chatId).pinned_message_ids;

async function send(chatId: string, text: string): Promise<string> {
	return (await ok(t.sandbox, 'sendMessage', { chat_id: chatId, text })).message_id;
}

describe('sendSticker', () => {
	const { like, party } = DEMO_STICKERS;

	test('sends a sticker of the catalogue, with the shared send options; the message carries a copy of it', async () => {
		const question = await send(sara.chat_id, 'How was it?');
		const data = await ok(t.sandbox, 'sendSticker', {
			chat_id: sara.chat_id,
			sticker_id: like.sticker_id,
			reply_to_message_id: question,
			disable_notification: true,
			inline_keypad: { rows: [{ buttons: [{ id: 'more', type: 'Simple', button_text: 'More' }] }] },
			chat_keypad_type: 'New',
			chat_keypad: { rows: [{ buttons: [{ id: 'menu', type: 'Simple', button_text: 'Menu' }] }] },
		});
		expect(data).toEqual({ message_id: expect.stringMatching(/^\d{19}$/) });
		expect(t.sandbox.lastMessage(sara.chat_id)).toMatchObject({
			message_id: data.message_id,
			sender_type: 'Bot',
			sender_id: DEMO_BOT_ID,
			sticker: like,
			reply_to_message_id: question,
			disable_notification: true,
			inline_keypad: { rows: [{ buttons: [{ id: 'more' }] }] },
		});
		expect(t.sandbox.lastMessage(sara.chat_id)).not.toHaveProperty('text');
		expect(t.sandbox.chatKeypad(sara.chat_id)).toMatchObject({ rows: [{ buttons: [{ id: 'menu' }] }] });
	});

	test('a sticker\'s file is a real file: getFile gives an address that downloads it', async () => {
		const { download_url } = await ok(t.sandbox, 'getFile', { file_id: party.file.file_id });
		const response = await axios.get(download_url, { responseType: 'text' });
		expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
		expect(response.data).toContain('🎉');
		expect(String(Buffer.byteLength(response.data))).toBe(party.file.size);
	});

	test('the catalogue: GET /_sandbox/stickers, sandbox.stickers() and sandbox.demo, in every seed', async () => {
		const all = Object.values(DEMO_STICKERS);
		expect((await adminCall(t.sandbox, 'GET', '/stickers')).json).toEqual(all);
		expect(t.sandbox.stickers()).toEqual(all);
		expect(t.sandbox.demo?.stickers).toEqual(DEMO_STICKERS);
		t.sandbox.reset('empty');
		expect(t.sandbox.stickers()).toEqual(all);
		expect(t.sandbox.file(like.file.file_id)?.file_name).toBe(like.file.file_name);
	});

	test('a forwarded sticker stays a sticker', async () => {
		const { message_id } = await ok(t.sandbox, 'sendSticker', { chat_id: sara.chat_id, sticker_id: party.sticker_id });
		await ok(t.sandbox, 'forwardMessage', { from_chat_id: sara.chat_id, message_id, to_chat_id: DEMO_GROUP_ID });
		expect(t.sandbox.lastMessage(DEMO_GROUP_ID)).toMatchObject({ sticker: party, forwarded_from: { message_id } });
	});

	test('an unknown or missing sticker id is INVALID_INPUT and nothing is sent', async () => {
		expect(await fails(t.sandbox, 'sendSticker', { chat_id: sara.chat_id, sticker_id: 'nope' })).toBe('sticker_id: sticker nope not found');
		expect(await fails(t.sandbox, 'sendSticker', { chat_id: sara.chat_id, sticker_id: null })).toBe('sticker_id is required');
		expect(await fails(t.sandbox, 'sendSticker', { sticker_id: like.sticker_id })).toBe('chat_id is required');
		expect(t.sandbox.messages(sara.chat_id)).toEqual([]);
	});
});

describe('pinChatMessage, unpinChatMessage, unpinAllChatMessages', () => {
	test('pins keep their order, oldest first; pinning again makes a message the most recent', async () => {
		const [first, second] = [await send(DEMO_GROUP_ID, 'rules'), await send(DEMO_GROUP_ID, 'schedule')];
		expect(await ok(t.sandbox, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: first, disable_notification: true })).toEqual({});
		await ok(t.sandbox, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: second });
		expect(pinned(DEMO_GROUP_ID)).toEqual([first, second]);
		await ok(t.sandbox, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: first });
		expect(pinned(DEMO_GROUP_ID)).toEqual([second, first]);
		expect((await adminCall(t.sandbox, 'GET', `/chats/${DEMO_GROUP_ID}`)).json.pinned_message_ids).toEqual([second, first]);
	});

	test('people\'s messages can be pinned too, and in a private chat the bot needs no rights', async () => {
		const fromSara = t.sandbox.userSendMessage({ userId: sara.user_id, text: 'remember this' });
		await ok(t.sandbox, 'pinChatMessage', { chat_id: sara.chat_id, message_id: fromSara.message_id });
		expect(pinned(sara.chat_id)).toEqual([fromSara.message_id]);
		await ok(t.sandbox, 'unpinAllChatMessages', { chat_id: sara.chat_id });
		expect(pinned(sara.chat_id)).toEqual([]);
	});

	test('unpinChatMessage: a given message, or the most recent when message_id is "" or absent; a message not pinned is OK', async () => {
		const ids = [await send(DEMO_GROUP_ID, 'a'), await send(DEMO_GROUP_ID, 'b'), await send(DEMO_GROUP_ID, 'c'), await send(DEMO_GROUP_ID, 'd')];
		for (const message_id of ids) await ok(t.sandbox, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id });
		expect(await ok(t.sandbox, 'unpinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: ids[1] })).toEqual({});
		expect(pinned(DEMO_GROUP_ID)).toEqual([ids[0], ids[2], ids[3]]);
		await ok(t.sandbox, 'unpinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: '' });
		expect(pinned(DEMO_GROUP_ID)).toEqual([ids[0], ids[2]]);
		await ok(t.sandbox, 'unpinChatMessage', { chat_id: DEMO_GROUP_ID });
		expect(pinned(DEMO_GROUP_ID)).toEqual([ids[0]]);
		await ok(t.sandbox, 'unpinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: ids[1] });
		expect(pinned(DEMO_GROUP_ID)).toEqual([ids[0]]);
		await ok(t.sandbox, 'unpinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: null });
		await ok(t.sandbox, 'unpinChatMessage', { chat_id: DEMO_GROUP_ID });
		expect(pinned(DEMO_GROUP_ID)).toEqual([]);
	});

	test('unpinAllChatMessages clears every pin and ignores the message_id rubpy sends', async () => {
		const [first, second] = [await send(DEMO_CHANNEL_ID, 'news'), await send(DEMO_CHANNEL_ID, 'more news')];
		await ok(t.sandbox, 'pinChatMessage', { chat_id: DEMO_CHANNEL_ID, message_id: first });
		await ok(t.sandbox, 'pinChatMessage', { chat_id: DEMO_CHANNEL_ID, message_id: second });
		expect(await ok(t.sandbox, 'unpinAllChatMessages', { chat_id: DEMO_CHANNEL_ID, message_id: 'whatever' })).toEqual({});
		expect(pinned(DEMO_CHANNEL_ID)).toEqual([]);
	});

	test('unpinAllMessageId "require": without a message_id INVALID_INPUT, with one of the chat every pin goes', async () => {
		t.sandbox.configure({ unpinAllMessageId: 'require' });
		const [first, second] = [await send(DEMO_CHANNEL_ID, 'news'), await send(DEMO_CHANNEL_ID, 'more news')];
		await ok(t.sandbox, 'pinChatMessage', { chat_id: DEMO_CHANNEL_ID, message_id: second });
		expect(await fails(t.sandbox, 'unpinAllChatMessages', { chat_id: DEMO_CHANNEL_ID })).toBe('message_id is required');
		expect(await fails(t.sandbox, 'unpinAllChatMessages', { chat_id: DEMO_CHANNEL_ID, message_id: 'whatever' })).toBe(
			`message_id: message whatever not found in chat ${DEMO_CHANNEL_ID}`,
		);
		expect(pinned(DEMO_CHANNEL_ID)).toEqual([second]);
		expect(await ok(t.sandbox, 'unpinAllChatMessages', { chat_id: DEMO_CHANNEL_ID, message_id: first })).toEqual({});
		expect(pinned(DEMO_CHANNEL_ID)).toEqual([]);
	});

	test('deleting a pinned message unpins it, whoever deletes it', async () => {
		const byBot = await send(DEMO_GROUP_ID, 'from the bot');
		const byAli = t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'from Ali' }).message_id;
		const kept = await send(DEMO_GROUP_ID, 'kept');
		for (const message_id of [byBot, byAli, kept]) await ok(t.sandbox, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id });
		await ok(t.sandbox, 'deleteMessage', { chat_id: DEMO_GROUP_ID, message_id: byBot });
		t.sandbox.userDeleteMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, messageId: byAli });
		expect(pinned(DEMO_GROUP_ID)).toEqual([kept]);
	});

	test('a message that is not in the chat is INVALID_INPUT naming message_id; nothing changes', async () => {
		const elsewhere = await send(sara.chat_id, 'private');
		const here = await send(DEMO_GROUP_ID, 'here');
		await ok(t.sandbox, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: here });
		expect(await fails(t.sandbox, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: elsewhere })).toBe(`message_id: message ${elsewhere} not found in chat ${DEMO_GROUP_ID}`);
		expect(await fails(t.sandbox, 'pinChatMessage', { chat_id: DEMO_GROUP_ID })).toBe('message_id is required');
		expect(await fails(t.sandbox, 'unpinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: '123' })).toMatch(/^message_id: message 123 not found/);
		expect(await fails(t.sandbox, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: here, disable_notification: 'maybe' })).toMatch(/^disable_notification/);
		expect(await fails(t.sandbox, 'unpinAllChatMessages', {})).toBe('chat_id is required');
		expect(pinned(DEMO_GROUP_ID)).toEqual([here]);
	});

	test('in a group where the bot is not an admin every pin method is INVALID_ACCESS', async () => {
		const message_id = t.sandbox.userSendMessage({ userId: reza.user_id, chatId: DEMO_QUIET_GROUP_ID, text: 'pin me' }).message_id;
		for (const [method, body] of [
			['pinChatMessage', { chat_id: DEMO_QUIET_GROUP_ID, message_id }],
			['unpinChatMessage', { chat_id: DEMO_QUIET_GROUP_ID, message_id }],
			['unpinChatMessage', { chat_id: DEMO_QUIET_GROUP_ID }],
			['unpinAllChatMessages', { chat_id: DEMO_QUIET_GROUP_ID }],
		] as const) {
			expect(await fails(t.sandbox, method, body, 'INVALID_ACCESS')).toMatch(/admin/);
		}
		expect(pinned(DEMO_QUIET_GROUP_ID)).toEqual([]);
	});
});

describe('getChatMember, getChatAdministrators, getChatMemberCount', () => {
	test('getChatMember: the status from the member\'s role, the names from the user record', async () => {
		expect(await ok(t.sandbox, 'getChatMember', { chat_id: DEMO_GROUP_ID, user_id: sara.user_id })).toEqual({
			member: { user_id: sara.user_id, first_name: 'Sara', last_name: 'Karimi', username: 'sara_k', status: 'Creator' },
		});
		expect((await ok(t.sandbox, 'getChatMember', { chat_id: DEMO_GROUP_ID, user_id: reza.user_id })).member.status).toBe('Administrator');
		expect(await ok(t.sandbox, 'getChatMember', { chat_id: DEMO_GROUP_ID, user_id: ali.user_id })).toEqual({
			member: { user_id: ali.user_id, first_name: 'Ali', status: 'Member' },
		});
		expect(await ok(t.sandbox, 'getChatMember', { chat_id: DEMO_GROUP_ID, user_id: DEMO_BOT_ID })).toEqual({
			member: { user_id: DEMO_BOT_ID, first_name: DEMO_BOT_TITLE, username: DEMO_BOT_USERNAME, status: 'Administrator' },
		});
	});

	test('getChatMember: banned is Banned, anyone else Left; explicitNulls writes absent names as null', async () => {
		await ok(t.sandbox, 'banChatMember', { chat_id: DEMO_GROUP_ID, user_id: ali.user_id });
		expect((await ok(t.sandbox, 'getChatMember', { chat_id: DEMO_GROUP_ID, user_id: ali.user_id })).member.status).toBe('Banned');
		const stranger = t.sandbox.addUser({ first_name: 'Nima' });
		expect((await ok(t.sandbox, 'getChatMember', { chat_id: DEMO_GROUP_ID, user_id: stranger.user_id })).member.status).toBe('Left');
		t.sandbox.configure({ explicitNulls: true });
		expect(await ok(t.sandbox, 'getChatMember', { chat_id: DEMO_CHANNEL_ID, user_id: ali.user_id })).toEqual({
			member: { user_id: ali.user_id, first_name: 'Ali', last_name: null, username: null, status: 'Member' },
		});
		expect((await ok(t.sandbox, 'getChatMember', { chat_id: DEMO_CHANNEL_ID, user_id: DEMO_BOT_ID })).member).toHaveProperty('last_name', null);
	});

	test('memberAnswerKey and nonMemberAnswer "null": the member under another key, and null for whoever is not in the chat', async () => {
		t.sandbox.configure({ memberAnswerKey: 'in_chat_member', nonMemberAnswer: 'null' });
		await ok(t.sandbox, 'banChatMember', { chat_id: DEMO_GROUP_ID, user_id: ali.user_id });
		const stranger = t.sandbox.addUser({ first_name: 'Nima' });
		expect(await ok(t.sandbox, 'getChatMember', { chat_id: DEMO_GROUP_ID, user_id: sara.user_id })).toEqual({
			in_chat_member: { user_id: sara.user_id, first_name: 'Sara', last_name: 'Karimi', username: 'sara_k', status: 'Creator' },
		});
		expect(await ok(t.sandbox, 'getChatMember', { chat_id: DEMO_GROUP_ID, user_id: ali.user_id })).toEqual({ in_chat_member: null });
		expect(await ok(t.sandbox, 'getChatMember', { chat_id: DEMO_GROUP_ID, user_id: stranger.user_id })).toEqual({ in_chat_member: null });
		expect(() => t.sandbox.configure({ memberAnswerKey: 'members' as never })).toThrow('memberAnswerKey must be one of member, chat_member, in_chat_member, user');
		expect(() => t.sandbox.configure({ nonMemberAnswer: 'absent' as never })).toThrow('nonMemberAnswer must be status or null');
		expect(() => t.sandbox.configure({ unpinAllMessageId: 'maybe' as never })).toThrow('unpinAllMessageId must be ignore or require');
	});

	test('getChatAdministrators: the owner first, then the admins in the order they became admins', async () => {
		const names = async (chatId: string) =>
			(await ok(t.sandbox, 'getChatAdministrators', { chat_id: chatId })).administrators.map((member: any) => [member.user_id, member.status]);
		expect(await names(DEMO_GROUP_ID)).toEqual([
			[sara.user_id, 'Creator'],
			[reza.user_id, 'Administrator'],
			[DEMO_BOT_ID, 'Administrator'],
		]);
		t.sandbox.setRole(DEMO_GROUP_ID, ali.user_id, 'admin');
		t.sandbox.setRole(DEMO_GROUP_ID, reza.user_id, 'member');
		t.sandbox.setRole(DEMO_GROUP_ID, reza.user_id, 'admin');
		expect(await names(DEMO_GROUP_ID)).toEqual([
			[sara.user_id, 'Creator'],
			[DEMO_BOT_ID, 'Administrator'],
			[ali.user_id, 'Administrator'],
			[reza.user_id, 'Administrator'],
		]);
		expect(await names(DEMO_CHANNEL_ID)).toEqual([
			[sara.user_id, 'Creator'],
			[DEMO_BOT_ID, 'Administrator'],
		]);
		const [owner] = (await ok(t.sandbox, 'getChatAdministrators', { chat_id: DEMO_GROUP_ID })).administrators;
		expect(owner).toEqual({ user_id: sara.user_id, first_name: 'Sara', last_name: 'Karimi', username: 'sara_k', status: 'Creator' });
	});

	test('getChatMemberCount counts users and bots, the owner and admins included, banned users not', async () => {
		expect(await ok(t.sandbox, 'getChatMemberCount', { chat_id: DEMO_GROUP_ID })).toEqual({ member_count: 4 });
		await ok(t.sandbox, 'banChatMember', { chat_id: DEMO_GROUP_ID, user_id: ali.user_id });
		expect(await ok(t.sandbox, 'getChatMemberCount', { chat_id: DEMO_GROUP_ID })).toEqual({ member_count: 3 });
		const newcomer = t.sandbox.addUser({ first_name: 'Mina' });
		t.sandbox.userJoinChat({ userId: newcomer.user_id, chatId: DEMO_CHANNEL_ID });
		expect(await ok(t.sandbox, 'getChatMemberCount', { chat_id: DEMO_CHANNEL_ID })).toEqual({ member_count: 5 });
	});

	test('a private chat or an unknown user is INVALID_INPUT; without admin rights INVALID_ACCESS', async () => {
		for (const method of ['getChatMember', 'getChatAdministrators', 'getChatMemberCount']) {
			expect(await fails(t.sandbox, method, { chat_id: sara.chat_id, user_id: sara.user_id })).toMatch(/^chat_id: .*groups and channels/);
			expect(await fails(t.sandbox, method, { chat_id: DEMO_QUIET_GROUP_ID, user_id: sara.user_id }, 'INVALID_ACCESS')).toMatch(/admin/);
		}
		expect(await fails(t.sandbox, 'getChatMember', { chat_id: DEMO_GROUP_ID, user_id: UNKNOWN_USER })).toBe(`user_id: user ${UNKNOWN_USER} not found`);
		expect(await fails(t.sandbox, 'getChatMember', { chat_id: DEMO_GROUP_ID })).toBe('user_id is required');
		expect(await fails(t.sandbox, 'getChatMemberCount', { chat_id: 'g0' + 'x'.repeat(30) })).toMatch(/^chat_id: chat .* not found/);
	});
});

describe('sendPoll\'s undocumented fields', () => {
	const question = 'Capital of Iran?';
	const options = ['Tabriz', 'Tehran', 'Shiraz'];
	const storedPoll = () => t.sandbox.lastMessage(sara.chat_id)?.poll;

	test('a quiz keeps its type, correct answer and explanation', async () => {
		await ok(t.sandbox, 'sendPoll', { chat_id: sara.chat_id, question, options, type: 'Quiz', correct_option_index: 1, explanation: 'تهران', is_anonymous: false });
		expect(storedPoll()).toEqual({
			question,
			options,
			type: 'Quiz',
			is_anonymous: false,
			correct_option_index: 1,
			explanation: 'تهران',
			poll_status: expect.objectContaining({ state: 'Open', total_vote: 0 }),
		});
	});

	test('a regular poll may allow multiple answers; only the fields sent are stored', async () => {
		await ok(t.sandbox, 'sendPoll', { chat_id: sara.chat_id, question, options, allows_multiple_answers: true });
		expect(storedPoll()).toEqual({ question, options, allows_multiple_answers: true, poll_status: expect.any(Object) });
		await ok(t.sandbox, 'sendPoll', { chat_id: sara.chat_id, question, options });
		expect(Object.keys(storedPoll() ?? {})).toEqual(['question', 'options', 'poll_status']);
	});

	test('rubpy\'s poll, every key sent and the unset ones null, is accepted; the nulls are not stored', async () => {
		const rubpy = { type: 'Regular', allows_multiple_answers: false, is_anonymous: true, correct_option_index: null, explanation: null };
		await ok(t.sandbox, 'sendPoll', { chat_id: sara.chat_id, question, options, ...rubpy, reply_to_message_id: null, chat_keypad: null, inline_keypad: null });
		expect(storedPoll()).toEqual({ question, options, type: 'Regular', allows_multiple_answers: false, is_anonymous: true, poll_status: expect.any(Object) });
	});

	test.each([
		['an unknown type', { type: 'Survey' }, /^type must be one of Regular, Quiz; got "Survey"/],
		['a boolean as a string', { allows_multiple_answers: 'true' }, /^allows_multiple_answers must be true or false/],
		['a boolean as a number', { is_anonymous: 1 }, /^is_anonymous must be true or false/],
		['an index past the options', { type: 'Quiz', correct_option_index: 3 }, /^correct_option_index must be a whole number from 0 to 2/],
		['a negative index', { type: 'Quiz', correct_option_index: -1 }, /^correct_option_index/],
		['a fractional index', { type: 'Quiz', correct_option_index: 0.5 }, /^correct_option_index/],
		['an index as a string', { type: 'Quiz', correct_option_index: '1' }, /^correct_option_index/],
		['a quiz without its correct answer', { type: 'Quiz', explanation: 'x' }, /^correct_option_index is required when type is Quiz/],
		['a quiz allowing multiple answers', { type: 'Quiz', correct_option_index: 1, allows_multiple_answers: true }, /^allows_multiple_answers: a Quiz/],
		['a correct answer on a regular poll', { type: 'Regular', correct_option_index: 1 }, /^correct_option_index is only for polls of type Quiz/],
		['a correct answer without a type', { correct_option_index: 1 }, /^correct_option_index is only for polls of type Quiz/],
		['an explanation without a quiz', { explanation: 'because' }, /^explanation is only for polls of type Quiz/],
		['an explanation that is not text', { type: 'Quiz', correct_option_index: 1, explanation: 5 }, /^explanation must be a string/],
	])('%s is INVALID_INPUT and nothing is sent', async (_name, extras, message) => {
		expect(await fails(t.sandbox, 'sendPoll', { chat_id: sara.chat_id, question, options, ...extras })).toMatch(message);
		expect(t.sandbox.messages(sara.chat_id)).toEqual([]);
	});

	test('pollExtras "ignore" stores a plain poll whatever the extra fields say', async () => {
		t.sandbox.configure({ pollExtras: 'ignore' });
		await ok(t.sandbox, 'sendPoll', { chat_id: sara.chat_id, question, options, type: 'Quiz', correct_option_index: 7, allows_multiple_answers: 'yes' });
		expect(Object.keys(storedPoll() ?? {})).toEqual(['question', 'options', 'poll_status']);
	});

	test('pollExtras "reject" refuses any extra field that is not null, naming it; a plain poll still goes', async () => {
		await withSandbox({ pollExtras: 'reject' }, async (local) => {
			for (const field of ['type', 'allows_multiple_answers', 'is_anonymous', 'correct_option_index', 'explanation']) {
				const value = field === 'type' ? 'Regular' : field === 'correct_option_index' ? 0 : field === 'explanation' ? 'x' : false;
				expect(await fails(local, 'sendPoll', { chat_id: sara.chat_id, question, options, [field]: value })).toMatch(new RegExp(`^${field}: .*not supported`));
			}
			expect(local.messages(sara.chat_id)).toEqual([]);
			const nulls = { type: null, allows_multiple_answers: null, is_anonymous: null, correct_option_index: null, explanation: null };
			await ok(local, 'sendPoll', { chat_id: sara.chat_id, question, options, ...nulls });
			expect(Object.keys(local.lastMessage(sara.chat_id)?.poll ?? {})).toEqual(['question', 'options', 'poll_status']);
		});
	});

	test('pollExtras is set through the admin API too, and checked', async () => {
		expect((await adminCall(t.sandbox, 'PATCH', '/config', { pollExtras: 'reject' })).json.pollExtras).toBe('reject');
		expect(await fails(t.sandbox, 'sendPoll', { chat_id: sara.chat_id, question, options, is_anonymous: true })).toMatch(/^is_anonymous/);
		const bad = await adminCall(t.sandbox, 'PATCH', '/config', { pollExtras: 'drop' });
		expect(bad.httpStatus).toBe(400);
		expect(bad.json.error).toMatch(/pollExtras must be accept, ignore or reject/);
	});
});

describe('absentMethods: a Rubika without some methods', () => {
	/** The answer to a method the sandbox never heard of, with that name in place of `method`. */
	async function unknownAnswer(method: string): Promise<{ httpStatus: number; text: string }> {
		const made = 'noSuchMethodAtAll';
		const answer = await api(t.sandbox, made, {});
		return { httpStatus: answer.httpStatus, text: answer.text.replace(made, method) };
	}

	test('each undocumented method, when absent, answers exactly as an unknown method and changes nothing', async () => {
		const message_id = await send(DEMO_GROUP_ID, 'pin me');
		t.sandbox.configure({ absentMethods: [...UNDOCUMENTED_METHODS] });
		for (const method of UNDOCUMENTED_METHODS) {
			const answer = await api(t.sandbox, method, { chat_id: DEMO_GROUP_ID, message_id, user_id: sara.user_id, sticker_id: DEMO_STICKERS.like.sticker_id });
			expect({ httpStatus: answer.httpStatus, text: answer.text }).toEqual(await unknownAnswer(method));
		}
		expect(pinned(DEMO_GROUP_ID)).toEqual([]);
		expect(t.sandbox.messages(DEMO_GROUP_ID)).toHaveLength(1);
		// The rest keep working.
		await ok(t.sandbox, 'sendMessage', { chat_id: DEMO_GROUP_ID, text: 'still here' });
	});

	test('with a configured unknown-method answer of HTTP 404, an absent method gets that 404', async () => {
		await withSandbox({ absentMethods: ['pinChatMessage'], unknownMethod: { httpStatus: 404, status: 'NOT_FOUND', devMessage: 'method not found' } }, async (local) => {
			const message_id = (await ok(local, 'sendMessage', { chat_id: DEMO_GROUP_ID, text: 'x' })).message_id;
			const absent = await api(local, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id });
			const unknown = await api(local, 'pinChatMessageX', {});
			expect(absent.httpStatus).toBe(404);
			expect(absent.json).toEqual({ status: 'NOT_FOUND', dev_message: 'method not found: pinChatMessage' });
			expect(unknown.httpStatus).toBe(404);
			expect(unknown.text).toBe(absent.text.replace('pinChatMessage', 'pinChatMessageX'));
			expect(local.requestsFor('pinChatMessage')[0]).toMatchObject({ httpStatus: 404, status: 'NOT_FOUND' });
			// getChatMemberCount is not listed, so it is there.
			expect(await ok(local, 'getChatMemberCount', { chat_id: DEMO_GROUP_ID })).toEqual({ member_count: 4 });
		});
	});

	test('set and cleared through the admin API; a name the sandbox does not know is refused', async () => {
		const message_id = await send(DEMO_GROUP_ID, 'x');
		expect((await adminCall(t.sandbox, 'PATCH', '/config', { absentMethods: ['pinChatMessage', 'sendSticker'] })).json.absentMethods).toEqual(['pinChatMessage', 'sendSticker']);
		expect((await api(t.sandbox, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id })).json.dev_message).toBe('Unknown method: pinChatMessage');
		await adminCall(t.sandbox, 'PATCH', '/config', { absentMethods: [] });
		await ok(t.sandbox, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id });
		const typo = await adminCall(t.sandbox, 'PATCH', '/config', { absentMethods: ['pinChatMesage'] });
		expect(typo.httpStatus).toBe(400);
		expect(typo.json.error).toMatch(/^absentMethods: "pinChatMesage" is not a method of the sandbox/);
		expect(() => t.sandbox.configure({ absentMethods: 'pinChatMessage' as never })).toThrow(/absentMethods must be a list/);
	});
});

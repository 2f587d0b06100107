import { DEMO_BOT_ID, DEMO_CHANNEL_ID, DEMO_GROUP_ID, DEMO_QUIET_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { useSandbox } from '../support/sandbox';
import { fails, ok } from './helpers';

const { sara, reza, ali } = DEMO_USERS;
const t = useSandbox();

const roleOf = (chatId: string, id: string) => t.sandbox.chat(chatId).members.find((member) => member.id === id)?.role;

test('the demo group has the documented roles', () => {
	expect(t.sandbox.chat(DEMO_GROUP_ID).members).toEqual(
		expect.arrayContaining([
			{ id: sara.user_id, kind: 'user', role: 'owner' },
			{ id: reza.user_id, kind: 'user', role: 'admin' },
			{ id: DEMO_BOT_ID, kind: 'bot', role: 'admin' },
			{ id: ali.user_id, kind: 'user', role: 'member' },
		]),
	);
	expect(roleOf(DEMO_QUIET_GROUP_ID, DEMO_BOT_ID)).toBe('member');
	expect(roleOf(DEMO_CHANNEL_ID, DEMO_BOT_ID)).toBe('admin');
});

test('banChatMember removes a member, who then can neither post nor rejoin', async () => {
	expect(await ok(t.sandbox, 'banChatMember', { chat_id: DEMO_GROUP_ID, user_id: ali.user_id })).toEqual({});
	expect(roleOf(DEMO_GROUP_ID, ali.user_id)).toBeUndefined();
	expect(t.sandbox.bans(DEMO_GROUP_ID)).toEqual([ali.user_id]);
	expect(() => t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'let me in' })).toThrow(/banned/);
	expect(() => t.sandbox.userJoinChat({ userId: ali.user_id, chatId: DEMO_GROUP_ID })).toThrow(/banned/);
});

test('unbanChatMember lifts the ban without adding the user back', async () => {
	await ok(t.sandbox, 'banChatMember', { chat_id: DEMO_GROUP_ID, user_id: ali.user_id });
	expect(await ok(t.sandbox, 'unbanChatMember', { chat_id: DEMO_GROUP_ID, user_id: ali.user_id })).toEqual({});
	expect(t.sandbox.bans(DEMO_GROUP_ID)).toEqual([]);
	expect(roleOf(DEMO_GROUP_ID, ali.user_id)).toBeUndefined();
	t.sandbox.userJoinChat({ userId: ali.user_id, chatId: DEMO_GROUP_ID });
	expect(roleOf(DEMO_GROUP_ID, ali.user_id)).toBe('member');
});

test('an admin adding a banned user by hand also lifts the ban', async () => {
	await ok(t.sandbox, 'banChatMember', { chat_id: DEMO_GROUP_ID, user_id: ali.user_id });
	t.sandbox.setRole(DEMO_GROUP_ID, ali.user_id, 'member');
	expect(t.sandbox.bans(DEMO_GROUP_ID)).toEqual([]);
	expect(roleOf(DEMO_GROUP_ID, ali.user_id)).toBe('member');
});

test('banning the owner or an admin answers OK and changes nothing', async () => {
	const before = t.sandbox.chat(DEMO_GROUP_ID);
	expect(await ok(t.sandbox, 'banChatMember', { chat_id: DEMO_GROUP_ID, user_id: sara.user_id })).toEqual({});
	expect(await ok(t.sandbox, 'banChatMember', { chat_id: DEMO_GROUP_ID, user_id: reza.user_id })).toEqual({});
	expect(t.sandbox.chat(DEMO_GROUP_ID)).toEqual(before);
	t.sandbox.userSendMessage({ userId: reza.user_id, chatId: DEMO_GROUP_ID, text: 'still here' });
});

test('without admin rights the bot gets INVALID_ACCESS and nothing changes', async () => {
	await fails(t.sandbox, 'banChatMember', { chat_id: DEMO_QUIET_GROUP_ID, user_id: ali.user_id }, 'INVALID_ACCESS');
	await fails(t.sandbox, 'unbanChatMember', { chat_id: DEMO_QUIET_GROUP_ID, user_id: ali.user_id }, 'INVALID_ACCESS');
	expect(roleOf(DEMO_QUIET_GROUP_ID, ali.user_id)).toBe('member');
	expect(t.sandbox.bans(DEMO_QUIET_GROUP_ID)).toEqual([]);
});

test('channels can be moderated too', async () => {
	await ok(t.sandbox, 'banChatMember', { chat_id: DEMO_CHANNEL_ID, user_id: reza.user_id });
	expect(t.sandbox.bans(DEMO_CHANNEL_ID)).toEqual([reza.user_id]);
});

test('private chats, unknown users and missing fields are INVALID_INPUT', async () => {
	expect(await fails(t.sandbox, 'banChatMember', { chat_id: sara.chat_id, user_id: sara.user_id })).toMatch(/groups and channels/);
	expect(await fails(t.sandbox, 'banChatMember', { chat_id: DEMO_GROUP_ID, user_id: 'u0' + 'q'.repeat(30) })).toMatch(/user_id/);
	expect(await fails(t.sandbox, 'banChatMember', { chat_id: DEMO_GROUP_ID })).toMatch(/user_id is required/);
	expect(await fails(t.sandbox, 'unbanChatMember', { user_id: ali.user_id })).toMatch(/chat_id is required/);
});

/**
 * The member answers are documented nowhere (docs/api-facts.md §9), so the readers must accept every
 * plausible shape; the sandbox plays one of them (test/actions/undocumented.test.ts runs it end to end).
 */
import { memberCountFromAnswer, memberFromAnswer, membersFromAnswer } from '../../nodes/shared/members';

const chat = 'g0Chat';
const user = 'u0User';

describe('getChatMember answers', () => {
	test.each([
		['wrapped under member', { member: { user_id: user, first_name: 'Sara', status: 'Member' } }, true, 'Member'],
		['wrapped under chat_member', { chat_member: { user_id: user, status: 'Administrator' } }, true, 'Administrator'],
		['flat, Telegram-like words', { user_id: user, status: 'creator' }, true, 'creator'],
		['left the chat', { member: { user_id: user, status: 'Left' } }, false, 'Left'],
		['banned', { member: { user_id: user, status: 'Banned' } }, false, 'Banned'],
		['kicked, in a role field', { user_id: user, role: 'kicked' }, false, undefined],
	])('%s', (_name, answer, isMember, status) => {
		const member = memberFromAnswer(answer, chat, user);
		expect(member).toMatchObject({ chat_id: chat, user_id: user, is_member: isMember });
		if (status !== undefined) expect(member.status).toBe(status);
	});

	test('an explicit is_member wins over the status, at either level', () => {
		expect(memberFromAnswer({ is_member: false, member: { status: 'Member' } }, chat, user).is_member).toBe(false);
		expect(memberFromAnswer({ user_id: user, is_member: true, status: 'weird' }, chat, user).is_member).toBe(true);
	});

	test('an empty answer says nothing about membership: not a member; the asked user id is kept', () => {
		expect(memberFromAnswer({}, chat, user)).toEqual({ chat_id: chat, user_id: user, is_member: false });
		expect(memberFromAnswer(null, chat, user)).toEqual({ chat_id: chat, user_id: user, is_member: false });
	});

	test.each(['member', 'chat_member', 'in_chat_member', 'user'])('{"%s": null}: no member found, so not a member', (key) => {
		expect(memberFromAnswer({ [key]: null }, chat, user)).toEqual({ [key]: null, chat_id: chat, user_id: user, is_member: false });
	});

	test('a member without a status is a member (Rubika answered with a member, not an error)', () => {
		expect(memberFromAnswer({ member: { user_id: user, first_name: 'Sara' } }, chat, user).is_member).toBe(true);
	});
});

describe('getChatAdministrators answers', () => {
	test.each([
		['under administrators', { administrators: [{ user_id: 'u1' }, { user_id: 'u2' }] }],
		['under admins', { admins: [{ user_id: 'u1' }, { user_id: 'u2' }] }],
		['under in_chat_members', { in_chat_members: [{ user_id: 'u1' }, { user_id: 'u2' }] }],
		['a bare list', [{ user_id: 'u1' }, { user_id: 'u2' }]],
		['a list of ids', { admins: ['u1', 'u2'] }],
	])('%s: one item per admin, each with the chat id', (_name, answer) => {
		expect(membersFromAnswer(answer, chat)).toEqual([
			{ user_id: 'u1', chat_id: chat },
			{ user_id: 'u2', chat_id: chat },
		]);
	});

	test('an empty list is no items; an unrecognised answer is passed on whole as one item', () => {
		expect(membersFromAnswer({ administrators: [] }, chat)).toEqual([]);
		expect(membersFromAnswer({ something: 'else' }, chat)).toEqual([{ something: 'else', chat_id: chat }]);
	});
});

describe('getChatMemberCount answers', () => {
	test.each([
		['member_count', { member_count: 12 }],
		['members_count', { members_count: 12 }],
		['count as text', { count: '12' }],
		['a bare number', 12],
	])('%s', (_name, answer) => {
		expect(memberCountFromAnswer(answer, chat)).toMatchObject({ chat_id: chat, member_count: 12 });
	});

	test('no count in the answer: passed on whole, no made-up number', () => {
		expect(memberCountFromAnswer({ total_members: 'many' }, chat)).toEqual({ total_members: 'many', chat_id: chat });
	});
});

/**
 * Reading the member answers of getChatMember, getChatAdministrators and getChatMemberCount, for the action
 * node's member operations and the triggers' Add Sender Details (updates/sender.ts). No document
 * describes them (docs/api-facts.md §9), so each reader accepts every plausible shape: the member wrapped
 * under a key or given flat, a list under any of the usual keys or as the answer itself, a count under any
 * of the usual keys or as a bare number. What it cannot recognise it passes on whole rather than dropping.
 */
import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from './json';

const MEMBER_KEYS = ['member', 'chat_member', 'in_chat_member', 'user'];
const LIST_KEYS = ['administrators', 'admins', 'members', 'in_chat_members', 'users', 'chat_members'];
const COUNT_KEYS = ['member_count', 'members_count', 'count', 'total', 'total_count'];
const STATUS_KEYS = ['status', 'role', 'member_status', 'join_type', 'type'];
/** Statuses that describe someone who is not (or no longer) in the chat. */
const NOT_A_MEMBER = /^(left|banned|kicked|removed|none|not[ _-]?member|non[ _-]?member|blocked)$/i;

/**
 * One member, flat, with `is_member` as a boolean a workflow can branch on: the answer's own flag when it
 * has one; false when the member's key is there but null (`{"member": null}`: no member found); else read
 * from its status; else true (Rubika answered with a member rather than an error).
 */
export function memberFromAnswer(data: unknown, chatId: string, userId: string): IDataObject {
	const answer = isPlainObject(data) ? data : {};
	const wrapped = MEMBER_KEYS.map((key) => answer[key]).find(isPlainObject);
	const member = wrapped ?? answer;
	const flag = [member.is_member, answer.is_member].find((value) => typeof value === 'boolean') as boolean | undefined;
	const noMember = wrapped === undefined && MEMBER_KEYS.some((key) => answer[key] === null);
	const status = STATUS_KEYS.map((key) => member[key]).find((value) => typeof value === 'string') as string | undefined;
	const isMember =
		flag ?? (noMember ? false : status !== undefined ? !NOT_A_MEMBER.test(status.trim()) : Object.keys(member).length > 0);
	return { ...member, chat_id: chatId, user_id: textId(member.user_id) ?? userId, is_member: isMember };
}

/** One item per member of the list; the whole answer as one item when no list is found in it. */
export function membersFromAnswer(data: unknown, chatId: string): IDataObject[] {
	const list = Array.isArray(data) ? data : isPlainObject(data) ? LIST_KEYS.map((key) => data[key]).find(Array.isArray) : undefined;
	if (!list) return [{ ...(isPlainObject(data) ? data : { data: data as IDataObject }), chat_id: chatId }];
	return list.map((entry: unknown) =>
		isPlainObject(entry) ? { ...entry, chat_id: chatId } : { user_id: textId(entry) ?? String(entry), chat_id: chatId },
	);
}

/** `member_count` as a number wherever the answer puts it; the answer passed on whole when it has none. */
export function memberCountFromAnswer(data: unknown, chatId: string): IDataObject {
	const answer = isPlainObject(data) ? data : {};
	const raw = isPlainObject(data) ? COUNT_KEYS.map((key) => answer[key]).find((value) => value !== undefined) : data;
	const count = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : undefined;
	if (count === undefined) return { ...answer, chat_id: chatId };
	return { ...answer, chat_id: chatId, member_count: count };
}

function textId(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value;
	if (typeof value === 'number' || typeof value === 'bigint') return String(value);
	return undefined;
}

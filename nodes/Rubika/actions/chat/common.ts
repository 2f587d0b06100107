/** The chat and user id fields of the Chat operations, and their readers. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { idProperty, requireId } from '../../helpers/params';

export { chatIdProperty, readChatId } from '../../helpers/params';

const USER_ID_FIELD = 'User ID';

/** Chats a bot can read and set keypads in. */
export const ANY_CHAT_DESCRIPTION = 'Private chat (b0…), group (g0…) or channel (c0…)';

/** Pinning: any chat; in groups and channels the bot must be an admin. */
export const PIN_CHAT_DESCRIPTION = 'Private chat (b0…), or a group (g0…) or channel (c0…) where the bot is an admin';

/** Moderation works only where the bot is an admin. */
export const MODERATED_CHAT_DESCRIPTION = 'Group (g0…) or channel (c0…) where the bot is an admin';

export const userIdProperty: INodeProperties = idProperty(
	USER_ID_FIELD,
	'userId',
	'u0…',
	'The member, e.g. the sender_id of one of their messages',
);

export function readUserId(context: IExecuteFunctions, itemIndex: number): string {
	return requireId(context, 'userId', itemIndex, USER_ID_FIELD);
}

/**
 * The formatting rules the interactive probe measures (facts §7): how many parts a message may carry
 * (`maxMetadataParts`, 30 documented) and whether a MentionText outside a group is refused
 * (`mentionsOutsideGroups`, refused as documented). Each knob both ways.
 */
import { DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { useSandbox } from '../support/sandbox';
import { fails, ok } from './helpers';

const { sara } = DEMO_USERS;
const t = useSandbox();

beforeEach(() => t.sandbox.configure({ maxMetadataParts: 30, mentionsOutsideGroups: 'reject' }));

/** `count` Bold parts, one per letter of "a a a …". */
function formatted(count: number, chat_id = sara.chat_id) {
	const text = Array.from({ length: count }, () => 'a').join(' ');
	return { chat_id, text, metadata: { meta_data_parts: Array.from({ length: count }, (_, index) => ({ type: 'Bold', from_index: index * 2, length: 1 })) } };
}

const mention = (chat_id: string) => ({
	chat_id,
	text: 'hello Sara',
	metadata: { meta_data_parts: [{ type: 'MentionText', from_index: 6, length: 4, mention_text_user_id: sara.user_id }] },
});

test('maxMetadataParts: 30 parts by default, 31 refused; a lower or higher limit moves the line', async () => {
	await ok(t.sandbox, 'sendMessage', formatted(30));
	expect(await fails(t.sandbox, 'sendMessage', formatted(31))).toBe('metadata.meta_data_parts has 31 parts; at most 30 are allowed');
	t.sandbox.configure({ maxMetadataParts: 5 });
	expect(await fails(t.sandbox, 'sendMessage', formatted(6))).toContain('at most 5');
	t.sandbox.configure({ maxMetadataParts: 100 });
	await ok(t.sandbox, 'sendMessage', formatted(100));
	expect(() => t.sandbox.configure({ maxMetadataParts: 0 })).toThrow('maxMetadataParts must be a whole number >= 1');
});

test('mentionsOutsideGroups: a mention in a private chat is refused by default and taken with accept; a group takes it either way', async () => {
	expect(await fails(t.sandbox, 'sendMessage', mention(sara.chat_id))).toContain('MentionText is only allowed in group chats');
	await ok(t.sandbox, 'sendMessage', mention(DEMO_GROUP_ID));
	t.sandbox.configure({ mentionsOutsideGroups: 'accept' });
	const { message_id } = await ok(t.sandbox, 'sendMessage', mention(sara.chat_id));
	expect(t.sandbox.message(sara.chat_id, message_id)?.metadata?.meta_data_parts[0].type).toBe('MentionText');
	expect(() => t.sandbox.configure({ mentionsOutsideGroups: 'maybe' as never })).toThrow('mentionsOutsideGroups must be reject or accept');
});

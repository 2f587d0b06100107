/**
 * What a bot's trigger sees of a group (facts §5, documented): with "receive all group and channel messages"
 * off in @BotFather (the sandbox's groupPrivacy), only commands, mentions of the bot and replies to it; with it
 * on, every message. The README's "How a bot sees group messages" rests on this.
 */
import { DEMO_BOT_USERNAME, DEMO_GROUP_ID } from '../../sandbox';
import { ok } from '../sandbox/helpers';
import { ali, received, texts, useSandbox } from './helpers';

const t = useSandbox();

afterEach(() => {
	t.sandbox.configure({ groupPrivacy: false });
});

/** Four messages in the group (one a reply to the bot); what the trigger delivers, `count` expected. */
async function groupTexts(count: number): Promise<Array<string | null>> {
	const { message_id: botMessage } = await ok(t.sandbox, 'sendMessage', { chat_id: DEMO_GROUP_ID, text: 'from the bot' });
	const harness = t.harness();
	await harness.activate();
	for (const text of ['hello all', '/start', `hi @${DEMO_BOT_USERNAME}`]) t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text });
	t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'thanks', replyToMessageId: botMessage });
	const items = await received(harness, count);
	expect(harness.failures).toEqual([]);
	return texts(items);
}

test('receive all off: the trigger gets only commands, mentions and replies to the bot', async () => {
	t.sandbox.configure({ groupPrivacy: true });
	expect(await groupTexts(3)).toEqual(['/start', `hi @${DEMO_BOT_USERNAME}`, 'thanks']);
});

test('receive all on: the trigger gets every group message', async () => {
	expect(await groupTexts(4)).toEqual(['hello all', '/start', `hi @${DEMO_BOT_USERNAME}`, 'thanks']);
});

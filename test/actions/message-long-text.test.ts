/**
 * Texts longer than one message, end to end against the sandbox: Send Text and Send File split them (Text
 * Options → Long Text), Edit Text refuses them; where the send options go; what the output says; a failure
 * between two messages, alone and under Skip Chats Already Sent; and the plain-text fallback for a formatting
 * Rubika refuses. The sandbox's text limit (maxTextLength, textLengthUnit) is played both ways.
 */
import type { INodeParameters, NodeApiError } from 'n8n-workflow';

import { MAX_TEXT_LENGTH } from '../../nodes/shared/types';
import { DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { HARNESS_WORKFLOW_ID, NODE_UNDER_TEST_ID } from '../../tooling/harness/n8n';
import { InMemoryProcessedItems, useProcessedItemsStore } from '../../tooling/harness/processedItems';
import { builderRows, jsonOf, useActionSandbox } from './helpers';

const { sara } = DEMO_USERS;
const CHAT = sara.chat_id;
const actions = useActionSandbox('message');
const { run, bodies, expectRefused } = actions;
let store: InMemoryProcessedItems;

beforeAll(async () => {
	store = await useProcessedItemsStore();
});
beforeEach(() => {
	store.clear();
});
afterEach(() => {
	actions.sandbox.configure({ maxTextLength: MAX_TEXT_LENGTH, textLengthUnit: 'codePoints' });
});

const sendText = (parameters: INodeParameters): INodeParameters => ({ operation: 'sendMessage', chatId: CHAT, ...parameters });
const messages = (chatId = CHAT) => actions.sandbox.messages(chatId).filter((message) => message.sender_type === 'Bot');
type Body = { text: string; metadata?: { meta_data_parts: Array<{ type: string; from_index: number; length: number }> } } & Record<string, unknown>;
const sentBodies = (method = 'sendMessage') => bodies(method) as Body[];

/** A Persian paragraph of about `length` UTF-16 units, with an emoji (2 units) in every sentence. */
function paragraph(length: number, word = 'سلام'): string {
	let text = '';
	while (text.length < length) text += `${word} دنیا 😀 این یک جمله است. `;
	return text.slice(0, length).trimEnd();
}

const PARAGRAPHS = [paragraph(3000), paragraph(3000, 'کتاب'), paragraph(3000, 'دفتر')];
/** Three paragraphs of about 3,000 units, the second bold in Markdown: 9,000 units once converted. */
const ANSWER = [PARAGRAPHS[0], `**${PARAGRAPHS[1]}**`, PARAGRAPHS[2]].join('\n\n');

describe('Send Text: a text longer than one message', () => {
	test.each(['codePoints', 'utf16'] as const)(
		'is split at its paragraphs into messages Rubika takes (the sandbox counting %s), each with its own formatting',
		async (textLengthUnit) => {
			actions.sandbox.configure({ textLengthUnit });
			const earlier = actions.sandbox.userSendMessage({ userId: sara.user_id, text: 'tell me everything' });
			const result = await run(
				sendText({
					text: ANSWER,
					formatting: 'markdown',
					inlineKeypadMode: 'builder',
					inlineKeypad: builderRows([{ text: '👍', id: 'up' }, { text: '👎', id: 'down' }]),
					chatKeypadAction: 'remove',
					sendOptions: { replyToMessageId: earlier.message_id, disableNotification: true },
				}),
			);
			expect(result.error).toBeUndefined();
			const sent = sentBodies();
			expect(sent.map((body) => body.text)).toEqual(PARAGRAPHS);
			expect(sent.every((body) => body.text.length <= MAX_TEXT_LENGTH)).toBe(true);
			// The bold run is the second message's whole text, measured from its own start.
			expect(sent.map((body) => body.metadata)).toEqual([undefined, { meta_data_parts: [{ type: 'Bold', from_index: 0, length: PARAGRAPHS[1].length }] }, undefined]);
			// Reply To on the first; keypads on the last; silence on all.
			expect(sent.map((body) => [body.reply_to_message_id, body.inline_keypad !== undefined, body.chat_keypad_type, body.disable_notification])).toEqual([
				[earlier.message_id, false, undefined, true],
				[undefined, false, undefined, true],
				[undefined, true, 'Remove', true],
			]);
			const stored = messages();
			expect(stored.map((message) => message.text)).toEqual(sent.map((body) => body.text));
			expect(stored.at(-1)?.inline_keypad?.rows[0].buttons.map((b) => b.id)).toEqual(['up', 'down']);
			// One output item, with every message id in order.
			expect(jsonOf(result)).toEqual([
				{
					message_id: stored[0].message_id,
					message_ids: stored.map((message) => message.message_id),
					chat_id: CHAT,
					text: PARAGRAPHS.join('\n\n'),
				},
			]);
		},
	);

	test('emoji count 2: 5,000 emoji (10,000 UTF-16 units) go in three messages a UTF-16-counting Rubika takes', async () => {
		actions.sandbox.configure({ textLengthUnit: 'utf16' });
		const result = await run(sendText({ text: '😀'.repeat(5000) }));
		expect(result.error).toBeUndefined();
		expect(sentBodies().map((body) => [body.text.length, [...body.text].length])).toEqual([
			[4096, 2048],
			[4096, 2048],
			[1808, 904],
		]);
		expect(messages().map((message) => message.text).join('')).toBe('😀'.repeat(5000));
	});

	test('the split is the node\'s own: a sandbox without a limit gets the same messages', async () => {
		actions.sandbox.configure({ maxTextLength: null });
		const result = await run(sendText({ text: ANSWER, formatting: 'markdown' }));
		expect(result.error).toBeUndefined();
		expect(sentBodies().map((body) => body.text)).toEqual(PARAGRAPHS);
	});

	test('more than 30 formatting parts: the next message starts before the 31st', async () => {
		const text = Array.from({ length: 40 }, (_, index) => `**${index}**`).join(' ');
		const result = await run(sendText({ text, formatting: 'markdown' }));
		expect(result.error).toBeUndefined();
		expect(sentBodies().map((body) => body.metadata?.meta_data_parts.length)).toEqual([30, 10]);
		expect(jsonOf(result)[0].message_ids).toHaveLength(2);
	});

	test('Long Text "Refuse": refused before sending, naming the field, the length and the limit', async () => {
		const result = await run(sendText({ text: 'x'.repeat(MAX_TEXT_LENGTH + 1), textOptions: { longText: 'refuse' } }));
		expectRefused(
			result,
			'Text: is 4097 characters long (UTF-16 code units: an emoji counts 2); Rubika takes at most 4096 in one message: choose Text Options → Long Text "Split Into Several Messages", or shorten it [item 0]',
		);
	});

	test('Long Text "Refuse": too long is said before too many parts', async () => {
		const text = Array.from({ length: 1000 }, () => '**bold**').join(' ');
		const result = await run(sendText({ text, formatting: 'markdown', textOptions: { longText: 'refuse' } }));
		expectRefused(result, /^Text: is 4999 characters long/);
	});

	test('Long Text "Refuse" lets a text of exactly the limit through: the sandbox at its default takes it', async () => {
		const result = await run(sendText({ text: 'ب'.repeat(MAX_TEXT_LENGTH), textOptions: { longText: 'refuse' } }));
		expect(result.error).toBeUndefined();
		expect(sentBodies().map((body) => body.text.length)).toEqual([MAX_TEXT_LENGTH]);
	});
});

describe('Send Text: a failure between two messages of one item', () => {
	const refuseSecond = () =>
		actions.sandbox.injectFault({ kind: 'status', method: 'sendMessage', skip: 1, status: 'INVALID_INPUT', devMessage: 'refused for the test' });

	test('the error says which messages went; a Continue On Fail item lists their ids', async () => {
		refuseSecond();
		const result = await run(sendText({ text: ANSWER }));
		const error = result.error as NodeApiError;
		expect(error.message).toBe('Rubika sendMessage failed: INVALID_INPUT – refused for the test (message 2 of 3 of this item; message 1 was sent)');
		const [first] = messages();
		expect(error.description).toContain(`Of the item's 3 messages, message 1 was sent (sent by this run: ${first.message_id}).`);
		expect(error.description).toContain('Re-running the item sends all of them again');
		expect(messages()).toHaveLength(1);

		refuseSecond();
		const continued = await run(sendText({ text: ANSWER }), undefined, { continueOnFail: true });
		expect(continued.error).toBeUndefined();
		expect(jsonOf(continued)).toEqual([
			expect.objectContaining({ status: 'INVALID_INPUT', sent_message_ids: [messages()[1].message_id] }),
		]);
	});

	test('under a campaign, a re-run sends only the messages still missing, then the chat counts as sent', async () => {
		const campaign = { sendOptions: { campaignId: 'long-1' } };
		refuseSecond();
		const failed = await run(sendText({ text: ANSWER, ...campaign }));
		expect(failed.error?.message).toMatch(/\(message 2 of 3 of this item; message 1 was sent\)$/);
		expect((failed.error as NodeApiError).description).toContain('They are recorded under the campaign ID: re-running the item sends only the rest.');
		expect(store.has(HARNESS_WORKFLOW_ID, `n:${NODE_UNDER_TEST_ID}`, `long-1\u0000${CHAT}`)).toBe(false);

		actions.sandbox.clearRequests();
		const rerun = await run(sendText({ text: ANSWER, ...campaign }));
		expect(rerun.error).toBeUndefined();
		// Formatting None: the markers go out as written.
		expect(sentBodies().map((body) => body.text)).toEqual([`**${PARAGRAPHS[1]}**`, PARAGRAPHS[2]]);
		expect(messages().map((message) => message.text)).toEqual([PARAGRAPHS[0], `**${PARAGRAPHS[1]}**`, PARAGRAPHS[2]]);
		const [output] = jsonOf(rerun);
		expect(output).toMatchObject({ already_sent_parts: [1], message_ids: messages().slice(1).map((message) => message.message_id) });
		expect(store.has(HARNESS_WORKFLOW_ID, `n:${NODE_UNDER_TEST_ID}`, `long-1\u0000${CHAT}`)).toBe(true);

		const third = await run(sendText({ text: ANSWER, ...campaign }));
		expect(jsonOf(third)).toEqual([{ chat_id: CHAT, campaign: 'long-1', skipped: true, reason: 'already sent in campaign long-1' }]);
		expect(messages()).toHaveLength(3);
	});

	test('under a campaign, a changed text is new: its re-run sends every message', async () => {
		refuseSecond();
		await run(sendText({ text: ANSWER, sendOptions: { campaignId: 'long-2' } }));
		actions.sandbox.clearRequests();
		const changed = ANSWER.replace('سلام', 'درود');
		const rerun = await run(sendText({ text: changed, sendOptions: { campaignId: 'long-2' } }));
		expect(rerun.error).toBeUndefined();
		expect(sentBodies()).toHaveLength(3);
		expect(jsonOf(rerun)[0].already_sent_parts).toBeUndefined();
	});
});

describe('Text Options → Plain Text If Formatting Is Refused', () => {
	const mention = sendText({ text: `سلام [سارا](${sara.user_id})! **خوش آمدی**`, formatting: 'markdown' });

	test('off (the default): a mention in a private chat fails the item with Rubika\'s refusal', async () => {
		const result = await run(mention);
		expect(result.error?.message).toMatch(/^Rubika sendMessage failed: INVALID_INPUT – metadata\.meta_data_parts\[\d\]: MentionText is only allowed in group chats$/);
		expect(messages()).toHaveLength(0);
	});

	test('on: sent again without formatting, and the output says so', async () => {
		const result = await run({ ...mention, textOptions: { plainTextIfRefused: true } });
		expect(result.error).toBeUndefined();
		expect(sentBodies().map((body) => body.metadata !== undefined)).toEqual([true, false]);
		expect(messages().map((message) => [message.text, message.metadata])).toEqual([['سلام سارا! خوش آمدی', undefined]]);
		expect(jsonOf(result)).toEqual([
			{
				message_id: messages()[0].message_id,
				message_ids: [messages()[0].message_id],
				chat_id: CHAT,
				text: 'سلام سارا! خوش آمدی',
				formatting_dropped: true,
				formatting_dropped_parts: [1],
				formatting_refusal: expect.stringMatching(/MentionText is only allowed in group chats$/),
			},
		]);
	});

	test('on, a long text: only the message whose formatting is refused goes plain', async () => {
		const text = `**${paragraph(3000)}**\n\n[سارا](${sara.user_id}) ${paragraph(3000, 'کتاب')}`;
		const result = await run(sendText({ text, formatting: 'markdown', textOptions: { plainTextIfRefused: true } }));
		expect(result.error).toBeUndefined();
		expect(messages().map((message) => message.metadata?.meta_data_parts.map((part) => part.type))).toEqual([['Bold'], undefined]);
		expect(jsonOf(result)[0]).toMatchObject({ formatting_dropped: true, formatting_dropped_parts: [2] });
	});

	test('on, in a group: the mention is taken, nothing is dropped', async () => {
		const result = await run({ ...mention, chatId: DEMO_GROUP_ID, textOptions: { plainTextIfRefused: true } });
		expect(result.error).toBeUndefined();
		expect(sentBodies()).toHaveLength(1);
		expect(jsonOf(result)[0].formatting_dropped).toBeUndefined();
	});

	test('on, refused for another reason: the plain message\'s refusal is reported', async () => {
		const result = await run({ ...mention, textOptions: { plainTextIfRefused: true }, sendOptions: { replyToMessageId: '1000000000000000001' } });
		expect(result.error?.message).toBe(`Rubika sendMessage failed: INVALID_INPUT – reply_to_message_id: message 1000000000000000001 not found in chat ${CHAT}`);
		expect(sentBodies().map((body) => body.metadata !== undefined)).toEqual([true, false]);
	});
});

describe('Send File: a caption longer than one message', () => {
	test('the file carries the first piece, the rest follow as texts; Reply To on the file, the keypad on the last', async () => {
		const file = actions.sandbox.addFile({ bytes: Buffer.from('%PDF menu'), name: 'menu.pdf', mimeType: 'application/pdf' });
		const earlier = actions.sandbox.userSendMessage({ userId: sara.user_id, text: 'the menu please' });
		const result = await run({
			operation: 'sendFile',
			chatId: CHAT,
			fileSource: 'fileId',
			fileId: file.file_id,
			caption: ANSWER,
			formatting: 'markdown',
			inlineKeypadMode: 'json',
			inlineKeypadJson: '[[{"id": "order", "text": "Order"}]]',
			sendOptions: { replyToMessageId: earlier.message_id },
		});
		expect(result.error).toBeUndefined();
		expect(actions.methods()).toEqual(['sendFile', 'sendMessage', 'sendMessage']);
		const [fileBody] = sentBodies('sendFile');
		expect(fileBody).toEqual({ chat_id: CHAT, file_id: file.file_id, text: PARAGRAPHS[0], reply_to_message_id: earlier.message_id });
		expect(sentBodies().map((body) => [body.text, body.reply_to_message_id, body.inline_keypad !== undefined])).toEqual([
			[PARAGRAPHS[1], undefined, false],
			[PARAGRAPHS[2], undefined, true],
		]);
		const stored = messages();
		expect(stored[0].file?.file_id).toBe(file.file_id);
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ message_id: stored[0].message_id, message_ids: stored.map((message) => message.message_id), file_id: file.file_id }),
		]);
	});

	test('Long Text "Refuse": a caption over the limit is refused before anything is sent', async () => {
		const file = actions.sandbox.addFile({ bytes: Buffer.from('%PDF menu'), name: 'menu.pdf', mimeType: 'application/pdf' });
		const result = await run({ operation: 'sendFile', chatId: CHAT, fileSource: 'fileId', fileId: file.file_id, caption: 'x'.repeat(5000), textOptions: { longText: 'refuse' } });
		expectRefused(result, /^Caption: is 5000 characters long .* \[item 0\]$/);
	});
});

describe('Edit Text: one message', () => {
	test('a text over the limit is refused before sending: an edit cannot make it several messages', async () => {
		const sent = await run(sendText({ text: 'short' }));
		const messageId = jsonOf(sent)[0].message_id as string;
		actions.sandbox.clearRequests();
		const result = await run({ operation: 'editMessageText', chatId: CHAT, messageId, text: 'x'.repeat(5000) });
		expectRefused(result, 'Text: is 5000 characters long (UTF-16 code units: an emoji counts 2); Rubika takes at most 4096 in one message: an edit changes one message, so shorten it [item 0]');
	});
});

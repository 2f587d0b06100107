/**
 * Formatting "HTML" through the Rubika node against the sandbox: what AI models and services write goes out
 * as text plus metadata, the sandbox stores it, every text that can be formatted offers it, and input that
 * cannot go out is refused before sending with the same rules as Markdown. The conversion table is in
 * test/formatting/html.test.ts.
 */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { RESOURCES } from '../../nodes/Rubika/actions';
import { Rubika } from '../../nodes/Rubika/Rubika.node';
import { DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { useActionSandbox } from './helpers';

const { sara, ali } = DEMO_USERS;
const CHAT = sara.chat_id;
const actions = useActionSandbox('message');
const { run, bodies, refusesEach } = actions;

const sendText = (parameters: INodeParameters): INodeParameters => ({ operation: 'sendMessage', chatId: CHAT, formatting: 'html', ...parameters });

describe('Message → Send Text with Formatting "HTML"', () => {
	test('an AI-style answer: tags become parts, references are decoded, an unknown tag stays as text', async () => {
		const html =
			'🎉 <strong>تبریک</strong> &amp; <em>welcome</em>!<br><a href="https://rubika.ir/?a=1&amp;b=2">سایت</a> ' +
			'<code>a &lt; b</code>\n<blockquote>نقل <s>old</s></blockquote>\n<p>kept</p>';
		const result = await run(sendText({ text: html }));
		expect(result.error).toBeUndefined();
		// 🎉0-1 _2 تبریک3-7 _8 &9 _10 welcome11-17 !18 \n19 سایت20-23 _24 "a < b"25-29 \n30 "نقل old"31-37 \n38 <p>kept</p>39-49
		const text = '🎉 تبریک & welcome!\nسایت a < b\nنقل old\n<p>kept</p>';
		const metadata = {
			meta_data_parts: [
				{ type: 'Bold', from_index: 3, length: 5 },
				{ type: 'Italic', from_index: 11, length: 7 },
				{ type: 'Link', from_index: 20, length: 4, link_url: 'https://rubika.ir/?a=1&b=2' },
				{ type: 'Mono', from_index: 25, length: 5 },
				{ type: 'Quote', from_index: 31, length: 7 },
				{ type: 'Strike', from_index: 35, length: 3 },
			],
		};
		expect(bodies('sendMessage')).toEqual([{ chat_id: CHAT, text, metadata }]);
		const message = actions.sandbox.lastMessage(CHAT)!;
		expect(message).toMatchObject({ text, metadata, sender_type: 'Bot' });
		expect(result.items).toEqual([{ json: { message_id: message.message_id, message_ids: [message.message_id], chat_id: CHAT, text }, pairedItem: { item: 0 } }]);
	});

	test('a mention in a group, and a code block with its language, from an expression per item', async () => {
		const items = [
			{ json: { html: `سلام <a href="${ali.user_id}">علی</a> 👋` } },
			{ json: { html: '<pre><code class="language-python">print("hi")\n</code></pre>' } },
		];
		const result = await run(sendText({ chatId: DEMO_GROUP_ID, text: '={{ $json.html }}' }), items);
		expect(result.error).toBeUndefined();
		expect(bodies('sendMessage')).toEqual([
			{
				chat_id: DEMO_GROUP_ID,
				text: 'سلام علی 👋',
				metadata: { meta_data_parts: [{ type: 'MentionText', from_index: 5, length: 3, mention_text_user_id: ali.user_id }] },
			},
			{ chat_id: DEMO_GROUP_ID, text: 'print("hi")\n', metadata: { meta_data_parts: [{ type: 'Pre', from_index: 0, length: 12 }] } },
		]);
		expect(actions.sandbox.messages(DEMO_GROUP_ID).slice(-2).map(({ text, metadata }) => ({ text, metadata }))).toEqual(
			bodies('sendMessage').map((body) => {
				const { text, metadata } = body as { text: string; metadata: unknown };
				return { text, metadata };
			}),
		);
	});

	test('HTML without any tag sends no metadata; with Formatting "None" the tags go out as written', async () => {
		await run(sendText({ text: 'just words &amp; more' }));
		await run(sendText({ text: '<b>as written</b>', formatting: 'none' }));
		expect(bodies('sendMessage')).toEqual([
			{ chat_id: CHAT, text: 'just words & more' },
			{ chat_id: CHAT, text: '<b>as written</b>' },
		]);
	});
});

describe('Formatting "HTML" in Edit Text, a Send File caption and Send and Wait\'s message', () => {
	test('an edit replaces the text and its formatting', async () => {
		const sent = await run(sendText({ text: 'Draft', formatting: 'none' }));
		const messageId = sent.items[0].json.message_id as string;
		const result = await run({ operation: 'editMessageText', chatId: CHAT, messageId, text: '<b>Final</b> ✅ <u>done</u>', formatting: 'html' });
		expect(result.error).toBeUndefined();
		const metadata = { meta_data_parts: [{ type: 'Bold', from_index: 0, length: 5 }, { type: 'Underline', from_index: 8, length: 4 }] };
		expect(bodies('editMessageText')).toEqual([{ chat_id: CHAT, message_id: messageId, text: 'Final ✅ done', metadata }]);
		expect(actions.sandbox.message(CHAT, messageId)).toMatchObject({ text: 'Final ✅ done', metadata, is_edited: true });
	});

	test('a caption sent with a file by its ID', async () => {
		const file = actions.sandbox.addFile({ bytes: Buffer.from('%PDF menu'), name: 'menu.pdf', mimeType: 'application/pdf' });
		const result = await run({ operation: 'sendFile', chatId: CHAT, fileSource: 'fileId', fileId: file.file_id, caption: '📄 <tg-spoiler>منو</tg-spoiler>', formatting: 'html' });
		expect(result.error).toBeUndefined();
		const metadata = { meta_data_parts: [{ type: 'Spoiler', from_index: 3, length: 3 }] };
		expect(bodies('sendFile')).toEqual([{ chat_id: CHAT, file_id: file.file_id, text: '📄 منو', metadata }]);
		expect(actions.sandbox.lastMessage(CHAT)).toMatchObject({ file: { file_id: file.file_id }, text: '📄 منو', metadata });
	});

	test('Send and Wait: the question goes out formatted and the execution waits', async () => {
		const result = await run({ operation: 'sendAndWait', chatId: CHAT, message: '<b>Publish</b> the post? &#x1F680;', formatting: 'html' });
		expect(result.error).toBeUndefined();
		expect(result.run.status).toBe('waiting');
		const [body] = bodies('sendMessage') as Array<{ text: string; metadata: unknown }>;
		const metadata = { meta_data_parts: [{ type: 'Bold', from_index: 0, length: 7 }] };
		expect({ text: body.text, metadata: body.metadata }).toEqual({ text: 'Publish the post? 🚀', metadata });
		expect(actions.sandbox.lastMessage(CHAT)).toMatchObject({ text: 'Publish the post? 🚀', metadata });
	});
});

describe('Formatting "HTML": input refused before sending', () => {
	refusesEach(sendText({ text: 'Hello' }), [
		[
			'HTML that leaves no text',
			{ text: '<b></b> <code></code>' },
			'Text: is empty once the HTML tags are removed; write some text or choose Formatting "None" [item 0]',
		],
		['empty text with HTML', { text: ' ' }, 'Text: is required [item 0]'],
		[
			'more than 30 HTML parts with Long Text "Refuse"',
			{ text: Array.from({ length: 31 }, () => '<b>a</b>').join(' '), textOptions: { longText: 'refuse' } },
			'Formatting (HTML): has 31 formatting parts; Rubika allows at most 30 per message [item 0]',
		],
	]);
});

/** Every Formatting dropdown of the node, with the operation it belongs to. */
function formattingDropdowns(): Array<{ operations: unknown; values: unknown[]; default: unknown }> {
	const properties: INodeProperties[] = new Rubika().description.properties;
	return properties
		.filter((property) => property.name === 'formatting')
		.map((property) => ({
			operations: property.displayOptions?.show?.operation,
			values: (property.options as Array<{ value: unknown }>).map((option) => option.value),
			default: property.default,
		}));
}

test('every text that can be formatted offers HTML, and the default stays None', () => {
	const dropdowns = formattingDropdowns();
	const formatted = RESOURCES.flatMap((resource) => resource.operations)
		.filter((operation) => operation.properties.some((property) => property.name === 'formatting'))
		.map((operation) => operation.value);
	expect(dropdowns.map((dropdown) => dropdown.operations).flat().sort()).toEqual(formatted.sort());
	expect(formatted).toContain('sendMessage');
	for (const dropdown of dropdowns) {
		expect(dropdown).toEqual({ operations: dropdown.operations, values: ['none', 'builder', 'html', 'json', 'markdown'], default: 'none' });
	}
});

/**
 * Message → Send File, beyond what file.test.ts covers (binary upload, type inference and override, retries):
 * sending by file ID with a formatted caption and keypads, expressions per item, Rubika's error for an unknown
 * file, keypads checked before an upload, and the size limit of each type at its edge.
 */
import type { INodeParameters } from 'n8n-workflow';

import { FILE_SIZE_LIMITS } from '../../nodes/shared/types';
import { DEMO_CHANNEL_ID, DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { builderRows, button, expectNoToken, fileItem, keypad, useActionSandbox } from './helpers';

const { sara, reza } = DEMO_USERS;
const CHAT = sara.chat_id;
const actions = useActionSandbox('message');
const { run, bodies, methods, expectRefused, refusesEach } = actions;

const byFileId = (fileId: string, parameters: INodeParameters = {}): INodeParameters => ({
	operation: 'sendFile',
	chatId: CHAT,
	fileSource: 'fileId',
	fileId,
	...parameters,
});
const storedFile = (name = 'menu.pdf') => actions.sandbox.addFile({ bytes: Buffer.from(`%PDF ${name}`), name, mimeType: 'application/pdf' });

describe('Message → Send File by file ID', () => {
	test('Markdown caption in Persian with an emoji, both keypads and the send options; nothing is uploaded', async () => {
		const file = storedFile();
		const earlier = actions.sandbox.userSendMessage({ userId: sara.user_id, text: 'منو رو بفرست' });
		const result = await run(
			byFileId(file.file_id, {
				caption: '📄 **منوی امروز** — `v2`',
				formatting: 'markdown',
				inlineKeypadMode: 'builder',
				inlineKeypad: builderRows([{ text: 'سفارش', id: 'order' }]),
				chatKeypadAction: 'set',
				chatKeypadMode: 'json',
				chatKeypadJson: '{"rows": [[{"id": "menu", "text": "منو"}]], "one_time_keyboard": true}',
				sendOptions: { disableNotification: true, replyToMessageId: earlier.message_id },
			}),
		);
		expect(result.error).toBeUndefined();
		// "📄 منوی امروز — v2": 📄0-1 _2 منوی3-6 _7 امروز8-12 _13 —14 _15 v2 16-17
		const caption = '📄 منوی امروز — v2';
		const metadata = {
			meta_data_parts: [
				{ type: 'Bold', from_index: 3, length: 10 },
				{ type: 'Mono', from_index: 16, length: 2 },
			],
		};
		const inlineKeypad = keypad([button('order', 'سفارش')]);
		const chatKeypad = {
			...keypad([button('menu', 'منو')]),
			resize_keyboard: true,
			one_time_keyboard: true,
			on_time_keyboard: true,
		};
		expect(methods()).toEqual(['sendFile']);
		expect(bodies('sendFile')).toEqual([
			{
				chat_id: CHAT,
				file_id: file.file_id,
				text: caption,
				metadata,
				inline_keypad: inlineKeypad,
				chat_keypad: chatKeypad,
				chat_keypad_type: 'New',
				disable_notification: true,
				reply_to_message_id: earlier.message_id,
			},
		]);
		const message = actions.sandbox.lastMessage(CHAT)!;
		expect(result.items).toEqual([{ json: { message_id: message.message_id, message_ids: [message.message_id], chat_id: CHAT, file_id: file.file_id, text: caption }, pairedItem: { item: 0 } }]);
		expect(message).toMatchObject({
			file: { file_id: file.file_id, file_name: 'menu.pdf' },
			text: caption,
			metadata,
			inline_keypad: inlineKeypad,
			reply_to_message_id: earlier.message_id,
		});
		expect(actions.sandbox.chatKeypad(CHAT)).toEqual(chatKeypad);
	});

	test.each([
		['None: markers are sent as written', { formatting: 'none' }, { text: '**as is**' }],
		[
			'Builder',
			{ formatting: 'builder', formattingParts: { part: [{ type: 'Italic', fromIndex: 2, length: 2 }] } },
			{ text: '**as is**', metadata: { meta_data_parts: [{ type: 'Italic', from_index: 2, length: 2 }] } },
		],
		[
			'JSON',
			{ formatting: 'json', metadataJson: '{"meta_data_parts": [{"type": "Spoiler", "from_index": 0, "length": 9}]}' },
			{ text: '**as is**', metadata: { meta_data_parts: [{ type: 'Spoiler', from_index: 0, length: 9 }] } },
		],
	])('caption formatting %s', async (_case, formatting, sent) => {
		const file = storedFile();
		const result = await run(byFileId(file.file_id, { caption: '**as is**', ...formatting }));
		expect(result.error).toBeUndefined();
		expect(bodies('sendFile')).toEqual([{ chat_id: CHAT, file_id: file.file_id, ...sent }]);
		expect(actions.sandbox.lastMessage(CHAT)).toMatchObject(sent);
	});

	test('one file to many chats: chat and file id from expressions, one request per item, paired', async () => {
		const menu = storedFile('menu.pdf');
		const prices = storedFile('prices.pdf');
		const result = await run(byFileId('={{ $json.file }}', { chatId: '={{ $json.chat }}', caption: '={{ $json.name }}' }), [
			{ json: { chat: reza.chat_id, file: menu.file_id, name: 'Reza' } },
			{ json: { chat: DEMO_GROUP_ID, file: menu.file_id, name: 'Group' } },
			{ json: { chat: DEMO_CHANNEL_ID, file: prices.file_id, name: 'Channel' } },
		]);
		expect(result.error).toBeUndefined();
		expect(bodies('sendFile')).toEqual([
			{ chat_id: reza.chat_id, file_id: menu.file_id, text: 'Reza' },
			{ chat_id: DEMO_GROUP_ID, file_id: menu.file_id, text: 'Group' },
			{ chat_id: DEMO_CHANNEL_ID, file_id: prices.file_id, text: 'Channel' },
		]);
		expect(result.items.map((item) => [item.json.chat_id, item.json.file_id, item.pairedItem])).toEqual([
			[reza.chat_id, menu.file_id, { item: 0 }],
			[DEMO_GROUP_ID, menu.file_id, { item: 1 }],
			[DEMO_CHANNEL_ID, prices.file_id, { item: 2 }],
		]);
		expect(actions.sandbox.lastMessage(DEMO_CHANNEL_ID)?.file?.file_name).toBe('prices.pdf');
	});

	test('a file id Rubika does not know: NodeApiError with its status and dev_message', async () => {
		const result = await run(byFileId('f0NoSuchFile'));
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Rubika sendFile failed: INVALID_INPUT – file_id: file f0NoSuchFile not found');
		expect(result.error?.description).toContain('Rubika says: file_id: file f0NoSuchFile not found');
		expect(bodies('sendFile')).toEqual([{ chat_id: CHAT, file_id: 'f0NoSuchFile' }]);
		expect(actions.sandbox.messages(CHAT)).toEqual([]);
		expectNoToken(result);
	});

	refusesEach(byFileId('f0Anything'), [
		['a file id with a space', { fileId: 'f0 abc' }, 'File ID: must be a single ID without spaces, got "f0 abc" [item 0]'],
		[
			'a chat keypad without buttons',
			{ chatKeypadAction: 'set', chatKeypadMode: 'json', chatKeypadJson: '{"rows": []}' },
			'Chat Keypad (JSON): must have at least one row with at least one button [item 0]',
		],
		[
			'a caption part inside the emoji',
			{ caption: '📄 menu', formatting: 'builder', formattingParts: { part: [{ type: 'Bold', fromIndex: 1, length: 3 }] } },
			'Formatting Parts: part 1: from_index 1 falls inside an emoji or other character that takes 2 UTF-16 code units [item 0]',
		],
	]);
});

describe('Message → Send File from binary data: checked before anything is uploaded', () => {
	test('a bad inline keypad stops the item before the upload address is even requested', async () => {
		const result = await run(
			{ operation: 'sendFile', chatId: CHAT, inlineKeypadMode: 'json', inlineKeypadJson: '[[{"id": "a", "text": ""}]]' },
			[fileItem(Buffer.from('png'), 'a.png', 'image/png')],
		);
		expectRefused(result, 'Inline Keypad (JSON): row 1, button 1: button text is empty [item 0]');
	});

	test('the size limit of each type at its edge, per item: at the limit it is sent, one byte over nothing is requested', async () => {
		const imageLimit = FILE_SIZE_LIMITS.Image;
		const videoLimit = FILE_SIZE_LIMITS.Video;
		const result = await run(
			{ operation: 'sendFile', chatId: CHAT, fileType: '={{ $json.type }}' },
			[
				fileItem(Buffer.alloc(imageLimit, 1), 'exact.jpg', 'image/jpeg', { json: { type: 'auto' } }),
				fileItem(Buffer.alloc(imageLimit + 1, 2), 'over.jpg', 'image/jpeg', { json: { type: 'auto' } }),
				fileItem(Buffer.alloc(videoLimit + 1, 3), 'long.mp4', 'video/mp4', { json: { type: 'Video' } }),
			],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(methods()).toEqual(['requestSendFile', 'upload', 'sendFile']);
		expect(bodies('requestSendFile')).toEqual([{ type: 'Image' }]);
		expect(result.items[0].json).toMatchObject({ chat_id: CHAT, type: 'Image', size: imageLimit, file_name: 'exact.jpg' });
		expect(result.items.slice(1)).toEqual([
			{
				json: {
					error:
						`Input Binary Field: "over.jpg" is 10 MB (${imageLimit + 1} bytes), more than the 10 MB Rubika accepts for type Image. ` +
						'Choose File Type "File" to send it as a document (up to 50 MB). [item 1]',
				},
				pairedItem: { item: 1 },
			},
			{
				json: {
					error: `Input Binary Field: "long.mp4" is 50 MB (${videoLimit + 1} bytes), more than the 50 MB Rubika accepts for type Video. [item 2]`,
				},
				pairedItem: { item: 2 },
			},
		]);
	});
});

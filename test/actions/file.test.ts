/**
 * File resource and Message → Send File, with n8n keeping binary data in memory (the default mode).
 * The same flows with binary data on disk are in file-filesystem.test.ts (the mode is process-wide).
 */
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type { INodeParameters } from 'n8n-workflow';

import { inferFileType } from '../../nodes/Rubika/helpers/binary';
import { fileNameFromDisposition } from '../../nodes/shared/downloads';
import { FILE_SIZE_LIMITS } from '../../nodes/shared/types';
import { DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { fileItem, pattern, recordSocketWrites, useActionSandbox } from './helpers';

const CHAT = DEMO_USERS.sara.chat_id;
const actions = useActionSandbox('file', { binaryMode: 'default' });
const { run, bodies, methods, expectRefused } = actions;

beforeEach(() => {
	jest.restoreAllMocks();
});

function sendFileParameters(extra: INodeParameters = {}): INodeParameters {
	return { resource: 'message', operation: 'sendFile', chatId: CHAT, ...extra };
}

describe('Message → Send File from binary data', () => {
	test('requests an upload address for the inferred type, uploads the exact bytes, sends, and outputs the ids', async () => {
		const data = pattern(300_000);
		const result = await run(sendFileParameters({ caption: 'Our new logo' }), [fileItem(data, 'logo.png', 'image/png')]);
		expect(result.error).toBeUndefined();
		expect(methods()).toEqual(['requestSendFile', 'upload', 'sendFile']);
		expect(bodies('requestSendFile')[0]).toEqual({ type: 'Image' });
		expect(bodies('upload')[0]).toEqual({
			type: 'Image',
			file_name: 'logo.png',
			content_type: 'image/png',
			size: data.length,
		});
		const fileId = bodies('sendFile')[0] as { file_id: string };
		expect(bodies('sendFile')[0]).toEqual({ chat_id: CHAT, file_id: fileId.file_id, text: 'Our new logo' });
		expect(actions.sandbox.file(fileId.file_id)?.bytes.equals(data)).toBe(true);
		const message = actions.sandbox.lastMessage(CHAT)!;
		expect(result.items).toEqual([
			{
				json: {
					message_id: message.message_id,
					message_ids: [message.message_id],
					chat_id: CHAT,
					file_id: fileId.file_id,
					file_name: 'logo.png',
					size: data.length,
					type: 'Image',
					mime_type: 'image/png',
					text: 'Our new logo',
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(typeof result.items[0].json.message_id).toBe('string');
	});

	test('caption with Markdown, both keypads and the send options go into the sendFile body', async () => {
		const earlier = actions.sandbox.userSendMessage({ userId: DEMO_USERS.sara.user_id, text: 'send me the report' });
		const result = await run(
			sendFileParameters({
				caption: '**Report** for you',
				formatting: 'markdown',
				inlineKeypadMode: 'json',
				inlineKeypadJson: '{"rows": [{"buttons": [{"id": "ok", "button_text": "OK"}]}]}',
				chatKeypadAction: 'remove',
				sendOptions: { disableNotification: true, replyToMessageId: earlier.message_id },
				fileOptions: { fileName: 'report-2026.pdf' },
			}),
			[fileItem(Buffer.from('%PDF-1.7 tiny'), 'r.pdf', 'application/pdf')],
		);
		expect(result.error).toBeUndefined();
		expect(bodies('requestSendFile')[0]).toEqual({ type: 'File' });
		expect(bodies('upload')[0]).toMatchObject({ file_name: 'report-2026.pdf' });
		const body = bodies('sendFile')[0] as Record<string, unknown>;
		expect(body).toEqual({
			chat_id: CHAT,
			file_id: result.items[0].json.file_id,
			text: 'Report for you',
			metadata: { meta_data_parts: [{ type: 'Bold', from_index: 0, length: 6 }] },
			inline_keypad: { rows: [{ buttons: [{ id: 'ok', type: 'Simple', button_text: 'OK' }] }] },
			chat_keypad_type: 'Remove',
			disable_notification: true,
			reply_to_message_id: earlier.message_id,
		});
		expect(result.items[0].json.file_name).toBe('report-2026.pdf');
	});

	test('without a caption no text is sent', async () => {
		const result = await run(sendFileParameters({ caption: '   ' }), [fileItem(Buffer.from('abc'), 'a.txt', 'text/plain')]);
		expect(result.error).toBeUndefined();
		expect(bodies('sendFile')[0]).toEqual({ chat_id: CHAT, file_id: result.items[0].json.file_id });
	});

	test('infers the Rubika file type from the MIME type', async () => {
		const table: Array<[string, string]> = [
			['image/jpeg', 'Image'],
			['image/png', 'Image'],
			['image/webp', 'Image'],
			// Rubika's Gif is a silent MP4; a GIF picture is an image.
			['image/gif', 'Image'],
			['IMAGE/JPEG; charset=binary', 'Image'],
			['video/mp4', 'Video'],
			['audio/mpeg', 'Music'],
			['audio/ogg', 'Voice'],
			['audio/ogg; codecs=opus', 'Voice'],
			['application/pdf', 'File'],
			['text/plain', 'File'],
			['video/quicktime', 'File'],
			['image/svg+xml', 'File'],
			['application/octet-stream', 'File'],
		];
		const result = await run(
			sendFileParameters(),
			table.map(([mimeType], index) => fileItem(Buffer.from(`file ${index}`), `f${index}`, mimeType)),
		);
		expect(result.error).toBeUndefined();
		expect(bodies('requestSendFile').map((body) => (body as { type: string }).type)).toEqual(table.map(([, type]) => type));
		expect(result.items.map((item) => item.json.type)).toEqual(table.map(([, type]) => type));
		// The same table straight through the helper, including a missing MIME type.
		for (const [mimeType, type] of table) expect(inferFileType(mimeType)).toBe(type);
		expect(inferFileType(undefined)).toBe('File');
	});

	test('File Type overrides the inferred type', async () => {
		const result = await run(sendFileParameters({ fileType: '={{ $json.type }}' }), [
			fileItem(Buffer.from('mp4 without sound'), 'loop.mp4', 'video/mp4', { json: { type: 'Gif' } }),
			fileItem(Buffer.from('png as a document'), 'scan.png', 'image/png', { json: { type: 'File' } }),
			fileItem(Buffer.from('speech'), 'note.mp3', 'audio/mpeg', { json: { type: 'Voice' } }),
		]);
		expect(result.error).toBeUndefined();
		expect(bodies('requestSendFile')).toEqual([
			{ type: 'Gif' },
			{ type: 'File' },
			{ type: 'Voice' },
		]);
	});

	test('an unknown File Type is refused before any request', async () => {
		const result = await run(sendFileParameters({ fileType: 'Sticker' }), [
			fileItem(Buffer.from('x'), 'x.bin', 'application/octet-stream'),
		]);
		expectRefused(result, 'File Type: must be auto or one of File, Image, Voice, Music, Gif, Video; got "Sticker" [item 0]');
	});

	test('a file too large for its type fails naming the field and the item, and nothing is requested for it', async () => {
		const limit = FILE_SIZE_LIMITS.Image;
		const tooLarge = Buffer.alloc(limit + 1, 1);
		const result = await run(sendFileParameters(), [
			fileItem(Buffer.from('small'), 'small.png', 'image/png'),
			fileItem(tooLarge, 'huge.png', 'image/png'),
		]);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(
			`Input Binary Field: "huge.png" is 10 MB (${limit + 1} bytes), more than the 10 MB Rubika accepts for type Image. ` +
				'Choose File Type "File" to send it as a document (up to 50 MB). [item 1]',
		);
		// Only item 0 reached Rubika.
		expect(methods()).toEqual(['requestSendFile', 'upload', 'sendFile']);
		expect(bodies('upload')[0]).toMatchObject({ file_name: 'small.png' });
	});

	test('the limit follows the type: the same file goes through as File', async () => {
		const data = pattern(FILE_SIZE_LIMITS.Image + 1);
		const result = await run(sendFileParameters({ fileType: 'File' }), [fileItem(data, 'huge.png', 'image/png')]);
		expect(result.error).toBeUndefined();
		expect(bodies('requestSendFile')[0]).toEqual({ type: 'File' });
		expect(actions.sandbox.file(String(result.items[0].json.file_id))?.bytes.equals(data)).toBe(true);
	});

	test('a missing binary field fails clearly, naming the field, what the item has, and the item', async () => {
		const result = await run(sendFileParameters({ binaryPropertyName: 'photo' }), [
			fileItem(Buffer.from('x'), 'x.png', 'image/png', { property: 'data' }),
		]);
		expectRefused(result, 'Input Binary Field: the item has no binary field "photo"; it has "data" [item 0]');
	});

	test('an item without any binary data fails clearly', async () => {
		const result = await run(sendFileParameters(), [{ json: { a: 1 } }]);
		expectRefused(
			result,
			'Input Binary Field: the item has no binary field "data" (it carries no binary data at all; read or download a file in an earlier node) [item 0]',
		);
	});

	test('a missing chat id is refused before anything is uploaded', async () => {
		// An expression that resolves to nothing: n8n's own required-field check cannot see it coming.
		const result = await run(sendFileParameters({ chatId: '={{ $json.chat }}' }), [fileItem(Buffer.from('x'), 'x.png', 'image/png')]);
		expectRefused(result, 'Chat ID: is required [item 0]');
	});

	test('bad caption formatting is refused before anything is uploaded', async () => {
		const result = await run(
			sendFileParameters({ caption: 'hi', formatting: 'json', metadataJson: '[{"type": "Bold", "from_index": 0, "length": 9}]' }),
			[fileItem(Buffer.from('x'), 'x.png', 'image/png')],
		);
		expectRefused(result, /^Formatting \(JSON\): .* \[item 0\]$/);
	});

	test('an upload answered with HTTP 503 is retried and the file arrives whole', async () => {
		actions.sandbox.injectFault({ kind: 'httpStatus', method: 'upload', httpStatus: 503 });
		const data = pattern(120_000, 3);
		const result = await run(sendFileParameters(), [fileItem(data, 'clip.mp4', 'video/mp4')]);
		expect(result.error).toBeUndefined();
		expect(actions.sandbox.requestsFor('upload').map((entry) => entry.httpStatus)).toEqual([503, 200]);
		expect(actions.sandbox.requestsFor('requestSendFile')).toHaveLength(1);
		expect(actions.sandbox.file(String(result.items[0].json.file_id))?.bytes.equals(data)).toBe(true);
		expect(actions.sandbox.requestsFor('sendFile')).toHaveLength(1);
	});

	test('an upload whose answer is lost after it took effect gets a fresh upload address', async () => {
		// The first upload is stored, then the connection drops; the retry finds the single-use address used.
		actions.sandbox.injectFault({ kind: 'drop', method: 'upload', afterEffect: true });
		const data = pattern(50_000, 5);
		const result = await run(sendFileParameters(), [fileItem(data, 'a.ogg', 'audio/ogg')]);
		expect(result.error).toBeUndefined();
		expect(bodies('requestSendFile')).toEqual([{ type: 'Voice' }, { type: 'Voice' }]);
		expect(actions.sandbox.requestsFor('upload').map((entry) => entry.status)).toEqual([null, 'INVALID_INPUT', 'OK']);
		expect(actions.sandbox.file(String(result.items[0].json.file_id))?.bytes.equals(data)).toBe(true);
	});

	test('an upload that keeps failing ends in an error naming the item, and nothing is sent', async () => {
		actions.sandbox.injectFault({ kind: 'httpStatus', method: 'upload', httpStatus: 500, times: -1 });
		const result = await run({ ...sendFileParameters(), requestOptions: { retries: 1 } }, [
			fileItem(Buffer.from('x'), 'x.png', 'image/png'),
		]);
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Rubika upload did not answer like the Bot API: HTTP 500 with a body that is not JSON');
		expect((result.error as unknown as { context: { itemIndex?: number } }).context.itemIndex).toBe(0);
		expect(actions.sandbox.requestsFor('upload')).toHaveLength(2);
		expect(actions.sandbox.requestsFor('sendFile')).toEqual([]);
	});

	test('in-memory binary data is decoded once and its Buffer is sent without another whole-file copy', async () => {
		const service = Container.get(BinaryDataService);
		const decoded: Buffer[] = [];
		const getAsBuffer = jest.spyOn(service, 'getAsBuffer').mockImplementation(async function (this: BinaryDataService, binary) {
			const buffer = await (jest.requireActual('n8n-core') as typeof import('n8n-core')).BinaryDataService.prototype.getAsBuffer.call(
				this,
				binary,
			);
			decoded.push(buffer);
			return buffer;
		});
		const getAsStream = jest.spyOn(service, 'getAsStream');
		const written = recordSocketWrites();
		// One failed attempt first: the retry must reuse the decoded Buffer, not decode (copy) again.
		actions.sandbox.injectFault({ kind: 'httpStatus', method: 'upload', httpStatus: 502 });
		const data = pattern(2 * 1024 * 1024 + 17, 11);
		const result = await run(sendFileParameters(), [fileItem(data, 'big.bin', 'application/zip')]);
		expect(result.error).toBeUndefined();
		expect(getAsBuffer).toHaveBeenCalledTimes(1);
		expect(getAsStream).not.toHaveBeenCalled();
		expect(decoded[0].equals(data)).toBe(true);
		// Every byte of the file that went to the socket was a view of that one decoded Buffer, twice (two attempts).
		const views = written.filter((chunk) => chunk.buffer === decoded[0].buffer);
		expect(views.reduce((sum, chunk) => sum + chunk.length, 0)).toBe(2 * data.length);
		expect(actions.sandbox.file(String(result.items[0].json.file_id))?.bytes.equals(data)).toBe(true);
	});
});

describe('Message → Send File by file ID', () => {
	test('sends the existing file without uploading', async () => {
		const { file_id: fileId } = actions.sandbox.addFile({ bytes: Buffer.from('hello'), name: 'hello.txt', mimeType: 'text/plain' });
		const result = await run(sendFileParameters({ chatId: DEMO_GROUP_ID, fileSource: 'fileId', fileId: ` ${fileId} `, caption: 'again' }));
		expect(result.error).toBeUndefined();
		expect(methods()).toEqual(['sendFile']);
		expect(bodies('sendFile')[0]).toEqual({ chat_id: DEMO_GROUP_ID, file_id: fileId, text: 'again' });
		expect(result.items[0].json).toEqual({
			message_id: actions.sandbox.lastMessage(DEMO_GROUP_ID)!.message_id,
			message_ids: [actions.sandbox.lastMessage(DEMO_GROUP_ID)!.message_id],
			chat_id: DEMO_GROUP_ID,
			file_id: fileId,
			text: 'again',
		});
	});

	test('a missing file ID is refused before any request', async () => {
		const result = await run(sendFileParameters({ fileSource: 'fileId', fileId: '={{ $json.file }}' }));
		expectRefused(result, 'File ID: is required [item 0]');
	});
});

describe('File → Upload', () => {
	test('uploads without sending and outputs the file id, name, size and type', async () => {
		const data = pattern(70_000, 9);
		const result = await run({ operation: 'upload', binaryPropertyName: 'attachment' }, [
			fileItem(data, 'song.mp3', 'audio/mpeg', { property: 'attachment' }),
		]);
		expect(result.error).toBeUndefined();
		expect(methods()).toEqual(['requestSendFile', 'upload']);
		expect(bodies('requestSendFile')[0]).toEqual({ type: 'Music' });
		const fileId = String(result.items[0].json.file_id);
		expect(result.items).toEqual([
			{
				json: { file_id: fileId, file_name: 'song.mp3', size: data.length, type: 'Music', mime_type: 'audio/mpeg' },
				pairedItem: { item: 0 },
			},
		]);
		expect(actions.sandbox.file(fileId)?.bytes.equals(data)).toBe(true);
	});

	test('a file over the limit of the chosen type is refused before any request', async () => {
		const result = await run({ operation: 'upload', fileType: 'Image' }, [
			fileItem(Buffer.alloc(FILE_SIZE_LIMITS.Image + 1), 'a.pdf', 'application/pdf'),
		]);
		expectRefused(result, /^Input Binary Field: "a\.pdf" is .* more than the 10 MB Rubika accepts for type Image\. .*\[item 0\]$/);
	});

	test('Continue On Fail reports a missing binary field per item and uploads the rest', async () => {
		const result = await run({ operation: 'upload' }, [{ json: {} }, fileItem(Buffer.from('ok'), 'ok.txt', 'text/plain')], {
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0]).toEqual({
			json: {
				error:
					'Input Binary Field: the item has no binary field "data" (it carries no binary data at all; read or download a file in an earlier node) [item 0]',
			},
			pairedItem: { item: 0 },
		});
		expect(result.items[1].json).toMatchObject({ file_name: 'ok.txt', type: 'File', size: 2 });
		expect(result.items[1].pairedItem).toEqual({ item: 1 });
	});
});

describe('File → Get Download URL', () => {
	test('asks getFile and outputs the download URL', async () => {
		const added = actions.sandbox.addFile({ bytes: Buffer.from('x'), name: 'x.txt' });
		const result = await run({ operation: 'getDownloadUrl', fileId: added.file_id });
		expect(result.error).toBeUndefined();
		expect(bodies('getFile')).toEqual([{ file_id: added.file_id }]);
		expect(result.items).toEqual([{ json: { file_id: added.file_id, download_url: added.download_url }, pairedItem: { item: 0 } }]);
	});

	test('an unknown file id surfaces Rubika\'s error', async () => {
		const result = await run({ operation: 'getDownloadUrl', fileId: 'nope' });
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(/getFile failed: INVALID_INPUT/);
	});
});

describe('File → Download', () => {
	test('upload then download gives back the exact bytes, name and MIME type as n8n binary data', async () => {
		const data = pattern(400_000, 13);
		const name = 'گزارش سالانه.pdf';
		const uploaded = await run({ operation: 'upload' }, [fileItem(data, name, 'application/pdf')]);
		expect(uploaded.error).toBeUndefined();
		const fileId = String(uploaded.items[0].json.file_id);
		const downloaded = await run({ operation: 'download', fileId });
		expect(downloaded.error).toBeUndefined();
		const [item] = downloaded.items;
		expect(item.json).toEqual({
			file_id: fileId,
			file_name: name,
			mime_type: 'application/pdf',
			size: data.length,
			download_url: expect.stringContaining(`/files/${fileId}/`),
		});
		expect(item.binary?.data).toMatchObject({ fileName: name, mimeType: 'application/pdf', fileExtension: 'pdf', bytes: data.length });
		expect(Buffer.from(item.binary!.data.data, 'base64').equals(data)).toBe(true);
		expect(methods()).toEqual(['requestSendFile', 'upload', 'getFile', 'download']);
	});

	test('name, MIME type and output field can be set', async () => {
		const added = actions.sandbox.addFile({ bytes: Buffer.from('GIF89a...'), name: 'anim.gif', mimeType: 'image/gif' });
		const result = await run({
			operation: 'download',
			fileId: added.file_id,
			binaryPropertyName: 'picture',
			downloadOptions: { fileName: 'renamed.gif', mimeType: 'application/octet-stream' },
		});
		expect(result.error).toBeUndefined();
		expect(Object.keys(result.items[0].binary ?? {})).toEqual(['picture']);
		expect(result.items[0].binary!.picture).toMatchObject({ fileName: 'renamed.gif', mimeType: 'application/octet-stream' });
		expect(Buffer.from(result.items[0].binary!.picture.data, 'base64').toString()).toBe('GIF89a...');
	});

	test('a download cut off halfway is retried and the binary data is complete', async () => {
		const data = pattern(1_000_000, 17);
		const added = actions.sandbox.addFile({ bytes: data, name: 'cut.bin', mimeType: 'application/octet-stream' });
		actions.sandbox.injectFault({ kind: 'truncated', method: 'download' });
		const result = await run({ operation: 'download', fileId: added.file_id });
		expect(result.error).toBeUndefined();
		expect(actions.sandbox.requestsFor('download')).toHaveLength(2);
		expect(Buffer.from(result.items[0].binary!.data.data, 'base64').equals(data)).toBe(true);
	});

	test('a download answered with an HTML error page is retried', async () => {
		const added = actions.sandbox.addFile({ bytes: Buffer.from('fine'), name: 'f.txt', mimeType: 'text/plain' });
		actions.sandbox.injectFault({ kind: 'html', method: 'download' });
		const result = await run({ operation: 'download', fileId: added.file_id });
		expect(result.error).toBeUndefined();
		expect(actions.sandbox.requestsFor('download').map((entry) => entry.httpStatus)).toEqual([502, 200]);
		expect(Buffer.from(result.items[0].binary!.data.data, 'base64').toString()).toBe('fine');
	});

	test('an empty output field name is refused before any request', async () => {
		const result = await run({ operation: 'download', fileId: 'abc', binaryPropertyName: ' ' });
		expectRefused(result, 'Put Output File in Field: is required: the name of a binary field, e.g. data [item 0]');
	});
});

test('file names are read from Content-Disposition the way servers write them', () => {
	const cases: Array<[string | undefined, string | undefined]> = [
		['attachment; filename="report.pdf"', 'report.pdf'],
		['attachment; filename=report.pdf', 'report.pdf'],
		['attachment; filename="a \\"quoted\\" name.txt"', 'a "quoted" name.txt'],
		// The RFC 5987 form wins over the ASCII fallback.
		[`attachment; filename="___.jpg"; filename*=UTF-8''%D8%B9%DA%A9%D8%B3.jpg`, 'عکس.jpg'],
		[`attachment; filename*=utf-8''na%C3%AFve.txt`, 'naïve.txt'],
		[`attachment; filename*=iso-8859-1''caf%E9.txt`, 'café.txt'],
		// A name must not lead out of the binary store's directory.
		['attachment; filename="../../etc/passwd"', 'passwd'],
		['attachment; filename="..\\\\secret.txt"', 'secret.txt'],
		['attachment; filename=".."', undefined],
		['attachment', undefined],
		['inline; filename=""', undefined],
		[undefined, undefined],
	];
	for (const [header, name] of cases) expect([header, fileNameFromDisposition(header)]).toEqual([header, name]);
});

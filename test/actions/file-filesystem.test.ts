/**
 * File resource and Message → Send File with n8n keeping binary data on disk ('filesystem' mode, as most
 * production instances do). Uploads must stream from the store and downloads must stream into it.
 */
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type { INodeParameters } from 'n8n-workflow';

import { FILE_SIZE_LIMITS } from '../../nodes/shared/types';
import { DEMO_USERS } from '../../sandbox';
import { fileItem, pattern, recordSocketWrites, useActionSandbox } from './helpers';

const CHAT = DEMO_USERS.reza.chat_id;
const actions = useActionSandbox('file', { binaryMode: 'filesystem' });
const { run, bodies, methods, expectRefused } = actions;
let service: BinaryDataService;

beforeAll(() => {
	service = Container.get(BinaryDataService);
});
beforeEach(() => {
	jest.restoreAllMocks();
});

function sendFileParameters(extra: INodeParameters = {}): INodeParameters {
	return { resource: 'message', operation: 'sendFile', chatId: CHAT, ...extra };
}

test('the harness really keeps the input on disk', async () => {
	const store = jest.spyOn(service, 'store');
	const result = await run({ operation: 'upload' }, [fileItem(Buffer.from('on disk'), 'd.txt', 'text/plain')]);
	expect(result.error).toBeUndefined();
	const stored = await store.mock.results[0].value;
	expect(stored.id).toMatch(/^filesystem(-v2)?:/);
	expect(stored.data).not.toBe(Buffer.from('on disk').toString('base64'));
});

test('Send File streams binary data from disk instead of loading it', async () => {
	const getAsBuffer = jest.spyOn(service, 'getAsBuffer');
	const getAsStream = jest.spyOn(service, 'getAsStream');
	const written = recordSocketWrites();
	const data = pattern(3 * 1024 * 1024 + 5, 21);
	const result = await run(sendFileParameters({ caption: 'from disk' }), [fileItem(data, 'movie.mp4', 'video/mp4')]);
	expect(result.error).toBeUndefined();
	expect(getAsBuffer).not.toHaveBeenCalled();
	expect(getAsStream).toHaveBeenCalledTimes(1);
	// Chunks, never the whole file in one piece.
	const largest = Math.max(...written.map((chunk) => chunk.length));
	expect(largest).toBeLessThanOrEqual(256 * 1024);
	expect(methods()).toEqual(['requestSendFile', 'upload', 'sendFile']);
	expect(bodies('requestSendFile')[0]).toEqual({ type: 'Video' });
	expect(bodies('upload')[0]).toEqual({ type: 'Video', file_name: 'movie.mp4', content_type: 'video/mp4', size: data.length });
	const fileId = String(result.items[0].json.file_id);
	expect(bodies('sendFile')[0]).toEqual({ chat_id: CHAT, file_id: fileId, text: 'from disk' });
	expect(actions.sandbox.file(fileId)?.bytes.equals(data)).toBe(true);
	expect(result.items[0].json).toEqual({
		message_id: actions.sandbox.lastMessage(CHAT)!.message_id,
		message_ids: [actions.sandbox.lastMessage(CHAT)!.message_id],
		chat_id: CHAT,
		file_id: fileId,
		file_name: 'movie.mp4',
		size: data.length,
		type: 'Video',
		mime_type: 'video/mp4',
		text: 'from disk',
	});
});

test('a retried upload opens a fresh stream from disk and the file arrives whole', async () => {
	const getAsStream = jest.spyOn(service, 'getAsStream');
	actions.sandbox.injectFault({ kind: 'httpStatus', method: 'upload', httpStatus: 503 });
	const data = pattern(700_000, 4);
	const result = await run({ operation: 'upload' }, [fileItem(data, 'archive.zip', 'application/zip')]);
	expect(result.error).toBeUndefined();
	expect(actions.sandbox.requestsFor('upload').map((entry) => entry.httpStatus)).toEqual([503, 200]);
	expect(getAsStream).toHaveBeenCalledTimes(2);
	expect(actions.sandbox.file(String(result.items[0].json.file_id))?.bytes.equals(data)).toBe(true);
});

test('a file on disk too large for its type is refused without reading it or sending anything', async () => {
	const getAsBuffer = jest.spyOn(service, 'getAsBuffer');
	const getAsStream = jest.spyOn(service, 'getAsStream');
	const result = await run(sendFileParameters(), [fileItem(Buffer.alloc(FILE_SIZE_LIMITS.Image + 1), 'poster.jpg', 'image/jpeg')]);
	expectRefused(
		result,
		`Input Binary Field: "poster.jpg" is 10 MB (${FILE_SIZE_LIMITS.Image + 1} bytes), more than the 10 MB Rubika accepts for type Image. ` +
			'Choose File Type "File" to send it as a document (up to 50 MB). [item 0]',
	);
	expect(getAsBuffer).not.toHaveBeenCalled();
	expect(getAsStream).not.toHaveBeenCalled();
});

test('upload then download: the file streams into the store on disk with the exact bytes, name and MIME type', async () => {
	const data = pattern(2 * 1024 * 1024 + 3, 8);
	const uploaded = await run({ operation: 'upload' }, [fileItem(data, 'photo album.webp', 'image/webp')]);
	expect(uploaded.error).toBeUndefined();
	const fileId = String(uploaded.items[0].json.file_id);
	expect(uploaded.items[0].json.type).toBe('Image');

	const store = jest.spyOn(service, 'store');
	const downloaded = await run({ operation: 'download', fileId, binaryPropertyName: 'image' });
	expect(downloaded.error).toBeUndefined();
	// What was handed to the store was the response stream, not a Buffer collected first.
	expect(store).toHaveBeenCalledTimes(1);
	expect(Buffer.isBuffer(store.mock.calls[0][1])).toBe(false);
	const binary = downloaded.items[0].binary!.image;
	expect(binary.id).toMatch(/^filesystem(-v2)?:/);
	expect(binary).toMatchObject({ fileName: 'photo album.webp', mimeType: 'image/webp', bytes: data.length });
	expect((await service.getAsBuffer(binary)).equals(data)).toBe(true);
	expect(downloaded.items[0].json).toMatchObject({ file_id: fileId, file_name: 'photo album.webp', mime_type: 'image/webp', size: data.length });
});

test('a download cut off halfway is retried into the store on disk', async () => {
	const data = pattern(1_500_000, 2);
	const added = actions.sandbox.addFile({ bytes: data, name: 'cut.bin' });
	actions.sandbox.injectFault({ kind: 'truncated', method: 'download' });
	const result = await run({ operation: 'download', fileId: added.file_id });
	expect(result.error).toBeUndefined();
	expect(actions.sandbox.requestsFor('download')).toHaveLength(2);
	expect((await service.getAsBuffer(result.items[0].binary!.data)).equals(data)).toBe(true);
	expect(result.items[0].binary!.data).toMatchObject({ fileName: 'cut.bin', mimeType: 'application/octet-stream' });
});

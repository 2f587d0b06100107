/**
 * File resource and Message → Send File with n8n keeping binary data on disk ('filesystem' mode, as most
 * production instances do). Uploads must stream from the store and downloads must stream into it.
 */
import { Container } from '@n8n/di';
import http from 'node:http';
import { BinaryDataService } from 'n8n-core';
import type { INodeParameters } from 'n8n-workflow';

import { messageResource } from '../../nodes/Rubika/actions/message';
import { sendFile } from '../../nodes/Rubika/actions/message/sendFile.operation';
import { FILE_SIZE_LIMITS } from '../../nodes/shared/types';
import type { RubikaSandbox } from '../../sandbox';
import { DEMO_BOT_TOKEN, DEMO_USERS, startSandbox } from '../../sandbox';
import type { InputItem } from '../harness/n8n';
import { runNode, useBinaryMode } from '../harness/n8n';

if (!messageResource.operations.some((operation) => operation.value === 'sendFile')) {
	messageResource.operations.push(sendFile);
}

const CHAT = DEMO_USERS.reza.chat_id;
let sandbox: RubikaSandbox;
let credentials: { accessToken: string; baseUrl: string };
let service: BinaryDataService;

beforeAll(async () => {
	await useBinaryMode('filesystem');
	service = Container.get(BinaryDataService);
	sandbox = await startSandbox();
	credentials = { accessToken: DEMO_BOT_TOKEN, baseUrl: sandbox.baseUrl };
});
afterAll(async () => {
	await sandbox.close();
});
beforeEach(() => {
	sandbox.reset();
	jest.restoreAllMocks();
});

function pattern(size: number, seed = 21): Buffer {
	const bytes = Buffer.alloc(size);
	let state = seed;
	for (let index = 0; index < size; index++) {
		state = (state * 1103515245 + 12345) & 0x7fffffff;
		bytes[index] = state >> 16;
	}
	return bytes;
}

function fileItem(data: Buffer, fileName: string, mimeType: string): InputItem {
	return { json: {}, binary: { data: { data, fileName, mimeType } } };
}

function sendFileParameters(extra: INodeParameters = {}): INodeParameters {
	return { resource: 'message', operation: 'sendFile', chatId: CHAT, ...extra };
}

/** Records the Buffers the HTTP client writes to sockets. */
function recordSocketWrites(): Buffer[] {
	const written: Buffer[] = [];
	const originalWrite = http.ClientRequest.prototype.write;
	jest.spyOn(http.ClientRequest.prototype, 'write').mockImplementation(function (this: http.ClientRequest, chunk: unknown, ...rest: unknown[]) {
		if (Buffer.isBuffer(chunk)) written.push(chunk);
		return (originalWrite as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
	});
	return written;
}

test('the harness really keeps the input on disk', async () => {
	const store = jest.spyOn(service, 'store');
	const result = await runNode({
		parameters: { resource: 'file', operation: 'upload' },
		credentials,
		items: [fileItem(Buffer.from('on disk'), 'd.txt', 'text/plain')],
	});
	expect(result.error).toBeUndefined();
	const stored = await store.mock.results[0].value;
	expect(stored.id).toMatch(/^filesystem(-v2)?:/);
	expect(stored.data).not.toBe(Buffer.from('on disk').toString('base64'));
});

test('Send File streams binary data from disk instead of loading it', async () => {
	const getAsBuffer = jest.spyOn(service, 'getAsBuffer');
	const getAsStream = jest.spyOn(service, 'getAsStream');
	const written = recordSocketWrites();
	const data = pattern(3 * 1024 * 1024 + 5);
	const result = await runNode({
		parameters: sendFileParameters({ caption: 'from disk' }),
		credentials,
		items: [fileItem(data, 'movie.mp4', 'video/mp4')],
	});
	expect(result.error).toBeUndefined();
	expect(getAsBuffer).not.toHaveBeenCalled();
	expect(getAsStream).toHaveBeenCalledTimes(1);
	// Chunks, never the whole file in one piece.
	const largest = Math.max(...written.map((chunk) => chunk.length));
	expect(largest).toBeLessThanOrEqual(256 * 1024);
	expect(sandbox.requests.map((entry) => entry.method)).toEqual(['requestSendFile', 'upload', 'sendFile']);
	expect(sandbox.requestsFor('requestSendFile')[0].body).toEqual({ type: 'Video' });
	expect(sandbox.requestsFor('upload')[0].body).toEqual({ type: 'Video', file_name: 'movie.mp4', content_type: 'video/mp4', size: data.length });
	const fileId = String(result.items[0].json.file_id);
	expect(sandbox.requestsFor('sendFile')[0].body).toEqual({ chat_id: CHAT, file_id: fileId, text: 'from disk' });
	expect(sandbox.file(fileId)?.bytes.equals(data)).toBe(true);
	expect(result.items[0].json).toEqual({
		message_id: sandbox.lastMessage(CHAT)!.message_id,
		chat_id: CHAT,
		file_id: fileId,
		file_name: 'movie.mp4',
		size: data.length,
		type: 'Video',
		mime_type: 'video/mp4',
	});
});

test('a retried upload opens a fresh stream from disk and the file arrives whole', async () => {
	const getAsStream = jest.spyOn(service, 'getAsStream');
	sandbox.injectFault({ kind: 'httpStatus', method: 'upload', httpStatus: 503 });
	const data = pattern(700_000, 4);
	const result = await runNode({
		parameters: { resource: 'file', operation: 'upload' },
		credentials,
		items: [fileItem(data, 'archive.zip', 'application/zip')],
	});
	expect(result.error).toBeUndefined();
	expect(sandbox.requestsFor('upload').map((entry) => entry.httpStatus)).toEqual([503, 200]);
	expect(getAsStream).toHaveBeenCalledTimes(2);
	expect(sandbox.file(String(result.items[0].json.file_id))?.bytes.equals(data)).toBe(true);
});

test('a file on disk too large for its type is refused without reading it or sending anything', async () => {
	const getAsBuffer = jest.spyOn(service, 'getAsBuffer');
	const getAsStream = jest.spyOn(service, 'getAsStream');
	const result = await runNode({
		parameters: sendFileParameters(),
		credentials,
		items: [fileItem(Buffer.alloc(FILE_SIZE_LIMITS.Image + 1), 'poster.jpg', 'image/jpeg')],
	});
	expect(result.error?.message).toBe(
		`Input Binary Field: "poster.jpg" is 10 MB (${FILE_SIZE_LIMITS.Image + 1} bytes), more than the 10 MB Rubika accepts for type Image. ` +
			'Choose File Type "File" to send it as a document (up to 50 MB). [item 0]',
	);
	expect(getAsBuffer).not.toHaveBeenCalled();
	expect(getAsStream).not.toHaveBeenCalled();
	expect(sandbox.requests).toEqual([]);
});

test('upload then download: the file streams into the store on disk with the exact bytes, name and MIME type', async () => {
	const data = pattern(2 * 1024 * 1024 + 3, 8);
	const uploaded = await runNode({
		parameters: { resource: 'file', operation: 'upload' },
		credentials,
		items: [fileItem(data, 'photo album.webp', 'image/webp')],
	});
	expect(uploaded.error).toBeUndefined();
	const fileId = String(uploaded.items[0].json.file_id);
	expect(uploaded.items[0].json.type).toBe('Image');

	const store = jest.spyOn(service, 'store');
	const downloaded = await runNode({
		parameters: { resource: 'file', operation: 'download', fileId, binaryPropertyName: 'image' },
		credentials,
	});
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
	const added = sandbox.addFile({ bytes: data, name: 'cut.bin' });
	sandbox.injectFault({ kind: 'truncated', method: 'download' });
	const result = await runNode({ parameters: { resource: 'file', operation: 'download', fileId: added.file_id }, credentials });
	expect(result.error).toBeUndefined();
	expect(sandbox.requestsFor('download')).toHaveLength(2);
	expect((await service.getAsBuffer(result.items[0].binary!.data)).equals(data)).toBe(true);
	expect(result.items[0].binary!.data).toMatchObject({ fileName: 'cut.bin', mimeType: 'application/octet-stream' });
});

import axios from 'axios';
import { randomBytes } from 'node:crypto';
import http from 'node:http';

import { DEMO_BOT_TOKEN, DEMO_USERS } from '../../sandbox';
import { MultipartParser } from '../../sandbox/multipart';
import { useSandbox } from '../support/sandbox';
import { fails, multipartBody, ok, postRaw, uploadFile } from './helpers';

const { sara } = DEMO_USERS;
// Small limits keep the size tests fast.
const t = useSandbox({ fileSizeLimits: { File: 1000, Image: 300 } });

async function download(url: string) {
	const response = await axios.get(url, { responseType: 'arraybuffer', validateStatus: () => true });
	return { status: response.status, headers: response.headers, body: Buffer.from(response.data) };
}

describe('requestSendFile and the upload address', () => {
	test('gives a one-use upload address on the sandbox, without the token', async () => {
		const { upload_url } = await ok(t.sandbox, 'requestSendFile', { type: 'Image' });
		expect(upload_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${t.sandbox.port}/upload/[A-Za-z0-9_-]+$`));
		expect(upload_url).not.toContain(DEMO_BOT_TOKEN);
	});

	test('type must be a FileTypeEnum value', async () => {
		expect(await fails(t.sandbox, 'requestSendFile', { type: 'Document' })).toMatch(/type must be one of/);
		expect(await fails(t.sandbox, 'requestSendFile', {})).toMatch(/type is required/);
	});

	test('upload → sendFile → getFile → download gives back the exact bytes', async () => {
		const bytes = randomBytes(900);
		const file_id = await uploadFile(t.sandbox, bytes, { filename: 'report.pdf', contentType: 'application/pdf' });
		expect(file_id).toEqual(expect.any(String));
		const { message_id } = await ok(t.sandbox, 'sendFile', { chat_id: sara.chat_id, file_id, text: 'the report' });
		expect(t.sandbox.message(sara.chat_id, message_id)).toMatchObject({ text: 'the report', file: { file_id, file_name: 'report.pdf', size: '900' } });
		const { download_url } = await ok(t.sandbox, 'getFile', { file_id });
		expect(download_url).toBe(`${t.sandbox.baseUrl}/files/${file_id}/report.pdf`);
		const got = await download(download_url);
		expect(got.status).toBe(200);
		expect(got.body.equals(bytes)).toBe(true);
		expect(got.headers['content-type']).toBe('application/pdf');
		expect(got.headers['content-length']).toBe('900');
		expect(got.headers['content-disposition']).toBe('attachment; filename="report.pdf"');
		const upload = t.sandbox.requestsFor('upload')[0];
		expect(upload).toMatchObject({ tokenValid: null, httpStatus: 200, status: 'OK', body: { type: 'File', file_name: 'report.pdf', content_type: 'application/pdf', size: 900 } });
	});

	test('non-ASCII names get an RFC 5987 filename*', async () => {
		const file_id = await uploadFile(t.sandbox, Buffer.from('salam'), { filename: 'گزارش 1.txt', contentType: 'text/plain' });
		const { download_url } = await ok(t.sandbox, 'getFile', { file_id });
		const got = await download(download_url);
		expect(got.body.toString()).toBe('salam');
		expect(got.headers['content-disposition']).toBe(`attachment; filename="_____ 1.txt"; filename*=UTF-8''${encodeURIComponent('گزارش 1.txt')}`);
	});

	test('bytes that look like boundaries survive, and so do 1-byte chunks', async () => {
		const tricky = Buffer.concat([Buffer.from('\r\n--'), randomBytes(300), Buffer.from('\r\n------sandboxTest\r\n'), randomBytes(200)]);
		const file_id = await uploadFile(t.sandbox, tricky);
		expect((await download((await ok(t.sandbox, 'getFile', { file_id })).download_url)).body.equals(tricky)).toBe(true);

		const form = multipartBody([
			{ name: 'note', data: 'ignored field' },
			{ name: 'file', filename: 'x.bin', data: tricky },
		]);
		const boundary = /boundary=(.*)$/.exec(form.contentType)![1];
		const received: Buffer[] = [];
		let names: Array<string | undefined> = [];
		const parser = new MultipartParser(boundary, {
			onPartBegin: (part) => (names = [...names, part.name]),
			onPartData: (chunk) => names.at(-1) === 'file' && received.push(Buffer.from(chunk)),
			onPartEnd: () => undefined,
		});
		for (const byte of form.body) parser.write(Buffer.from([byte]));
		parser.end();
		expect(names).toEqual(['note', 'file']);
		expect(Buffer.concat(received).equals(tricky)).toBe(true);
	});

	test('an upload address works once', async () => {
		const { upload_url } = await ok(t.sandbox, 'requestSendFile', { type: 'File' });
		const form = multipartBody([{ name: 'file', filename: 'a.txt', data: 'a' }]);
		expect((await postRaw(upload_url, form.body, form.contentType)).json.status).toBe('OK');
		const again = await postRaw(upload_url, form.body, form.contentType);
		expect(again.json).toEqual({ status: 'INVALID_INPUT', dev_message: expect.stringMatching(/already used/) });
	});

	test('a body without a part named file, or not multipart, is refused', async () => {
		const { upload_url } = await ok(t.sandbox, 'requestSendFile', { type: 'File' });
		const form = multipartBody([{ name: 'document', filename: 'a.txt', data: 'a' }]);
		expect((await postRaw(upload_url, form.body, form.contentType)).json).toEqual({ status: 'INVALID_INPUT', dev_message: expect.stringMatching(/no part named file/) });
		expect((await postRaw(upload_url, 'plain', 'text/plain')).json.dev_message).toMatch(/multipart/);
		const cut = multipartBody([{ name: 'file', filename: 'a.txt', data: 'abc' }]);
		expect((await postRaw(upload_url, cut.body.subarray(0, cut.body.length - 10), cut.contentType)).json.dev_message).toMatch(/closing boundary|no part named file/);
		// Still usable after failures.
		expect((await postRaw(upload_url, cut.body, cut.contentType)).json.status).toBe('OK');
	});

	test('the size limit depends on the requested type', async () => {
		const { upload_url: fileUrl } = await ok(t.sandbox, 'requestSendFile', { type: 'File' });
		const exact = multipartBody([{ name: 'file', filename: 'a.bin', data: Buffer.alloc(1000) }]);
		expect((await postRaw(fileUrl, exact.body, exact.contentType)).json.status).toBe('OK');
		const { upload_url: imageUrl } = await ok(t.sandbox, 'requestSendFile', { type: 'Image' });
		const big = multipartBody([{ name: 'file', filename: 'a.png', data: Buffer.alloc(301) }]);
		expect((await postRaw(imageUrl, big.body, big.contentType)).json).toEqual({
			status: 'INVALID_INPUT',
			dev_message: expect.stringMatching(/larger than 300 bytes.*Image/),
		});
	});

	test('an oversized upload is refused while it is still streaming', async () => {
		const { upload_url } = await ok(t.sandbox, 'requestSendFile', { type: 'File' });
		const boundary = 'streamBoundary';
		const answer = await new Promise<{ status: number; body: string; ended: boolean }>((resolve, reject) => {
			let ended = false;
			const request = http.request(upload_url, { method: 'POST', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' } });
			request.on('response', (response) => {
				let body = '';
				response.on('data', (chunk) => (body += chunk));
				response.on('end', () => resolve({ status: response.statusCode ?? 0, body, ended }));
			});
			request.on('error', reject);
			request.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`);
			request.write(Buffer.alloc(2000));
			// Never finish the body: the answer must come anyway.
			setTimeout(() => {
				ended = true;
				request.destroy();
			}, 3000).unref();
		});
		expect(answer.ended).toBe(false);
		expect(JSON.parse(answer.body)).toEqual({ status: 'INVALID_INPUT', dev_message: expect.stringMatching(/larger than 1000/) });
		expect(t.sandbox.requestsFor('upload')[0].body).toMatchObject({ file_name: 'big.bin' });
	});
});

describe('getFile and downloads', () => {
	test('unknown file ids', async () => {
		expect(await fails(t.sandbox, 'getFile', { file_id: 'nope' })).toMatch(/not found/);
		expect((await download(`${t.sandbox.baseUrl}/files/nope/x.txt`)).status).toBe(404);
	});

	test('files added in-process can be sent by users and fetched by the bot', async () => {
		const { file_id } = t.sandbox.addFile({ bytes: Buffer.from('photo'), name: 'cat.jpg', mimeType: 'image/jpeg', type: 'Image' });
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'my cat', fileId: file_id });
		const [update] = (await ok(t.sandbox, 'getUpdates', {})).updates;
		expect(update.new_message.file).toEqual({ file_id, file_name: 'cat.jpg', size: '5' });
		const got = await download((await ok(t.sandbox, 'getFile', { file_id })).download_url);
		expect(got.body.toString()).toBe('photo');
		expect(got.headers['content-type']).toBe('image/jpeg');
	});

	test.each([
		['string', { size: '5' }],
		['number', { size: 5 }],
		['absent', {}],
	] as const)('fileSizeInMessages %s: how a sent file gives its size in the message', async (style, size) => {
		t.sandbox.configure({ fileSizeInMessages: style });
		try {
			const { file_id } = t.sandbox.addFile({ bytes: Buffer.from('photo'), name: 'cat.jpg' });
			t.sandbox.userSendMessage({ userId: sara.user_id, fileId: file_id });
			const [update] = (await ok(t.sandbox, 'getUpdates', {})).updates;
			expect(update.new_message.file).toEqual({ file_id, file_name: 'cat.jpg', ...size });
		} finally {
			t.sandbox.configure({ fileSizeInMessages: 'string' });
		}
	});

	test('downloadContentLength false: the body comes chunked, without Content-Length; the log records the bytes sent', async () => {
		const bytes = randomBytes(200_000);
		const { download_url } = t.sandbox.addFile({ bytes, name: 'a.bin' });
		expect((await download(download_url)).headers['content-length']).toBe('200000');
		t.sandbox.configure({ downloadContentLength: false });
		try {
			const got = await download(download_url);
			expect(got.headers['content-length']).toBeUndefined();
			expect(got.headers['transfer-encoding']).toBe('chunked');
			expect(got.body.equals(bytes)).toBe(true);
		} finally {
			t.sandbox.configure({ downloadContentLength: true });
		}
		expect(t.sandbox.requestsFor('download').map((entry) => entry.sentBytes)).toEqual([200_000, 200_000]);
	});

	test('the fault slow sends the body at bytesPerSecond; a client that goes away stops it, and the log says how far it got', async () => {
		const bytes = randomBytes(100_000);
		const { download_url } = t.sandbox.addFile({ bytes, name: 'a.bin' });
		t.sandbox.injectFault({ kind: 'slow', method: 'download', bytesPerSecond: 100_000 });
		const began = Date.now();
		expect((await download(download_url)).body.equals(bytes)).toBe(true);
		expect(Date.now() - began).toBeGreaterThanOrEqual(800);

		t.sandbox.injectFault({ kind: 'slow', method: 'download', bytesPerSecond: 20_000 });
		const abort = new AbortController();
		const stopped = axios.get(download_url, { responseType: 'stream', signal: abort.signal }).then(async (response) => {
			await new Promise((resolve) => setTimeout(resolve, 500));
			abort.abort();
			(response.data as NodeJS.ReadableStream & { destroy(): void }).destroy();
		});
		await stopped;
		const [, cut] = await t.sandbox.waitForRequest('download', { count: 2 });
		expect(cut.fault).toBe('slow');
		expect(cut.sentBytes).toBeGreaterThan(0);
		expect(cut.sentBytes).toBeLessThan(bytes.length / 2);
	});

	test('slow is only for downloads, and needs its rate', () => {
		expect(() => t.sandbox.injectFault({ kind: 'slow', bytesPerSecond: 10 })).toThrow(/method "download"/);
		expect(() => t.sandbox.injectFault({ kind: 'slow', method: 'download' })).toThrow(/bytesPerSecond/);
	});

	test('sendFile needs a known file_id', async () => {
		expect(await fails(t.sandbox, 'sendFile', { chat_id: sara.chat_id, file_id: 'missing' })).toMatch(/file_id/);
		expect(await fails(t.sandbox, 'sendFile', { chat_id: sara.chat_id })).toMatch(/file_id is required/);
	});
});

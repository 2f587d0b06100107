/**
 * Options → Download Files on the reading trigger: only updates that passed the filters are downloaded, into
 * the chosen binary field, streamed into n8n's store (also on disk, n8n's filesystem mode, as most production
 * instances keep binary data). No file holds the trigger up: a download that may work later is tried on the
 * next reads, three tries in all, without losing or repeating anything; a file above Max File Size, one slower
 * than Max Download Time, one that keeps failing and one Rubika no longer has go out with file_error.
 */
import { Container } from '@n8n/di';
import type { INodeProperties } from 'n8n-workflow';
import { BinaryDataService } from 'n8n-core';

import { triggerProperties } from '../../nodes/RubikaTrigger/description';
import { pattern } from '../actions/helpers';
import { pauseMs, received, reza, sara, texts, useSandbox } from './helpers';

const t = useSandbox();

const fileIdsAsked = () => t.sandbox.requestsFor('getFile').map((entry) => (entry.body as { file_id: string }).file_id);

it('downloads only for updates that passed the filters, into the chosen binary field', async () => {
	const wanted = t.sandbox.addFile({ bytes: Buffer.from('wanted bytes'), name: 'wanted.txt', mimeType: 'text/plain' });
	const other = t.sandbox.addFile({ bytes: Buffer.from('other bytes'), name: 'other.txt', mimeType: 'text/plain' });
	const harness = t.harness({ filters: { chatIds: sara.chat_id }, options: { downloadFiles: true, binaryPropertyName: 'attachment' } });
	await harness.activate();
	t.sandbox.userSendMessage({ userId: reza.user_id, fileId: other.file_id, text: 'not for us' });
	t.sandbox.userSendMessage({ userId: sara.user_id, fileId: wanted.file_id, text: 'for us' });
	t.sandbox.userSendMessage({ userId: sara.user_id, text: 'no file' });
	const items = await received(harness, 2);
	expect(texts(items)).toEqual(['for us', 'no file']);
	expect(items[0].binary?.attachment).toMatchObject({ fileName: 'wanted.txt', mimeType: 'text/plain' });
	expect(Buffer.from(items[0].binary!.attachment.data, 'base64').toString()).toBe('wanted bytes');
	expect(items[1].binary).toBeUndefined();
	// The filtered-out file was never asked for.
	expect(fileIdsAsked()).toEqual([wanted.file_id]);
	expect(t.sandbox.requestsFor('download')).toHaveLength(1);
});

it('without the option, nothing is downloaded and the file is described in `file`', async () => {
	const file = t.sandbox.addFile({ bytes: Buffer.from('x'), name: 'x.bin' });
	const harness = t.harness();
	await harness.activate();
	t.sandbox.userSendMessage({ userId: sara.user_id, fileId: file.file_id });
	const [item] = await received(harness, 1);
	expect(item.json.file).toEqual({ file_id: file.file_id, file_name: 'x.bin', size: '1' });
	expect(item.binary).toBeUndefined();
	expect(t.sandbox.requestsFor('getFile')).toHaveLength(0);
});

it('n8n keeping binary data on disk: the file streams into the store with its bytes, the message\'s file name and the MIME type', async () => {
	const data = pattern(1_500_000, 5);
	const file = t.sandbox.addFile({ bytes: data, name: 'بایگانی.zip', mimeType: 'application/zip' });
	const harness = t.harness({ options: { downloadFiles: true, binaryPropertyName: 'archive' } }, { binaryMode: 'filesystem' });
	await harness.activate();
	const service = Container.get(BinaryDataService);
	const store = jest.spyOn(service, 'store');
	t.sandbox.userSendMessage({ userId: sara.user_id, fileId: file.file_id, text: 'the archive' });
	const [item] = await received(harness, 1);
	expect(texts([item])).toEqual(['the archive']);
	// What reached the store was the response stream, not a Buffer collected first.
	expect(store).toHaveBeenCalledTimes(1);
	expect(Buffer.isBuffer(store.mock.calls[0][1])).toBe(false);
	const binary = item.binary!.archive;
	expect(binary.id).toMatch(/^filesystem(-v2)?:/);
	expect(binary).toMatchObject({ fileName: 'بایگانی.zip', mimeType: 'application/zip', bytes: data.length });
	expect((await service.getAsBuffer(binary)).equals(data)).toBe(true);
	expect(t.sandbox.requestsFor('download')).toHaveLength(1);
});

it('a download failing for a moment is tried again on the next read: the position waits, then the update comes once, with its file', async () => {
	const file = t.sandbox.addFile({ bytes: Buffer.from('payload'), name: 'p.txt', mimeType: 'text/plain' });
	const harness = t.harness({ options: { downloadFiles: true } });
	await harness.activate();
	const start = harness.nodeStaticData.cursor;
	// Every attempt of the first try (the transport makes four), none after.
	t.sandbox.injectFault({ kind: 'httpStatus', method: 'download', httpStatus: 503, times: 4 });
	t.sandbox.userSendMessage({ userId: sara.user_id, text: 'before' });
	t.sandbox.userSendMessage({ userId: sara.user_id, fileId: file.file_id, text: 'with file' });
	t.sandbox.userSendMessage({ userId: sara.user_id, text: 'after' });

	const items = await received(harness, 3, 30_000);
	expect(texts(items)).toEqual(['before', 'with file', 'after']);
	expect(Buffer.from(items[1].binary!.data.data, 'base64').toString()).toBe('payload');
	expect(items[1].json.file_error).toBeUndefined();
	expect(t.sandbox.requestsFor('download').map((entry) => entry.httpStatus)).toEqual([503, 503, 503, 503, 200]);
	// A failure that passed raises no alarm: no failed execution.
	expect(harness.failures).toEqual([]);
	expect(harness.nodeStaticData.cursor).not.toBe(start);
}, 60_000);

it('a download that keeps failing: after three tries the update goes out with file_error, the updates behind it follow, no alarm', async () => {
	const file = t.sandbox.addFile({ bytes: Buffer.from('payload'), name: 'p.txt', mimeType: 'text/plain' });
	// The default Interval (1 s), from which the waits between tries grow: the time below is what users get.
	const harness = t.harness({ options: { downloadFiles: true, interval: 1 } });
	await harness.activate();
	const start = harness.nodeStaticData.cursor;
	t.sandbox.injectFault({ kind: 'httpStatus', method: 'download', httpStatus: 503, times: -1 });
	const began = Date.now();
	t.sandbox.userSendMessage({ userId: sara.user_id, fileId: file.file_id, text: 'with file' });
	t.sandbox.userSendMessage({ userId: sara.user_id, text: 'after' });

	const items = await received(harness, 2, 60_000);
	expect(texts(items)).toEqual(['with file', 'after']);
	expect(items[0].binary).toBeUndefined();
	expect(items[0].json.file).toMatchObject({ file_id: file.file_id });
	expect(items[0].json.file_error).toMatch(/HTTP 503.*\(tried 3 times\)$/);
	// Three reads of the page, each with the transport's four attempts; held back seconds, not minutes.
	expect(t.sandbox.requestsFor('download')).toHaveLength(12);
	expect(Date.now() - began).toBeLessThan(30_000);
	expect(harness.failures).toEqual([]);
	expect(harness.nodeStaticData.cursor).not.toBe(start);
}, 90_000);

describe('Max File Size and Max Download Time', () => {
	afterEach(() => t.sandbox.configure({ fileSizeInMessages: 'string', downloadContentLength: true }));

	it.each(['string', 'number'] as const)(
		'a file above Max File Size by the size in its message (%s): not asked for; the item gives its size and the limit, the next update follows',
		async (style) => {
			t.sandbox.configure({ fileSizeInMessages: style });
			const big = t.sandbox.addFile({ bytes: pattern(600 * 1024), name: 'big.bin' });
			const harness = t.harness({ options: { downloadFiles: true, maxFileSize: 0.5 } });
			await harness.activate();
			t.sandbox.userSendMessage({ userId: sara.user_id, fileId: big.file_id, text: 'too big' });
			t.sandbox.userSendMessage({ userId: sara.user_id, text: 'after' });

			const items = await received(harness, 2);
			expect(texts(items)).toEqual(['too big', 'after']);
			expect(items[0].binary).toBeUndefined();
			expect(items[0].json.file_error).toBe('The file is 600 KB (614400 bytes), more than Max File Size (512 KB): not downloaded');
			expect(t.sandbox.requestsFor('getFile')).toHaveLength(0);
			expect(t.sandbox.requestsFor('download')).toHaveLength(0);
			expect(harness.failures).toEqual([]);
		},
	);

	it('by default, Max File Size is 20 MB and Max Download Time 120 s (what the docs say)', async () => {
		const options = triggerProperties.find((property) => property.name === 'options')?.options as INodeProperties[];
		const defaults = Object.fromEntries(options.filter((option) => /^max/.test(option.name)).map((option) => [option.name, option.default]));
		expect(defaults).toEqual({ maxDownloadTime: 120, maxFileSize: 20 });
		const justOver = t.sandbox.addFile({ bytes: Buffer.alloc(20 * 1024 * 1024 + 1), name: 'over.bin' });
		const harness = t.harness({ options: { downloadFiles: true } });
		await harness.activate();
		t.sandbox.userSendMessage({ userId: sara.user_id, fileId: justOver.file_id, text: 'over' });
		const [item] = await received(harness, 1);
		expect(item.json.file_error).toBe('The file is 20 MB (20971521 bytes), more than Max File Size (20 MB): not downloaded');
	});

	it('a file the message gives no size for: the file server\'s Content-Length decides, and the body is not read', async () => {
		t.sandbox.configure({ fileSizeInMessages: 'absent' });
		const bigBytes = pattern(24 * 1024 * 1024);
		const big = t.sandbox.addFile({ bytes: bigBytes, name: 'big.bin' });
		const small = t.sandbox.addFile({ bytes: Buffer.from('small'), name: 'small.txt', mimeType: 'text/plain' });
		const harness = t.harness({ options: { downloadFiles: true, maxFileSize: 1 } });
		await harness.activate();
		t.sandbox.userSendMessage({ userId: sara.user_id, fileId: big.file_id, text: 'too big' });
		t.sandbox.userSendMessage({ userId: sara.user_id, fileId: small.file_id, text: 'small' });

		const items = await received(harness, 2);
		expect(items[0].json.file).toEqual({ file_id: big.file_id, file_name: 'big.bin' });
		expect(items[0].json.file_error).toBe('The file server announced 24 MB (25165824 bytes), more than Max File Size (1 MB): not downloaded');
		expect(items[0].binary).toBeUndefined();
		expect(Buffer.from(items[1].binary!.data.data, 'base64').toString()).toBe('small');
		const [bigDownload] = t.sandbox.requestsFor('download');
		await t.sandbox.waitForRequest('download', { count: 2 });
		// The connection was closed: far from the whole file went out.
		expect(bigDownload.sentBytes).toBeLessThan(bigBytes.length / 2);
		expect(harness.failures).toEqual([]);
	});

	it('no size anywhere (no size in the message, no Content-Length), n8n keeping binary data on disk: the download stops once it runs past the limit, and n8n stores nothing', async () => {
		t.sandbox.configure({ fileSizeInMessages: 'absent', downloadContentLength: false });
		const bigBytes = pattern(24 * 1024 * 1024);
		const big = t.sandbox.addFile({ bytes: bigBytes, name: 'big.bin' });
		const harness = t.harness({ options: { downloadFiles: true, maxFileSize: 1 } }, { binaryMode: 'filesystem' });
		await harness.activate();
		// Spies stay on the service between tests: only this test's calls count.
		const store = jest.spyOn(Container.get(BinaryDataService), 'store');
		store.mockClear();
		t.sandbox.userSendMessage({ userId: sara.user_id, fileId: big.file_id, text: 'too big' });
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'after' });

		const items = await received(harness, 2);
		expect(texts(items)).toEqual(['too big', 'after']);
		expect(items[0].json.file_error).toMatch(/^The download ran past Max File Size \(1 MB\) and was stopped after 1(\.\d+)? MB: not downloaded$/);
		expect(items[0].binary).toBeUndefined();
		// n8n's store was given the stream, which failed at the limit: nothing stored.
		expect(store).toHaveBeenCalledTimes(1);
		await expect(store.mock.results[0].value).rejects.toThrow();
		await t.sandbox.waitForRequest('download');
		expect(t.sandbox.requestsFor('download')[0].sentBytes).toBeLessThan(bigBytes.length / 2);
		expect(harness.failures).toEqual([]);
	});

	it('a download slower than Max Download Time is stopped there; the item says so, the next update follows at once', async () => {
		const slowBytes = pattern(1024 * 1024);
		const slow = t.sandbox.addFile({ bytes: slowBytes, name: 'slow.bin' });
		const harness = t.harness({ options: { downloadFiles: true, maxDownloadTime: 1 } });
		await harness.activate();
		t.sandbox.injectFault({ kind: 'slow', method: 'download', bytesPerSecond: 50_000 });
		const began = Date.now();
		t.sandbox.userSendMessage({ userId: sara.user_id, fileId: slow.file_id, text: 'slow' });
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'after' });

		await harness.waitForExecutions(2, 10_000);
		expect(Date.now() - began).toBeLessThan(4_000);
		const items = await received(harness, 2);
		expect(texts(items)).toEqual(['slow', 'after']);
		expect(items[0].json.file_error).toBe('The download took longer than Max Download Time (1 s) and was stopped: not downloaded');
		expect(items[0].binary).toBeUndefined();
		// Not tried again: a slow file would be as slow the next time.
		await t.sandbox.waitForRequest('download');
		const downloads = t.sandbox.requestsFor('download');
		expect(downloads).toHaveLength(1);
		expect(downloads[0].sentBytes).toBeLessThan(slowBytes.length / 2);
		expect(harness.failures).toEqual([]);
	});

	it('stopping the trigger while a file downloads does not wait for the download; the update is read again next time', async () => {
		const slow = t.sandbox.addFile({ bytes: pattern(1024 * 1024), name: 'slow.bin' });
		const harness = t.harness({ options: { downloadFiles: true } });
		await harness.activate();
		const start = harness.nodeStaticData.cursor;
		t.sandbox.injectFault({ kind: 'slow', method: 'download', bytesPerSecond: 20_000 });
		t.sandbox.userSendMessage({ userId: sara.user_id, fileId: slow.file_id, text: 'slow' });
		while (t.sandbox.requestsFor('download').length === 0) await pauseMs(50);

		const stopping = Date.now();
		await harness.deactivate();
		expect(Date.now() - stopping).toBeLessThan(1_000);
		expect(harness.items).toEqual([]);
		expect(harness.nodeStaticData.cursor).toBe(start);
	});

	it('Max File Size that is not a number above 0 fails the activation, naming the field', async () => {
		const harness = t.harness({ options: { downloadFiles: true, maxFileSize: -1 } });
		await expect(harness.activate()).rejects.toThrow('Max File Size must be a number above 0; got -1');
		expect(t.sandbox.requestsFor('getUpdates')).toHaveLength(0);
	});
});

it('a file Rubika no longer has does not hold up the trigger: the item says why, and the position moves on', async () => {
	const file = t.sandbox.addFile({ bytes: Buffer.from('gone'), name: 'gone.txt' });
	const harness = t.harness({ options: { downloadFiles: true } });
	await harness.activate();
	const start = harness.nodeStaticData.cursor;
	t.sandbox.userSendMessage({ userId: sara.user_id, fileId: file.file_id, text: 'lost file' });
	t.sandbox.state.files.delete(file.file_id);
	const items = await received(harness, 1);
	expect(items).toHaveLength(1);
	expect(items[0].binary).toBeUndefined();
	expect(items[0].json.file_error).toMatch(/INVALID_INPUT/);
	expect(harness.failures).toEqual([]);
	expect(harness.nodeStaticData.cursor).not.toBe(start);
	// Asked once: the trigger did not try the lost file again.
	expect(fileIdsAsked()).toEqual([file.file_id]);
});

/**
 * Options → Download Files on the reading trigger: only updates that passed the filters are downloaded, into
 * the chosen binary field, streamed into n8n's store (also on disk, n8n's filesystem mode, as most production
 * instances keep binary data); a download that may work later holds the update back without losing or
 * repeating anything, and a file Rubika no longer has does not hold the trigger up.
 */
import { Container } from '@n8n/di';
import type { NodeApiError } from 'n8n-workflow';
import { BinaryDataService } from 'n8n-core';

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

it('a download that keeps failing for a while: one failed execution, the position kept; then the update comes once, with its file', async () => {
	const file = t.sandbox.addFile({ bytes: Buffer.from('payload'), name: 'p.txt', mimeType: 'text/plain' });
	const harness = t.harness({ options: { downloadFiles: true } });
	await harness.activate();
	const start = harness.nodeStaticData.cursor;
	t.sandbox.injectFault({ kind: 'httpStatus', method: 'download', httpStatus: 503, times: -1 });
	t.sandbox.userSendMessage({ userId: sara.user_id, text: 'before' });
	t.sandbox.userSendMessage({ userId: sara.user_id, fileId: file.file_id, text: 'with file' });
	const deadline = Date.now() + 45_000;
	while (harness.failures.length === 0 && Date.now() < deadline) await pauseMs(100);
	expect(harness.failures.map((failure) => failure.message)).toEqual([expect.stringMatching(/503/)]);
	expect((harness.failures[0] as NodeApiError).description).toMatch(/nothing is skipped/);
	// The message before it went out; the one with the file waits, and the cursor stays before both.
	expect(texts(harness.items)).toEqual(['before']);
	expect(harness.nodeStaticData.cursor).toBe(start);
	expect(harness.savedNodeStaticData.cursor).toBe(start);

	t.sandbox.clearFaults();
	const items = await received(harness, 2, 60_000);
	expect(texts(items)).toEqual(['before', 'with file']);
	expect(Buffer.from(items[1].binary!.data.data, 'base64').toString()).toBe('payload');
	expect(harness.failures).toHaveLength(1);
	expect(harness.nodeStaticData.cursor).not.toBe(start);
}, 120_000);

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

/**
 * Download Files on the polling trigger with n8n keeping binary data on disk ('filesystem' mode, as most
 * production instances do): the file must stream from the download into the store, never be collected
 * into one Buffer first.
 */
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';

import { pattern } from '../actions/helpers';
import { sara, texts, useSandbox } from './helpers';

const t = useSandbox();

test('a downloaded file streams into the store on disk with its bytes, the message file name and the MIME type', async () => {
	const data = pattern(1_500_000, 5);
	const file = t.sandbox.addFile({ bytes: data, name: 'بایگانی.zip', mimeType: 'application/zip' });
	t.sandbox.userSendMessage({ userId: sara.user_id, fileId: file.file_id, text: 'the archive' });
	const harness = t.harness(
		{ firstActivation: 'processBacklog', options: { downloadFiles: true, binaryPropertyName: 'archive' } },
		{ binaryMode: 'filesystem' },
	);
	const service = Container.get(BinaryDataService);
	const store = jest.spyOn(service, 'store');

	const result = await harness.tick();
	expect(result.error).toBeUndefined();
	expect(texts(result.items)).toEqual(['the archive']);
	// What reached the store was the response stream, not a Buffer collected first.
	expect(store).toHaveBeenCalledTimes(1);
	expect(Buffer.isBuffer(store.mock.calls[0][1])).toBe(false);
	const binary = result.items[0].binary!.archive;
	expect(binary.id).toMatch(/^filesystem(-v2)?:/);
	expect(binary).toMatchObject({ fileName: 'بایگانی.zip', mimeType: 'application/zip', bytes: data.length });
	expect((await service.getAsBuffer(binary)).equals(data)).toBe(true);
	expect(t.sandbox.requestsFor('download')).toHaveLength(1);
});

/**
 * Options → Download Files by webhook: the same option as by reading (same name, same binary
 * field, only after the filters, the same Max File Size and Max Download Time), with a delivery answered
 * before its file is downloaded, and a file that is not downloaded (too large, too slow, failing) reported on
 * the item instead of losing the message.
 */
import { DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import {
	OK_ANSWER,
	answer,
	answers,
	handled,
	harness,
	newMessageDelivery,
	sandbox,
	updateEndpointPath,
	useSandboxPerTest,
} from './helpers';

const { sara, reza } = DEMO_USERS;

useSandboxPerTest();

const DOWNLOAD_INTO_ATTACHMENT = { options: { downloadFiles: true, binaryPropertyName: 'attachment' } };

/** A user sends the bot a file, through the sandbox's admin HTTP API as the chat page does. */
async function userSendsFile(
	user: { user_id: string },
	file: { bytes: Buffer; name: string; mimeType: string },
	text?: string,
): Promise<{ file_id: string; message_id: string }> {
	const stored = await adminPost('/files', file.bytes, {
		'Content-Type': file.mimeType,
		'X-File-Name': encodeURIComponent(file.name),
	});
	const message = await adminPost(
		'/actions/send-message',
		Buffer.from(JSON.stringify({ userId: user.user_id, fileId: stored.file_id, text })),
		{ 'Content-Type': 'application/json' },
	);
	return { file_id: String(stored.file_id), message_id: String(message.message_id) };
}

async function adminPost(path: string, body: Buffer, headers: Record<string, string>): Promise<Record<string, unknown>> {
	const response = await fetch(`${sandbox.baseUrl}/_sandbox${path}`, { method: 'POST', headers, body });
	const parsed = (await response.json()) as Record<string, unknown>;
	if (!response.ok) throw new Error(`admin ${path}: ${JSON.stringify(parsed)}`);
	return parsed;
}

function fileIdsAskedFor(): string[] {
	return sandbox.requestsFor('getFile').map((entry) => (entry.body as { file_id: string }).file_id);
}

test('a file a user sends comes out as binary data with its bytes, name and MIME type', async () => {
	const trigger = await harness(DOWNLOAD_INTO_ATTACHMENT);
	await trigger.activate();
	const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x00, 0xff, 0xfe, 0x80, 0x0a]);
	const sent = await userSendsFile(sara, { bytes, name: 'گزارش فروش.pdf', mimeType: 'application/pdf' }, 'the report');

	const [item] = await handled(trigger);
	expect(item.json).toMatchObject({
		type: 'NewMessage',
		message_id: sent.message_id,
		text: 'the report',
		file: { file_id: sent.file_id, file_name: 'گزارش فروش.pdf', size: String(bytes.length) },
	});
	expect(item.json.file_error).toBeUndefined();
	expect(Object.keys(item.binary ?? {})).toEqual(['attachment']);
	expect(item.binary!.attachment).toMatchObject({ fileName: 'گزارش فروش.pdf', mimeType: 'application/pdf' });
	expect(Buffer.from(item.binary!.attachment.data, 'base64')).toEqual(bytes);
	expect(fileIdsAskedFor()).toEqual([sent.file_id]);
	expect(sandbox.requestsFor('download')).toHaveLength(1);

	expect(sandbox.deliveries.map((delivery) => [delivery.httpStatus, delivery.responseBody])).toEqual([[200, '{"status":"OK"}']]);
	expect(answers(trigger.served)).toEqual([OK_ANSWER]);
	expect(trigger.served.map((served) => served.startedExecution)).toEqual([true]);
});

test('without the option nothing is downloaded: the file is described in `file`, with no binary data', async () => {
	const trigger = await harness();
	await trigger.activate();
	const sent = await userSendsFile(sara, { bytes: Buffer.from('x'), name: 'x.bin', mimeType: 'application/octet-stream' });

	const [item] = await handled(trigger);
	expect(item.json.file).toEqual({ file_id: sent.file_id, file_name: 'x.bin', size: '1' });
	expect(item.binary).toBeUndefined();
	expect(sandbox.requestsFor('getFile')).toHaveLength(0);
	expect(sandbox.requestsFor('download')).toHaveLength(0);
	expect(answers(trigger.served)).toEqual([OK_ANSWER]);
});

test('filters run before any download: a filtered-out file is never asked for', async () => {
	const trigger = await harness({ ...DOWNLOAD_INTO_ATTACHMENT, filters: { chatIds: DEMO_GROUP_ID } });
	await trigger.activate();
	const privateFile = sandbox.addFile({ bytes: Buffer.from('private'), name: 'private.txt', mimeType: 'text/plain' });
	const groupFile = sandbox.addFile({ bytes: Buffer.from('for the group'), name: 'group.txt', mimeType: 'text/plain' });
	sandbox.userSendMessage({ userId: sara.user_id, fileId: privateFile.file_id, text: 'filtered out' });
	sandbox.userSendMessage({ userId: reza.user_id, chatId: DEMO_GROUP_ID, fileId: groupFile.file_id, text: 'in the group' });

	const items = await handled(trigger);
	expect(items.map((item) => item.json.text)).toEqual(['in the group']);
	expect(Buffer.from(items[0].binary!.attachment.data, 'base64').toString()).toBe('for the group');
	expect(fileIdsAskedFor()).toEqual([groupFile.file_id]);
	expect(sandbox.requestsFor('download')).toHaveLength(1);
	expect(answers(trigger.served)).toEqual([OK_ANSWER, OK_ANSWER]);
});

test('Rubika gets its answer before the download: a slow file does not hold it up', async () => {
	const trigger = await harness(DOWNLOAD_INTO_ATTACHMENT);
	await trigger.activate();
	sandbox.injectFault({ kind: 'delay', method: 'download', ms: 1500 });
	const file = sandbox.addFile({ bytes: Buffer.from('slow bytes'), name: 'slow.txt', mimeType: 'text/plain' });
	sandbox.userSendMessage({ userId: sara.user_id, fileId: file.file_id });

	// The delivery has its answer while the file is still on its way.
	await sandbox.deliveriesSettled();
	expect(sandbox.deliveries.map((delivery) => [delivery.httpStatus, delivery.responseBody])).toEqual([[200, '{"status":"OK"}']]);
	expect(trigger.executions).toHaveLength(0);

	const [item] = await handled(trigger);
	expect(Buffer.from(item.binary!.attachment.data, 'base64').toString()).toBe('slow bytes');
	expect(answers(trigger.served)).toEqual([OK_ANSWER]);
});

test('a delivery sent twice downloads once and starts one execution', async () => {
	sandbox.configure({ duplicateDeliveries: true });
	const trigger = await harness(DOWNLOAD_INTO_ATTACHMENT);
	await trigger.activate();
	const file = sandbox.addFile({ bytes: Buffer.from('once'), name: 'once.txt', mimeType: 'text/plain' });
	sandbox.userSendMessage({ userId: sara.user_id, fileId: file.file_id });

	const items = await handled(trigger);
	expect(sandbox.deliveries.map((delivery) => [delivery.duplicate, delivery.httpStatus])).toEqual([
		[false, 200],
		[true, 200],
	]);
	expect(items).toHaveLength(1);
	expect(Buffer.from(items[0].binary!.attachment.data, 'base64').toString()).toBe('once');
	expect(fileIdsAskedFor()).toEqual([file.file_id]);
	expect(answers(trigger.served)).toEqual([OK_ANSWER, OK_ANSWER]);
});

test('a download that keeps failing still starts the workflow, with file_error and no binary data; the event counts as delivered', async () => {
	const trigger = await harness(DOWNLOAD_INTO_ATTACHMENT);
	await trigger.activate();
	sandbox.injectFault({ kind: 'httpStatus', method: 'download', httpStatus: 503, times: -1 });
	const file = sandbox.addFile({ bytes: Buffer.from('unlucky'), name: 'unlucky.txt', mimeType: 'text/plain' });
	sandbox.userSendMessage({ userId: sara.user_id, fileId: file.file_id, text: 'with a file' });

	const [item] = await handled(trigger);
	expect(sandbox.deliveries.map((delivery) => [delivery.httpStatus, delivery.responseBody])).toEqual([[200, '{"status":"OK"}']]);
	expect(item.json).toMatchObject({ text: 'with a file', file: { file_id: file.file_id } });
	expect(item.json.file_error).toMatch(/503/);
	expect(item.binary).toBeUndefined();
	// Transient, so the transport tried again before giving up.
	expect(sandbox.requestsFor('download').length).toBeGreaterThan(1);

	// The same event again starts nothing: the workflow already has it.
	sandbox.clearFaults();
	const again = await trigger.post(updateEndpointPath(), sandbox.deliveries[0].body);
	expect(answer(again)).toEqual(OK_ANSWER);
	expect(trigger.executions).toHaveLength(1);
});

test('a file above Max File Size by the size in its message: answered at once, the item gives the size and the limit, nothing is asked for', async () => {
	const trigger = await harness({ options: { ...DOWNLOAD_INTO_ATTACHMENT.options, maxFileSize: 0.5 } });
	await trigger.activate();
	const big = sandbox.addFile({ bytes: Buffer.alloc(600 * 1024, 7), name: 'big.bin', mimeType: 'application/octet-stream' });
	sandbox.userSendMessage({ userId: sara.user_id, fileId: big.file_id, text: 'too big' });

	const [item] = await handled(trigger);
	expect(item.json.text).toBe('too big');
	expect(item.json.file_error).toBe('The file is 600 KB (614400 bytes), more than Max File Size (512 KB): not downloaded');
	expect(item.binary).toBeUndefined();
	expect(sandbox.requestsFor('getFile')).toHaveLength(0);
	expect(sandbox.requestsFor('download')).toHaveLength(0);
	expect(answers(trigger.served)).toEqual([OK_ANSWER]);
});

test('no size in the message and none announced: the download stops once it runs past Max File Size', async () => {
	sandbox.configure({ fileSizeInMessages: 'absent', downloadContentLength: false });
	const trigger = await harness({ options: { ...DOWNLOAD_INTO_ATTACHMENT.options, maxFileSize: 1 } });
	await trigger.activate();
	const bytes = Buffer.alloc(24 * 1024 * 1024, 7);
	const big = sandbox.addFile({ bytes, name: 'big.bin', mimeType: 'application/octet-stream' });
	sandbox.userSendMessage({ userId: sara.user_id, fileId: big.file_id, text: 'too big' });

	const [item] = await handled(trigger);
	expect(item.json.file).toEqual({ file_id: big.file_id, file_name: 'big.bin' });
	expect(item.json.file_error).toMatch(/^The download ran past Max File Size \(1 MB\) and was stopped after 1(\.\d+)? MB: not downloaded$/);
	expect(item.binary).toBeUndefined();
	const [download] = await sandbox.waitForRequest('download');
	expect(download.sentBytes).toBeLessThan(bytes.length / 2);
	expect(answers(trigger.served)).toEqual([OK_ANSWER]);
});

test('a download slower than Max Download Time is stopped there: the item says so', async () => {
	const trigger = await harness({ options: { ...DOWNLOAD_INTO_ATTACHMENT.options, maxDownloadTime: 1 } });
	await trigger.activate();
	sandbox.injectFault({ kind: 'slow', method: 'download', bytesPerSecond: 50_000 });
	const bytes = Buffer.alloc(1024 * 1024, 7);
	const slow = sandbox.addFile({ bytes, name: 'slow.bin', mimeType: 'application/octet-stream' });
	const began = Date.now();
	sandbox.userSendMessage({ userId: sara.user_id, fileId: slow.file_id, text: 'slow' });

	const [item] = await handled(trigger);
	expect(Date.now() - began).toBeLessThan(4_000);
	expect(item.json.file_error).toBe('The download took longer than Max Download Time (1 s) and was stopped: not downloaded');
	expect(item.binary).toBeUndefined();
	const [download] = await sandbox.waitForRequest('download');
	expect(download.sentBytes).toBeLessThan(bytes.length / 2);
	expect(sandbox.deliveries.map((delivery) => [delivery.httpStatus, delivery.responseBody])).toEqual([[200, '{"status":"OK"}']]);
});

test('a file Rubika no longer has: the item says why', async () => {
	const trigger = await harness(DOWNLOAD_INTO_ATTACHMENT);
	await trigger.activate();
	const file = sandbox.addFile({ bytes: Buffer.from('gone'), name: 'gone.txt', mimeType: 'text/plain' });
	sandbox.userSendMessage({ userId: sara.user_id, fileId: file.file_id, text: 'lost file' });
	// Gone before the trigger asks for it (the delivery is still on its way).
	sandbox.state.files.delete(file.file_id);

	const [item] = await handled(trigger);
	expect(item.binary).toBeUndefined();
	expect(item.json.file_error).toMatch(/INVALID_INPUT/);
	expect(sandbox.requestsFor('download')).toHaveLength(0);
	expect(answers(trigger.served)).toEqual([OK_ANSWER]);
});

test('with the option on, a message without a file is answered by n8n as before: if n8n cannot start the execution, the event is taken back', async () => {
	const trigger = await harness(DOWNLOAD_INTO_ATTACHMENT);
	await trigger.activate();
	const update = newMessageDelivery('701', 'no file here');
	trigger.failStartingExecutions = true;
	expect((await trigger.post(updateEndpointPath(), update)).status).toBe(500);
	trigger.failStartingExecutions = false;
	expect(answer(await trigger.post(updateEndpointPath(), update))).toEqual(OK_ANSWER);
	expect(trigger.executions.map((execution) => execution.items[0].json.text)).toEqual(['no file here']);
	expect(trigger.executions[0].items[0].binary).toBeUndefined();
	expect(sandbox.requestsFor('getFile')).toHaveLength(0);
});

test('Download Files with an empty Put Output in Field fails the activation before anything is registered', async () => {
	const trigger = await harness({ options: { downloadFiles: true, binaryPropertyName: ' ' } });
	await expect(trigger.activate()).rejects.toThrow(/Put Output in Field is required when Download Files is on/);
	expect(sandbox.requestsFor('updateBotEndpoints')).toHaveLength(0);
});

/**
 * B3: memory of one large upload. One case per process (peaks must not mix), the sandbox in another one.
 *
 * - node-default:    Send File from binary data n8n keeps in memory (base64 in the item, as n8n's 'default' mode);
 * - node-filesystem: the same with n8n's 'filesystem' mode (binary data on disk, streamed back by n8n);
 * - raw-buffer:      baseline for memory mode: the file already in a Buffer, POSTed with node:http;
 * - raw-stream:      baseline for filesystem mode: the file on disk, piped into the POST with fs streams.
 *
 * All four do requestSendFile → multipart POST to the upload address → sendFile. The measured phase is the
 * node's execute() (the input node that stores the binary data runs before it) or the raw calls; it starts
 * after a full GC, so growth is what the upload itself needs on top of what the process already held.
 */
import { randomFillSync } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

import type { IExecuteFunctions, INodeType } from 'n8n-workflow';

import { Rubika } from '../../nodes/Rubika/Rubika.node';
import { DEMO_USERS } from '../../sandbox';
import { runNode, useBinaryMode } from '../../test/harness/n8n';
import type { PhaseMemory, SamplingKind } from '../lib/memory';
import { PhaseSampler, collectGarbage } from '../lib/memory';
import { ensureSendFile } from '../lib/operations';
import { caseMain } from '../lib/proc';
import { envelopeData, keepAliveAgent, postJson } from '../lib/rawHttp';
import { SandboxProcess } from '../lib/sandboxProcess';
import { elapsedMs } from '../lib/stats';

export type UploadMode = 'node-default' | 'node-filesystem' | 'raw-buffer' | 'raw-stream';

interface Input {
	mode: UploadMode;
	sizeBytes: number;
	sampling: SamplingKind;
}

export interface B3Result {
	mode: UploadMode;
	sampling: SamplingKind;
	sizeBytes: number;
	ms: number;
	memory: PhaseMemory;
	/** What the sandbox stored, to prove the whole file arrived. */
	storedBytes: number;
}

const CHAT = DEMO_USERS.reza.chat_id;
const FILE_NAME = 'bench.bin';
const MIME = 'application/octet-stream';

caseMain<Input, B3Result>(async ({ mode, sizeBytes, sampling }) => {
	const sandbox = await SandboxProcess.start();
	const scratch = mkdtempSync(join(tmpdir(), 'rubika-bench-upload-'));
	try {
		// Random bytes: nothing on the way may shrink them.
		let file: Buffer | undefined = randomFillSync(Buffer.allocUnsafe(sizeBytes));
		const sampler = new PhaseSampler(sampling);
		let memory: PhaseMemory | undefined;
		let fileId: string;
		let ms: number;

		if (mode === 'node-default' || mode === 'node-filesystem') {
			ensureSendFile();
			await useBinaryMode(mode === 'node-default' ? 'default' : 'filesystem');
			const rubika = new Rubika();
			let started = 0n;
			// The node under test, with the measured phase wrapped around its execute().
			const measured: INodeType = {
				description: rubika.description,
				execute: async function (this: IExecuteFunctions) {
					sampler.begin();
					started = process.hrtime.bigint();
					try {
						return await rubika.execute.call(this);
					} finally {
						ms = elapsedMs(started);
						memory = sampler.end();
					}
				},
			};
			const result = await runNode({
				nodeType: measured,
				parameters: { resource: 'message', operation: 'sendFile', chatId: CHAT, fileSource: 'binary', fileType: 'File' },
				credentials: sandbox.credentials,
				items: [{ json: {}, binary: { data: { data: file, fileName: FILE_NAME, mimeType: MIME } } }],
			});
			if (result.error) throw result.error;
			fileId = String(result.items[0].json.file_id);
		} else {
			const api = (method: string) => `${sandbox.baseUrl}/v3/${sandbox.token}/${method}`;
			const agent = keepAliveAgent();
			let source: string | undefined;
			if (mode === 'raw-stream') {
				// On disk like n8n's filesystem mode; the Buffer is dropped so only the stream holds bytes.
				source = join(scratch, FILE_NAME);
				writeFileSync(source, file);
				file = undefined;
				collectGarbage();
			}
			sampler.begin();
			const start = process.hrtime.bigint();
			const { upload_url: uploadUrl } = envelopeData('requestSendFile', await postJson(api('requestSendFile'), { type: 'File' }, agent));
			fileId = await rawUpload(String(uploadUrl), sizeBytes, file, source);
			envelopeData('sendFile', await postJson(api('sendFile'), { chat_id: CHAT, file_id: fileId }, agent));
			ms = elapsedMs(start);
			memory = sampler.end();
			agent.destroy();
		}
		const stored = await sandbox.call<{ size: number } | null>('file', { fileId });
		if (!memory) throw new Error('the measured phase did not run');
		return { mode, sampling, sizeBytes, ms: ms!, memory, storedBytes: stored?.size ?? 0 };
	} finally {
		rmSync(scratch, { recursive: true, force: true });
		await sandbox.close();
	}
});

/** One multipart/form-data POST with a single `file` part, from a Buffer or streamed from a file. */
async function rawUpload(url: string, size: number, buffer: Buffer | undefined, path: string | undefined): Promise<string> {
	const boundary = `----bench${Date.now().toString(16)}`;
	const head = Buffer.from(
		`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${FILE_NAME}"\r\nContent-Type: ${MIME}\r\n\r\n`,
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
	const answer = new Promise<string>((resolve, reject) => {
		const request = http.request(url, {
			method: 'POST',
			headers: {
				'Content-Type': `multipart/form-data; boundary=${boundary}`,
				'Content-Length': String(head.length + size + tail.length),
			},
		});
		request.on('response', (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () => {
				try {
					const data = envelopeData('upload', { json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
					resolve(String(data.file_id));
				} catch (error) {
					reject(error);
				}
			});
		});
		request.on('error', reject);
		request.write(head);
		if (buffer) {
			request.write(buffer);
			request.end(tail);
		} else {
			const stream = createReadStream(path as string);
			pipeline(stream, request, { end: false })
				.then(() => request.end(tail))
				.catch(reject);
		}
	});
	return await answer;
}

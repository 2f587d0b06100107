/**
 * B3: memory of one large upload. One case per process (peaks must not mix), the sandbox in another one.
 *
 * - node-default:    Send File from binary data n8n keeps in memory (base64 in the item, as n8n's 'default' mode);
 * - node-filesystem: the same with n8n's 'filesystem' mode (binary data on disk, streamed back by n8n);
 * - raw-buffer:      baseline for memory mode: the file already in a Buffer, POSTed with node:http;
 * - raw-stream:      baseline for filesystem mode: the file on disk, piped into the POST with fs streams;
 * - node-url:        Send File with File Source "URL": a file server in this process streams the file from disk,
 *                    the node downloads it and streams it on to the upload address;
 * - raw-url:         baseline for the URL source: a node:http GET of the same server piped into the POST.
 *
 * All six do requestSendFile → multipart POST to the upload address → sendFile. The measured phase is the
 * node's execute() (the input node that stores the binary data runs before it) or the raw calls; it starts
 * after a full GC, so growth is what the upload itself needs on top of what the process already held. The
 * file server of the two URL cases runs in the measured process (its read buffers are counted in both).
 */
import { randomFillSync } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

import type { IExecuteFunctions, INodeType } from 'n8n-workflow';

import { Rubika } from '../../nodes/Rubika/Rubika.node';
import { DEMO_USERS } from '../../sandbox';
import { runNode, useBinaryMode } from '../../tooling/harness/n8n';
import type { PhaseMemory, SamplingKind } from '../lib/memory';
import { PhaseSampler, collectGarbage } from '../lib/memory';
import { ensureSendFile } from '../lib/operations';
import { caseMain } from '../lib/proc';
import { envelopeData, freshConnectionAgent, postJson } from '../lib/rawHttp';
import { SandboxProcess } from '../lib/sandboxProcess';
import { elapsedMs } from '../lib/stats';

export type UploadMode = 'node-default' | 'node-filesystem' | 'raw-buffer' | 'raw-stream' | 'node-url' | 'raw-url';

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
	let fileServer: http.Server | undefined;
	try {
		// Random bytes: nothing on the way may shrink them.
		let file: Buffer | undefined = randomFillSync(Buffer.allocUnsafe(sizeBytes));
		const sampler = new PhaseSampler(sampling);
		let memory: PhaseMemory | undefined;
		let fileId: string;
		let ms: number;
		const onDisk = join(scratch, FILE_NAME);
		let fileUrl: string | undefined;
		if (mode === 'raw-stream' || mode === 'node-url' || mode === 'raw-url') {
			// On disk like n8n's filesystem mode (or a web server's files); the Buffer is dropped so only streams hold bytes.
			writeFileSync(onDisk, file);
			file = undefined;
			collectGarbage();
		}
		if (mode === 'node-url' || mode === 'raw-url') {
			fileServer = await serveFile(onDisk, sizeBytes);
			fileUrl = `http://127.0.0.1:${(fileServer.address() as AddressInfo).port}/files/${FILE_NAME}`;
		}

		if (mode === 'node-default' || mode === 'node-filesystem' || mode === 'node-url') {
			ensureSendFile();
			await useBinaryMode(mode === 'node-filesystem' ? 'filesystem' : 'default');
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
				parameters: fileUrl
					? { resource: 'message', operation: 'sendFile', chatId: CHAT, fileSource: 'url', fileUrl, fileType: 'File' }
					: { resource: 'message', operation: 'sendFile', chatId: CHAT, fileSource: 'binary', fileType: 'File' },
				credentials: sandbox.credentials,
				items: fileUrl ? [{ json: {} }] : [{ json: {}, binary: { data: { data: file!, fileName: FILE_NAME, mimeType: MIME } } }],
			});
			if (result.error) throw result.error;
			fileId = String(result.items[0].json.file_id);
		} else {
			const api = (method: string) => `${sandbox.baseUrl}/v3/${sandbox.token}/${method}`;
			// A connection per call: the upload between the two calls outlasts the sandbox's keep-alive timeout, and
			// reusing the idle connection then races the sandbox closing it ("socket hang up" in the slow live runs).
			const agent = freshConnectionAgent();
			const url = fileUrl;
			const source: Buffer | (() => Promise<Readable>) =
				file ?? (url ? async () => await getStream(url) : async () => createReadStream(onDisk));
			sampler.begin();
			const start = process.hrtime.bigint();
			const { upload_url: uploadUrl } = envelopeData('requestSendFile', await postJson(api('requestSendFile'), { type: 'File' }, agent));
			fileId = await rawUpload(String(uploadUrl), sizeBytes, source);
			envelopeData('sendFile', await postJson(api('sendFile'), { chat_id: CHAT, file_id: fileId }, agent));
			ms = elapsedMs(start);
			memory = sampler.end();
			agent.destroy();
		}
		const stored = await sandbox.call<{ size: number } | null>('file', { fileId });
		if (!memory) throw new Error('the measured phase did not run');
		return { mode, sampling, sizeBytes, ms: ms!, memory, storedBytes: stored?.size ?? 0 };
	} finally {
		fileServer?.closeAllConnections();
		await new Promise((resolve) => (fileServer ? fileServer.close(resolve) : resolve(undefined)));
		rmSync(scratch, { recursive: true, force: true });
		await sandbox.close();
	}
});

/** A web server with one file, streamed from disk with its Content-Length (what the URL source needs). */
async function serveFile(path: string, size: number): Promise<http.Server> {
	const server = http.createServer((_req, res) => {
		res.writeHead(200, { 'Content-Type': MIME, 'Content-Length': String(size) });
		pipeline(createReadStream(path), res).catch(() => res.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return server;
}

/** A GET's response body, as a stream. */
function getStream(url: string): Promise<Readable> {
	return new Promise((resolve, reject) => {
		http
			.get(url, (response) => (response.statusCode === 200 ? resolve(response) : reject(new Error(`GET ${url}: HTTP ${response.statusCode}`))))
			.on('error', reject);
	});
}

/** One multipart/form-data POST with a single `file` part, from a Buffer or piped from a stream. */
async function rawUpload(url: string, size: number, source: Buffer | (() => Promise<Readable>)): Promise<string> {
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
		if (Buffer.isBuffer(source)) {
			request.write(source);
			request.end(tail);
		} else {
			source()
				.then(async (stream) => await pipeline(stream, request, { end: false }))
				.then(() => request.end(tail))
				.catch(reject);
		}
	});
	return await answer;
}

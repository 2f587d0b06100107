/**
 * The file addresses: `POST /upload/<slot>` (from requestSendFile) and `GET /files/<file_id>/<name>`
 * (from getFile). Neither carries the token — the random address is the credential (facts §6).
 *
 * Uploads are parsed as they stream in and refused the moment the `file` part grows past the limit for
 * the requested type, without waiting for (or storing) the rest.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Answer } from './answers';
import { answerWithFault, envelope, faultNeedsEffect } from './answers';
import type { SandboxConfig } from './config';
import type { FaultQueue } from './faults';
import { send, sleep } from './http';
import { boundaryOf, MultipartError, MultipartParser } from './multipart';
import type { RequestLog } from './requestLog';
import type { SandboxState, UploadSlot } from './state';

/** What the file routes touch; the sandbox provides it. */
export interface FilesContext {
	/** Upload slots (used once) and the file store. */
	readonly state: SandboxState;
	/** errorHttpStatus and fileSizeLimits. */
	readonly config: SandboxConfig;
	readonly requestLog: Pick<RequestLog, 'start' | 'finish'>;
	readonly faults: Pick<FaultQueue, 'take'>;
}

/** Non-file parts are not expected; a little slack for form fields some clients add. */
const MAX_OTHER_PART_BYTES = 64 * 1024;

class FileTooLargeError extends Error {}

export async function handleUpload(context: FilesContext, req: IncomingMessage, res: ServerResponse, slotId: string): Promise<void> {
	const slot = context.state.uploadSlots.get(slotId);
	const entry = context.requestLog.start({
		method: 'upload',
		path: '/upload/<slot>',
		body: null,
		tokenValid: null,
		botId: slot?.botId ?? null,
		at: Date.now(),
	});
	const reply = (answer: Answer | null, fault?: string) => {
		context.requestLog.finish(entry, answer, fault);
		if (!answer) {
			req.socket.destroy();
			return;
		}
		// Whatever of the body is still coming is read and thrown away; the connection is not reused.
		const draining = !req.complete;
		if (draining) req.resume();
		send(res, answer.httpStatus, answer.body, answer.contentType, { ...answer.headers, ...(draining ? { Connection: 'close' } : {}) });
	};

	const fault = context.faults.take({ kind: 'upload' });
	if (fault?.kind === 'delay') await sleep(fault.ms ?? 0);
	if (fault && fault.kind !== 'delay' && !faultNeedsEffect(fault)) {
		reply(answerWithFault(fault, () => failure(context, 'unreachable')), fault.kind);
		return;
	}
	if (req.method !== 'POST') {
		reply(failure(context, 'upload with POST'));
		return;
	}
	if (!slot) {
		reply(failure(context, 'this upload address is unknown or was already used'));
		return;
	}
	const outcome = await receiveUpload(context, req, slot, (summary) => (entry.body = summary));
	if (fault) reply(answerWithFault(fault, () => outcome), fault.kind);
	else reply(outcome);
}

function failure(context: FilesContext, devMessage: string): Answer {
	return envelope(context.config.errorHttpStatus, { status: 'INVALID_INPUT', dev_message: devMessage }, false);
}

interface UploadSummary {
	type: string;
	file_name: string | null;
	content_type: string | null;
	/** Bytes of the file part received (so far, when refused). */
	size: number;
}

/** Resolves as soon as the answer is known, which for a too-large file is before the body has ended. */
function receiveUpload(
	context: FilesContext,
	req: IncomingMessage,
	slot: UploadSlot,
	summarize: (summary: UploadSummary) => void,
): Promise<Answer> {
	return new Promise((resolve) => {
		const summary: UploadSummary = { type: slot.type, file_name: null, content_type: null, size: 0 };
		summarize(summary);
		let settled = false;
		const done = (answer: Answer) => {
			if (settled) return;
			settled = true;
			resolve(answer);
		};
		const boundary = boundaryOf(req.headers['content-type']);
		if (!boundary) {
			done(failure(context, 'the upload must be multipart/form-data with a boundary'));
			return;
		}
		const limit = context.config.fileSizeLimits[slot.type];
		const chunks: Buffer[] = [];
		let filePartCount = 0;
		let inFilePart = false;
		let fileComplete = false;
		let otherBytes = 0;
		const parser = new MultipartParser(boundary, {
			onPartBegin(part) {
				inFilePart = part.name === 'file';
				if (!inFilePart) return;
				filePartCount++;
				if (filePartCount > 1) throw new MultipartError('more than one part is named file');
				summary.file_name = part.filename ?? null;
				summary.content_type = part.contentType ?? null;
			},
			onPartData(chunk) {
				if (inFilePart) {
					summary.size += chunk.length;
					if (summary.size > limit) throw new FileTooLargeError();
					chunks.push(chunk);
				} else {
					otherBytes += chunk.length;
					if (otherBytes > MAX_OTHER_PART_BYTES) throw new MultipartError('parts other than file are too large');
				}
			},
			onPartEnd() {
				if (inFilePart) fileComplete = true;
				inFilePart = false;
			},
		});
		const refuse = (error: unknown) => {
			chunks.length = 0;
			if (error instanceof FileTooLargeError) {
				done(failure(context, `the file is larger than ${limit} bytes, the limit for type ${slot.type}`));
			} else if (error instanceof MultipartError) {
				done(failure(context, `malformed multipart body: ${error.message}`));
			} else {
				done(failure(context, `upload failed: ${String(error)}`));
			}
		};
		req.on('data', (chunk: Buffer) => {
			if (settled) return;
			try {
				parser.write(chunk);
			} catch (error) {
				refuse(error);
			}
		});
		req.on('end', () => {
			if (settled) return;
			try {
				parser.end();
			} catch (error) {
				refuse(error);
				return;
			}
			if (!fileComplete) {
				done(failure(context, 'the multipart body has no part named file'));
				return;
			}
			// Used once: a second POST to the same address is refused.
			context.state.uploadSlots.delete(slot.id);
			const file = context.state.addFile({
				bytes: Buffer.concat(chunks),
				file_name: summary.file_name || 'file',
				mime_type: summary.content_type ?? undefined,
				type: slot.type,
			});
			done(envelope(200, { status: 'OK', data: { file_id: file.file_id } }, false));
		});
		req.on('error', () => done(failure(context, 'the upload was interrupted')));
	});
}

export async function handleDownload(context: FilesContext, req: IncomingMessage, res: ServerResponse, fileId: string): Promise<void> {
	const entry = context.requestLog.start({
		method: 'download',
		path: '/files/<file>',
		body: null,
		tokenValid: null,
		botId: null,
		at: Date.now(),
	});
	// A download's log entry keeps no envelope status, whatever the answer.
	const finish = (httpStatus: number | null, fault?: string) =>
		context.requestLog.finish(entry, httpStatus === null ? null : { httpStatus }, fault);
	const file = context.state.files.get(fileId);
	const fault = context.faults.take({ kind: 'download' });
	if (fault?.kind === 'delay') await sleep(fault.ms ?? 0);
	if (fault && fault.kind !== 'delay' && fault.kind !== 'truncated' && fault.kind !== 'slow') {
		const answer = answerWithFault(fault, () => failure(context, 'unreachable'));
		finish(answer?.httpStatus ?? null, fault.kind);
		if (answer) send(res, answer.httpStatus, answer.body, answer.contentType, answer.headers);
		else req.socket.destroy();
		return;
	}
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		finish(405);
		send(res, 405, 'Method Not Allowed', 'text/plain; charset=utf-8');
		return;
	}
	if (!file) {
		finish(404);
		send(res, 404, JSON.stringify({ status: 'INVALID_INPUT', dev_message: 'file not found' }));
		return;
	}
	const length = context.config.downloadContentLength ? { 'Content-Length': String(file.bytes.length) } : {};
	res.writeHead(200, {
		'Content-Type': file.mime_type,
		...length,
		'Content-Disposition': contentDisposition(file.file_name),
	});
	if (req.method === 'HEAD') {
		finish(200, fault?.kind);
		res.end();
		return;
	}
	// Promise the whole file, send half, then cut the connection.
	const cutAt = fault?.kind === 'truncated' ? Math.floor(file.bytes.length / 2) : undefined;
	entry.sentBytes = 0;
	await sendBody(res, file.bytes, {
		cutAt,
		bytesPerSecond: fault?.kind === 'slow' ? fault.bytesPerSecond : undefined,
		sent: (bytes) => (entry.sentBytes = bytes),
	});
	finish(200, fault?.kind);
}

/** Chunks of a download's body: small enough that a client stopping early is seen, big enough to be cheap. */
const DOWNLOAD_CHUNK_BYTES = 64 * 1024;

/**
 * Writes the body chunk by chunk, each once the one before has gone out (so `sent` counts what left, and a
 * client that stops reading or goes away stops it), at `bytesPerSecond` if given (a tenth of it ten times a
 * second), up to `cutAt` bytes if given (then the connection is cut).
 */
async function sendBody(
	res: ServerResponse,
	bytes: Buffer,
	options: { cutAt?: number; bytesPerSecond?: number; sent: (bytes: number) => void },
): Promise<void> {
	const end = options.cutAt ?? bytes.length;
	const chunkBytes = options.bytesPerSecond ? Math.max(1, Math.floor(options.bytesPerSecond / 10)) : DOWNLOAD_CHUNK_BYTES;
	let offset = 0;
	let closed = false;
	res.once('close', () => (closed = true));
	while (offset < end && !closed) {
		const chunk = bytes.subarray(offset, Math.min(end, offset + chunkBytes));
		// A chunk still queued when the client goes away may never call back: 'close' ends the wait too.
		const written = await new Promise<boolean>((resolve) => {
			const gone = () => resolve(false);
			res.once('close', gone);
			res.write(chunk, (error) => {
				res.off('close', gone);
				resolve(!error);
			});
		});
		if (!written) break;
		offset += chunk.length;
		options.sent(offset);
		if (options.bytesPerSecond && offset < end) await sleep(100);
	}
	if (closed || offset < end) return;
	if (options.cutAt !== undefined) res.destroy();
	else await new Promise<void>((resolve) => res.end(resolve));
}

/** `attachment; filename="…"`, plus RFC 5987 `filename*=UTF-8''…` when the name is not plain ASCII. */
function contentDisposition(name: string): string {
	const ascii = /^[\x20-\x7e]*$/.test(name);
	const fallback = (ascii ? name : name.replace(/[^\x20-\x7e]/g, '_')).replace(/["\\]/g, '\\$&');
	if (ascii) return `attachment; filename="${fallback}"`;
	const encoded = encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
	return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

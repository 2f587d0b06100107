/**
 * The file addresses: `POST /upload/<slot>` (from requestSendFile) and `GET /files/<file_id>/<name>`
 * (from getFile). Neither carries the token — the random address is the credential (facts §6).
 *
 * Uploads are parsed as they stream in and refused the moment the `file` part grows past the limit for
 * the requested type, without waiting for (or storing) the rest.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Answer } from './api';
import { answerWithFault, envelope, faultNeedsEffect } from './api';
import { send, sleep } from './http';
import { boundaryOf, MultipartError, MultipartParser } from './multipart';
import type { RubikaSandbox } from './server';
import type { UploadSlot } from './state';

/** Non-file parts are not expected; a little slack for form fields some clients add. */
const MAX_OTHER_PART_BYTES = 64 * 1024;

class FileTooLargeError extends Error {}

export async function handleUpload(sandbox: RubikaSandbox, req: IncomingMessage, res: ServerResponse, slotId: string): Promise<void> {
	const received = Date.now();
	const slot = sandbox.state.uploadSlots.get(slotId);
	const entry = sandbox.logRequest({
		method: 'upload',
		path: '/upload/<slot>',
		body: null,
		tokenValid: null,
		botId: slot?.botId ?? null,
		at: received,
	});
	const reply = (answer: Answer | null, fault?: string) => {
		entry.httpStatus = answer?.httpStatus ?? null;
		entry.status = answer?.status ?? null;
		entry.durationMs = Date.now() - received;
		if (fault) entry.fault = fault;
		if (!answer) {
			req.socket.destroy();
			return;
		}
		// Whatever of the body is still coming is read and thrown away; the connection is not reused.
		const draining = !req.complete;
		if (draining) req.resume();
		send(res, answer.httpStatus, answer.body, answer.contentType, { ...answer.headers, ...(draining ? { Connection: 'close' } : {}) });
	};

	const fault = sandbox.faults.take({ kind: 'upload' });
	if (fault?.kind === 'delay') await sleep(fault.ms ?? 0);
	if (fault && fault.kind !== 'delay' && !faultNeedsEffect(fault)) {
		reply(answerWithFault(fault, () => failure(sandbox, 'unreachable')), fault.kind);
		return;
	}
	if (req.method !== 'POST') {
		reply(failure(sandbox, 'upload with POST'));
		return;
	}
	if (!slot) {
		reply(failure(sandbox, 'this upload address is unknown or was already used'));
		return;
	}
	const outcome = await receiveUpload(sandbox, req, slot, (summary) => (entry.body = summary));
	if (fault) reply(answerWithFault(fault, () => outcome), fault.kind);
	else reply(outcome);
}

function failure(sandbox: RubikaSandbox, devMessage: string): Answer {
	return envelope(sandbox.config.errorHttpStatus, { status: 'INVALID_INPUT', dev_message: devMessage }, false);
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
	sandbox: RubikaSandbox,
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
			done(failure(sandbox, 'the upload must be multipart/form-data with a boundary'));
			return;
		}
		const limit = sandbox.config.fileSizeLimits[slot.type];
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
				done(failure(sandbox, `the file is larger than ${limit} bytes, the limit for type ${slot.type}`));
			} else if (error instanceof MultipartError) {
				done(failure(sandbox, `malformed multipart body: ${error.message}`));
			} else {
				done(failure(sandbox, `upload failed: ${String(error)}`));
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
				done(failure(sandbox, 'the multipart body has no part named file'));
				return;
			}
			// Used once: a second POST to the same address is refused.
			sandbox.state.uploadSlots.delete(slot.id);
			const file = sandbox.state.addFile({
				bytes: Buffer.concat(chunks),
				file_name: summary.file_name || 'file',
				mime_type: summary.content_type ?? undefined,
				type: slot.type,
			});
			done(envelope(200, { status: 'OK', data: { file_id: file.file_id } }, false));
		});
		req.on('error', () => done(failure(sandbox, 'the upload was interrupted')));
	});
}

export async function handleDownload(sandbox: RubikaSandbox, req: IncomingMessage, res: ServerResponse, fileId: string): Promise<void> {
	const received = Date.now();
	const entry = sandbox.logRequest({
		method: 'download',
		path: '/files/<file>',
		body: null,
		tokenValid: null,
		botId: null,
		at: received,
	});
	const finish = (httpStatus: number | null, fault?: string) => {
		entry.httpStatus = httpStatus;
		entry.durationMs = Date.now() - received;
		if (fault) entry.fault = fault;
	};
	const file = sandbox.state.files.get(fileId);
	const fault = sandbox.faults.take({ kind: 'download' });
	if (fault?.kind === 'delay') await sleep(fault.ms ?? 0);
	if (fault && fault.kind !== 'delay' && fault.kind !== 'truncated') {
		const answer = answerWithFault(fault, () => failure(sandbox, 'unreachable'));
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
	finish(200, fault?.kind);
	res.writeHead(200, {
		'Content-Type': file.mime_type,
		'Content-Length': String(file.bytes.length),
		'Content-Disposition': contentDisposition(file.file_name),
	});
	if (req.method === 'HEAD') {
		res.end();
		return;
	}
	if (fault?.kind === 'truncated') {
		// Promise the whole file, send half, then cut the connection.
		res.write(file.bytes.subarray(0, Math.floor(file.bytes.length / 2)), () => res.destroy());
		return;
	}
	res.end(file.bytes);
}

/** `attachment; filename="…"`, plus RFC 5987 `filename*=UTF-8''…` when the name is not plain ASCII. */
export function contentDisposition(name: string): string {
	const ascii = /^[\x20-\x7e]*$/.test(name);
	const fallback = (ascii ? name : name.replace(/[^\x20-\x7e]/g, '_')).replace(/["\\]/g, '\\$&');
	if (ascii) return `attachment; filename="${fallback}"`;
	const encoded = encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
	return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * File transfers: streaming an upload to an `upload_url` and a download from a `download_url`, through the same
 * retry loop as the Bot API calls. Neither passes the rate-limit gate: the limit belongs to the bot token,
 * which these addresses do not carry. Also the one request that is not to Rubika: opening a file at an
 * address the user gives (`openFileUrl`), sent without the credential.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { UploadResult } from '../types';
import type { RubikaContext } from './credential';
import { readEnvelope } from './envelope';
import type { RawResponse } from './failures';
import { AttemptFailure, httpFailure } from './failures';
import type { CallOptions } from './retry';
import { sendWithRetries } from './retry';
import { retryable } from './retryPolicy';

/**
 * A transfer may take long: ten minutes per attempt. The Rubika node's Timeout is for one answer of the Bot API
 * and does not apply; its retries do.
 */
const TRANSFER_TIMEOUT_MS = 10 * 60_000;

/** Streams a file to an `upload_url` as multipart/form-data with one part named `file`. */
export async function uploadToRubika(
	context: RubikaContext,
	uploadUrl: string,
	file: { fileName: string; mimeType: string; size: number; content: () => AsyncIterable<Uint8Array> },
	options: CallOptions = {},
): Promise<UploadResult> {
	const boundary = `----n8nRubika${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
	const safeName = file.fileName.replace(/["\r\n]/g, '_');
	const head = Buffer.from(
		`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${safeName}"\r\n` +
			`Content-Type: ${file.mimeType || 'application/octet-stream'}\r\n\r\n`,
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
	// A Blob-shaped body: axios streams it chunk by chunk with a known Content-Length, so neither a
	// Buffer nor a disk-backed file is copied into one more whole-file buffer. A fresh one per attempt,
	// because a stream cannot be replayed.
	const makeBody = () => ({
		[Symbol.toStringTag]: 'Blob',
		size: head.length + file.size + tail.length,
		type: `multipart/form-data; boundary=${boundary}`,
		async *stream() {
			yield head;
			yield* file.content();
			yield tail;
		},
	});
	const label = 'upload';
	return (await sendWithRetries(
		context,
		label,
		() => ({
			method: 'POST',
			url: uploadUrl,
			body: makeBody() as unknown as IDataObject,
			// Following redirects makes n8n's HTTP client keep every chunk sent until the answer arrives (to be
			// able to replay the body), which holds a whole second copy of a file streamed from disk.
			disableFollowRedirect: true,
		}),
		{ ...options, timeoutMs: TRANSFER_TIMEOUT_MS },
		(response) => readEnvelope(label, response),
	)) as UploadResult;
}

/** A response body n8n can store as binary data as it arrives (a Node stream; typed without importing one). */
export type DownloadStream = Exclude<Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0], Buffer>;

/**
 * Streams a `download_url` into `consume` (e.g. n8n's binary store), so a large file is never held whole in
 * memory here. `consume` runs inside the retry loop: a connection cut while the body streams, or fewer bytes
 * than Content-Length promised, is retried with a fresh GET like any transient fault. `consume` reports how
 * many bytes it stored (when it knows), to catch a body that ended early without an error.
 */
export async function streamFromRubika<T>(
	context: RubikaContext,
	downloadUrl: string,
	consume: (body: DownloadStream, headers: RawResponse['headers']) => Promise<{ result: T; bytes?: number }>,
	options: CallOptions = {},
): Promise<T> {
	const label = 'download';
	return await sendWithRetries(
		context,
		label,
		{ method: 'GET', url: downloadUrl, encoding: 'stream' },
		{ ...options, timeoutMs: TRANSFER_TIMEOUT_MS },
		async (response) => {
			const body = response.body as DownloadStream;
			if (response.statusCode < 200 || response.statusCode >= 300) {
				throw httpFailure(label, response, await readSome(body, 64 * 1024));
			}
			const { result, bytes } = await consume(body, response.headers);
			const expected = declaredLength(response.headers);
			if (expected !== undefined && bytes !== undefined && bytes !== expected) {
				throw new AttemptFailure(
					retryable.cutShort,
					`Rubika ${label} was incomplete: ${bytes} bytes arrived where ${expected} were announced`,
					'The connection to the file server broke off. This is usually temporary.',
					{ method: label, received_bytes: bytes, expected_bytes: expected },
				);
			}
			return result;
		},
	);
}

/**
 * One GET of an address the user gave (Send File's URL source), its body left unread as a stream for the
 * caller. Plain `httpRequest`, never the authenticated helper: the credential would put the bot token into
 * this address, which belongs to someone else. Redirects are followed; any status comes back as an answer.
 * Not retried here: the caller decides what a failure means, before anything is sent to Rubika.
 *
 * `abort` is how the caller lets go of a body it does not read to the end: destroying the stream n8n's
 * client hands over does not close the connection under it (the server would go on sending into it).
 */
export async function openFileUrl(context: IExecuteFunctions, url: string, abort: AbortSignal): Promise<RawResponse & { body: DownloadStream }> {
	return (await context.helpers.httpRequest({
		method: 'GET',
		url,
		abortSignal: abort,
		// The body goes to Rubika byte for byte and must match Content-Length; n8n's client would inflate a
		// compressed body and leave the compressed length in place.
		headers: { 'Accept-Encoding': 'identity' },
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: TRANSFER_TIMEOUT_MS,
	})) as RawResponse & { body: DownloadStream };
}

/** The start of an error body, as text; the rest is thrown away so the connection is freed. */
async function readSome(body: DownloadStream, limit: number): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of body as AsyncIterable<Buffer | string>) {
			const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			if (size < limit) chunks.push(buffer.subarray(0, limit - size));
			size += buffer.length;
		}
	} catch {
		// A broken error body still tells enough through its status code.
	}
	return Buffer.concat(chunks).toString('utf8');
}

/** The body's length as the answer's Content-Length gives it; undefined when absent or not a plain number. */
export function declaredLength(headers: RawResponse['headers']): number | undefined {
	const value = headers['content-length'];
	const declared = Array.isArray(value) ? value[0] : value;
	return declared !== undefined && /^\d+$/.test(declared.trim()) ? Number(declared) : undefined;
}

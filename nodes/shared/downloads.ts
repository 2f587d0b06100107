/**
 * The one way this package downloads a Rubika file: getFile, then a GET of its download_url streamed into
 * n8n's binary data (to disk in n8n's filesystem mode), never collected whole in memory here. File →
 * Download (action node) and the trigger's Download Files (nodes/RubikaTrigger/downloadFiles.ts) use it;
 * they differ in which file name wins, in the trigger's size limit, and in what a failed download means.
 */
import type { IBinaryData, IExecuteFunctions, ITriggerFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { CallOptions, DownloadStream } from './transport';
import { callRubika, declaredLength, streamFromRubika } from './transport';

/** The contexts that can store binary data (n8n-core gives all three the same binary helpers). */
export type DownloadContext = IExecuteFunctions | ITriggerFunctions | IWebhookFunctions;

export interface DownloadedFile {
	binary: IBinaryData;
	downloadUrl: string;
}

/**
 * A file larger than the caller's limit, not stored: the size the file server announced (Content-Length),
 * or, when it announced none or too little, how many bytes had come when the download was stopped.
 */
export interface OversizeFile {
	oversize: { announcedBytes: number } | { receivedBytes: number };
	downloadUrl: string;
}

/** What the caller decides about the stored file; a blank value leaves it to the download. */
export interface DownloadNaming {
	fileName?: string;
	mimeType?: string;
}

/**
 * getFile + GET → n8n binary data. Name: the caller's, else Content-Disposition, else the address, else
 * the file id. MIME type: the caller's, else Content-Type, else application/octet-stream.
 *
 * The transport retries the GET (a connection cut mid-body, or fewer bytes than Content-Length announced,
 * counts as a transient fault); every attempt stores a new binary from its own response, so a retry never
 * adds to what a broken attempt wrote.
 *
 * With `maxBytes`, a larger file is not stored: an answer announcing more is not read at all, and a body
 * that grows past the limit is stopped there. Either way the request is aborted, which is what closes the
 * connection: destroying the stream n8n's client hands over does not reach the one under it. Not retried: a
 * later try would find the same file.
 */
export async function downloadFile(context: DownloadContext, fileId: string, naming?: DownloadNaming, call?: CallOptions): Promise<DownloadedFile>;
export async function downloadFile(
	context: DownloadContext,
	fileId: string,
	naming: DownloadNaming,
	call: CallOptions,
	maxBytes: number,
): Promise<DownloadedFile | OversizeFile>;
export async function downloadFile(
	context: DownloadContext,
	fileId: string,
	naming: DownloadNaming = {},
	call: CallOptions = {},
	maxBytes?: number,
): Promise<DownloadedFile | OversizeFile> {
	const downloadUrl = await getDownloadUrl(context, fileId, call);
	// The download's own signal, so that it can be stopped at the limit; the caller's still stops it.
	const stop = new AbortController();
	const relay = () => stop.abort();
	call.abortSignal?.addEventListener('abort', relay, { once: true });
	if (call.abortSignal?.aborted) stop.abort();
	try {
		const stored = await streamFromRubika<{ binary: IBinaryData } | Pick<OversizeFile, 'oversize'>>(
			context,
			downloadUrl,
			async (body, headers) => {
				const fileName =
					(naming.fileName?.trim() ? naming.fileName : undefined) ??
					fileNameFromDisposition(headerValue(headers['content-disposition'])) ??
					fileNameFromUrl(downloadUrl) ??
					fileId;
				const mimeType =
					nonBlank(naming.mimeType) ??
					nonBlank(headerValue(headers['content-type'])?.split(';')[0]) ??
					'application/octet-stream';
				if (maxBytes === undefined) {
					const binary = await context.helpers.prepareBinaryData(body, fileName, mimeType);
					return { result: { binary }, bytes: binary.bytes };
				}
				const announcedBytes = declaredLength(headers);
				if (announcedBytes !== undefined && announcedBytes > maxBytes) {
					stop.abort();
					return { result: { oversize: { announcedBytes } } };
				}
				const counted = countedBody(body, maxBytes, () => stop.abort());
				let failure: unknown;
				const binary = await context.helpers.prepareBinaryData(counted.stream, fileName, mimeType).catch((error: unknown) => {
					failure = error;
					return undefined;
				});
				if (binary) return { result: { binary }, bytes: binary.bytes };
				// Stopped at the limit: n8n's store failed with the stream, which is what was meant.
				if (counted.receivedBytes() > maxBytes) return { result: { oversize: { receivedBytes: counted.receivedBytes() } } };
				// Anything else is the transport's to judge (a broken connection is retried).
				throw failure;
			},
			{ ...call, abortSignal: stop.signal },
		);
		return { ...stored, downloadUrl };
	} finally {
		call.abortSignal?.removeEventListener('abort', relay);
	}
}

/**
 * The body as n8n's store reads it, counted on the way: past `maxBytes`, `stopped` runs (it aborts the
 * request) and the stream fails. A Readable, made without importing node:stream, which community nodes may
 * not: Readable.map.
 */
function countedBody(body: DownloadStream, maxBytes: number, stopped: () => void): { stream: DownloadStream; receivedBytes: () => number } {
	let received = 0;
	const stream = body.map((chunk: Buffer | string) => {
		received += chunk.length;
		if (received > maxBytes) {
			stopped();
			throw new Error(`more than ${maxBytes} bytes`);
		}
		return chunk;
	});
	return { stream, receivedBytes: () => received };
}

/** getFile → download_url; a missing address is a NodeOperationError (Rubika answered, without one). */
export async function getDownloadUrl(context: DownloadContext, fileId: string, call: CallOptions = {}): Promise<string> {
	const { download_url: downloadUrl } = await callRubika(context, 'getFile', { file_id: fileId }, call);
	if (typeof downloadUrl !== 'string' || downloadUrl.trim() === '') {
		throw new NodeOperationError(context.getNode(), `Rubika getFile gave no download_url for file ${fileId}`, {
			itemIndex: call.itemIndex,
		});
	}
	return downloadUrl;
}

function nonBlank(value: string | undefined): string | undefined {
	const trimmed = value?.trim();
	return trimmed ? trimmed : undefined;
}

export function headerValue(value: unknown): string | undefined {
	const first = Array.isArray(value) ? value[0] : value;
	return typeof first === 'string' && first.trim() !== '' ? first : undefined;
}

/**
 * The file name of a Content-Disposition header: RFC 6266/5987 `filename*=UTF-8''…` wins over `filename=`,
 * which may be quoted (with backslash escapes) or a bare token.
 */
export function fileNameFromDisposition(header: string | undefined): string | undefined {
	if (!header) return undefined;
	let plain: string | undefined;
	let extended: string | undefined;
	const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
	for (let match = pattern.exec(header); match; match = pattern.exec(header)) {
		const key = match[1].toLowerCase();
		const value = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '').trim();
		if (key === 'filename*') extended = decodeExtendedValue(value);
		else if (key === 'filename') plain = value;
	}
	return cleanFileName(extended ?? plain);
}

/** `charset'language'percent-encoded` → text; undefined when it cannot be read. */
function decodeExtendedValue(value: string): string | undefined {
	const match = /^([^']*)'[^']*'(.*)$/.exec(value);
	if (!match) return undefined;
	const charset = match[1].trim().toLowerCase();
	try {
		if (charset === 'utf-8' || charset === 'utf8' || charset === '') return decodeURIComponent(match[2]);
		if (charset === 'iso-8859-1' || charset === 'latin1') {
			return match[2].replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
		}
	} catch {
		return undefined;
	}
	return undefined;
}

/** The last path segment of the address, when it looks like a file name. */
export function fileNameFromUrl(address: string): string | undefined {
	try {
		const segments = new URL(address).pathname.split('/').filter((part) => part !== '');
		const last = segments.at(-1);
		return last && last.includes('.') ? cleanFileName(decodeURIComponent(last)) : undefined;
	} catch {
		return undefined;
	}
}

/** Only the base name: a header must not be able to place the file in another directory. */
function cleanFileName(name: string | undefined): string | undefined {
	const base = name?.split(/[\\/]/).at(-1)?.trim();
	return base && base !== '.' && base !== '..' ? base : undefined;
}

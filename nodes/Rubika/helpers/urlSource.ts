/**
 * Send File's URL source: a file at an http(s) address, streamed from its server into the upload to Rubika
 * as it arrives, never held whole here. Everything that can be known about it (the address, the server's
 * answer, the size limit of its type) is checked before anything is sent to Rubika.
 *
 * The server must announce the size (Content-Length): the limit is checked on it before the body is read, and
 * the upload to Rubika needs its length up front. Name: File Name, else Content-Disposition, else the last
 * segment of the address given, else "file". MIME type: Content-Type, else from the name, else
 * application/octet-stream.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { fileNameFromDisposition, fileNameFromUrl, headerValue } from '../../shared/downloads';
import { InputError } from '../../shared/errors';
import type { DownloadStream, RawResponse } from '../../shared/transport';
import { declaredLength, networkProblem, openFileUrl } from '../../shared/transport';
import type { UploadSource } from './binary';

export const FILE_URL_FIELD = 'File URL';

/** Content types that say nothing about the file; its name tells more. */
const GENERIC_TYPES = new Set(['application/octet-stream', 'binary/octet-stream', 'application/binary']);

/** From a name, the types that decide how Rubika shows a file (`inferFileType`) and a few common documents. */
const MIME_BY_EXTENSION: Record<string, string> = {
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	png: 'image/png',
	webp: 'image/webp',
	gif: 'image/gif',
	mp4: 'video/mp4',
	mp3: 'audio/mpeg',
	ogg: 'audio/ogg',
	oga: 'audio/ogg',
	pdf: 'application/pdf',
	txt: 'text/plain',
	csv: 'text/csv',
	zip: 'application/zip',
};

/** The server's answer, its body not read yet. */
interface OpenDownload {
	body: DownloadStream;
	size: number;
	headers: RawResponse['headers'];
	/** Lets go of the body and closes its connection, read or not. */
	close(): void;
}

/**
 * Opens the download and describes the file from the answer's headers. The body is read by the upload, a
 * pass per upload attempt: the first one reads this answer, a retried one downloads the file again and
 * expects the same size. A pass cut short records why (`failure`), which becomes the item's error.
 */
export async function readUrlSource(context: IExecuteFunctions, itemIndex: number, fileNameOverride?: string): Promise<UploadSource> {
	const url = readFileUrl(context, itemIndex);
	const first = await openDownload(context, url);
	if (first instanceof InputError) throw first;
	const { size, headers } = first;
	const fileName =
		(fileNameOverride ?? '').trim() || fileNameFromDisposition(headerValue(headers['content-disposition'])) || fileNameFromUrl(url.href) || 'file';
	const served = headerValue(headers['content-type'])?.split(';')[0].trim().toLowerCase();
	const fromName = MIME_BY_EXTENSION[fileName.split('.').at(-1)?.toLowerCase() ?? ''];
	const mimeType = (served && !GENERIC_TYPES.has(served) ? served : undefined) ?? fromName ?? served ?? 'application/octet-stream';

	let unread: OpenDownload | undefined = first;
	let reading: OpenDownload | undefined;
	let failure: InputError | undefined;
	let passes = 0;
	/** One pass over the bytes; every problem of the source is an InputError, recorded if this is the latest pass. */
	async function* pass(current: number): AsyncIterable<Uint8Array> {
		// An abandoned pass may still fail after the next one began; only the latest one explains the upload.
		const record = (error: InputError) => {
			if (current === passes) failure = error;
			return error;
		};
		reading?.close();
		const download = unread ?? (await openDownload(context, url));
		unread = undefined;
		if (download instanceof InputError) throw record(download);
		reading = download;
		if (download.size !== size) {
			throw record(new InputError(FILE_URL_FIELD, `the file at ${url.host} changed while it was being sent: ${size} bytes at first, ${download.size} bytes on the retry`));
		}
		let received = 0;
		let broken: { cause: unknown } | undefined;
		try {
			for await (const chunk of download.body as AsyncIterable<Uint8Array>) {
				received += chunk.length;
				if (received > size) break;
				yield chunk;
			}
		} catch (error) {
			broken = { cause: error };
		}
		if (broken) {
			// Mid-body a reset is the server or the network closing the connection, not a missing answer.
			const problem = networkProblem(broken.cause);
			const reason = problem.code === 'ECONNRESET' ? 'the connection was closed' : withoutSecrets(problem.reason, url);
			throw record(new InputError(FILE_URL_FIELD, `the download from ${url.host} broke off after ${received} of ${size} bytes: ${reason}`));
		}
		if (received > size) throw record(new InputError(FILE_URL_FIELD, `${url.host} sent more than the ${size} bytes it announced (Content-Length)`));
		if (received < size) {
			throw record(new InputError(FILE_URL_FIELD, `the download from ${url.host} ended after ${received} of the ${size} bytes it announced (Content-Length)`));
		}
	}
	return {
		fileName,
		mimeType,
		size,
		field: FILE_URL_FIELD,
		failure: () => failure,
		release() {
			unread?.close();
			reading?.close();
			unread = reading = undefined;
		},
		content() {
			failure = undefined;
			return pass(++passes);
		},
	};
}

/** The File URL field: an absolute http or https address. Its text is never echoed: it may hold a password. */
function readFileUrl(context: IExecuteFunctions, itemIndex: number): URL {
	const value = context.getNodeParameter('fileUrl', itemIndex, '') as unknown;
	const text = typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value).trim();
	if (text === '') throw new InputError(FILE_URL_FIELD, 'is required: the http or https address of the file');
	const url = parseAddress(text);
	if (!url) throw new InputError(FILE_URL_FIELD, 'is not a valid address; expected a full address such as https://example.com/report.pdf');
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new InputError(FILE_URL_FIELD, `must be an http or https address; got one starting with "${url.protocol}"`);
	}
	return url;
}

function parseAddress(text: string): URL | undefined {
	try {
		return new URL(text);
	} catch {
		return undefined;
	}
}

/**
 * One GET. An answer that is not the file (no answer, not 2xx, no size) is refused: its body is thrown away and
 * the problem returned, for the caller to throw.
 */
async function openDownload(context: IExecuteFunctions, url: URL): Promise<OpenDownload | InputError> {
	const abort = new AbortController();
	let response: (RawResponse & { body: DownloadStream }) | undefined;
	let unreachable: unknown;
	try {
		response = await openFileUrl(context, url.href, abort.signal);
	} catch (error) {
		unreachable = error;
	}
	if (!response) return new InputError(FILE_URL_FIELD, `the download from ${url.host} failed: ${withoutSecrets(networkProblem(unreachable).reason, url)}`);
	const { statusCode, headers, body } = response;
	const close = () => {
		// Destroyed first, so that the abort does not make it emit an error nobody listens to.
		body.destroy();
		abort.abort();
	};
	if (statusCode < 200 || statusCode >= 300) {
		close();
		return new InputError(FILE_URL_FIELD, `the download from ${url.host} failed: HTTP ${statusCode}`);
	}
	const size = declaredLength(headers);
	if (size === undefined) {
		close();
		return new InputError(
			FILE_URL_FIELD,
			`${url.host} did not say how large the file is (no Content-Length), which the node needs to check the size limit and to stream it to Rubika. ` +
				'Download it with an HTTP Request node and send it with File Source "Binary Data" instead.',
		);
	}
	return { body, size, headers, close };
}

/** An error text without the address's query or password, which may hold secrets. */
function withoutSecrets(text: string, url: URL): string {
	const secrets = [url.href, url.search, url.password].filter((secret) => secret.length > 1);
	return secrets.reduce((out, secret) => out.split(secret).join('***'), text);
}

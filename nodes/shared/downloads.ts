/**
 * The one way this package downloads a Rubika file: getFile, then a GET of its download_url streamed into
 * n8n's binary data (to disk in n8n's filesystem mode), never collected whole in memory here. File →
 * Download (action node) and the trigger's "Download Files" use it; they differ only in which file name
 * wins and in what a failed download means.
 *
 * The trigger downloads only for items that passed its filters, never before. Reading, it can read the
 * same updates again, so a failure that may pass on a later try fails the read; by webhook it gets each
 * delivery once, so every failure is reported on the item instead (`file_error`) and the workflow still
 * starts.
 */
import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isRefusal, toNodeError } from './errors';
import type { CallOptions } from './transport';
import { callRubika, streamFromRubika } from './transport';
import type { UpdateItem } from './updates/item';

/** The contexts that can store binary data (n8n-core gives all three the same binary helpers). */
export type DownloadContext = IExecuteFunctions | ITriggerFunctions | IWebhookFunctions;

export interface DownloadedFile {
	binary: IBinaryData;
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
 */
export async function downloadFile(
	context: DownloadContext,
	fileId: string,
	naming: DownloadNaming = {},
	call: CallOptions = {},
): Promise<DownloadedFile> {
	const downloadUrl = await getDownloadUrl(context, fileId, call);
	const binary = await streamFromRubika(
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
			const stored = await context.helpers.prepareBinaryData(body, fileName, mimeType);
			return { result: stored, bytes: stored.bytes };
		},
		call,
	);
	return { binary, downloadUrl };
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

const DOWNLOAD_FILES_DESCRIPTION =
	'Whether to download the file attached to a message into binary data. Only updates that pass the filters are downloaded.';

/** Options → Download Files; `note` adds what is particular to one trigger. */
export function downloadFilesOption(note?: string): INodeProperties {
	return {
		displayName: 'Download Files',
		name: 'downloadFiles',
		type: 'boolean',
		default: false,
		description: note ? `${DOWNLOAD_FILES_DESCRIPTION} ${note}` : DOWNLOAD_FILES_DESCRIPTION,
	};
}

/** Options → Put Output in Field: the binary field a downloaded file goes into. */
export const binaryPropertyNameOption: INodeProperties = {
	displayName: 'Put Output in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	description: 'Name of the binary field that receives a downloaded file',
	displayOptions: { show: { downloadFiles: [true] } },
};

export interface DownloadSettings {
	downloadFiles: boolean;
	binaryPropertyName: string;
}

/** The two options from a trigger's Options collection, validated. */
export function readDownloadSettings(node: INode, options: IDataObject): DownloadSettings {
	const downloadFiles = options.downloadFiles === true;
	const binaryPropertyName = String(options.binaryPropertyName ?? 'data').trim();
	if (downloadFiles && binaryPropertyName === '') {
		throw new NodeOperationError(node, 'Put Output in Field is required when Download Files is on');
	}
	return { downloadFiles, binaryPropertyName };
}

/** The id of the file to download for this item, or undefined when there is nothing to download. */
export function fileToDownload(item: UpdateItem, settings: DownloadSettings): string | undefined {
	if (!settings.downloadFiles) return undefined;
	const fileId = item.file?.file_id;
	return typeof fileId === 'string' && fileId !== '' ? fileId : undefined;
}

/**
 * Which failed downloads become an item with `file_error` (the others are thrown): `final` ones only, those
 * a later try cannot fix (Rubika refuses the file, or the download address answers 4xx), or `every` one.
 */
export type ReportedFailures = 'final' | 'every';

/**
 * The item with its file as binary data (named as the message names it, typed from the download's
 * Content-Type), or, for a reported failure, without binary data and with `file_error` saying why.
 */
export async function withDownloadedFile(
	context: ITriggerFunctions | IWebhookFunctions,
	item: UpdateItem,
	settings: DownloadSettings,
	reported: ReportedFailures,
): Promise<INodeExecutionData> {
	const fileId = fileToDownload(item, settings);
	if (fileId === undefined) return { json: item };
	let problem: string;
	try {
		const messageFileName = typeof item.file?.file_name === 'string' ? item.file.file_name : undefined;
		const { binary } = await downloadFile(context, fileId, { fileName: messageFileName });
		return { json: item, binary: { [settings.binaryPropertyName]: binary } };
	} catch (error) {
		if (reported === 'final' && !isFinalFailure(error)) throw toNodeError(context.getNode(), error);
		problem = error instanceof Error && error.message ? error.message : 'The file could not be downloaded';
	}
	return { json: { ...item, file_error: problem } };
}

/**
 * A failure that trying again cannot fix: Rubika refused the file or gave no address for it (the one
 * NodeOperationError of a download), or the download address answered 4xx.
 */
function isFinalFailure(error: unknown): boolean {
	if (error instanceof NodeOperationError) return true;
	if (!(error instanceof NodeApiError)) return false;
	if (isRefusal(error, 'INVALID_INPUT', 'INVALID_ACCESS')) return true;
	const code = Number(error.httpCode);
	return code >= 400 && code < 500 && code !== 408 && code !== 425 && code !== 429;
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

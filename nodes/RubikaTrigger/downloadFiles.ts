/**
 * Options → Download Files, whichever way the trigger receives: which items get their file, the two limits
 * (Max File Size, Max Download Time), and what a file that is not downloaded becomes. The download itself is
 * the package's one download (../shared/downloads.ts).
 *
 * A file never stalls the trigger. Only items that passed the filters are downloaded. A file larger than Max
 * File Size is not downloaded: not asked for at all when the update gives its size (`file.size`), not read
 * when the file server announces more (Content-Length), and stopped there when the bytes run past it. A
 * download that has not finished within Max Download Time (getFile and the transport's retries included) is
 * stopped. Either way, and whenever a download fails for good, the update goes out with `file_error` saying
 * why and no binary data. What a failure that may pass later does depends on the way of receiving: reading
 * tries the update again on the next reads, a bounded number of times (./reading/reader.ts); by webhook,
 * where the delivery is answered before the download, it goes out with `file_error` at once.
 */
import type { IBinaryData, IDataObject, INode, INodeExecutionData, INodeProperties, ITriggerFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { downloadFile } from '../shared/downloads';
import { isRefusal, toNodeError } from '../shared/errors';
import { MEGABYTE, formatBytes } from '../shared/fileSizes';
import { pause } from '../shared/pause';
import type { CallOptions } from '../shared/transport';
import type { UpdateItem } from '../shared/updates/item';

/** Options → Max File Size when it is not set: well under Rubika's 50 MB, and what n8n's memory holds easily. */
const DEFAULT_MAX_FILE_SIZE_MB = 20;
/** Options → Max Download Time when it is not set: 20 MB at about 1.5 Mbit/s. */
const DEFAULT_MAX_DOWNLOAD_SECONDS = 120;

const showWithDownloads = { show: { downloadFiles: [true] } };

/** The options in Options, each placed there in alphabetical order (description.ts). */
export const downloadFilesOption: INodeProperties = {
	displayName: 'Download Files',
	name: 'downloadFiles',
	type: 'boolean',
	default: false,
	description:
		'Whether to download the file attached to a message into binary data. Only updates that pass the filters are downloaded. A file that is not downloaded (too large, too slow, or failing) never holds up the trigger: its update goes out without binary data, with file_error saying why.',
};

export const maxDownloadTimeOption: INodeProperties = {
	displayName: 'Max Download Time (Seconds)',
	name: 'maxDownloadTime',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: DEFAULT_MAX_DOWNLOAD_SECONDS,
	displayOptions: showWithDownloads,
	description:
		'How long one file may take to download, retries included. A download still running then is stopped, and the update goes out without its file, with file_error.',
};

export const maxFileSizeOption: INodeProperties = {
	displayName: 'Max File Size (MB)',
	name: 'maxFileSize',
	type: 'number',
	typeOptions: { minValue: 0.01, numberPrecision: 2 },
	default: DEFAULT_MAX_FILE_SIZE_MB,
	displayOptions: showWithDownloads,
	description:
		'Larger files are not downloaded: the update goes out without its file, with file_error giving the size. Rubika accepts files up to 50 MB.',
};

export const binaryPropertyNameOption: INodeProperties = {
	displayName: 'Put Output in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	description: 'Name of the binary field that receives a downloaded file',
	displayOptions: showWithDownloads,
};

export interface DownloadSettings {
	downloadFiles: boolean;
	binaryPropertyName: string;
	/** Max File Size, in bytes. */
	maxFileBytes: number;
	/** Max Download Time, in milliseconds. */
	maxDownloadMs: number;
}

/** The options from the trigger's Options collection, validated. */
export function readDownloadSettings(node: INode, options: IDataObject): DownloadSettings {
	const downloadFiles = options.downloadFiles === true;
	const binaryPropertyName = String(options.binaryPropertyName ?? 'data').trim();
	if (downloadFiles && binaryPropertyName === '') {
		throw new NodeOperationError(node, 'Put Output in Field is required when Download Files is on');
	}
	return {
		downloadFiles,
		binaryPropertyName,
		maxFileBytes: Math.floor(positive(node, options.maxFileSize, DEFAULT_MAX_FILE_SIZE_MB, 'Max File Size') * MEGABYTE),
		maxDownloadMs: Math.round(positive(node, options.maxDownloadTime, DEFAULT_MAX_DOWNLOAD_SECONDS, 'Max Download Time') * 1000),
	};
}

function positive(node: INode, value: unknown, fallback: number, field: string): number {
	if (value === undefined || value === null || value === '') return fallback;
	const number = Number(value);
	if (!Number.isFinite(number) || number <= 0) throw new NodeOperationError(node, `${field} must be a number above 0; got ${String(value)}`);
	return number;
}

/** The id of the file to download for this item, or undefined when there is nothing to download. */
export function fileToDownload(item: UpdateItem, settings: DownloadSettings): string | undefined {
	if (!settings.downloadFiles) return undefined;
	const fileId = item.file?.file_id;
	return typeof fileId === 'string' && fileId !== '' ? fileId : undefined;
}

/** What became of an item's file. */
export type FileOutcome =
	| { downloaded: IBinaryData }
	| {
			/** Why, as `file_error` says it. */
			notDownloaded: string;
			/** A failure another try may cure (the file server down, a broken connection); never a limit. */
			mayPassLater: boolean;
			/** The failure, when the download failed (not for a limit). */
			error?: NodeApiError | NodeOperationError;
	  };

/**
 * Downloads the item's file `fileId` within the limits of `settings`. Only the trigger stopping (`call`'s
 * abort signal) throws; everything else is an outcome.
 */
export async function downloadItemFile(
	context: ITriggerFunctions | IWebhookFunctions,
	item: UpdateItem,
	fileId: string,
	settings: DownloadSettings,
	call: Pick<CallOptions, 'abortSignal' | 'credential'> = {},
): Promise<FileOutcome> {
	const { maxFileBytes, maxDownloadMs } = settings;
	const limit = `Max File Size (${formatBytes(maxFileBytes)})`;
	const givenSize = sizeOf(item.file?.size);
	if (givenSize !== undefined && givenSize > maxFileBytes) {
		return final(`The file is ${formatBytes(givenSize)} (${givenSize} bytes), more than ${limit}: not downloaded`);
	}
	const fileName = typeof item.file?.file_name === 'string' ? item.file.file_name : undefined;
	const timed = await withinTime(maxDownloadMs, call.abortSignal, async (abortSignal) =>
		await downloadFile(context, fileId, { fileName }, { ...call, abortSignal }, maxFileBytes),
	);
	if ('late' in timed) {
		return final(`The download took longer than Max Download Time (${maxDownloadMs / 1000} s) and was stopped: not downloaded`);
	}
	if ('failed' in timed) {
		if (call.abortSignal?.aborted) throw timed.failed;
		const error = toNodeError(context.getNode(), timed.failed);
		return { notDownloaded: error.message || 'The file could not be downloaded', mayPassLater: !isFinalFailure(timed.failed), error };
	}
	const downloaded = timed.value;
	if ('binary' in downloaded) return { downloaded: downloaded.binary };
	const { oversize } = downloaded;
	if ('announcedBytes' in oversize) {
		const bytes = oversize.announcedBytes;
		return final(`The file server announced ${formatBytes(bytes)} (${bytes} bytes), more than ${limit}: not downloaded`);
	}
	return final(`The download ran past ${limit} and was stopped after ${formatBytes(oversize.receivedBytes)}: not downloaded`);
}

/** The item with its file as binary data, or without binary data and with `file_error` saying why. */
export function itemWithFile(item: UpdateItem, settings: DownloadSettings, outcome: FileOutcome): INodeExecutionData {
	if ('downloaded' in outcome) return { json: item, binary: { [settings.binaryPropertyName]: outcome.downloaded } };
	return { json: { ...item, file_error: outcome.notDownloaded } };
}

function final(reason: string): FileOutcome {
	return { notDownloaded: reason, mayPassLater: false };
}

/** `file.size`: documented as a string of bytes (facts §2); a number is taken too, anything else as unknown. */
function sizeOf(size: unknown): number | undefined {
	if (typeof size === 'number') return Number.isSafeInteger(size) && size >= 0 ? size : undefined;
	return typeof size === 'string' && /^\d{1,15}$/.test(size.trim()) ? Number(size.trim()) : undefined;
}

/**
 * Runs `run` with a signal that fires when the caller's does or after `ms`: its value, `late` when the time
 * ran out first, or what it failed with. The wait is n8n's (../shared/pause.ts): nodes may not start timers.
 */
async function withinTime<T>(
	ms: number,
	caller: AbortSignal | undefined,
	run: (signal: AbortSignal) => Promise<T>,
): Promise<{ value: T } | { late: true } | { failed: unknown }> {
	const download = new AbortController();
	const relay = () => download.abort();
	caller?.addEventListener('abort', relay, { once: true });
	const finished = new AbortController();
	let late = false;
	const deadline = pause(ms, finished.signal).then(() => {
		if (finished.signal.aborted) return;
		late = true;
		download.abort();
	});
	const outcome = await run(download.signal).then(
		(value) => ({ value }),
		(failed: unknown) => (late && !caller?.aborted ? { late: true as const } : { failed }),
	);
	finished.abort();
	await deadline;
	caller?.removeEventListener('abort', relay);
	return outcome;
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

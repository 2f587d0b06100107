/**
 * "Download Files", as both triggers offer it: the file attached to an update, fetched with getFile and a GET
 * of its download_url (the transport's one download path), put into the item's binary data.
 *
 * Both triggers call this only for items that passed their filters, never before. They differ in what a
 * failed download means: the polling trigger can read the same updates again on its next poll, so a failure
 * that may pass on a later try fails the poll; the webhook trigger gets each delivery once, so every failure
 * is reported on the item instead (`file_error`) and the workflow still starts.
 */
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isRefusal } from './errors';
import { callRubika, downloadFromRubika } from './transport';
import type { UpdateItem } from './updates';

export const DOWNLOAD_FILES_DESCRIPTION =
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
	context: IPollFunctions | IWebhookFunctions,
	item: UpdateItem,
	settings: DownloadSettings,
	reported: ReportedFailures,
): Promise<INodeExecutionData> {
	const fileId = fileToDownload(item, settings);
	if (fileId === undefined) return { json: item };
	let problem: string;
	try {
		const { download_url: url } = await callRubika(context, 'getFile', { file_id: fileId });
		if (typeof url !== 'string' || url === '') {
			problem = 'Rubika getFile gave no download address';
		} else {
			const { body, headers } = await downloadFromRubika(context, url);
			const fileName = typeof item.file?.file_name === 'string' ? item.file.file_name : undefined;
			const binary = await context.helpers.prepareBinaryData(body, fileName, mimeTypeOf(headers['content-type']));
			return { json: item, binary: { [settings.binaryPropertyName]: binary } };
		}
	} catch (error) {
		if (reported === 'final' && !isFinalFailure(error)) throw asNodeError(context.getNode(), error);
		problem = error instanceof Error && error.message ? error.message : 'The file could not be downloaded';
	}
	return { json: { ...item, file_error: problem } };
}

/** The error as n8n shows it best: Rubika's errors stay what they are, anything else is wrapped. */
function asNodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error));
}

/** A failure that trying again cannot fix: Rubika refused the file, or the download address answered 4xx. */
function isFinalFailure(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	if (isRefusal(error, 'INVALID_INPUT', 'INVALID_ACCESS')) return true;
	const code = Number(error.httpCode);
	return code >= 400 && code < 500 && code !== 408 && code !== 425 && code !== 429;
}

function mimeTypeOf(header: string | string[] | undefined): string | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	const type = value?.split(';')[0].trim();
	return type ? type : undefined;
}

/** Fields shared by the File operations and Message → Send File. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputError } from '../../../shared/errors';
import type { FileType } from '../../../shared/types';
import { BINARY_FIELD, inferFileType, oversizeError, readFileType, readUploadSource } from '../../helpers/binary';
import type { UploadSource } from '../../helpers/binary';
import { requireId } from '../../helpers/params';
import { readUrlSource } from '../../helpers/urlSource';

const FILE_ID_FIELD = 'File ID';

export function fileIdProperty(description: string): INodeProperties {
	return {
		displayName: FILE_ID_FIELD,
		name: 'fileId',
		type: 'string',
		required: true,
		default: '',
		description,
	};
}

export function readFileId(context: IExecuteFunctions, itemIndex: number): string {
	return requireId(context, 'fileId', itemIndex, FILE_ID_FIELD);
}

/** A binary field name from the panel or an expression; n8n property names are plain keys. */
export function readBinaryPropertyName(context: IExecuteFunctions, itemIndex: number, field: string): string {
	const value = context.getNodeParameter('binaryPropertyName', itemIndex, 'data') as unknown;
	const name = typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value).trim();
	if (name === '') throw new InputError(field, 'is required: the name of a binary field, e.g. data');
	return name;
}

/** "File Name" override used by Upload and Send File. */
export const uploadFileNameOption: INodeProperties = {
	displayName: 'File Name',
	name: 'fileName',
	type: 'string',
	default: '',
	placeholder: 'report.pdf',
	description: "Name the file gets in Rubika. Leave empty to keep the file's own name (of the binary data, or the one its server gives).",
};

/** A file checked and ready for `uploadFile`. */
export interface PendingUpload {
	source: UploadSource;
	type: FileType;
}

/** Where the file to upload comes from: the input item's binary data, or an address (Send File only). */
export type UploadOrigin = 'binary' | 'url';

/**
 * Reads File Type, File Name and the file (the binary field, or the address and its server's answer) of
 * Upload and Send File, and checks the size limit of the type, so a file Rubika would refuse is reported
 * before any request to Rubika goes out.
 */
export async function readPendingUpload(context: IExecuteFunctions, itemIndex: number, origin: UploadOrigin = 'binary'): Promise<PendingUpload> {
	const chosenType = readFileType(context, itemIndex);
	const options = context.getNodeParameter('fileOptions', itemIndex, {}) as IDataObject;
	const fileName = options.fileName as string | undefined;
	const source =
		origin === 'url'
			? await readUrlSource(context, itemIndex, fileName)
			: await readUploadSource(context, itemIndex, readBinaryPropertyName(context, itemIndex, BINARY_FIELD), fileName);
	const type = chosenType === 'auto' ? inferFileType(source.mimeType) : chosenType;
	const tooLarge = oversizeError(source, type);
	if (tooLarge) {
		source.release?.();
		throw tooLarge;
	}
	return { source, type };
}

/** What the output says about an uploaded file, the same for Upload and Send File. */
export function describeUpload({ source, type }: PendingUpload): IDataObject {
	return { file_name: source.fileName, size: source.size, type, mime_type: source.mimeType };
}

/** Fields shared by the File operations and Message → Send File. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputError } from '../../../shared/errors';
import { requireId } from '../../helpers/params';

export const FILE_ID_FIELD = 'File ID';

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
	description: 'Name the file gets in Rubika. Leave empty to keep the name of the binary data.',
};

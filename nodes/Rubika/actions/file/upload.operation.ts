import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	BINARY_FIELD,
	assertWithinSizeLimit,
	binaryPropertyField,
	fileTypeField,
	readFileType,
	readUploadSource,
	uploadFile,
} from '../../helpers/binary';
import type { RubikaOperation } from '../types';
import { readBinaryPropertyName, uploadFileNameOption } from './common';

export const upload: RubikaOperation = {
	value: 'upload',
	name: 'Upload',
	action: 'Upload a file',
	description:
		'Upload binary data to Rubika and get its file ID, without sending it yet (requestSendFile + upload). Send it later with Message → Send File.',
	properties: [
		binaryPropertyField('Name of the binary field of the input item that holds the file'),
		fileTypeField(),
		{
			displayName: 'Options',
			name: 'fileOptions',
			type: 'collection',
			placeholder: 'Add option',
			default: {},
			options: [uploadFileNameOption],
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const propertyName = readBinaryPropertyName(this, itemIndex, BINARY_FIELD);
		const options = this.getNodeParameter('fileOptions', itemIndex, {}) as IDataObject;
		const source = await readUploadSource(this, itemIndex, propertyName, options.fileName as string | undefined);
		const type = readFileType(this, itemIndex, source.mimeType);
		assertWithinSizeLimit(source.size, type, source.fileName);
		const fileId = await uploadFile(this, itemIndex, source, type);
		return { file_id: fileId, file_name: source.fileName, size: source.size, type, mime_type: source.mimeType };
	},
};

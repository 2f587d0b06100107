import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { downloadFile } from '../../../shared/downloads';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { fileIdProperty, readBinaryPropertyName, readFileId } from './common';

const OUTPUT_FIELD = 'Put Output File in Field';

export const download: RubikaOperation = {
	value: 'download',
	name: 'Download',
	action: 'Download a file',
	description: 'Download a file as binary data, with its name and MIME type (getFile + download)',
	properties: [
		fileIdProperty('ID of the file, e.g. from an incoming message (file.file_id) or from Upload'),
		{
			displayName: OUTPUT_FIELD,
			name: 'binaryPropertyName',
			type: 'string',
			required: true,
			default: 'data',
			description: 'Name of the binary field the file is put in',
		},
		{
			displayName: 'Options',
			name: 'downloadOptions',
			type: 'collection',
			placeholder: 'Add option',
			default: {},
			options: [
				{
					displayName: 'File Name',
					name: 'fileName',
					type: 'string',
					default: '',
					placeholder: 'photo.jpg',
					description: 'Name for the binary data. Leave empty to use the name the file server gives.',
				},
				{
					displayName: 'MIME Type',
					name: 'mimeType',
					type: 'string',
					default: '',
					placeholder: 'image/jpeg',
					description: 'MIME type for the binary data. Leave empty to use the type the file server gives.',
				},
			],
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall): Promise<INodeExecutionData[]> {
		const fileId = readFileId(this, itemIndex);
		const propertyName = readBinaryPropertyName(this, itemIndex, OUTPUT_FIELD);
		const options = this.getNodeParameter('downloadOptions', itemIndex, {}) as IDataObject;
		const { binary, downloadUrl } = await downloadFile(
			this,
			fileId,
			{
				fileName: typeof options.fileName === 'string' ? options.fileName.trim() : undefined,
				mimeType: typeof options.mimeType === 'string' ? options.mimeType.trim() : undefined,
			},
			call,
		);
		return [
			{
				json: {
					file_id: fileId,
					file_name: binary.fileName ?? null,
					mime_type: binary.mimeType,
					size: binary.bytes ?? null,
					download_url: downloadUrl,
				},
				binary: { [propertyName]: binary },
			},
		];
	},
};

import type { IExecuteFunctions } from 'n8n-workflow';

import { binaryPropertyField, fileTypeField, uploadFile } from '../../helpers/binary';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { describeUpload, readPendingUpload, uploadFileNameOption } from './common';

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
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const upload = await readPendingUpload(this, itemIndex);
		const fileId = await uploadFile(this, call, upload.source, upload.type);
		return { file_id: fileId, ...describeUpload(upload) };
	},
};

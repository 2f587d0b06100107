import type { IExecuteFunctions } from 'n8n-workflow';

import { getDownloadUrl as fetchDownloadUrl } from '../../../shared/downloads';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { fileIdProperty, readFileId } from './common';

export const getDownloadUrl: RubikaOperation = {
	value: 'getDownloadUrl',
	name: 'Get Download URL',
	action: 'Get the download URL of a file',
	description: 'Get the address a file can be downloaded from (getFile). The address carries no bot token.',
	properties: [fileIdProperty('ID of the file, e.g. from an incoming message (file.file_id) or from Upload')],
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const fileId = readFileId(this, itemIndex);
		const downloadUrl = await fetchDownloadUrl(this, fileId, call);
		return { file_id: fileId, download_url: downloadUrl };
	},
};

import { sortedByName } from '../../../shared/descriptions';
import type { RubikaOperation, RubikaResource } from '../types';
import { download } from './download.operation';
import { getDownloadUrl } from './getDownloadUrl.operation';
import { upload } from './upload.operation';

const operations: RubikaOperation[] = [upload, getDownloadUrl, download];

export const fileResource: RubikaResource = {
	value: 'file',
	name: 'File',
	description: 'Upload files, get their download address, or download them as binary data',
	operations: sortedByName(operations),
};

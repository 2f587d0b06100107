import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { InputError } from '../../../shared/errors';
import type { FileType } from '../../../shared/types';
import {
	BINARY_FIELD,
	assertWithinSizeLimit,
	binaryPropertyField,
	fileTypeField,
	readFileType,
	readUploadSource,
	uploadFile,
} from '../../helpers/binary';
import type { UploadSource } from '../../helpers/binary';
import { formattingProperties, readFormattedText } from '../../helpers/sendOptions';
import { callRubika } from '../../../shared/transport';
import { fileIdProperty, readBinaryPropertyName, readFileId, uploadFileNameOption } from '../file/common';
import type { RubikaOperation } from '../types';
import { chatIdProperty, readChatId, readSendExtras, sendExtrasProperties } from './common';

const fromBinary = { fileSource: ['binary'] };

export const sendFile: RubikaOperation = {
	value: 'sendFile',
	name: 'Send File',
	action: 'Send a file',
	description:
		'Send a photo, video, music, voice message or document, from binary data (uploaded in the same step) or by file ID (sendFile)',
	properties: [
		chatIdProperty(),
		{
			displayName: 'File Source',
			name: 'fileSource',
			type: 'options',
			options: [
				{
					name: 'Binary Data',
					value: 'binary',
					description: 'Upload binary data of the input item (e.g. from Read File or HTTP Request), then send it',
				},
				{
					name: 'File ID',
					value: 'fileId',
					description: 'Send a file already in Rubika: from File → Upload, or from a message the bot received',
				},
			],
			default: 'binary',
		},
		{ ...binaryPropertyField('Name of the binary field of the input item that holds the file'), displayOptions: { show: fromBinary } },
		{ ...fileTypeField(), displayOptions: { show: fromBinary } },
		{
			...fileIdProperty('ID of a file already uploaded to Rubika'),
			displayOptions: { show: { fileSource: ['fileId'] } },
		},
		{
			displayName: 'Caption',
			name: 'caption',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'Text shown with the file. Optional; sent exactly as written unless Formatting says otherwise.',
		},
		...formattingProperties({}, 'Caption'),
		...sendExtrasProperties(),
		{
			displayName: 'File Options',
			name: 'fileOptions',
			type: 'collection',
			placeholder: 'Add option',
			default: {},
			displayOptions: { show: fromBinary },
			options: [uploadFileNameOption],
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		// Everything is read and checked first: a bad field must not leave an uploaded file behind.
		const chatId = readChatId(this, itemIndex);
		const { text, metadata } = readFormattedText.call(this, itemIndex, 'caption');
		const extras = readSendExtras(this, itemIndex);
		const fileSource = this.getNodeParameter('fileSource', itemIndex, 'binary') as string;
		let fileId: string | undefined;
		let upload: { source: UploadSource; type: FileType } | undefined;
		if (fileSource === 'fileId') {
			fileId = readFileId(this, itemIndex);
		} else if (fileSource === 'binary') {
			const propertyName = readBinaryPropertyName(this, itemIndex, BINARY_FIELD);
			const options = this.getNodeParameter('fileOptions', itemIndex, {}) as IDataObject;
			const source = await readUploadSource(this, itemIndex, propertyName, options.fileName as string | undefined);
			const type = readFileType(this, itemIndex, source.mimeType);
			assertWithinSizeLimit(source.size, type, source.fileName);
			upload = { source, type };
		} else {
			throw new InputError('File Source', `must be Binary Data or File ID; got "${fileSource}"`);
		}

		if (upload) fileId = await uploadFile(this, itemIndex, upload.source, upload.type);
		const body: IDataObject = { chat_id: chatId, file_id: fileId };
		// A caption of only spaces is no caption; sendFile's text is optional.
		if (text.trim() !== '') body.text = text;
		if (metadata) body.metadata = metadata as unknown as IDataObject;
		Object.assign(body, extras);
		const data = await callRubika(this, 'sendFile', body, { itemIndex });
		const output: IDataObject = { ...data, chat_id: chatId, file_id: fileId };
		if (upload) {
			Object.assign(output, {
				file_name: upload.source.fileName,
				size: upload.source.size,
				type: upload.type,
				mime_type: upload.source.mimeType,
			});
		}
		return output;
	},
};

import type { IExecuteFunctions } from 'n8n-workflow';

import { InputError } from '../../../shared/errors';
import { binaryPropertyField, fileTypeField, uploadFile } from '../../helpers/binary';
import { formattingProperties, readFormattedPieces } from '../../helpers/formattingFields';
import { FILE_URL_FIELD } from '../../helpers/urlSource';
import type { PendingUpload } from '../file/common';
import { describeUpload, fileIdProperty, readFileId, readPendingUpload, uploadFileNameOption } from '../file/common';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import {
	SEND_TO_CHAT_DESCRIPTION,
	chatIdProperty,
	readChatId,
	readSendExtras,
	readTextOptions,
	sendExtrasProperties,
	textOptionsProperty,
} from './common';
import type { OutgoingMessage } from './sendPieces';
import { sendMessages } from './sendPieces';

const CAPTION_FIELD = 'Caption';

const fromBinary = { fileSource: ['binary'] };
/** The fields of a file this step uploads, whichever way it comes. */
const uploaded = { fileSource: ['binary', 'url'] };

export const sendFile: RubikaOperation = {
	value: 'sendFile',
	name: 'Send File',
	action: 'Send a file',
	description:
		'Send a photo, video, music, voice message or document, from binary data or a URL (uploaded in the same step) or by file ID (sendFile)',
	properties: [
		chatIdProperty(SEND_TO_CHAT_DESCRIPTION),
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
				{
					name: 'URL',
					value: 'url',
					description: 'Download the file from an http or https address and upload it as it arrives, then send it',
				},
			],
			default: 'binary',
			description: 'Where the file comes from: binary data of the input item, a file Rubika already has, or an address',
		},
		{ ...binaryPropertyField('Name of the binary field of the input item that holds the file'), displayOptions: { show: fromBinary } },
		{
			displayName: FILE_URL_FIELD,
			name: 'fileUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://example.com/report.pdf',
			description:
				'Address of the file (http or https; redirects are followed). The server must say how large the file is (Content-Length); the file is streamed to Rubika, never held whole in memory.',
			displayOptions: { show: { fileSource: ['url'] } },
		},
		{ ...fileTypeField(), displayOptions: { show: uploaded } },
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
		...formattingProperties('Caption'),
		...sendExtrasProperties(),
		textOptionsProperty('Caption'),
		{
			displayName: 'File Options',
			name: 'fileOptions',
			type: 'collection',
			placeholder: 'Add option',
			default: {},
			displayOptions: { show: uploaded },
			options: [uploadFileNameOption],
		},
	],
	recipient: readChatId,
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		// Everything is read and checked first: a bad field must not leave an uploaded file behind.
		const chatId = readChatId(this, itemIndex);
		const textOptions = readTextOptions(this, itemIndex);
		// Rubika documents no caption limit: a caption is held to the limit of a text (MAX_TEXT_LENGTH).
		const caption = readFormattedPieces.call(this, itemIndex, 'caption', { field: CAPTION_FIELD, longText: textOptions.longText });
		const extras = readSendExtras(this, itemIndex);
		const fileSource = this.getNodeParameter('fileSource', itemIndex, 'binary') as string;
		let fileId: string | undefined;
		let upload: PendingUpload | undefined;
		if (fileSource === 'fileId') {
			fileId = readFileId(this, itemIndex);
		} else if (fileSource === 'binary' || fileSource === 'url') {
			// Last: for a URL this opens the download, which the upload then reads.
			upload = await readPendingUpload(this, itemIndex, fileSource);
		} else {
			throw new InputError('File Source', `must be Binary Data, File ID or URL; got "${fileSource}"`);
		}

		if (upload) fileId = await uploadFile(this, call, upload.source, upload.type);
		// The file carries the caption's first piece (a caption of only spaces is none: sendFile's text is
		// optional); a caption too long for one message goes on in texts after it.
		const [firstPiece, ...morePieces] = caption.pieces;
		const messages: OutgoingMessage[] = [
			{ method: 'sendFile', fields: { file_id: fileId }, piece: firstPiece },
			...morePieces.map((piece) => ({ method: 'sendMessage' as const, fields: {}, piece })),
		];
		const sent = await sendMessages(this, call, chatId, messages, extras, textOptions);
		return {
			...sent,
			chat_id: chatId,
			file_id: fileId,
			...(upload ? describeUpload(upload) : {}),
			...(firstPiece === undefined ? {} : { text: caption.text }),
		};
	},
};

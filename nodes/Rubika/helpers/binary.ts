/**
 * n8n binary data → Rubika files, shared by Message → Send File and File → Upload. (Downloads, which the
 * triggers do too, are in nodes/shared/downloads.ts.)
 *
 * Uploads never build a second whole-file copy: binary data n8n keeps on disk (or in another store) is
 * streamed from there, chunk by chunk, once per upload attempt; binary data held in memory is decoded once
 * into a Buffer whose slices (views, not copies) go out.
 */
import type { IBinaryData, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { InputError, toNodeError } from '../../shared/errors';
import { formatBytes } from '../../shared/fileSizes';
import { callRubika, uploadToRubika } from '../../shared/transport';
import { FILE_SIZE_LIMITS, FILE_TYPES } from '../../shared/types';
import type { FileType } from '../../shared/types';
import type { ItemCall } from '../../shared/transport';

export const BINARY_FIELD = 'Input Binary Field';
const FILE_TYPE_FIELD = 'File Type';

/** Bytes per chunk handed to the HTTP client; small enough to keep memory flat, big enough to be cheap. */
const CHUNK_BYTES = 256 * 1024;

/** A file ready to upload: its size is exact (it becomes the Content-Length) and `content` can be replayed. */
export interface UploadSource {
	fileName: string;
	mimeType: string;
	size: number;
	/** The field the file was given in, as the user sees it: errors about the file name it. */
	field: string;
	/** Starts a fresh pass over the bytes; called once per upload attempt. */
	content: () => AsyncIterable<Uint8Array>;
	/**
	 * A source that reads from elsewhere (a download) tells why its last pass broke off: that, not the upload
	 * cut short by it, is the item's error.
	 */
	failure?: () => Error | undefined;
	/** Frees what the source holds open (a download's connection) once no upload pass needs it. */
	release?: () => void;
}

export function binaryPropertyField(description: string): INodeProperties {
	return {
		displayName: BINARY_FIELD,
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		placeholder: 'data',
		description,
	};
}

const FILE_TYPE_DESCRIPTIONS: Record<FileType, string> = {
	File: 'A document, shown with its name; up to 50 MB',
	Image: 'A photo (JPEG, PNG, WebP or GIF); up to 10 MB',
	Video: 'An MP4 video; up to 50 MB',
	Gif: 'An animation: a silent MP4 video, not a .gif image',
	Music: 'An MP3 track with a player',
	Voice: 'A voice message',
};

export function fileTypeField(): INodeProperties {
	const options: INodePropertyOptions[] = [
		{
			name: 'Auto-Detect From MIME Type',
			value: 'auto',
			description:
				'Image for JPEG, PNG, WebP and GIF; Video for MP4; Music for MP3 (audio/mpeg); Voice for OGG; File for everything else',
		},
		...[...FILE_TYPES]
			.sort((a, b) => a.localeCompare(b))
			.map((type) => ({ name: type, value: type, description: FILE_TYPE_DESCRIPTIONS[type] })),
	];
	return {
		displayName: FILE_TYPE_FIELD,
		name: 'fileType',
		type: 'options',
		options,
		default: 'auto',
		description: 'How Rubika shows the file. Each type has its own size limit, checked before anything is uploaded.',
	};
}

/** How Rubika should show a file of this MIME type. Rubika's "Gif" is a silent MP4, so a .gif is an Image. */
export function inferFileType(mimeType: string | undefined): FileType {
	const type = (mimeType ?? '').split(';')[0].trim().toLowerCase();
	switch (type) {
		case 'image/jpeg':
		case 'image/jpg':
		case 'image/pjpeg':
		case 'image/png':
		case 'image/webp':
		case 'image/gif':
			return 'Image';
		case 'video/mp4':
			return 'Video';
		case 'audio/mpeg':
		case 'audio/mp3':
			return 'Music';
		case 'audio/ogg':
			return 'Voice';
		default:
			return 'File';
	}
}

/**
 * The File Type parameter: 'auto' (decided later from the MIME type, `inferFileType`) or a Rubika file type.
 * Read before the file, so a bad choice costs no download.
 */
export function readFileType(context: IExecuteFunctions, itemIndex: number): FileType | 'auto' {
	const chosen = String(context.getNodeParameter('fileType', itemIndex, 'auto') ?? 'auto').trim();
	if (chosen === '' || chosen.toLowerCase() === 'auto') return 'auto';
	const match = FILE_TYPES.find((type) => type.toLowerCase() === chosen.toLowerCase());
	if (!match) throw new InputError(FILE_TYPE_FIELD, `must be auto or one of ${FILE_TYPES.join(', ')}; got "${chosen}"`);
	return match;
}

/**
 * Finds the binary property of the item and describes it without reading it: the size comes from the
 * store's metadata (disk) or from the base64 length (memory), so a too-large file costs nothing.
 */
export async function readUploadSource(
	context: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
	fileNameOverride?: string,
): Promise<UploadSource> {
	const name = (propertyName ?? '').trim();
	if (name === '') throw new InputError(BINARY_FIELD, 'is required: the name of the binary field holding the file, e.g. data');
	const item = context.getInputData()[itemIndex];
	const binary: IBinaryData | undefined = item?.binary?.[name];
	if (!binary) {
		const present = Object.keys(item?.binary ?? {});
		throw new InputError(
			BINARY_FIELD,
			present.length > 0
				? `the item has no binary field "${name}"; it has ${present.map((key) => `"${key}"`).join(', ')}`
				: `the item has no binary field "${name}" (it carries no binary data at all; read or download a file in an earlier node)`,
		);
	}
	const mimeType = (binary.mimeType ?? '').trim() || 'application/octet-stream';
	const fileName = (fileNameOverride ?? '').trim() || binary.fileName || defaultFileName(binary);
	const bytes = binary.id ? await storedBytes(context, binary.id, binary, name) : bytesInMemory(context, itemIndex, binary, name);
	return { fileName, mimeType, field: BINARY_FIELD, ...bytes };
}

/** A file in n8n's binary store (disk, database, S3): its size from the store's metadata, read as a stream. */
async function storedBytes(
	context: IExecuteFunctions,
	id: string,
	binary: IBinaryData,
	name: string,
): Promise<Pick<UploadSource, 'size' | 'content'>> {
	const metadata = await context.helpers.getBinaryMetadata(id);
	const size = Number.isFinite(metadata?.fileSize) ? metadata.fileSize : Number(binary.bytes);
	if (!Number.isFinite(size)) throw new InputError(BINARY_FIELD, `the size of the file in "${name}" is unknown`);
	return {
		size,
		content: async function* () {
			// A new read stream per attempt: a stream that was half sent cannot be rewound.
			yield* (await context.helpers.getBinaryStream(id, CHUNK_BYTES)) as AsyncIterable<Uint8Array>;
		},
	};
}

/** A file n8n keeps in memory, as base64 text: its decoded length is known without decoding it. */
function bytesInMemory(
	context: IExecuteFunctions,
	itemIndex: number,
	binary: IBinaryData,
	name: string,
): Pick<UploadSource, 'size' | 'content'> {
	const size = Buffer.byteLength(binary.data ?? '', 'base64');
	let decoded: Promise<Buffer> | undefined;
	return {
		size,
		content: async function* () {
			// Decoded once, on the first attempt, and kept for retries; only views of it are handed out.
			decoded ??= context.helpers.getBinaryDataBuffer(itemIndex, name);
			const buffer = await decoded;
			if (buffer.length !== size) {
				throw new NodeOperationError(context.getNode(), `The binary field "${name}" holds ${buffer.length} bytes, not the ${size} it announced`, {
					itemIndex,
				});
			}
			for (let offset = 0; offset < buffer.length; offset += CHUNK_BYTES) {
				yield buffer.subarray(offset, offset + CHUNK_BYTES);
			}
		},
	};
}

function defaultFileName(binary: IBinaryData): string {
	const extension = (binary.fileExtension ?? '').replace(/^\.+/, '').trim();
	return extension ? `file.${extension}` : 'file';
}

/** Why a file above the documented limit of its type is refused before any request to Rubika goes out. */
export function oversizeError({ size, fileName, field }: UploadSource, type: FileType): InputError | undefined {
	const limit = FILE_SIZE_LIMITS[type];
	if (size <= limit) return undefined;
	const hint =
		type === 'Image' && size <= FILE_SIZE_LIMITS.File
			? ` Choose File Type "File" to send it as a document (up to ${formatBytes(FILE_SIZE_LIMITS.File)}).`
			: '';
	return new InputError(
		field,
		`"${fileName}" is ${formatBytes(size)} (${size} bytes), more than the ${formatBytes(limit)} Rubika accepts for type ${type}.${hint}`,
	);
}


/**
 * requestSendFile + POST to the upload address → file_id. The transport retries transient faults on the same
 * address. If a retry finds the address used up (an earlier attempt got through but its answer was lost),
 * one fresh address is requested and the file is sent once more. Whatever the outcome, the source is
 * released; an upload cut short by its source fails with the source's error.
 */
export async function uploadFile(
	context: IExecuteFunctions,
	call: ItemCall,
	source: UploadSource,
	type: FileType,
): Promise<string> {
	const { itemIndex } = call;
	const file = { fileName: source.fileName, mimeType: source.mimeType, size: source.size, content: source.content };
	const uploadOnce = async () => {
		const { upload_url: uploadUrl } = await callRubika(context, 'requestSendFile', { type }, call);
		if (typeof uploadUrl !== 'string' || uploadUrl.trim() === '') {
			throw new NodeOperationError(context.getNode(), 'Rubika requestSendFile answered without an upload_url', { itemIndex });
		}
		return await uploadToRubika(context, uploadUrl, file, call);
	};
	const failed = (error: unknown) => toNodeError(context.getNode(), source.failure?.() ?? error, itemIndex);
	let result;
	try {
		try {
			result = await uploadOnce();
		} catch (error) {
			if (!addressUsedUpByLostAnswer(error)) throw failed(error);
			context.logger?.debug('Rubika upload: the upload address was used up by an attempt whose answer was lost; requesting a new one');
			result = await uploadOnce();
		}
	} catch (error) {
		throw failed(error);
	} finally {
		source.release?.();
	}
	const fileId = result?.file_id;
	if (fileId === undefined || fileId === null || String(fileId) === '') {
		throw new NodeOperationError(context.getNode(), 'The Rubika upload answered without a file_id', { itemIndex });
	}
	return String(fileId);
}

/** A refusal on a retried upload: the first attempt may have used the single-use address. */
function addressUsedUpByLostAnswer(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const details = (error as unknown as { errorResponse?: Record<string, unknown> }).errorResponse;
	return details?.method === 'upload' && details.status === 'INVALID_INPUT' && Number(details.attempts) > 1;
}

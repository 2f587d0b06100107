/**
 * A streaming multipart/form-data parser (RFC 7578), fed chunk by chunk as bytes arrive, so an upload can
 * be measured and refused while it is still coming in instead of after buffering it whole.
 *
 * The parser looks for the delimiter "\r\n--boundary". A virtual "\r\n" is fed first, so the first
 * boundary (which has no preceding CRLF) matches the same way. Between chunks it keeps only the few bytes
 * that could be the start of a delimiter split across chunks.
 */

interface PartHeaders {
	/** Lower-cased header names. */
	headers: Record<string, string>;
	name: string | undefined;
	filename: string | undefined;
	contentType: string | undefined;
}

export interface MultipartHandlers {
	onPartBegin(part: PartHeaders): void;
	onPartData(chunk: Buffer): void;
	onPartEnd(): void;
}

export class MultipartError extends Error {}

const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

type ParserState = 'preamble' | 'afterDelimiter' | 'headers' | 'body' | 'done';

export class MultipartParser {
	private readonly delimiter: Buffer;
	private pending: Buffer = CRLF;
	private state: ParserState = 'preamble';

	constructor(
		boundary: string,
		private readonly handlers: MultipartHandlers,
	) {
		this.delimiter = Buffer.from(`\r\n--${boundary}`);
	}

	get finished(): boolean {
		return this.state === 'done';
	}

	write(chunk: Buffer): void {
		if (this.state === 'done') return; // epilogue: ignored
		this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
		this.process();
	}

	end(): void {
		if (this.state !== 'done') throw new MultipartError('the multipart body ended before its closing boundary');
	}

	private process(): void {
		for (;;) {
			switch (this.state) {
				case 'preamble': {
					const at = this.pending.indexOf(this.delimiter);
					if (at < 0) {
						this.keepTail();
						return;
					}
					this.pending = this.pending.subarray(at + this.delimiter.length);
					this.state = 'afterDelimiter';
					break;
				}
				case 'afterDelimiter': {
					if (this.pending.length < 2) return;
					if (this.pending[0] === 0x2d && this.pending[1] === 0x2d) {
						this.state = 'done';
						this.pending = Buffer.alloc(0);
						return;
					}
					// Transport padding (spaces, tabs) may sit between the boundary and its CRLF.
					const lineEnd = this.pending.indexOf(CRLF);
					if (lineEnd < 0) {
						if (this.pending.length > 256) throw new MultipartError('malformed boundary line');
						return;
					}
					if (this.pending.subarray(0, lineEnd).toString('latin1').trim() !== '') {
						throw new MultipartError('malformed boundary line');
					}
					this.pending = this.pending.subarray(lineEnd + 2);
					this.state = 'headers';
					break;
				}
				case 'headers': {
					// A part without headers starts its body straight after the boundary line's CRLF.
					if (this.pending.length >= 2 && this.pending[0] === 0x0d && this.pending[1] === 0x0a) {
						this.handlers.onPartBegin(parsePartHeaders(''));
						this.pending = this.pending.subarray(2);
						this.state = 'body';
						break;
					}
					const at = this.pending.indexOf(HEADER_END);
					if (at < 0) {
						if (this.pending.length > MAX_HEADER_BYTES) throw new MultipartError('part headers too long');
						return;
					}
					this.handlers.onPartBegin(parsePartHeaders(this.pending.subarray(0, at).toString('utf8')));
					this.pending = this.pending.subarray(at + HEADER_END.length);
					this.state = 'body';
					break;
				}
				case 'body': {
					const at = this.pending.indexOf(this.delimiter);
					if (at < 0) {
						const safe = this.pending.length - (this.delimiter.length - 1);
						if (safe > 0) {
							this.handlers.onPartData(this.pending.subarray(0, safe));
							this.pending = this.pending.subarray(safe);
						}
						return;
					}
					if (at > 0) this.handlers.onPartData(this.pending.subarray(0, at));
					this.handlers.onPartEnd();
					this.pending = this.pending.subarray(at + this.delimiter.length);
					this.state = 'afterDelimiter';
					break;
				}
				case 'done':
					return;
			}
		}
	}

	/** In the preamble only a possible delimiter start needs keeping. */
	private keepTail(): void {
		const keep = this.delimiter.length - 1;
		if (this.pending.length > keep) this.pending = this.pending.subarray(this.pending.length - keep);
	}
}

/** The boundary parameter of a multipart/form-data Content-Type, or undefined. */
export function boundaryOf(contentType: string | undefined): string | undefined {
	if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType.trim())) return undefined;
	const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
	const boundary = match?.[1] ?? match?.[2];
	return boundary && boundary.length <= 70 ? boundary : undefined;
}

function parsePartHeaders(block: string): PartHeaders {
	const headers: Record<string, string> = {};
	for (const line of block.split('\r\n')) {
		const colon = line.indexOf(':');
		if (colon <= 0) continue;
		headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
	}
	const disposition = parseParameters(headers['content-disposition'] ?? '');
	let filename = disposition['filename'];
	const extended = disposition['filename*'];
	if (extended) {
		// RFC 5987: charset'language'percent-encoded
		const match = /^([^']*)'[^']*'(.*)$/.exec(extended);
		if (match) {
			const bytes = percentDecode(match[2]);
			filename = bytes.toString(match[1].toLowerCase() === 'utf-8' ? 'utf8' : 'latin1');
		}
	}
	return { headers, name: disposition['name'], filename, contentType: headers['content-type'] };
}

/** `form-data; name="file"; filename="a \"b\".png"` → { name: 'file', filename: 'a "b".png' } */
function parseParameters(value: string): Record<string, string> {
	const params: Record<string, string> = {};
	const pattern = /;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
	let match: RegExpExecArray | null;
	while ((match = pattern.exec(value))) {
		const raw = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '').trim();
		params[match[1].toLowerCase()] = raw;
	}
	return params;
}

function percentDecode(text: string): Buffer {
	const bytes: number[] = [];
	for (let index = 0; index < text.length; index++) {
		if (text[index] === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(index + 1, index + 3))) {
			bytes.push(parseInt(text.slice(index + 1, index + 3), 16));
			index += 2;
		} else {
			bytes.push(...Buffer.from(text[index], 'utf8'));
		}
	}
	return Buffer.from(bytes);
}

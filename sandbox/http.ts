/** Small node:http helpers shared by the API, file and admin routes. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export class BodyTooLargeError extends Error {}

/** Reads a whole (small) request body; refuses more than `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				reject(new BodyTooLargeError(`body larger than ${limit} bytes`));
				req.resume();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

export function send(
	res: ServerResponse,
	httpStatus: number,
	body: string | Buffer,
	contentType = 'application/json; charset=utf-8',
	extraHeaders: Record<string, string> = {},
): void {
	if (res.headersSent || res.destroyed) return;
	const buffer = typeof body === 'string' ? Buffer.from(body) : body;
	res.writeHead(httpStatus, { 'Content-Type': contentType, 'Content-Length': String(buffer.length), ...extraHeaders });
	res.end(buffer);
}

export function sendJson(res: ServerResponse, httpStatus: number, value: unknown): void {
	send(res, httpStatus, JSON.stringify(value));
}

export function sleep(ms: number): Promise<void> {
	// Unref: a pending injected delay must not keep a test process alive after close().
	return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * What the harnesses that serve n8n's webhook addresses (webhook.ts for the trigger by webhook, waiting.ts for a
 * waiting execution's /webhook-waiting) answer with and read, the one way.
 */
import type http from 'node:http';

export function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify(value));
}

export function sendText(res: http.ServerResponse, status: number, text: string): void {
	res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
	res.end(text);
}

export async function readAll(req: http.IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/**
 * The chat page's routes: `GET /` and `/chat` (the page), `/web/<file>` and `/web/app/<file>` (its
 * styles, icon, renderer and script modules, straight from this folder and app/: no build step), and
 * `GET /_sandbox/events` (the live stream, events.ts).
 * Everything else the page does goes through the admin API (`/_sandbox/…`).
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

import { send } from '../http';
import type { SandboxEvents } from './events';

/** What the chat page's routes touch; the sandbox provides it. */
export interface WebContext {
	/** The live stream behind `GET /_sandbox/events`. */
	readonly events: Pick<SandboxEvents, 'subscribe'>;
}

const WEB_DIR = __dirname;

/** Only these kinds of file are served, so the TypeScript beside them (and anything else) never is. */
const CONTENT_TYPES: Record<string, string> = {
	'.html': 'text/html; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
};

/**
 * The page builds its DOM itself and shows text that bots and people wrote, so it forbids inline scripts
 * and anything from elsewhere: a formatting bug that let markup through could still not run code.
 */
const PAGE_HEADERS = {
	'Content-Security-Policy':
		"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
		"object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	'X-Content-Type-Options': 'nosniff',
	'Referrer-Policy': 'no-referrer',
	// Files are read from disk on every request, so an edit shows on reload.
	'Cache-Control': 'no-cache',
};

const EVENTS_PATH = '/_sandbox/events';

export function isWebPath(pathname: string): boolean {
	return pathname === '/' || pathname === '/chat' || pathname === '/chat/' || pathname === EVENTS_PATH || pathname.startsWith('/web/');
}

export async function handleWeb(context: WebContext, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		req.resume();
		send(res, 405, 'Method Not Allowed', 'text/plain; charset=utf-8', { Allow: 'GET, HEAD' });
		return;
	}
	if (pathname === EVENTS_PATH) {
		context.events.subscribe(req, res);
		return;
	}
	req.resume();
	const name = pathname.startsWith('/web/') ? pathname.slice('/web/'.length) : 'index.html';
	// One plain file name from this folder or app/ (the page's modules): no other folders, no "..", no hidden files.
	const type = CONTENT_TYPES[path.extname(name)];
	if (!/^(app\/)?[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || !type) {
		send(res, 404, 'Not Found', 'text/plain; charset=utf-8');
		return;
	}
	let body: Buffer;
	try {
		body = await readFile(path.join(WEB_DIR, name));
	} catch {
		send(res, 404, 'Not Found', 'text/plain; charset=utf-8');
		return;
	}
	if (req.method === 'HEAD') {
		res.writeHead(200, { 'Content-Type': type, 'Content-Length': String(body.length), ...PAGE_HEADERS });
		res.end();
		return;
	}
	send(res, 200, body, type, PAGE_HEADERS);
}

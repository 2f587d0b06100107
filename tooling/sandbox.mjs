// Starts the Rubika sandbox as a child process (see tooling/sandbox-child.cjs) and reads back
// where it listens and what startSandbox() returned (demo bot token, chat ids, ...).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT, trackChild } from './n8n.mjs';

const CHILD = path.join(REPO_ROOT, 'tooling', 'sandbox-child.cjs');
const TOKEN_RE = /^[A-Za-z0-9]{64}$/;
const GUID_RE = /^(u0|b0|g0|c0)[A-Za-z0-9]{30}$/;

/**
 * `stateFile`: keep the world in that file between runs (sandbox-child's --state); tests leave it out and
 * get a fresh world.
 * @returns {Promise<{url: string, info: object, demo: object, child, log: () => string, stop: () => Promise<void>}>}
 */
export function startSandboxProcess({ port = 8765, host = '127.0.0.1', stateFile, timeoutMs = 60_000, onLine, env } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [CHILD, '--port', String(port), '--host', host, ...(stateFile ? ['--state', stateFile] : [])], {
			cwd: REPO_ROOT,
			env: { ...process.env, ...env },
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		trackChild(child);
		let log = '';
		let out = '';
		let done = false;
		let partial = '';
		const exitPromise = new Promise((r) => child.on('exit', r));
		const stop = async () => {
			if (child.exitCode !== null || child.signalCode !== null) return;
			child.kill('SIGTERM');
			const t = setTimeout(() => child.kill('SIGKILL'), 5000);
			await exitPromise;
			clearTimeout(t);
		};
		const timer = setTimeout(() => {
			if (done) return;
			done = true;
			stop();
			reject(new Error(`sandbox did not start within ${timeoutMs} ms:\n${log.slice(-3000)}`));
		}, timeoutMs);
		child.stderr.on('data', (d) => {
			log += d;
			if (onLine) {
				partial += d;
				const lines = partial.split('\n');
				partial = lines.pop();
				lines.forEach(onLine);
			}
		});
		child.stdout.on('data', (d) => {
			out += d;
			const m = out.match(/^RUBIKA_SANDBOX_READY (.*)$/m);
			if (m && !done) {
				done = true;
				clearTimeout(timer);
				const { url, info } = JSON.parse(m[1]);
				resolve({ url, info, demo: findDemoIds(info), child, log: () => log, stop });
			}
		});
		child.on('exit', (code, signal) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			reject(new Error(`sandbox exited (${code ?? signal}) before it was ready:\n${log.slice(-3000)}`));
		});
	});
}

/**
 * Picks the demo ids out of whatever startSandbox() returned, without depending on its exact shape:
 * the first bot token (64 letters/digits) and every Rubika guid (u0/b0/g0/c0 + 30), with their paths.
 */
function findDemoIds(info) {
	const tokens = [];
	const ids = [];
	const walk = (v, p) => {
		if (typeof v === 'string') {
			if (TOKEN_RE.test(v)) tokens.push({ path: p, value: v });
			else if (GUID_RE.test(v)) ids.push({ path: p, value: v });
			return;
		}
		if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, p ? `${p}.${k}` : k);
	};
	walk(info, '');
	const preferred = tokens.find((t) => /demo|bot|token/i.test(t.path)) ?? tokens[0];
	return { token: preferred?.value, tokens, ids };
}

/**
 * A client for the sandbox's admin HTTP API (`/_sandbox/…`, see sandbox/README.md): act as users, read
 * state and the request log, change settings. Works against any running sandbox, in-process or not.
 * Every call throws on a 4xx/5xx answer with the sandbox's `{error}` text.
 */
export function sandboxAdmin(baseUrl) {
	const root = `${baseUrl.replace(/\/+$/, '')}/_sandbox`;
	async function call(method, urlPath, body, headers = {}) {
		const isRaw = Buffer.isBuffer(body) || body instanceof Uint8Array;
		const send = () =>
			fetch(`${root}${urlPath}`, {
				method,
				headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
				body: body === undefined ? undefined : isRaw ? body : JSON.stringify(body),
			});
		// A kept-alive connection that the sandbox closed (idle 5 s) while this process could not notice (its event
		// loop blocked, e.g. by a synchronous child process such as findChromium's) fails the moment it is reused,
		// before the sandbox reads the request: sent again, on a new connection, it is not a repeat.
		const res = await send().catch((error) => {
			if (!['UND_ERR_SOCKET', 'ECONNRESET'].includes(error?.cause?.code)) throw error;
			return send();
		});
		const text = await res.text();
		let json;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = text;
		}
		if (!res.ok) throw new Error(`sandbox ${method} ${urlPath} -> ${res.status}: ${json?.error ?? text}`);
		return json;
	}
	const enc = encodeURIComponent;
	return {
		call,
		state: () => call('GET', '/state'),
		config: (patch) => (patch ? call('PATCH', '/config', patch) : call('GET', '/config')),
		reset: (seed) => call('POST', '/reset', seed ? { seed } : {}),
		/** A new bot ({ bot_title?, username?, token? }): its snapshot, token included. */
		addBot: (input = {}) => call('POST', '/bots', input),
		bot: (botId) => call('GET', `/bots/${enc(botId)}`),
		/** A new token for the bot (a random one unless given): `{ token }`; the old one is refused from now on. */
		rotateToken: (botId, token) => call('POST', `/bots/${enc(botId)}/token`, token ? { token } : {}),
		updates: (botId) => call('GET', `/bots/${enc(botId)}/updates`).then((r) => r.updates),
		chat: (chatId) => call('GET', `/chats/${enc(chatId)}`),
		messages: (chatId) => call('GET', `/chats/${enc(chatId)}/messages`),
		/** POST /actions/<action>: send-message, edit-message, delete-message, tap-inline-button, … */
		act: (action, input) => call('POST', `/actions/${enc(action)}`, input),
		/** Stores a file as if a user had uploaded it: { file_id, download_url }. */
		addFile: (bytes, { name, mimeType = 'application/octet-stream', type = 'File' }) =>
			call('POST', '/files', Buffer.from(bytes), { 'content-type': mimeType, 'x-file-name': enc(name), 'x-file-type': type }),
		/** `count` new users with private chats with the bot: a broadcast's audience (their chat ids). */
		recipients: (count) => call('POST', '/recipients', { count }).then((r) => r.chatIds),
		/** The bot's messages per chat, in the order of `chatIds`. */
		botMessageCounts: (chatIds) => call('POST', '/bot-message-counts', { chatIds }).then((r) => r.counts),
		requests: (method) => call('GET', `/requests${method ? `?method=${enc(method)}` : ''}`),
		clearRequests: () => call('DELETE', '/requests'),
		deliveries: () => call('GET', '/deliveries'),
		/** Waits until every webhook delivery under way has finished; returns the delivery log. */
		settle: () => call('POST', '/deliveries/settle', {}),
		clearDeliveries: () => call('DELETE', '/deliveries'),
		faults: () => call('GET', '/faults'),
		injectFault: (spec) => call('POST', '/faults', spec),
		clearFaults: () => call('DELETE', '/faults'),
	};
}

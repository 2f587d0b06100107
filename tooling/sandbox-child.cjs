#!/usr/bin/env node
// The one launcher of the Rubika sandbox in a process of its own: sandbox/index.ts, loaded through ts-node,
// runs in this process. Its callers: scripts/start.mjs and the e2e scripts (through tooling/sandbox.mjs),
// which are plain JavaScript and cannot import TypeScript themselves, and the benchmarks (through
// bench/lib/sandboxProcess.ts), which keep the sandbox's CPU and memory out of the process they measure.
//
//   node tooling/sandbox-child.cjs --port 8765 [--host 127.0.0.1] [--state FILE] [--options JSON] [--serve MODULE]
//
// It calls `startSandbox({ ...options, port, host, stateFile })` from sandbox/index.ts; --options carries the
// other SandboxOptions (configuration such as latencyMs or rateLimit), --port, --host and --state win over
// it. --state keeps the world in FILE between runs (restored at start, saved after changes and on exit;
// `npm start` uses it); without it the sandbox starts from its seed every time.
// With --serve, a module (path from the repository root, TypeScript allowed) whose `serve(sandbox)` is
// called with the running sandbox once it listens: the benchmarks' IPC calls (bench/lib/sandboxOps.ts).
//
// When the server listens it prints ONE line to stdout:
//   RUBIKA_SANDBOX_READY {"url": "...", "info": {...whatever startSandbox() returned, minus functions...}}
// Everything else the sandbox prints goes to stderr. SIGTERM/SIGINT close it, and so does the parent going
// away: its end of stdin closing, or its IPC channel (when started with fork) disconnecting.
'use strict';

const path = require('node:path');

const repo = path.resolve(__dirname, '..');

function arg(name, fallback) {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/** Plain-data copy of what startSandbox() returned (no functions, no servers, no cycles). */
function plain(value, depth = 0, seen = new Set()) {
	if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
	if (seen.has(value) || depth > 5) return undefined;
	seen.add(value);
	const name = value.constructor && value.constructor.name;
	if (name && /Server|Socket|Agent|Emitter|Timeout/.test(name)) return undefined;
	if (value instanceof Map) value = Object.fromEntries(value);
	if (Array.isArray(value)) return value.slice(0, 20).map((v) => plain(v, depth + 1, seen));
	const out = {};
	for (const [k, v] of Object.entries(value)) {
		if (k.startsWith('_')) continue;
		const p = plain(v, depth + 1, seen);
		if (p !== undefined) out[k] = p;
	}
	return out;
}

async function main() {
	const port = Number(arg('port', process.env.RUBIKA_SANDBOX_PORT || 8765));
	const host = arg('host', '127.0.0.1');
	const options = JSON.parse(arg('options', '{}'));
	const stateFile = arg('state', undefined);
	const serveModule = arg('serve', undefined);
	// Keep sandbox logs off stdout, which carries only the READY line.
	const write = process.stdout.write.bind(process.stdout);
	process.stdout.write = process.stderr.write.bind(process.stderr);

	require(require.resolve('ts-node', { paths: [repo] })).register({
		transpileOnly: true,
		project: path.join(repo, 'tsconfig.json'),
	});
	// RUBIKA_SANDBOX_MODULE: another module exporting startSandbox() (tests of this launcher, forks).
	const file = path.resolve(repo, process.env.RUBIKA_SANDBOX_MODULE || 'sandbox/index.ts');
	const mod = require(file);
	const startSandbox = mod.startSandbox || (mod.default && mod.default.startSandbox);
	if (!startSandbox) throw new Error(`No startSandbox() export found in ${file}`);
	const handle = await startSandbox({ ...options, port, host, ...(stateFile ? { stateFile } : {}) });
	if (serveModule) require(path.resolve(repo, serveModule)).serve(handle);
	const info = plain(handle) || {};
	const url =
		(typeof info.url === 'string' && info.url) ||
		(typeof info.baseUrl === 'string' && info.baseUrl) ||
		`http://${host}:${info.port || port}`;
	write(`RUBIKA_SANDBOX_READY ${JSON.stringify({ url, info })}\n`);

	let closing = false;
	const close = async () => {
		if (closing) return;
		closing = true;
		try {
			const fn = handle && (handle.close || handle.stop);
			if (typeof fn === 'function') await fn.call(handle);
		} finally {
			process.exit(0);
		}
	};
	process.on('SIGTERM', close);
	process.on('SIGINT', close);
	// Exit when the parent goes away without signalling (its end of stdin closes, or its IPC channel).
	process.stdin.on('end', close);
	process.on('disconnect', close);
	process.stdin.resume();
}

main().catch((e) => {
	process.stderr.write(`[sandbox] failed to start: ${e && e.stack ? e.stack : e}\n`);
	process.exit(1);
});

#!/usr/bin/env node
// `npm start` stops everything it started when only npm gets the signal, as a process manager or
// `kill -INT <npm pid>` sends it (Ctrl-C in a terminal signals the whole process group instead).
//
// For SIGINT and then SIGTERM: `npm start -- --no-build` in a process group of its own, on free ports and a
// temporary n8n user folder, until it prints its summary; the signal goes to the npm process alone; then npm
// must exit, and every process it started (the start script, the sandbox, n8n and its task runner) must be
// gone, their ports free.
//
//   node e2e/start.mjs        (after a build: dist/ must exist, as `npm test` leaves it)
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createReporter, isMain } from './lib/harness.mjs';
import { REPO_ROOT, freePort, isPortFree } from './lib/n8n.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const READY_LINE = 'Ctrl-C stops n8n and the sandbox';

/** Every process below `pid`, from /proc (Linux). */
function descendants(pid) {
	const children = new Map();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (!children.has(ppid)) children.set(ppid, []);
			children.get(ppid).push(Number(entry));
		} catch {
			/* gone meanwhile */
		}
	}
	const out = [];
	const walk = (p) => {
		for (const child of children.get(p) ?? []) {
			out.push(child);
			walk(child);
		}
	};
	walk(pid);
	return out;
}

const alive = (pid) => {
	try {
		process.kill(pid, 0);
		// A zombie is gone for every purpose here.
		return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
	} catch {
		return false;
	}
};

async function startAndSignal(t, signal) {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'rubika-start-'));
	const n8nPort = await freePort();
	const ports = { n8n: n8nPort, broker: await freePort(), sandbox: await freePort() };
	const env = { ...process.env, N8N_PORT: String(ports.n8n), N8N_RUNNERS_BROKER_PORT: String(ports.broker), RUBIKA_SANDBOX_PORT: String(ports.sandbox), RUBIKA_N8N_USER_FOLDER: userFolder };
	for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];
	const npm = spawn('npm', ['start', '--', '--no-build'], { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	npm.stdout.on('data', (d) => (output += d));
	npm.stderr.on('data', (d) => (output += d));
	const exited = new Promise((resolve) => npm.once('exit', (code, sig) => resolve({ code, signal: sig })));
	try {
		const deadline = Date.now() + 240_000;
		while (!output.includes(READY_LINE) && Date.now() < deadline && npm.exitCode === null) await sleep(200);
		if (!t.check(`${signal}: npm start gets n8n and the sandbox running`, output.includes(READY_LINE), output.slice(-3000))) return;
		const started = descendants(npm.pid);
		t.check(`${signal}: n8n and the sandbox run below npm`, started.length >= 3, `${started.length} processes`);
		const t0 = Date.now();
		process.kill(npm.pid, signal); // npm alone, not its process group
		const result = await Promise.race([exited, sleep(60_000).then(() => 'timeout')]);
		t.check(`${signal} to npm alone: npm exits`, result !== 'timeout', `${JSON.stringify(result)} after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		let left = started.filter(alive);
		for (let i = 0; i < 100 && left.length; i++) {
			await sleep(100);
			left = started.filter(alive);
		}
		t.eq(`${signal}: every process npm start started is gone`, left.map((pid) => `${pid} ${procName(pid)}`), []);
		const busy = [];
		for (const [name, port] of Object.entries(ports)) if (!(await isPortFree(port))) busy.push(`${name} ${port}`);
		t.eq(`${signal}: their ports are free again`, busy, []);
	} finally {
		if (npm.exitCode === null) {
			try {
				process.kill(-npm.pid, 'SIGKILL');
			} catch {
				/* gone */
			}
		}
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

function procName(pid) {
	try {
		return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim().slice(0, 120);
	} catch {
		return '?';
	}
}

export async function main() {
	const t = createReporter('start');
	process.stdout.write('\n=== npm start: stopping on a signal to npm alone ===\n');
	const started = Date.now();
	for (const signal of ['SIGINT', 'SIGTERM']) await t.step(signal, () => startAndSignal(t, signal));
	process.stdout.write(`${t.passed} passed, ${t.failed} failed (start, ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
	return t.failed ? 1 : 0;
}

if (isMain(import.meta.url)) process.exit(await main());

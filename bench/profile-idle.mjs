#!/usr/bin/env node
// Where an idle trigger by reading's CPU goes, in a real n8n: N workflows (Rubika Trigger → No Op) on one bot
// that never gets an update. First a window without the profiler: getUpdates requests and n8n's CPU (from /proc,
// n8n and its children) per request. Then a window under V8's CPU profiler, attached through n8n's inspector
// port so that start-up is not in it: the heaviest functions and packages by self and inclusive time. Not part
// of `npm run bench`; a tool for hunting idle overhead. Needs Node 22+ (a global WebSocket) for the profile:
//
//   $(node scripts/install-n8n.mjs --print | jq -r .nodeBin) bench/profile-idle.mjs [--triggers 30] [--seconds 60]
//       [--version 2.41.1] [--no-build] [--top 40] [--no-profile]
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { linearWorkflow, noOp, readingTrigger } from '../tooling/workflow-builder.mjs';
import { WATCHDOG, freePort } from '../tooling/n8n.mjs';
import { createWorld, packOnce } from '../tooling/world.mjs';

const { values: opts } = parseArgs({
	options: {
		triggers: { type: 'string', default: '30' },
		seconds: { type: 'string', default: '60' },
		version: { type: 'string', default: '2.41.1' },
		'no-build': { type: 'boolean', default: false },
		top: { type: 'string', default: '40' },
		'no-profile': { type: 'boolean', default: false },
	},
});
const log = (s) => process.stderr.write(`[profile-idle] ${s}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const count = Number(opts.triggers);

function cpuMsOfTree(rootPid) {
	const stats = [];
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const text = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
			stats.push({ pid: Number(entry), ppid: Number(f[1]), ms: (Number(f[11]) + Number(f[12])) * 10 });
		} catch {}
	}
	const kids = new Map();
	for (const s of stats) kids.set(s.ppid, [...(kids.get(s.ppid) ?? []), s]);
	let total = 0;
	const walk = (pid) => {
		const self = stats.find((s) => s.pid === pid);
		if (self) total += self.ms;
		for (const k of kids.get(pid) ?? []) walk(k.pid);
	};
	walk(rootPid);
	return total;
}

const workflows = Array.from({ length: count }, (_, i) =>
	linearWorkflow(`profIdle${String(i).padStart(8, '0')}`, `idle ${i}`, [
		readingTrigger('Rubika Trigger', { updateTypes: ['NewMessage'], firstActivation: 'startFromNow', options: {} }),
		noOp('NoOp'),
	]),
);

const pack = await packOnce({ build: !opts['no-build'], log });
const world = await createWorld({ version: opts.version, pack, workflows, log });
const inspectPort = await freePort();
try {
	if (!opts['no-profile']) world.ctx.env = { ...world.ctx.env, NODE_OPTIONS: `--require ${JSON.stringify(WATCHDOG)} --inspect=127.0.0.1:${inspectPort}` };
	const server = await world.server();
	for (const wf of workflows) await world.activate(wf.id);
	await sleep(10_000);
	const window = async () => {
		const reqs0 = (await world.admin.requests('getUpdates')).length;
		const cpu0 = cpuMsOfTree(server.pid);
		const t0 = Date.now();
		await sleep(Number(opts.seconds) * 1000);
		const cpu1 = cpuMsOfTree(server.pid);
		const reqs1 = (await world.admin.requests('getUpdates')).length;
		return { seconds: (Date.now() - t0) / 1000, requests: reqs1 - reqs0, cpuMs: cpu1 - cpu0 };
	};
	const quiet = await window();
	log(`${count} idle triggers, ${quiet.seconds.toFixed(1)} s without the profiler: ${quiet.requests} getUpdates (${(quiet.requests / quiet.seconds).toFixed(1)}/s), n8n tree CPU ${quiet.cpuMs} ms = ${(quiet.cpuMs / quiet.seconds / 10).toFixed(2)} % of a core, ${(quiet.cpuMs / Math.max(1, quiet.requests)).toFixed(2)} ms per request`);
	if (opts['no-profile']) process.exit(0);
	const target = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json())[0];
	const socket = new WebSocket(target.webSocketDebuggerUrl);
	await new Promise((resolve, reject) => {
		socket.onopen = resolve;
		socket.onerror = reject;
	});
	let nextId = 1;
	const waiting = new Map();
	socket.onmessage = (event) => {
		const message = JSON.parse(String(event.data));
		if (message.id && waiting.has(message.id)) {
			waiting.get(message.id)(message.result);
			waiting.delete(message.id);
		}
	};
	const send = (method, params = {}) =>
		new Promise((resolve) => {
			const id = nextId++;
			waiting.set(id, resolve);
			socket.send(JSON.stringify({ id, method, params }));
		});
	await send('Profiler.enable');
	await send('Profiler.setSamplingInterval', { interval: 500 });
	await send('Profiler.start');
	const profiled = await window();
	const { profile } = await send('Profiler.stop');
	socket.close();
	log(`profiled window: ${profiled.requests} getUpdates in ${profiled.seconds.toFixed(1)} s`);
	await world.stopServer();
	const dt = new Map();
	const { samples, timeDeltas } = profile;
	for (let i = 0; i < samples.length; i++) dt.set(samples[i], (dt.get(samples[i]) ?? 0) + (timeDeltas[i] ?? 0));
	const byFn = new Map();
	const byPkg = new Map();
	let total = 0;
	for (const n of profile.nodes) {
		const us = dt.get(n.id) ?? 0;
		if (!us) continue;
		const { functionName, url, lineNumber } = n.callFrame;
		if (functionName === '(idle)' || functionName === '(program)') continue;
		total += us;
		const key = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '')}:${lineNumber + 1}`;
		byFn.set(key, (byFn.get(key) ?? 0) + us);
		const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url.split('node_modules/').length > 1 ? 'node_modules/' + url.split('node_modules/').at(-1) : url)?.[1] ?? (url.startsWith('node:') ? url : functionName.startsWith('(') ? functionName : 'other');
		byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
	}
	const show = (map) => [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(opts.top)).map(([k, us]) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((us / total) * 100).toFixed(1).padStart(5)} %  ${k}`).join('\n');
	console.log(`busy ${(total / 1000).toFixed(0)} ms over the profiled window, per getUpdates ${(total / 1000 / Math.max(1, profiled.requests)).toFixed(2)} ms on n8n's main thread\n--- by package (self) ---\n${show(byPkg)}\n--- by function (self) ---\n${show(byFn)}`);
	// Inclusive time of a few frames that matter.
	const parent = new Map();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const inclusive = new Map();
	for (const n of profile.nodes) {
		const us = dt.get(n.id) ?? 0;
		if (!us || n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)') continue;
		const seen = new Set();
		for (let id = n.id; id !== undefined; id = parent.get(id)) {
			const f = byId.get(id).callFrame;
			const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '')}:${f.lineNumber + 1}`;
			if (seen.has(key)) continue;
			seen.add(key);
			inclusive.set(key, (inclusive.get(key) ?? 0) + us);
		}
	}
	console.log(`--- by function (inclusive) ---\n${show(inclusive)}`);
} finally {
	await world.close({ keep: true });
	log(`work folder ${world.workDir}`);
	pack.cleanup?.();
}

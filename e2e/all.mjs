#!/usr/bin/env node
// Every end-to-end run `npm test` makes, several at once: the suite (e2e/run.mjs, ending with the short restart
// torture) on each n8n version, queue mode (e2e/queue.mjs: every scenario on 2.41.1, the chat cases on 2.8.4)
// and `npm start` twice (e2e/start.mjs). Each run is its own process with its own world (sandbox, n8n, ports,
// folders), so they share nothing but the packed tarball, built once here. They are dealt out to lanes (two
// unless --lanes says otherwise; RUNS below), each lane runs its runs one after the other.
//
// Why lanes: the runs spend much of their time waiting (for n8n to start, for triggers to read, for executions to
// be stored and resumed); the suite alone kept about a third of one core busy on 2 cores. Two at once fill the
// waits: on 2 cores 595 s for what took about 17 minutes one after the other. Three were slower there (661 s,
// load 9): two lanes already keep both cores busy. Each run's output is printed in one piece when it ends (and
// kept in a file while it runs), then a summary with timings; exits 1 when anything failed.
//
//   node e2e/all.mjs [--lanes 2] [--no-build] [--keep] [--tgz file]
//
// n8n must be installed for both versions (`npm run n8n:install -- --all`, which `npm run test:e2e` runs first).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from './lib/reporter.mjs';
import { packOnce } from '../tooling/world.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * The runs, each with the minutes it took in the last measurement (2 cores, two lanes, e2e/README.md): the
 * longest go first, each into the lane that has the least to do so far. Two lanes: the 2.41.1 suite, queue mode's
 * chat cases on 2.8.4 and npm start; the 2.8.4 suite and queue mode on 2.41.1.
 */
const RUNS = [
	{ name: 'suite, n8n 2.41.1', file: 'run.mjs', args: ['--version', '2.41.1'], minutes: 9.4 },
	{ name: 'suite, n8n 2.8.4', file: 'run.mjs', args: ['--version', '2.8.4'], minutes: 8.6 },
	{ name: 'queue mode, n8n 2.41.1', file: 'queue.mjs', args: [], minutes: 3.9 },
	{ name: 'queue mode, n8n 2.8.4 (chat cases)', file: 'queue.mjs', args: ['--version', '2.8.4', '--only', 'chat'], minutes: 1.4 },
	// npm start packs dist/ itself (built here) and keeps nothing: no options.
	{ name: 'npm start three times', file: 'start.mjs', args: [], options: false, minutes: 1.2 },
];

/** Deals the runs out to `count` lanes, longest first, each to the lane with the fewest minutes so far. */
function lanes(count) {
	const out = Array.from({ length: count }, () => ({ minutes: 0, runs: [] }));
	for (const run of [...RUNS].sort((a, b) => b.minutes - a.minutes)) {
		const lane = out.reduce((least, l) => (l.minutes < least.minutes ? l : least));
		lane.runs.push(run);
		lane.minutes += run.minutes;
	}
	return out.map((l) => l.runs).filter((runs) => runs.length);
}

const say = (s) => process.stdout.write(`[e2e] ${s}\n`);
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Runs one e2e file in a child process; its output goes to a file, and is printed whole when it ends. */
function runFile(run, { tgz, keep, logDir }) {
	const options = run.options === false ? [] : ['--no-build', '--tgz', tgz, ...(keep ? ['--keep'] : [])];
	const args = [path.join(HERE, run.file), ...run.args, ...options];
	const logFile = path.join(logDir, `${run.name.replace(/[^a-z0-9.]+/gi, '-')}.log`);
	const out = fs.openSync(logFile, 'w');
	const started = Date.now();
	say(`${run.name}: started (node ${path.relative(process.cwd(), args[0])} ${args.slice(1).join(' ')}; output in ${logFile})`);
	return new Promise((resolve) => {
		const child = spawn(process.execPath, args, { stdio: ['ignore', out, out] });
		child.on('exit', (code, signal) => {
			fs.closeSync(out);
			const output = fs.readFileSync(logFile, 'utf8');
			process.stdout.write(`\n######## ${run.name} ########\n${output}`);
			// The closing line every e2e entry point prints: `N passed, N failed`.
			const counts = [...output.matchAll(/^(\d+) passed, (\d+) failed/gm)].at(-1);
			resolve({ ...run, code: code ?? signal, ms: Date.now() - started, passed: Number(counts?.[1] ?? 0), failed: Number(counts?.[2] ?? 0) });
		});
	});
}

async function main() {
	const argv = process.argv.slice(2);
	const at = argv.indexOf('--lanes');
	const laneCount = at >= 0 ? Number(argv.splice(at, 2)[1]) : 2;
	if (!(Number.isInteger(laneCount) && laneCount >= 1)) throw new Error('--lanes takes a whole number, 1 or more');
	const opts = parseArgs(argv);
	const LANES = lanes(laneCount);
	const t0 = Date.now();
	const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rubika-e2e-all-'));
	const pack = await packOnce({ build: opts.build, tgz: opts.tgz, log: say });
	const packMs = Date.now() - t0;
	let results;
	try {
		results = (
			await Promise.all(
				LANES.map(async (lane) => {
					const done = [];
					for (const run of lane) done.push(await runFile(run, { tgz: pack.tgz, keep: opts.keep, logDir }));
					return done;
				}),
			)
		).flat();
	} finally {
		pack.cleanup();
	}
	process.stdout.write('\n=== e2e/all.mjs summary ===\n');
	process.stdout.write(`  ${'build + pack'.padEnd(40)} ${secs(packMs)}\n`);
	LANES.forEach((lane, i) => {
		for (const run of lane) {
			const r = results.find((x) => x.name === run.name);
			const ok = r.code === 0 && r.failed === 0 && r.passed > 0;
			process.stdout.write(`${ok ? 'ok  ' : 'FAIL'}  lane ${i + 1}  ${r.name.padEnd(36)} ${r.passed} passed, ${r.failed} failed, exit ${r.code}  (${secs(r.ms)})\n`);
		}
	});
	const passed = results.reduce((n, r) => n + r.passed, 0);
	const failed = results.reduce((n, r) => n + r.failed, 0);
	const bad = results.filter((r) => r.code !== 0 || r.failed > 0 || r.passed === 0);
	process.stdout.write(`  ${'whole run'.padEnd(40)} ${secs(Date.now() - t0)}\n\n${passed} passed, ${failed} failed${bad.length ? ` (${bad.map((r) => r.name).join('; ')} did not pass)` : ''}\n`);
	if (!bad.length) fs.rmSync(logDir, { recursive: true, force: true });
	process.exit(bad.length ? 1 : 0);
}

main().catch((e) => {
	process.stderr.write(`[e2e] ${e?.stack || e}\n`);
	process.stdout.write('0 passed, 1 failed\n');
	process.exit(1);
});

#!/usr/bin/env node
// `npm run test:quick`: the fast loop. n8n's community-node lint, the type check and knip run beside jest instead
// of before it: jest keeps two workers busy only part of the time (they wait on real timers and sockets), and the
// three static checks fit into what it leaves, which saves about their own time (~25 s on 2 cores). Their output
// is printed whole when each ends; jest's as it comes. Exits 1 when any of them failed, after all have ended.
// Arguments go to jest: `npm run test:quick -- test/actions`; `--scan` (what `npm test` passes) adds n8n's scanner
// (`npm run scan`: build, pack, the scanner's rules) to the checks that run beside jest.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** Runs a command; with `quiet`, its output is kept and printed when it ends. Resolves its exit code. */
function run(label, cmd, args, { quiet }) {
	const started = Date.now();
	return new Promise((resolve) => {
		const child = spawn(cmd, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', shell: process.platform === 'win32' });
		let output = '';
		if (quiet) for (const stream of [child.stdout, child.stderr]) stream.on('data', (d) => (output += d));
		child.on('error', (error) => (output += String(error)));
		child.on('close', (code) => {
			const seconds = ((Date.now() - started) / 1000).toFixed(1);
			process.stdout.write(`${output}[test:quick] ${label}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds} s\n`);
			resolve(code ?? 1);
		});
	});
}

const args = process.argv.slice(2);
const scan = args.includes('--scan');
const checks = [
	['lint', npm, ['run', '--silent', 'lint']],
	['typecheck', npm, ['run', '--silent', 'typecheck']],
	['knip', npm, ['run', '--silent', 'knip']],
	...(scan ? [['scan', npm, ['run', '--silent', 'scan']]] : []),
];
const started = Date.now();
const codes = await Promise.all([
	...checks.map(([label, cmd, cmdArgs]) => run(label, cmd, cmdArgs, { quiet: true })),
	run('jest', npx, ['jest', ...args.filter((a) => a !== '--scan')], { quiet: false }),
]);
const failed = codes.filter((code) => code !== 0).length;
const names = [...checks.map(([label]) => label), 'jest'];
process.stdout.write(`[test:quick] ${failed ? `${failed} of ${names.length} failed` : `${names.join(', ')} passed`} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.exit(failed ? 1 : 0);

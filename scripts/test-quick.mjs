#!/usr/bin/env node
// `npm run test:quick`: the fast loop. n8n's community-node lint, the type check and knip run beside jest instead
// of before it: jest keeps two workers busy only part of the time (they wait on real timers and sockets), and the
// three static checks fit into what it leaves, which saves about their own time (~25 s on 2 cores). Their output
// is printed whole when each ends; jest's as it comes. Exits 1 when any of them failed, after all have ended.
// Arguments go to jest: `npm run test:quick -- test/actions`.
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

const started = Date.now();
const codes = await Promise.all([
	run('lint', npm, ['run', '--silent', 'lint'], { quiet: true }),
	run('typecheck', npm, ['run', '--silent', 'typecheck'], { quiet: true }),
	run('knip', npm, ['run', '--silent', 'knip'], { quiet: true }),
	run('jest', npx, ['jest', ...process.argv.slice(2)], { quiet: false }),
]);
const failed = codes.filter((code) => code !== 0).length;
process.stdout.write(`[test:quick] ${failed ? `${failed} of 4 failed` : 'lint, typecheck, knip and jest passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.exit(failed ? 1 : 0);

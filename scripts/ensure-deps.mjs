#!/usr/bin/env node
// Installs the project's devDependencies when they are missing or older than package-lock.json, so that
// `npm test` and `npm start` work on a fresh clone with nothing else run first. Plain Node, no dependencies.
// They call it first thing, not as pretest/prestart hooks: `.npmrc`'s ignore-scripts=true makes npm skip
// pre/post scripts too, so a hook would never run on a fresh clone.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lockfile = join(root, 'package-lock.json');
const stamp = join(root, 'node_modules', '.rubika-deps-stamp');

const wanted = createHash('sha256')
	.update(readFileSync(join(root, 'package.json')))
	.update(existsSync(lockfile) ? readFileSync(lockfile) : '')
	.digest('hex');

if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) process.exit(0);

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// `.npmrc` sets ignore-scripts=true: n8n-core pulls isolated-vm, whose install script only builds on Node 24.
// `npm ci`: exactly the lockfile. The lockfile lists every platform's optional packages, so a clean install
// works on Linux, macOS and Windows alike. The devDependency pinning unrs-resolver (the lint plugin's
// resolver) to 1.12.2 is there for that: the registry reached here lacks 1.13.0's macOS and Windows bindings,
// and without their entries npm ci refuses the lockfile. n8n's lint forbids `overrides`.
const args = ['ci', '--no-audit', '--no-fund'];
console.log(`[ensure-deps] npm ${args.join(' ')} (dependencies missing or changed)`);
execFileSync(npm, args, { cwd: root, stdio: 'inherit' });
writeFileSync(stamp, wanted);

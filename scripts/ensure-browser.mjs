#!/usr/bin/env node
// Makes sure Debian's Chromium is installed for the browser tests (playwright-core drives it; no browser is
// ever downloaded from npm). Idempotent: does nothing when the browser is there; otherwise, as root with
// apt-get, installs the `chromium` package (about a minute on a fresh machine), updating the package lists
// only when the first attempt cannot find the package.
//
//   node scripts/ensure-browser.mjs          → prints the browser's path, exit 0
//                                            → exit 2 with the reason on stderr when it is missing and
//                                              cannot be installed (not root, no apt-get, install failed)
//   CHROMIUM_PATH=/path/to/chrome …          → use that browser instead of /usr/bin/chromium
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const browser = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function works(path) {
	if (!existsSync(path)) return false;
	const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 });
	return run.status === 0 && /chrom/i.test(run.stdout);
}

function fail(reason) {
	console.error(`[ensure-browser] ${reason}`);
	process.exit(2);
}

if (works(browser)) {
	console.log(browser);
	process.exit(0);
}
if (process.env.CHROMIUM_PATH) fail(`CHROMIUM_PATH=${browser} is not a working Chromium`);
if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) fail(`${browser} is missing and this is no Debian-like system with apt-get`);
if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
	fail(`${browser} is missing and installing it needs root: run "apt-get install -y chromium" as root`);
}

const started = Date.now();
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const apt = (...args) => execFileSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
console.error('[ensure-browser] installing Debian package chromium…');
try {
	try {
		apt('install', '-y', '-q', 'chromium');
	} catch {
		// Fresh machines often have empty package lists: refresh them once, then try again.
		apt('update', '-q');
		apt('install', '-y', '-q', 'chromium');
	}
} catch (error) {
	fail(`apt-get could not install chromium: ${error.message}`);
}
if (!works(browser)) fail(`apt-get finished but ${browser} does not run`);
console.error(`[ensure-browser] chromium installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(browser);

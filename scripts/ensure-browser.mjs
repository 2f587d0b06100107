#!/usr/bin/env node
// Makes sure Debian's Chromium is installed for the browser tests (playwright-core drives it; no browser is
// ever downloaded from npm). Idempotent: does nothing when the browser is there; otherwise, as root with
// apt-get, installs the `chromium` package (about a minute on a fresh machine), updating the package lists
// only when the first attempt cannot find the package. With it comes `fonts-noto-color-emoji` (10 MB), so
// emoji in bot messages and keypads show in screenshots instead of empty boxes; that part is best effort.
//
//   node scripts/ensure-browser.mjs          → prints the browser's path, exit 0
//                                            → exit 2 with the reason on stderr when it is missing and
//                                              cannot be installed (not root, no apt-get, install failed)
//   CHROMIUM_PATH=/path/to/chrome …          → use that browser instead of /usr/bin/chromium
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const browser = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const EMOJI_FONT = '/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf';
const canInstall = process.platform === 'linux' && existsSync('/usr/bin/apt-get') && typeof process.getuid === 'function' && process.getuid() === 0;
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const apt = (args, stderr = 'inherit') => execFileSync('apt-get', args, { env, stdio: ['ignore', 'ignore', stderr] });

/**
 * apt-get install, refreshing the package lists once if the first try fails (fresh machines have none,
 * so the first try's "Unable to locate package" is expected and kept quiet; the retry reports for real).
 */
function aptInstall(...packages) {
	try {
		apt(['install', '-y', '-q', ...packages], 'ignore');
	} catch {
		console.error('[ensure-browser] refreshing package lists (apt-get update)…');
		apt(['update', '-q']);
		apt(['install', '-y', '-q', ...packages]);
	}
}

function ensureEmojiFont() {
	if (existsSync(EMOJI_FONT) || !canInstall) return;
	try {
		aptInstall('fonts-noto-color-emoji');
	} catch (error) {
		console.error(`[ensure-browser] no emoji font (screenshots will show boxes for emoji): ${error.message}`);
	}
}

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
	ensureEmojiFont();
	console.log(browser);
	process.exit(0);
}
if (process.env.CHROMIUM_PATH) fail(`CHROMIUM_PATH=${browser} is not a working Chromium`);
if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) fail(`${browser} is missing and this is no Debian-like system with apt-get`);
if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
	fail(`${browser} is missing and installing it needs root: run "apt-get install -y chromium" as root`);
}

const started = Date.now();
console.error('[ensure-browser] installing Debian package chromium…');
try {
	aptInstall('chromium');
} catch (error) {
	fail(`apt-get could not install chromium: ${error.message}`);
}
if (!works(browser)) fail(`apt-get finished but ${browser} does not run`);
ensureEmojiFont();
console.error(`[ensure-browser] chromium installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(browser);

// Headless Chromium for the e2e suite: the jest browser tests' helpers (test/browser/browser.ts), loaded
// through ts-node because the suite is plain JavaScript. So both suites launch the same browser the same
// way: Debian's chromium (found, or installed by scripts/ensure-browser.mjs), driven by playwright-core,
// with this machine's flags (no sandbox, no GPU, nothing that phones home) and a throw-away profile;
// every page's console errors, uncaught exceptions and failed requests are collected.
//
//   const found = findChromium();   // { path, reason, ms }
//   const browser = await openBrowser({ executablePath: found.path, ignoreFailedRequests, ignoreConsole });
//   const page = await browser.newPage(); … browser.errors(page); await browser.close();
//   await noteScreenshot(t, world, page, 'chat.png');   // docs/images/ with RUBIKA_SCREENSHOTS=1
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from '../../tooling/n8n.mjs';

const require = createRequire(import.meta.url);
require(require.resolve('ts-node', { paths: [REPO_ROOT] })).register({
	transpileOnly: true,
	project: path.join(REPO_ROOT, 'tsconfig.json'),
});
const helpers = require(path.join(REPO_ROOT, 'test', 'browser', 'browser.ts'));
// Loaded by path, so neither TypeScript nor knip sees these uses: a helper gone from browser.ts fails here, loudly.
for (const name of ['CHROMIUM_ARGS', 'findChromium', 'openBrowser', 'saveScreenshot']) {
	if (helpers[name] === undefined) throw new Error(`test/browser/browser.ts no longer exports ${name}, which e2e/lib/browser.mjs needs`);
}

export const { CHROMIUM_ARGS, findChromium, openBrowser } = helpers;
const { saveScreenshot } = helpers;

/**
 * Saves a test's screenshot and notes where: into docs/images/ with RUBIKA_SCREENSHOTS=1 (to update the docs),
 * else into the world's (temporary) work folder, so that a test run leaves the repository clean.
 */
export async function noteScreenshot(t, world, page, file) {
	const target = process.env.RUBIKA_SCREENSHOTS === '1' ? path.join(REPO_ROOT, 'docs', 'images', file) : path.join(world.workDir, 'screenshots', file);
	await saveScreenshot(page, target);
	t.note(`screenshot ${target.startsWith(REPO_ROOT) ? path.relative(REPO_ROOT, target) : target}`);
}

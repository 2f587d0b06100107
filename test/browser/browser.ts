/**
 * Headless Chromium for browser tests: Debian's `chromium` driven by playwright-core (never a downloaded
 * browser). Kept free of jest and of the sandbox so the end-to-end suite can use it too:
 *
 *   const found = findChromium();                 // installs it via scripts/ensure-browser.mjs if it can
 *   if (!found.path) skip(found.reason);
 *   const browser = await openBrowser({ executablePath: found.path });
 *   const page = await browser.newPage();         // console errors collected: browser.errors(page)
 *   await page.goto(url); … await saveScreenshot(page, 'docs/images/x.png');
 *   expect(browser.errors(page)).toEqual([]); await browser.close();
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/**
 * Flags for this machine kind: no sandbox (tests run as root), no GPU, and nothing that phones home —
 * the network is closed, and Chromium's background connections would only fail, noisily.
 */
export const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--disable-dev-shm-usage',
];

export interface ChromiumLookup {
	/** The browser to launch, or null when there is none and none could be installed. */
	path: string | null;
	/** Why there is none (for the skip message). */
	reason: string;
	/** How long finding (and maybe installing) it took. */
	ms: number;
}

/**
 * Finds Debian's Chromium, installing it when missing and possible (root + apt-get), through
 * scripts/ensure-browser.mjs. Synchronous so a test file can decide at load time whether to skip.
 */
export function findChromium(timeoutMs = 10 * 60_000): ChromiumLookup {
	const started = Date.now();
	try {
		const out = execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'ensure-browser.mjs')], {
			encoding: 'utf8',
			timeout: timeoutMs,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const found = out.trim().split('\n').pop() ?? '';
		return { path: found || null, reason: found ? '' : 'ensure-browser printed no path', ms: Date.now() - started };
	} catch (error) {
		const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
		const reason = stderr.split('\n').filter(Boolean).pop() ?? (error as Error).message;
		return { path: null, reason: reason.replace(/^\[ensure-browser\]\s*/, ''), ms: Date.now() - started };
	}
}

interface PageProblem {
	kind: 'console' | 'pageerror' | 'requestfailed';
	text: string;
	url?: string;
}

export interface TestBrowser {
	context: BrowserContext;
	/** A new tab whose console errors, uncaught exceptions and failed requests are collected. */
	newPage(options?: { width?: number; height?: number }): Promise<Page>;
	/** What went wrong on a page so far (console errors, uncaught exceptions, failed requests). */
	errors(page: Page): PageProblem[];
	close(): Promise<void>;
}

export interface OpenBrowserOptions {
	executablePath: string;
	/** Default true; set HEADFUL=1 in the environment to watch a run. */
	headless?: boolean;
	/** Requests whose failure is expected (e.g. an event stream cut when its server stops). */
	ignoreFailedRequests?: (url: string) => boolean;
	/** Console messages to ignore. */
	ignoreConsole?: (message: ConsoleMessage) => boolean;
}

/** Launches Chromium with a fresh, throw-away profile (user-data dir), removed again on close. */
export async function openBrowser(options: OpenBrowserOptions): Promise<TestBrowser> {
	const profile = mkdtempSync(path.join(os.tmpdir(), 'rubika-chromium-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: options.executablePath,
		headless: options.headless ?? process.env.HEADFUL !== '1',
		args: CHROMIUM_ARGS,
		viewport: { width: 1200, height: 800 },
		locale: 'en-US',
		timezoneId: 'UTC',
		colorScheme: 'light',
		reducedMotion: 'reduce',
	});
	const problems = new WeakMap<Page, PageProblem[]>();
	const watch = (page: Page): Page => {
		const list: PageProblem[] = [];
		problems.set(page, list);
		page.on('console', (message) => {
			if (message.type() !== 'error' || options.ignoreConsole?.(message)) return;
			list.push({ kind: 'console', text: message.text(), url: message.location().url });
		});
		page.on('pageerror', (error) => list.push({ kind: 'pageerror', text: error.stack ?? error.message }));
		page.on('requestfailed', (request) => {
			if (options.ignoreFailedRequests?.(request.url())) return;
			list.push({ kind: 'requestfailed', text: request.failure()?.errorText ?? 'failed', url: request.url() });
		});
		return page;
	};
	// A persistent context opens with one blank tab; use it first.
	const spare: Page[] = [...context.pages()];
	return {
		context,
		async newPage(size) {
			const page = watch(spare.shift() ?? (await context.newPage()));
			if (size) await page.setViewportSize({ width: size.width ?? 1200, height: size.height ?? 800 });
			return page;
		},
		errors: (page) => [...(problems.get(page) ?? [])],
		async close() {
			await context.close().catch(() => undefined);
			rmSync(profile, { recursive: true, force: true });
		},
	};
}

/** Saves a PNG, creating folders; the path is relative to the repository unless absolute. */
export async function saveScreenshot(page: Page, file: string, options: { fullPage?: boolean } = {}): Promise<string> {
	const target = path.isAbsolute(file) ? file : path.join(REPO_ROOT, file);
	mkdirSync(path.dirname(target), { recursive: true });
	await page.screenshot({ path: target, fullPage: options.fullPage ?? false, animations: 'disabled' });
	return target;
}

// The e2e suite's reporter and runner: plain Node, one line per check, a closing `N passed, N failed`. (Not to be
// confused with tooling/harness/, which runs nodes in-process through n8n-core.)
//
// A test file exports `test = { name, workflows?(demo), run(world, t) }` and ends with
//   if (isMain(import.meta.url)) await runStandalone(test);
// so it runs alone (`node e2e/webhook.mjs [--version 2.8.4] [--keep]`) or under e2e/run.mjs, which gives
// every test of a version one shared world (one n8n, one sandbox).
//
// A check that waits for n8n's once-a-minute look for expired waits (Limit Wait Time) is registered with
// `t.finishLater(label, fn)`: alone, fn runs right after `run`; under run.mjs it runs later (finishTests), while
// the tests in between use the time the wait would have taken.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, inspect } from 'node:util';
import { createWorld, packOnce } from '../../tooling/world.mjs';

export function isMain(importMetaUrl) {
	return !!process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(importMetaUrl);
}

const show = (v) => inspect(v, { depth: 6, breakLength: 120, maxStringLength: 600 });

/** Collects checks for one test file and prints each as it happens. */
export function createReporter(name, { write = (s) => process.stdout.write(s) } = {}) {
	const results = [];
	const t = {
		name,
		results,
		/** What finishLater registered, in order: [{ label, fn }]. */
		deferred: [],
		/**
		 * Registers the last part of a test, to run after the tests that follow it in a shared world (run.mjs) or
		 * right after `run` when the file runs alone: where it waits for something n8n does by itself within a
		 * minute, the tests in between use that time. Register it early (before anything may throw), so that the
		 * clean-up in it runs in any case.
		 */
		finishLater(label, fn) {
			t.deferred.push({ label, fn });
		},
		/** Records a check. `detail` is printed after the name (always for failures, briefly for passes). */
		check(label, ok, detail = '') {
			results.push({ label, ok: !!ok });
			let d = typeof detail === 'string' ? detail : show(detail);
			// A pass shows a short detail (a timing, a count); a failure shows everything.
			if (ok && (d.length > 160 || d.includes('\n'))) d = '';
			write(`${ok ? 'ok    ' : 'FAIL  '} ${label}${d ? ` — ${d}` : ''}\n`);
			return !!ok;
		},
		/** Deep equality; on failure prints both sides. */
		eq(label, actual, expected) {
			const ok = isDeepStrictEqual(actual, expected);
			return t.check(label, ok, ok ? '' : `\n    got:      ${show(actual)}\n    expected: ${show(expected)}`);
		},
		/** `actual` holds every key of `expected` with an equal value (extra keys are fine). */
		has(label, actual, expected) {
			const missing = Object.entries(expected).filter(([k, v]) => !isDeepStrictEqual(actual?.[k], v));
			return t.check(
				label,
				missing.length === 0,
				missing.length ? `\n    differs in ${missing.map(([k]) => k).join(', ')}\n    got:      ${show(actual)}\n    expected: ${show(expected)}` : '',
			);
		},
		/** Runs a block; an exception inside becomes a failed check named `label`, and the test goes on. */
		async step(label, fn) {
			try {
				return await fn();
			} catch (e) {
				t.check(label, false, `threw: ${e?.stack || e}`);
				return undefined;
			}
		},
		note(s) {
			write(`       ${s}\n`);
		},
		get passed() {
			return results.filter((r) => r.ok).length;
		},
		get failed() {
			return results.filter((r) => !r.ok).length;
		},
	};
	return t;
}

/** A desktop browser's User-Agent: n8n's waiting pages answer only what looks like a person's browser. */
export const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/** Polls `fn` until it returns a truthy value; returns it, or the last value after `timeoutMs`. */
export async function eventually(fn, { timeoutMs = 15_000, intervalMs = 250 } = {}) {
	const deadline = Date.now() + timeoutMs;
	let last;
	for (;;) {
		try {
			last = await fn();
		} catch (e) {
			last = undefined;
			if (Date.now() >= deadline) throw e;
		}
		if (last || Date.now() >= deadline) return last;
		await new Promise((r) => setTimeout(r, intervalMs));
	}
}

/**
 * Runs one test against a world, with a time limit, and prints its closing line; then, unless `finish` is false,
 * its last part (finishLater). Never throws: an exception or a timeout is a failed check. Resolves
 * { name, version, passed, failed, seconds, reporter }.
 */
export async function runTest(test, world, { timeoutMs = 6 * 60_000, finish = true } = {}) {
	const write = (s) => process.stdout.write(s);
	const t = createReporter(test.name, { write });
	const started = Date.now();
	write(`\n=== ${test.name} (n8n ${world.version}) ===\n`);
	await withTimeout(t, `${test.name} ran to the end`, () => test.run(world, t), timeoutMs);
	const secs = ((Date.now() - started) / 1000).toFixed(1);
	write(`${t.passed} passed, ${t.failed} failed (${test.name}, n8n ${world.version}, ${secs} s)\n`);
	const result = { name: test.name, version: world.version, passed: t.passed, failed: t.failed, seconds: Number(secs), reporter: t };
	// Alone, the last part follows at once; run.mjs runs it later (finishTests).
	if (finish) await finishTests([result], world);
	return result;
}

/**
 * Runs what the tests of `results` registered with finishLater (each within a time limit) and adds its checks to
 * their counts. Never throws.
 */
export async function finishTests(results, world, { timeoutMs = 4 * 60_000 } = {}) {
	const write = (s) => process.stdout.write(s);
	for (const result of results) {
		const t = result.reporter;
		if (!t?.deferred.length) continue;
		const started = Date.now();
		const [passed, failed] = [t.passed, t.failed];
		write(`\n=== ${result.name}, finishing (n8n ${world.version}) ===\n`);
		for (const { label, fn } of t.deferred.splice(0)) await withTimeout(t, label, () => t.step(label, fn), timeoutMs);
		const secs = (Date.now() - started) / 1000;
		write(`${t.passed - passed} passed, ${t.failed - failed} failed (${result.name}, finishing, n8n ${world.version}, ${secs.toFixed(1)} s)\n`);
		Object.assign(result, { passed: t.passed, failed: t.failed, seconds: Number((result.seconds + secs).toFixed(1)) });
	}
}

/** Runs fn; a timeout or an exception becomes a failed check named `label`. */
async function withTimeout(t, label, fn, timeoutMs) {
	let timer;
	try {
		await Promise.race([
			fn(),
			new Promise((_, reject) => {
				timer = setTimeout(() => reject(new Error(`${label}: not done within ${timeoutMs / 1000} s`)), timeoutMs);
			}),
		]);
	} catch (e) {
		t.check(label, false, String(e?.stack || e));
	} finally {
		clearTimeout(timer);
	}
}

/** Parses the options every e2e entry point shares. */
export function parseArgs(argv = process.argv.slice(2)) {
	const opts = { versions: [], build: true, keep: false, only: undefined };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--version') opts.versions.push(argv[++i]);
		else if (a.startsWith('--version=')) opts.versions.push(a.slice('--version='.length));
		else if (a === '--all') opts.all = true;
		else if (a === '--no-build') opts.build = false;
		else if (a === '--keep') opts.keep = true;
		else if (a === '--tgz') opts.tgz = argv[++i];
		else if (a === '--only') opts.only = argv[++i].split(',');
		else if (a.startsWith('--only=')) opts.only = a.slice('--only='.length).split(',');
		else throw new Error(`unknown option ${a}`);
	}
	return opts;
}

/** Entry point of a single test file run on its own: its own world, closing `N passed, N failed`. */
export async function runStandalone(test) {
	const opts = parseArgs();
	const version = opts.versions[0] ?? process.env.RUBIKA_N8N_VERSION;
	const say = (s) => process.stdout.write(`[e2e] ${s}\n`);
	let world;
	let pack;
	let result = { passed: 0, failed: 1 };
	try {
		pack = await packOnce({ build: opts.build, tgz: opts.tgz, log: say });
		world = await createWorld({ version, pack, workflows: (demo) => test.workflows?.(demo) ?? [], log: say });
		result = await runTest(test, world);
	} catch (e) {
		process.stdout.write(`FAIL   setting up the world — ${e?.stack || e}\n`);
	} finally {
		const keep = opts.keep || result.failed > 0;
		if (world) {
			await world.close({ keep });
			if (keep) say(`work folder kept: ${world.workDir}`);
		}
		pack?.cleanup();
	}
	process.stdout.write(`${result.passed} passed, ${result.failed} failed\n`);
	process.exit(result.failed ? 1 : 0);
}

/** Reads a JSON file next to the caller, e.g. a workflow. */
export function readJson(file) {
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

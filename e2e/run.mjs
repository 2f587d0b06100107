#!/usr/bin/env node
// Runs the whole end-to-end suite in a real n8n: builds and packs the package once, then for each n8n
// version one world (fresh user folder, sandbox, one shared `n8n start`) and every test in turn.
//
//   node e2e/run.mjs                        the current n8n (2.41.1, Node 24)
//   node e2e/run.mjs --version 2.8.4        the Node 20 variant
//   node e2e/run.mjs --all                  both, one after the other
//   options: --only smoke,webhook  --no-build  --keep (keep work folders)  --tgz <file> (test that tarball)
//
// n8n must be installed (scripts/install-n8n.mjs; done here when missing, minutes the first time).
// Prints `N passed, N failed` per test and overall; exits 1 when anything failed. `npm test` runs this for both
// versions at once, beside queue mode and the demo's restart (e2e/all.mjs).
import { VARIANTS, resolveVersion } from '../tooling/install-n8n.mjs';
import { finishTests, parseArgs, runTest } from './lib/reporter.mjs';
import { createWorld, packOnce } from '../tooling/world.mjs';
import { test as aiAssistant } from './ai-assistant.mjs';
import { test as botIdentity } from './bot-identity.mjs';
import { test as browser } from './browser.mjs';
import { test as chatAnswers } from './chat-answers.mjs';
import { test as continuous } from './continuous.mjs';
import { test as credential } from './credential.mjs';
import { test as examples } from './examples.mjs';
import { test as execute } from './execute.mjs';
import { test as reach } from './reach.mjs';
import { test as sendAndWait } from './send-and-wait.mjs';
import { test as smoke } from './smoke.mjs';
import { test as testListen } from './test-listen.mjs';
import { test as torture } from './torture.mjs';
import { test as undocumented } from './undocumented.mjs';
import { test as webhook } from './webhook.mjs';

/**
 * Where the tests' last parts (finishLater) run: send-and-wait and chat-answers each ask a question with a time
 * limit early, which n8n goes on with when it next looks for expired waits (once a minute, and when it starts);
 * the tests in between use that time. Before continuous, which checks that no workflow is active any more.
 */
const FINISH = Object.freeze({ name: 'finish', finish: true });

// Order matters for speed and for what the tests see of each other:
// - send-and-wait and chat-answers come early and finish at FINISH (above); meanwhile their webhook-started
//   workflows and the Approvals Bot's trigger by webhook stay published, nothing that reads the demo bot's getUpdates.
//   identity (its own bots) runs before FINISH too: with the files before it, it fills n8n's wait.
// - browser publishes the echo bot whose executions webhook counts: it comes after webhook. send-and-wait opens
//   its own Chromium. chat-answers deletes its credentials (at FINISH) before browser looks at the editor's defaults.
// - tests that restart n8n come late; torture (restarts and kills n8n, reads the whole getUpdates log) is last.
// - reach comes after FINISH: it makes the sandbox answer only its proxy for a while, which would stall any
//   trigger still reading the demo bot.
const ALL = [smoke, credential, sendAndWait, chatAnswers, execute, undocumented, examples, webhook, botIdentity, FINISH, continuous, testListen, reach, aiAssistant, browser, torture];
const TESTS = ALL.filter((x) => !x.finish);

const say = (s) => process.stdout.write(`[e2e] ${s}\n`);
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

async function main() {
	const opts = parseArgs();
	const versions = opts.all ? Object.keys(VARIANTS) : opts.versions.length ? opts.versions.map(resolveVersion) : [resolveVersion()];
	const tests = opts.only ? ALL.filter((x) => x.finish || opts.only.includes(x.name)) : ALL;
	if (opts.only) {
		const unknown = opts.only.filter((name) => !TESTS.some((x) => x.name === name));
		if (unknown.length) throw new Error(`unknown test(s) ${unknown.join(', ')}; known: ${TESTS.map((x) => x.name).join(', ')}`);
	}
	const t0 = Date.now();
	const results = [];
	const timings = [];

	let t = Date.now();
	const pack = await packOnce({ build: opts.build, tgz: opts.tgz, log: say });
	timings.push(['build + pack', Date.now() - t]);

	for (const version of versions) {
		const tv = Date.now();
		let world;
		try {
			t = Date.now();
			world = await createWorld({ version, pack, workflows: (demo) => tests.flatMap((x) => x.workflows?.(demo) ?? []), log: say });
			timings.push([`${version}: world (install package, sandbox, imports)`, Date.now() - t]);
		} catch (e) {
			process.stdout.write(`FAIL   setting up n8n ${version} — ${e?.stack || e}\n0 passed, 1 failed (setup, n8n ${version})\n`);
			results.push({ name: 'setup', version, passed: 0, failed: 1, seconds: 0 });
			continue;
		}
		try {
			/** Tests whose last part (finishLater) has not run yet. */
			let unfinished = [];
			const finish = async () => {
				const waiting = unfinished.filter((r) => r.reporter.deferred.length);
				if (!waiting.length) return;
				const started = Date.now();
				await finishTests(waiting, world);
				timings.push([`${version}: finishing ${waiting.map((r) => r.name).join(', ')}`, Date.now() - started]);
				unfinished = [];
			};
			for (const test of tests) {
				if (test.finish) {
					await finish();
					continue;
				}
				const r = await runTest(test, world, { finish: false, timeoutMs: test.timeoutMs });
				results.push(r);
				unfinished.push(r);
				timings.push([`${version}: ${test.name}`, r.seconds * 1000]);
			}
			await finish();
		} finally {
			const failed = results.some((r) => r.version === version && r.failed > 0);
			const keep = opts.keep || failed;
			await world.close({ keep });
			if (keep) say(`work folder of n8n ${version} kept: ${world.workDir} (n8n log: ${world.workDir}/n8n.log)`);
			timings.push([`${version}: total`, Date.now() - tv]);
		}
	}

	pack.cleanup();
	process.stdout.write('\n=== summary ===\n');
	for (const r of results) process.stdout.write(`${r.failed ? 'FAIL' : 'ok  '}  n8n ${r.version.padEnd(7)} ${r.name.padEnd(11)} ${r.passed} passed, ${r.failed} failed  (${r.seconds.toFixed(1)} s)\n`);
	process.stdout.write('\ntimings:\n');
	for (const [label, ms] of timings) process.stdout.write(`  ${label.padEnd(52)} ${secs(ms)}\n`);
	process.stdout.write(`  ${'whole run'.padEnd(52)} ${secs(Date.now() - t0)}\n\n`);
	const passed = results.reduce((n, r) => n + r.passed, 0);
	const failed = results.reduce((n, r) => n + r.failed, 0);
	process.stdout.write(`${passed} passed, ${failed} failed\n`);
	process.exit(failed ? 1 : 0);
}

main().catch((e) => {
	process.stderr.write(`[e2e] ${e?.stack || e}\n`);
	process.stdout.write('0 passed, 1 failed\n');
	process.exit(1);
});

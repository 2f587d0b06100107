/**
 * `npm run bench`: runs B1–B9, prints the tables and writes BENCHMARKS.md (and the raw figures to
 * bench/results/latest.json). Every figure is measured in the same run as its baseline.
 *
 *   npm run bench                 everything (a few minutes on 2 cores, plus about 11 for B6's real n8n)
 *   npm run bench -- --quick      smaller workloads, for checking that the benchmarks work
 *   npm run bench -- --only b1,b3 some of them (BENCHMARKS.md is then not written)
 *
 * Each case runs in a fresh Node process and starts its own sandbox in yet another process (bench/lib).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

import type { B1N8nResult } from './cases/b1-n8n';
import type { B1Result } from './cases/b1-overhead';
import type { B2Result, B2Scenario, B2ScenarioName } from './cases/b2-broadcast';
import type { B3Result, UploadMode } from './cases/b3-upload';
import type { B4Result } from './cases/b4-drain';
import type { B6Result, TriggerName } from './cases/b6-latency';
import type { B7Result } from './cases/b7-queue';
import type { B8Result } from './cases/b8-idle-bots';
import type { AnswerPath, B9Result } from './cases/b9-chat-answers';
import type { B5Result } from './footprint';
import { measureFootprint } from './footprint';
import { REPO, runCase } from './lib/proc';
import { count, kib, mib, ms, ratio, seconds, table } from './lib/report';
import { MiB, median } from './lib/stats';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? new Set((args[onlyIndex + 1] ?? '').toLowerCase().split(',')) : undefined;
const wanted = (name: string) => !only || only.has(name);

const SETTINGS = quick
	? { b1: { items: 200, warmups: 1, repeats: 2 }, b2: { limits: [2, 30], seconds: 6 }, b3Bytes: 8 * MiB, b3Repeats: 1, b4Updates: 2_000, b5Rounds: 3, b6: { messages: 30, idleWindowMs: 15_000, idleSlowdown: false, quietBots: 2, quietMs: 30_000 }, b7: { recipients: 120, perSecond: 30, executions: [1, 2] }, b8: { bots: [10, 3, 1], windowMs: 10_000, messages: 10, rest: { bots: 2, windowMs: 10_000, idleAfterMinutes: 0.25 } }, b9: { samples: 5 } }
	: { b1: { items: 1_000, warmups: 2, repeats: 5 }, b2: { limits: [1, 2, 5, 30], seconds: 30 }, b3Bytes: 50 * MiB, b3Repeats: 3, b4Updates: 10_000, b5Rounds: 7, b6: { messages: 200, idleWindowMs: 60_000, idleSlowdown: false, quietBots: 20, quietMs: 600_000 }, b7: { recipients: 600, perSecond: 30, executions: [1, 2, 4] }, b8: { bots: [100, 30, 10, 1], windowMs: 30_000, messages: 40, rest: { bots: 20, windowMs: 60_000 } }, b9: { samples: 20 } };

/** B6: the random gaps between messages, and what the issue asks of the trigger by reading (report only). */
const B6 = { minGapMs: 300, maxGapMs: 1_500, seed: 6, targets: { readingP95Ms: 1_500, overWebhookP95Ms: 1_000, afterQuietP95Ms: 1_500 } };

/** B8: the gaps between the messages to one bot, and what the issue asks of idle bots (report only). */
const B8 = { minGapMs: 300, maxGapMs: 1_200, targets: { msPerRequest: 5, aimMsPerRequest: 2, percentPerBot: 0.6, aimPercentPerBot: 0.2, hundredBotsPercent: 60, p95Ms: 1_500, restOverToday: 1.1 } };

/** B9: the gaps between an execution starting to wait and the tap, and what the issue asks of an answer (report only). */
const B9 = { minGapMs: 300, maxGapMs: 1_500, seed: 9, targets: { p95Ms: 1_500, chatKeypadP95Ms: 600 } };

/** B2: the sandbox's latency, and what the issue asks of every broadcast under a limit (report only). */
const B2 = { latencyMs: 20, targets: { shareOfLimit: 0.9 } };

interface Results {
	/** Benchmarks that could not run, with the reason: reported instead of their table. */
	failed: Record<string, string>;
	b1?: B1Result;
	b1n8n?: B1N8nResult;
	b2?: B2Result[];
	b3?: B3Summary;
	b4?: B4Result;
	b5?: B5Result;
	b6?: B6Result;
	b7?: B7Result;
	b8?: B8Result;
	b9?: B9Result;
}

interface B3Summary {
	sizeBytes: number;
	repeats: number;
	natural: Record<UploadMode, B3Result[]>;
	live: Record<UploadMode, B3Result>;
}

const UPLOAD_MODES: UploadMode[] = ['node-default', 'raw-buffer', 'node-filesystem', 'raw-stream', 'node-url', 'raw-url'];

function log(message: string): void {
	process.stderr.write(`[bench] ${message}\n`);
}

async function main(): Promise<void> {
	const started = Date.now();
	const loadBefore = os.loadavg();
	const results: Results = { failed: {} };
	// One benchmark failing (e.g. an operation not written yet) must not cost the others' figures.
	const attempt = async (name: string, body: () => Promise<void>) => {
		try {
			await body();
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			results.failed[name] = message;
			log(`${name.toUpperCase()} failed: ${message}`);
		}
	};

	if (wanted('b1')) {
		await attempt('b1', async () => {
			log(`B1: ${SETTINGS.b1.items} Send Text items, node vs raw HTTP (${SETTINGS.b1.warmups} warm-up + ${SETTINGS.b1.repeats} rounds)…`);
			results.b1 = await runCase<B1Result>('b1-overhead', SETTINGS.b1, 600_000);
			log(`B1 in a real n8n: the Rubika node vs n8n's HTTP Request node, ${SETTINGS.b1.items} items, ${SETTINGS.b1.repeats} rounds…`);
			results.b1n8n = await runCase<B1N8nResult>('b1-n8n', { items: SETTINGS.b1.items, repeats: SETTINGS.b1.repeats }, 1_200_000);
		});
	}
	if (wanted('b2')) {
		await attempt('b2', async () => {
			const { limits, seconds: duration } = SETTINGS.b2;
			results.b2 = [];
			for (const perSecond of limits) {
				const recipients = perSecond * duration;
				log(`B2: 5 broadcasts to ${recipients} recipients each under ${perSecond}/s, ${B2.latencyMs} ms latency (about ${Math.round(5 * (duration + 2))} s)…`);
				results.b2.push(await runCase<B2Result>('b2-broadcast', { latencyMs: B2.latencyMs, perSecond, recipients }, 900_000));
			}
		});
	}
	if (wanted('b3')) {
		await attempt('b3', async () => {
			const summary: B3Summary = { sizeBytes: SETTINGS.b3Bytes, repeats: SETTINGS.b3Repeats, natural: {} as B3Summary['natural'], live: {} as B3Summary['live'] };
			log(`B3: ${mib(SETTINGS.b3Bytes, 0)} upload, ${UPLOAD_MODES.length} cases × (${SETTINGS.b3Repeats} timed + 1 live-memory run), one process each…`);
			for (const mode of UPLOAD_MODES) summary.natural[mode] = [];
			for (let round = 0; round < SETTINGS.b3Repeats; round++) {
				for (const mode of UPLOAD_MODES) {
					summary.natural[mode].push(await runCase<B3Result>('b3-upload', { mode, sizeBytes: SETTINGS.b3Bytes, sampling: 'natural' }, 300_000));
				}
			}
			for (const mode of UPLOAD_MODES) {
				summary.live[mode] = await runCase<B3Result>('b3-upload', { mode, sizeBytes: SETTINGS.b3Bytes, sampling: 'live' }, 300_000);
			}
			results.b3 = summary;
		});
	}
	if (wanted('b4')) {
		await attempt('b4', async () => {
			log(`B4: drain ${count(SETTINGS.b4Updates)} pending updates through the trigger (by reading) vs a raw getUpdates loop…`);
			results.b4 = await runCase<B4Result>('b4-drain', { updates: SETTINGS.b4Updates, pageSize: 100, warmups: 1, repeats: 3 }, 600_000);
		});
	}
	if (wanted('b5')) {
		await attempt('b5', async () => {
			log('B5: build, dist and tarball size, require time…');
			results.b5 = measureFootprint(SETTINGS.b5Rounds);
		});
	}

	if (wanted('b6')) {
		await attempt('b6', async () => {
			const b6 = SETTINGS.b6;
			log(
				`B6: trigger latency in a real n8n, ${b6.messages} messages ${B6.minGapMs}–${B6.maxGapMs} ms apart, then idle cost` +
					`${b6.idleSlowdown ? ' (with the 5-minute idle slow-down: about 12 min)' : ''}…`,
			);
			results.b6 = await runCase<B6Result>('b6-latency', { ...b6, minGapMs: B6.minGapMs, maxGapMs: B6.maxGapMs, seed: B6.seed }, 1_800_000);
		});
	}

	if (wanted('b7')) {
		await attempt('b7', async () => {
			const b7 = SETTINGS.b7;
			log(`B7: broadcasts of ${count(b7.recipients)} in real n8n, regular vs queue mode (PostgreSQL, Redis), ${b7.executions.join('/')} at once under ${b7.perSecond}/s…`);
			results.b7 = await runCase<B7Result>('b7-queue', b7, 3_600_000);
		});
	}

	if (wanted('b8')) {
		await attempt('b8', async () => {
			const b8 = SETTINGS.b8;
			log(`B8: ${b8.bots.join('/')} idle bots on one real n8n, ${b8.windowMs / 1000} s windows, and one bot's latency…`);
			results.b8 = await runCase<B8Result>('b8-idle-bots', { ...b8, minGapMs: B8.minGapMs, maxGapMs: B8.maxGapMs }, 2_700_000);
		});
	}

	if (wanted('b9')) {
		await attempt('b9', async () => {
			log(`B9: Send and Wait answered on the web page, with buttons under the message and on the chat keypad, ${SETTINGS.b9.samples} taps each, in a real n8n…`);
			results.b9 = await runCase<B9Result>('b9-chat-answers', { samples: SETTINGS.b9.samples, minGapMs: B9.minGapMs, maxGapMs: B9.maxGapMs, seed: B9.seed }, 1_200_000);
		});
	}

	const machine = describeMachine(started, loadBefore);
	const markdown = render(results, machine);
	process.stdout.write(`${markdown}\n`);
	mkdirSync(join(REPO, 'bench', 'results'), { recursive: true });
	writeFileSync(join(REPO, 'bench', 'results', 'latest.json'), JSON.stringify({ machine, quick, results }, null, '\t'));
	if (!only && !quick) {
		writeFileSync(join(REPO, 'BENCHMARKS.md'), markdown);
		log('wrote BENCHMARKS.md');
	} else {
		log('partial or quick run: BENCHMARKS.md left as it was (figures in bench/results/latest.json)');
	}
	if (Object.keys(results.failed).length > 0) process.exitCode = 1;
}

interface Machine {
	date: string;
	cpu: string;
	cores: number;
	memory: string;
	os: string;
	node: string;
	packageVersion: string;
	n8nCore: string;
	n8nWorkflow: string;
	commit: string;
	loadBefore: number[];
	loadAfter: number[];
	durationS: number;
}

function versionOf(name: string): string {
	try {
		return (JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
	} catch {
		return 'not installed';
	}
}

function gitCommit(): string {
	try {
		const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).trim();
		const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '--', 'nodes', 'credentials', 'sandbox', 'tooling/harness'], {
			cwd: REPO,
			encoding: 'utf8',
		}).trim();
		return dirty ? `${commit} (measured with uncommitted or untracked files in nodes/, credentials/, sandbox/ or tooling/harness/)` : commit;
	} catch {
		return 'unknown';
	}
}

function describeMachine(started: number, loadBefore: number[]): Machine {
	const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { name: string; version: string };
	return {
		date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
		cpu: os.cpus()[0]?.model ?? 'unknown',
		cores: os.cpus().length,
		memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
		os: `${os.type()} ${os.release()} (${os.arch()})`,
		node: process.version,
		packageVersion: `${manifest.name} ${manifest.version}`,
		n8nCore: versionOf('n8n-core'),
		n8nWorkflow: versionOf('n8n-workflow'),
		commit: gitCommit(),
		loadBefore,
		loadAfter: os.loadavg(),
		durationS: (Date.now() - started) / 1000,
	};
}

function render(results: Results, machine: Machine): string {
	const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
	const parts: string[] = [
		'# Benchmarks',
		'',
		'Written by `npm run bench` (bench/run.ts); do not edit by hand. Every figure is measured in the same run as its',
		'baseline and shown with the ratio to it. Each case runs in a fresh Node process; the Rubika sandbox runs in a',
		'separate process, so its CPU and memory are not counted as the node\'s. Timings are medians of the repeats after',
		'warm-up rounds. On a shared or busy machine timings move from run to run; ratios move less, counts not at all.',
		'',
		'## Machine',
		'',
		table(
			['', ''],
			[
				['Date', machine.date],
				['CPU', `${machine.cpu}, ${machine.cores} cores`],
				['Memory', machine.memory],
				['OS', machine.os],
				['Node', machine.node],
				['Package', `${machine.packageVersion} (commit ${machine.commit})`],
				['n8n', `n8n-core ${machine.n8nCore}, n8n-workflow ${machine.n8nWorkflow}`],
				['Load average (1/5/15 min)', `${load(machine.loadBefore)} before, ${load(machine.loadAfter)} after`],
				['Duration of this run', seconds(machine.durationS)],
			],
		),
	];
	const sections: Array<[string, (() => string[]) | undefined]> = [
		['b1', results.b1 && (() => renderB1(results.b1!, results.b1n8n))],
		['b2', results.b2 && (() => renderB2(results.b2!))],
		['b3', results.b3 && (() => renderB3(results.b3!))],
		['b4', results.b4 && (() => renderB4(results.b4!))],
		['b5', results.b5 && (() => renderB5(results.b5!))],
		['b6', results.b6 && (() => renderB6(results.b6!))],
		['b7', results.b7 && (() => renderB7(results.b7!))],
		['b8', results.b8 && (() => renderB8(results.b8!))],
		['b9', results.b9 && (() => renderB9(results.b9!))],
	];
	for (const [name, renderSection] of sections) {
		const reason = results.failed[name];
		if (reason !== undefined) {
			parts.push('', `## ${name.toUpperCase()} — not measured in this run`, '', '```', reason.split('\n').slice(0, 12).join('\n'), '```');
		} else if (renderSection) {
			parts.push('', ...renderSection());
		}
	}
	return `${parts.join('\n')}\n`;
}

/** B1's targets: the node within this factor of the bare helper call, and no slower than n8n's HTTP Request node. */
const B1_TARGETS = { overFloor: 1.1, overHttpRequestNode: 1.0 };

function renderB1(r: B1Result, inN8n?: B1N8nResult): string[] {
	const v = r.variants;
	const perItem = (value: number) => value / r.items;
	const row = (label: string, variant: B1Result['variants'][keyof B1Result['variants']]) => [
		label,
		ms(variant.medianMs),
		ms(perItem(variant.medianMs), 3),
		ms(perItem(variant.medianCpuMs), 3),
		ratio(variant.medianMs, v.rawKeepAlive.medianMs),
		ratio(variant.medianMs, v.rawNewConnection.medianMs),
		(variant.connections / r.items).toFixed(2),
		(variant.credentialResolutions / r.items).toFixed(2),
	];
	const connectionCost = perItem(v.rawNewConnection.medianMs - v.rawKeepAlive.medianMs);
	const overheadFixed = perItem(v.nodeFixed.medianMs - v.rawNewConnection.medianMs);
	const overheadExpressions = perItem(v.nodeExpressions.medianMs - v.rawNewConnection.medianMs);
	return [
		`## B1 — per-item overhead (${count(r.items)} Send Text items, sequential)`,
		'',
		`Median of ${r.repeats} rounds; the five variants alternate within each round and send the same bodies to the same sandbox.`,
		'"Client CPU" is the CPU time of the process running the node or the loop (the sandbox has its own process).',
		'',
		table(
			['Variant', `${count(r.items)} items`, 'Per item', 'Client CPU per item', '× raw keep-alive', '× raw new connection', 'Connections per item', 'Credential resolutions per item'],
			[
				row('Raw node:http, keep-alive (baseline)', v.rawKeepAlive),
				row('Raw node:http, new connection per request', v.rawNewConnection),
				row('Bare node in n8n-core\'s engine: one n8n helper call per item (the floor)', v.bareHelper),
				row('Node in n8n-core\'s engine, fixed parameters', v.nodeFixed),
				row('Node in n8n-core\'s engine, chat and text from expressions', v.nodeExpressions),
			],
		),
		'',
		`- Connecting anew for every request costs ${ms(connectionCost, 3)} per item here (loopback). n8n-core's HTTP client builds a new`,
		'  `http.Agent` for every request, so the node cannot reuse connections (1.00 connections per item above); against a remote',
		'  HTTPS server this cost is a TCP and TLS handshake per message.',
		`- What the engine and the node add on top of that: ${ms(overheadFixed, 3)} per item with fixed parameters, ${ms(overheadExpressions, 3)}`,
		'  with expressions (n8n evaluates each expression per item). Profiled with bench/profile.ts, most of it is in n8n\'s',
		'  HTTP stack (axios, follow-redirects, agent set-up) and the engine; the node\'s own code is a few percent of the samples.',
		'- Credential resolutions: one per item, done by n8n for the request itself (in n8n each is a database read and a',
		'  decryption; the harness answers from memory, so their cost does not show in these timings).',
		`- Against the floor (the same \`httpRequestWithAuthentication\` call, with the same options, from a node that does nothing else): the node takes`,
		`  ${ratio(v.nodeFixed.medianMs, v.bareHelper.medianMs)} its time with fixed parameters (target ≤ ×${B1_TARGETS.overFloor.toFixed(2)}: ${v.nodeFixed.medianMs <= v.bareHelper.medianMs * B1_TARGETS.overFloor ? 'met' : '**not met**'}), ${ratio(v.nodeExpressions.medianMs, v.bareHelper.medianMs)} with expressions`,
		'  (which the floor does not evaluate). This ratio holds steady where the raw-loop ratios swing with the CPU, because',
		'  both sides pay n8n\'s HTTP stack.',
		...(inN8n ? renderB1InN8n(inN8n) : []),
	];
}

function renderB1InN8n(r: B1N8nResult): string[] {
	const m = r.medianMs;
	const row = (label: string, value: number) => [label, ms(value), ms(value / r.items, 3), ratio(value, m.httpSequential)];
	return [
		'',
		`### In a real n8n ${r.n8nVersion}: the Rubika node and n8n's HTTP Request node`,
		'',
		`The same ${count(r.items)} Send Text requests from a Webhook → Split Out workflow; the sending node's own execution time as`,
		`n8n stores it, median of ${r.repeats} rounds after a warm-up (variants alternate).`,
		'',
		table(
			['Sending node', `${count(r.items)} items`, 'Per item', '× HTTP Request, one at a time'],
			[
				row('HTTP Request node, Rubika credential, Batching 1 item per batch (one at a time)', m.httpSequential),
				row('Rubika node, Send Text, defaults (one at a time)', m.rubika),
				row('HTTP Request node, Rubika credential, defaults (all requests at once)', m.httpDefault),
			],
		),
		'',
		`- One request at a time, the Rubika node takes ${ratio(m.rubika, m.httpSequential)} the HTTP Request node's time (target ≤ ×${B1_TARGETS.overHttpRequestNode.toFixed(2)}: ${m.rubika <= m.httpSequential * B1_TARGETS.overHttpRequestNode ? 'met' : '**not met**'}), while also`,
		'  checking the input before sending, retrying and pacing, and turning Rubika\'s answers into items and errors.',
		'- The HTTP Request node\'s default sends every item\'s request at once: faster on a local sandbox, and what a rate-limited',
		'  bot cannot take (see B2); the Rubika node gets the same with Parallel Requests.',
	];
}

function renderB7(r: B7Result): string[] {
	const rows = r.runs.map((run) => [
		run.mode,
		String(run.executions),
		run.pacing === 'divided' ? `${run.maxPerSecond}/s set` : 'none (0)',
		seconds(run.seconds),
		`${(run.shareOfLimit * 100).toFixed(0)} %`,
		count(run.lost),
		count(run.duplicated),
		count(run.tooRequests),
		count(run.failedExecutions),
	]);
	return [
		`## B7 — broadcasts in queue mode (${count(r.recipients)} recipients, bot limited to ${r.perSecond}/s)`,
		'',
		'Real n8n 2.41.1 on PostgreSQL: regular mode (one process) and queue mode (Redis, main, webhook process, workers).',
		'Each run starts the broadcasts at once through n8n\'s Webhook node, the audience split evenly; the sandbox counts.',
		'"Share of the limit" is recipients served once per second ÷ the limit. The node paces per bot in each process: the',
		'executions of one process share one pace and Max Requests per Second, each worker has its own. "Set" is the limit',
		'divided by the processes that may send at once (what the README advises); "none" leaves the node to find the limit.',
		'Every run sends from one bot, so each starts at the pace its process learned in the runs before.',
		'',
		table(['n8n', 'Executions at once', 'Max Requests per Second', 'Time', 'Share of the limit', 'Lost', 'Twice', 'TOO_REQUESTS', 'Failed executions'], rows),
	];
}

function renderB2(runs: B2Result[]): string[] {
	const label: Record<B2ScenarioName, string> = {
		raw: 'Raw loop that knows the limit (baseline)',
		sequential: 'Node, defaults (one request at a time)',
		parallel: 'Node, Parallel Requests 5',
		twoAtOnce: 'Two executions of one bot at once, Parallel Requests 5 each',
		again: 'The next execution of the first bot, defaults',
	};
	const clean = (s: B2Scenario) => s.errors.length === 0 && s.audit.deliveredOnce === s.recipients && s.audit.missing === 0 && s.audit.duplicated === 0;
	const rows = runs.flatMap((r) => {
		const baseline = r.scenarios.find((s) => s.name === 'raw')!;
		return r.scenarios.map((s) => [
			`${r.perSecond}/s`,
			label[s.name],
			count(s.recipients),
			seconds(s.seconds),
			`${s.throughput.toFixed(2)}/s`,
			`${((100 * s.throughput) / r.perSecond).toFixed(1)} %`,
			ratio(s.throughput, baseline.throughput),
			count(s.audit.rateLimitedAnswers),
			count(s.audit.rateLimitedNeverDelivered),
			`${count(s.audit.deliveredOnce)} / ${count(s.recipients)}`,
			count(s.audit.missing),
			count(s.audit.duplicated),
			s.name === 'raw' ? '—' : s.errors.length ? `failed: ${s.errors.join('; ')}` : `${count(s.outputItems)} items out`,
		]);
	});
	const nodeRuns = runs.flatMap((r) => r.scenarios.filter((s) => s.name !== 'raw').map((s) => ({ r, s })));
	const share = ({ r, s }: { r: B2Result; s: B2Scenario }) => s.throughput / r.perSecond;
	const lowest = nodeRuns.reduce((low, run) => (share(run) < share(low) ? run : low));
	const allClean = nodeRuns.every(({ s }) => clean(s));
	const met = nodeRuns.every((run) => share(run) >= B2.targets.shareOfLimit);
	const first = runs[0];
	const raws = runs.map((r) => ({ r, s: r.scenarios.find((s) => s.name === 'raw')! }));
	const rawShares = raws.map((run) => `${(share(run) * 100).toFixed(1)} %`).join(', ') + ' of the limit';
	const rawRefusals = raws.reduce((sum, { s }) => sum + s.audit.rateLimitedAnswers, 0);
	return [
		`## B2 — broadcasts under a rate limit the node is not told (${runs.map((r) => `${r.perSecond}`).join(', ')} requests/s)`,
		'',
		`The sandbox answers each call after ${first.latencyMs} ms and refuses calls beyond the limit in any one-second window with`,
		'`TOO_REQUESTS` on HTTP 200 and no Retry-After (what Rubika is known to answer: docs/api-facts.md §1); each recipient is a user',
		'with a private chat. Every broadcast has as many recipients as the limit allows in',
		`${seconds(first.scenarios[0].recipients / first.perSecond)}, and Max Requests per Second is left at 0: the node has to find the limit. The baseline, in the`,
		'same run and against the same sandbox, is a raw keep-alive loop that knows the limit and sends one request every 1/limit s.',
		'Each scenario sends from a new bot (its own window in the sandbox, its own gate in the node), except the last, which sends',
		'again from the first node scenario\'s bot in the same process, as the workflow\'s next execution would. "Share of the limit"',
		'is recipients served exactly once per second of wall time ÷ the limit; a one-second window lets the first second\'s',
		'requests go at once, so a short broadcast can come out a little above 100 %. Delivery is checked from the sandbox\'s state.',
		'',
		table(
			['Limit', 'Scenario', 'Recipients', 'Time', 'Served per second', 'Share of the limit', '× raw loop', 'TOO_REQUESTS answered', 'for recipients never served', 'Delivered exactly once', 'Missing', 'Twice or more', 'Node result'],
			rows,
		),
		'',
		`- Target: every broadcast of the node at ≥ ${Math.round(B2.targets.shareOfLimit * 100)} % of the limit, nothing lost, nothing sent twice: ` +
			`**${met && allClean ? 'met' : 'not met'}** (lowest: ${(share(lowest) * 100).toFixed(1)} %, ${label[lowest.s.name].toLowerCase()} at ${lowest.r.perSecond}/s` +
			`${allClean ? '; every recipient got exactly one message in every run' : '; **some runs lost or repeated messages**'}).`,
		`- The raw loop sends exactly at the limit: a request that reaches the sandbox a millisecond earlier than the one a second`,
		`  before it is refused, and the loop tries it again in its next slot, so it stays below the limit (${rawShares}, ${count(rawRefusals)}`,
		'  TOO_REQUESTS in all). The node keeps 2 % under the rate it learned.',
		'- A request refused with TOO_REQUESTS has no effect, so a retry cannot send a message twice. The node\'s pacer',
		'  (nodes/shared/transport/rateLimit.ts) is one per bot for every execution in the process: the first refusal counts how many',
		'  requests went through in the second before it, the pace settles at 98 % of that rate and probes above it slowly; two',
		'  executions of one bot share it, and the next execution starts at the pace the last one learned.',
	];
}

function renderB3(r: B3Summary): string[] {
	const baselineOf: Record<UploadMode, UploadMode> = {
		'node-default': 'raw-buffer',
		'raw-buffer': 'raw-buffer',
		'node-filesystem': 'raw-stream',
		'raw-stream': 'raw-stream',
		'node-url': 'raw-url',
		'raw-url': 'raw-url',
	};
	const label: Record<UploadMode, string> = {
		'node-default': 'Node, binary data in memory (`default`)',
		'raw-buffer': 'Raw POST of a Buffer (baseline for memory)',
		'node-filesystem': 'Node, binary data on disk (`filesystem`)',
		'raw-stream': 'Raw POST streamed from disk (baseline for filesystem)',
		'node-url': 'Node, File Source URL (a local server streams the file)',
		'raw-url': 'Raw GET piped into the POST (baseline for URL)',
	};
	const med = (mode: UploadMode, pick: (result: B3Result) => number) => median(r.natural[mode].map(pick));
	const liveGrowth = (mode: UploadMode) => r.live[mode].memory.growth;
	const rows = UPLOAD_MODES.map((mode) => {
		const base = baselineOf[mode];
		const time = med(mode, (x) => x.ms);
		const live = liveGrowth(mode);
		const liveTotal = live.heapUsed + live.external;
		const baseLive = liveGrowth(base);
		return [
			label[mode],
			ms(time),
			mode === base ? '—' : ratio(time, med(base, (x) => x.ms)),
			mib(med(mode, (x) => x.memory.growth.rss)),
			mib(med(mode, (x) => x.memory.growth.external)),
			mib(live.external),
			mib(live.heapUsed),
			`${(liveTotal / r.sizeBytes).toFixed(2)}`,
			mode === base ? '—' : mib(liveTotal - (baseLive.heapUsed + baseLive.external)),
		];
	});
	const overBaseline = (mode: UploadMode) => {
		const live = liveGrowth(mode);
		const base = liveGrowth(baselineOf[mode]);
		return (live.heapUsed + live.external - base.heapUsed - base.external) / r.sizeBytes;
	};
	// Flat: less than a few chunks' worth over the baseline, whatever the file size.
	const copies = (share: number) => {
		const bytes = share * r.sizeBytes;
		const verdict = bytes < 4 * MiB ? 'flat: no whole-file copy' : `≈ ${Math.max(1, Math.round(share))} whole-file cop${Math.round(share) > 1 ? 'ies' : 'y'}`;
		return `live growth over the baseline is ${mib(bytes)}, ${share.toFixed(2)} × the file size (${verdict}).`;
	};
	const stored = UPLOAD_MODES.every((mode) => [...r.natural[mode], r.live[mode]].every((x) => x.storedBytes === r.sizeBytes));
	return [
		`## B3 — upload memory (${mib(r.sizeBytes, 0)} file, Send File from binary data or a URL)`,
		'',
		'Memory growth during the upload over what the process held when it began (after a full GC); the input node that',
		'stores the binary data runs before and is not counted. The URL cases have no binary data: a file server in the same',
		'process streams the file from disk, counted in both of them. "Peak" figures are what the process really used: RSS from',
		'the kernel\'s high-water mark, external memory (Buffers) sampled every 2 ms, garbage not yet collected included (V8 lets',
		'tens of MB of dead Buffers pile up before it collects them). "Live" figures come from a separate run that forces a full',
		'GC before each sample, so only memory still referenced counts: that is what tells a retained whole-file copy from churn.',
		`Times are medians of ${r.repeats} runs; every case runs requestSendFile → upload → sendFile, in a fresh process.`,
		'',
		table(
			['Case', 'Time', '× baseline', 'Peak RSS growth', 'Peak external growth', 'Live external growth', 'Live heap growth', 'Live growth ÷ file size', 'Live growth over baseline'],
			rows,
		),
		'',
		stored ? `- The sandbox stored all ${count(r.sizeBytes)} bytes in every run.` : '- **Check failed**: the sandbox did not store the whole file in some run.',
		`- Memory mode: ${copies(overBaseline('node-default'))} n8n keeps in-memory binary data as base64 text, and`,
		'  `getBinaryDataBuffer` decodes it into one Buffer; the node sends views (slices) of that Buffer, no further copy.',
		`- Filesystem mode: ${copies(overBaseline('node-filesystem'))} The file is streamed from n8n's store in 256 KiB`,
		'  chunks, like the raw streaming baseline.',
		`- URL source: ${copies(overBaseline('node-url'))} The download's body goes into the upload chunk by chunk as it`,
		'  arrives, whatever n8n\'s binary data mode; nothing of it is stored in n8n.',
	];
}

function renderB4(r: B4Result): string[] {
	const t = r.trigger;
	const raw = r.raw;
	const pick = (runs: B4Result['trigger']['runs'], get: (run: B4Result['trigger']['runs'][number]) => number) => median(runs.map(get));
	const row = (label: string, v: B4Result['trigger'], baseline: boolean) => [
		label,
		ms(v.medianMs),
		baseline ? '—' : ratio(v.medianMs, raw.medianMs),
		`${count(Math.round(r.updates / (v.medianMs / 1000)))}/s`,
		String(pick(v.runs, (x) => x.requests)),
		mib(pick(v.runs, (x) => x.memory.growth.heapUsed)),
		mib(pick(v.runs, (x) => x.memory.growth.rss)),
	];
	return [
		`## B4 — trigger drain (${count(r.updates)} pending updates)`,
		'',
		`The Rubika Trigger receiving by reading ("Process Backlog", page size ${r.pageSize}) in n8n-core's TriggerContext, timed`,
		'from the activation to the last of its executions started (one per update, each finished at once; its item dropped',
		'as it starts, as n8n hands it to an execution). Baseline: a raw keep-alive getUpdates loop with the same page size',
		'that only counts. Both check that every update arrived exactly once. Medians of',
		`${t.runs.length} runs after a warm-up; memory is peak growth during the drain.`,
		'',
		table(
			['Variant', 'Time', '× raw', 'Updates per second', 'getUpdates requests', 'Peak heap growth', 'Peak RSS growth'],
			[row('Rubika Trigger (by reading, n8n-core trigger context)', t, false), row('Raw getUpdates loop (baseline)', raw, true)],
		),
		'',
		'- The trigger reads a page, starts its executions and reads the next; it pauses while 200 of its executions are',
		'  unfinished (here none waits), so memory is bounded by what n8n has not finished, not by the backlog.',
		'- The harness copies the workflow\'s static data at every emit, as n8n saves it at every emit. The delivered keys',
		'  kept there (up to 2,000, about 30 KB) change with every finished execution, so that copy is most of the',
		'  trigger\'s time here (bench/profile.ts drain), and in n8n a database write per update.',
	];
}

function renderB5(r: B5Result): string[] {
	const m = r.medians;
	return [
		'## B5 — footprint',
		'',
		'Sizes after `npm run build`; the tarball is what `npm pack --dry-run` would publish. Require times: a fresh Node',
		`process times its own \`require\` calls (start-up excluded); median of ${r.requireMs.workflowOnly.length} rounds after a warm-up round, the two`,
		`kinds of process alternating. Our modules are the ${r.modules.length} listed in package.json's "n8n" section, each class`,
		'instantiated as n8n does to read its description.',
		'',
		table(
			['Figure', 'Value', 'Baseline', 'Ratio'],
			[
				['dist', `${kib(r.dist.bytes)} in ${r.dist.files} files`, '—', '—'],
				['… of which source maps', `${kib(r.dist.mapBytes)} in ${r.dist.mapFiles} files`, 'dist', ratio(r.dist.mapBytes, r.dist.bytes)],
				['Tarball, packed', kib(r.tarball.packedBytes), '—', '—'],
				['Tarball, unpacked', `${kib(r.tarball.unpackedBytes)} in ${r.tarball.entries} entries`, '—', '—'],
				['Require n8n-workflow alone (its own process)', ms(m.workflowOnly, 1), '—', '—'],
				['Require n8n-workflow, then our modules', ms(m.withNodes, 1), `n8n-workflow alone: ${ms(m.workflowOnly, 1)}`, ratio(m.withNodes, m.workflowOnly)],
				['… our modules on top (same process)', ms(m.nodesOnTop, 1), `its n8n-workflow part: ${ms(m.workflowFirst, 1)}`, ratio(m.nodesOnTop, m.workflowFirst)],
			],
		),
		'',
		r.runtimeDependencies.length === 0
			? '- The package has no runtime dependencies (n8n-workflow is a peer dependency n8n provides).'
			: `- Runtime dependencies installed with the package: ${r.runtimeDependencies.join(', ')}.`,
	];
}

function renderB6(r: B6Result): string[] {
	const order: Array<[TriggerName, string, string]> = [
		['webhook', 'Rubika Trigger, By Webhook (baseline)', 'the sandbox POSTs each update to n8n'],
		['reading', 'Rubika Trigger, By Reading (defaults)', `getUpdates every ${r.conversationIntervalMs / 1000} s for ${r.conversationMs / 60_000} min after an update, else every ${r.intervalMs / 1000} s`],
		['readingSenders', 'Rubika Trigger, By Reading, Add Sender Details on', 'the same, plus getChat for a new sender'],
		['today', 'Rubika Trigger, By Reading, today\'s settings', `getUpdates every ${r.intervalMs / 1000} s while nothing is new (before issue 33)`],
	];
	const lat = (value: number) => (Number.isNaN(value) ? 'n/a' : value >= 10_000 ? seconds(value / 1000) : ms(value));
	/** A difference, signed: the trigger by reading can be ahead of a webhook slowed by a busy machine. */
	const signedLat = (value: number) => (value < 0 ? `−${lat(-value)}` : `+${lat(value)}`);
	/** CPU over n8n's own idle, signed: on a shared machine n8n's idle moves more than one trigger costs. */
	const signedMs = (value: number) => (value < 0 ? `−${ms(-value)}` : `+${ms(value)}`);
	const base = r.triggers.webhook;
	const rows = order.map(([name, label, how]) => {
		const t = r.triggers[name];
		return [
			label,
			how,
			`${count(t.delivered)} / ${count(t.sent)}`,
			count(t.duplicates),
			`${count(t.executions)}${t.failedExecutions ? ` (${t.failedExecutions} failed)` : ''}`,
			lat(t.p50Ms),
			lat(t.p95Ms),
			lat(t.maxMs),
			name === 'webhook' ? '—' : signedLat(t.p95Ms - base.p95Ms),
		];
	});
	const c = r.triggers.reading;
	const target = B6.targets;
	const met = (ok: boolean) => (ok ? '**met**' : '**not met**');
	const overWebhook = c.p95Ms - base.p95Ms;

	// Idle: the measured cycle (request + wait) and what the Idle Interval makes of it.
	const fast = r.idle.reading;
	const cycleS = 60 / fast.getUpdatesPerMinute;
	const overheadS = Math.max(0, cycleS - r.intervalMs / 1000);
	const slowCycleS = r.idleIntervalMs / 1000 + overheadS;
	const quietS = r.idleAfterMs / 1000;
	const perHourFast = 3600 / cycleS;
	const perHourSlow = 3600 / slowCycleS;
	const conversationS = r.conversationMs / 1000;
	const firstHour = conversationS / (r.conversationIntervalMs / 1000 + overheadS) + (quietS - conversationS) / cycleS + (3600 - quietS) / slowCycleS;
	const none = r.idle.none;
	const idleRow = (w: B6Result['idle']['none'], perHour: string) => [
		w.label,
		w.activeTriggers,
		seconds(w.seconds),
		count(w.getUpdates),
		w.getUpdatesPerMinute.toFixed(1),
		perHour,
		ms(w.cpu.treeMs),
		`${w.cpu.percentOfCore.toFixed(2)} %`,
		w === none ? '—' : signedMs(w.cpu.treeMs - none.cpu.treeMs * (w.seconds / none.seconds)),
		`${w.loadAvg1Before.toFixed(2)} → ${w.loadAvg1After.toFixed(2)}`,
	];
	const idleRows = [idleRow(fast, count(Math.round(perHourFast)))];
	const slowed = r.idle.readingSlowed;
	if (slowed) idleRows.push(idleRow(slowed, count(Math.round(slowed.getUpdatesPerMinute * 60))));
	idleRows.push(idleRow(none, '0'));
	const perHourSlowMeasured = slowed ? slowed.getUpdatesPerMinute * 60 : undefined;
	const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
	const spread = (x: { p50: number; p95: number }) => `${lat(x.p50)} / ${lat(x.p95)}`;
	const cpuPerRequest = (fast.cpu.treeMs - none.cpu.treeMs * (fast.seconds / none.seconds)) / Math.max(1, fast.getUpdates);

	const quiet = r.quiet;
	const quietLines: string[] = [];
	if (quiet) {
		const quietRow = (setting: 'defaults' | 'today', label: string) => {
			const q = quiet.settings[setting];
			return [label, count(q.bots), `${count(q.delivered)} / ${count(q.bots)}`, lat(q.p50Ms), lat(q.p95Ms), lat(q.maxMs), q.perBotPerMinute.first.toFixed(1), q.perBotPerMinute.rest.toFixed(1)];
		};
		const d = quiet.settings.defaults;
		const minutes = quiet.ms / 60_000;
		quietLines.push(
			'',
			`### After ${minutes} minutes of silence: the first message`,
			'',
			`Bots of their own in the same n8n, half read with the defaults and half with today's settings (Idle After 5 minutes, Idle`,
			`Interval 3 s, no faster reading during a conversation), all published at once and then left without an update for ${minutes} minutes;`,
			`then each got one message from Sara, in a random order, ${quiet.gapMs[0]}–${quiet.gapMs[1]} ms apart. Latency: the execution's \`startedAt\` minus`,
			'the send time. getUpdates per bot per minute from the sandbox\'s request log: from the second quiet minute to the fifth, and',
			`from 5.5 minutes to the message (today's settings slow down after five).`,
			'',
			table(
				['Settings', 'Bots', 'Started', 'p50', 'p95', 'Max', 'getUpdates per bot per minute, minutes 1–5', `minutes 5.5–${minutes}`],
				[quietRow('defaults', `Defaults (Idle After ${r.idleAfterMs / 60_000} min)`), quietRow('today', 'Today\'s settings (Idle After 5 min, Idle Interval 3 s)')],
			),
			'',
			`- Target: the first message after ${minutes} minutes of silence p95 ≤ ${seconds(target.afterQuietP95Ms / 1000)} with the defaults: ${met(d.p95Ms <= target.afterQuietP95Ms)} (${lat(d.p95Ms)}).`,
			`- Load (1 min) at the start of the silence ${quiet.loadAvg1[0].toFixed(2)}, at the end ${quiet.loadAvg1[1].toFixed(2)}.`,
		);
	}

	return [
		`## B6 — trigger latency and idle cost (${count(r.messages)} messages, real n8n ${r.n8nVersion})`,
		'',
		`One \`n8n start\` (${r.n8nVersion}, the packed package installed as a community package) runs four published workflows on`,
		'the same sandbox bot at once, each Rubika Trigger → NoOp with a Text Pattern that only the bench\'s messages match. Sandbox',
		`users send ${count(r.messages)} numbered messages ${r.gapMs[0]}–${r.gapMs[1]} ms apart (uniformly random, ${seconds(r.sendSeconds)} in all); a`,
		'message\'s send time is taken just before the sandbox admin call that makes it (that call took a median',
		`${ms(r.sendCallMs.median)}, at most ${ms(r.sendCallMs.max)}). Every execution is then read back through n8n's public API (includeData,`,
		'paginated); a message\'s latency is its execution\'s `startedAt` minus its send time (nearest-rank percentiles).',
		'The trigger by webhook is the baseline: nothing can start sooner than a push.',
		'',
		table(['Trigger', 'How it hears', 'Delivered', 'Twice or more', 'Executions', 'p50', 'p95', 'Max', 'p95 over webhook'], rows),
		'',
		`- Targets of the trigger by reading with its default interval: p95 ≤ ${seconds(target.readingP95Ms / 1000)}: ${met(c.p95Ms <= target.readingP95Ms)} (${lat(c.p95Ms)});` +
			` p95 within ${seconds(target.overWebhookP95Ms / 1000)} of the trigger by webhook's: ${met(overWebhook <= target.overWebhookP95Ms)} (${signedLat(overWebhook)}).`,
		`- Where the time goes (p50 / p95): webhook, send → the sandbox's POST ${spread(r.breakdown.webhook.toDelivery)}, POST → startedAt`,
		`  ${spread(r.breakdown.webhook.deliveryToStart)} (n8n answered the POST in ${spread(r.breakdown.webhook.answerMs)}); by reading, send → the next getUpdates`,
		`  request ${spread(r.breakdown.reading.toRequest)}, that request → startedAt ${spread(r.breakdown.reading.requestToStart)}. The sandbox delivers one`,
		'  update at a time per bot, so a slow answer delays the deliveries behind it.',
		`- Add Sender Details: ${count(r.senderDetails.getChat)} getChat request(s) for ${count(r.senderDetails.senders)} senders and ${count(r.messages)} messages (the sandbox answered`,
		`  in ${r.senderDetails.getChatMs.map((value) => ms(value)).join(', ') || 'n/a'}); ${count(r.senderDetails.withNames)} of its items carry the sender's full name. The`,
		`  first message of each sender, the one that waits for getChat, started after ${r.senderDetails.firstMessageMs.map(lat).join(', ')}; a known`,
		'  sender costs no request.',
		`- Machine load (1/5/15 min): ${load(r.loadAvg.start)} at the start, ${load(r.loadAvg.afterSending)} after sending,`,
		`  ${load(r.loadAvg.end)} at the end; other n8n processes were running on the same 2 cores, which shows in the tails.`,
		'',
		'Idle cost, measured after the messages in the same n8n: getUpdates requests in the sandbox\'s request log and the CPU',
		'time of the n8n process tree (/proc/<pid>/stat: n8n and its task runner) over each window, first with only the',
		'workflow by reading active, then with no workflow active. The CPU column over "no trigger" is the difference scaled',
		'to the same duration.',
		'',
		table(['Window', 'Active trigger', 'Duration', 'getUpdates', 'per minute', 'per hour', 'n8n CPU', 'of one core', 'CPU over no trigger', 'Load (1 min)'], idleRows),
		'',
		`- For ${r.conversationMs / 60_000} minute after an update it waits Interval During a Conversation (${r.conversationIntervalMs / 1000} s) after each empty answer; the windows start`,
		'  once that minute is over.',
		`- Then, while quiet, the trigger waits Interval (${r.intervalMs / 1000} s) after each empty answer: one cycle took ${seconds(cycleS)} here`,
		`  (${(overheadS * 1000).toFixed(0)} ms of request and loop on top of the wait), ${count(Math.round(perHourFast))} requests an hour at that pace;`,
		`  n8n spent ${ms(cpuPerRequest, 1)} of CPU per request over its no-trigger baseline.`,
		`- After ${quietS / 60} quiet minutes it waits Idle Interval (${r.idleIntervalMs / 1000} s) instead: ${seconds(slowCycleS)} a cycle computed from the`,
		`  measured overhead, ${count(Math.round(perHourSlow))} requests per idle hour` +
			(perHourSlowMeasured !== undefined ? ` (measured: ${count(Math.round(perHourSlowMeasured))});` : ';') +
			` an hour that starts with the last message makes about ${count(Math.round(firstHour))}.`,
		...quietLines,
	];
}

/** B9's rows: how each path's tap reaches the waiting execution. */
const B9_PATHS: Record<AnswerPath, [string, string]> = {
	webPage: ['Web Page (baseline)', 'the link opened with a browser\'s User-Agent: n8n\'s resume address'],
	inlineButtons: ['Chat: Buttons Under the Message', 'Rubika POSTs the tap to the Rubika Trigger by webhook, which hands it on'],
	chatKeypad: ['Chat: Keypad Buttons', 'the Rubika Trigger by reading reads the tap with getUpdates and hands it on'],
};

function renderB9(r: B9Result): string[] {
	const target = B9.targets.p95Ms;
	const measured = (value: number) => (Number.isFinite(value) ? ms(value) : '—');
	const verdict = (path: AnswerPath) => {
		const p = r.paths[path];
		if (p.decided === 0) return '**not measured** (no tap resumed its execution)';
		return `${p.p95Ms <= target ? '**met**' : '**not met**'} (${ms(p.p95Ms)})`;
	};
	const base = r.paths.webPage;
	const rows = (Object.keys(B9_PATHS) as AnswerPath[]).map((path) => {
		const p = r.paths[path];
		const over = p.p95Ms - base.p95Ms;
		return [
			B9_PATHS[path][0],
			B9_PATHS[path][1],
			`${p.decided} / ${p.samples}`,
			measured(p.p50Ms),
			measured(p.p95Ms),
			measured(p.maxMs),
			// A path with no measured tap has no p95 (NaN, which arrives over IPC as null).
			path === 'webPage' || p.decided === 0 || base.decided === 0 ? '—' : `${over >= 0 ? '+' : ''}${ms(over)}`,
		];
	});
	const spreadText = (s: { p50: number; p95: number } | undefined) => (s && Number.isFinite(s.p50) ? `${ms(s.p50)} / ${ms(s.p95)}` : 'n/a');
	const { inlineButtons: inline, chatKeypad: keypad } = r.paths;
	const failures = (Object.keys(B9_PATHS) as AnswerPath[]).filter((path) => r.paths[path].failure !== undefined);
	return [
		`## B9 — Send and Wait: from the tap to the resumed execution (${r.samples} taps per path, real n8n ${r.n8nVersion})`,
		'',
		`One \`n8n start\` (${r.n8nVersion}, expression engine ${r.expressionEngine}, the packed package installed as a community package).`,
		'Workflows Webhook node → Send and Wait (Approval, Approve and Decline) → No Op ask Sara, one per Answer In; the chat paths',
		'each on a bot of their own with a published Rubika Trigger (By Webhook; By Reading with default settings), the web',
		`page on the demo bot. Once the execution waits, a tap on Approve ${r.gapMs[0]}–${r.gapMs[1]} ms later (uniformly`,
		'random): through the sandbox\'s admin API for the chat paths, a fetch of the signed link with a browser\'s User-Agent for',
		'the web page. The paths take turns in a random order each round. A tap\'s latency is the No Op\'s start in n8n\'s run data',
		`(public API) minus the time taken just before the tap (nearest-rank percentiles); ${seconds(r.seconds)} of taps in all.`,
		'',
		table(['Answer In', 'How the tap reaches the execution', 'Decided', 'p50', 'p95', 'Max', 'p95 over the web page'], rows),
		'',
		`- Target: p95 ≤ ${ms(target)} from the tap to the resumed execution. Web page: ${verdict('webPage')}; buttons under the`,
		`  message: ${verdict('inlineButtons')}; chat keypad: ${verdict('chatKeypad')}. Chat keypad read by the trigger with its defaults, p95 ≤ ${ms(B9.targets.chatKeypadP95Ms)}:`,
		`  ${r.paths.chatKeypad.decided === 0 ? '**not measured**' : `${r.paths.chatKeypad.p95Ms <= B9.targets.chatKeypadP95Ms ? '**met**' : '**not met**'} (${ms(r.paths.chatKeypad.p95Ms)})`}.`,
		...failures.map((path) => `- ${B9_PATHS[path][0]}: ${r.paths[path].failure}`),
		`- Where the time goes (p50 / p95): buttons under the message, tap → the waiting node's first request to Rubika ${spreadText(inline.toNode)},`,
		`  that request → the next node's start ${spreadText(inline.nodeToNext)}; chat keypad, ${spreadText(keypad.toNode)} and ${spreadText(keypad.nodeToNext)}.`,
		`  The web page answered the fetch in ${spreadText(base.pageMs)}. In the chat the waiting node removes the buttons, reads the`,
		'  person\'s name and replies with the outcome (three requests to Rubika, on loopback here) before the execution goes on;',
		'  the keypad\'s tap also waits for the trigger by reading\'s next read: every 0.25 s once the question is asked (Interval',
		'  During a Conversation, started by the bot\'s post from this n8n); before issue 33 once a second.',
		`- Machine load (1/5/15 min): ${r.loadAvg.start.map((v) => v.toFixed(2)).join(' / ')} at the start, ${r.loadAvg.end.map((v) => v.toFixed(2)).join(' / ')} at the end.`,
	];
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? (error.stack ?? error.message) : error);
	process.exit(1);
});

/** B8 at rest: the defaults against today's settings, in the same n8n. */
function renderB8Rest(r: B8Result): string[] {
	const rest = r.rest;
	if (!rest) return ['- After Idle After (15 quiet minutes by default) each trigger waits Idle Interval (3 s) instead: a third of the requests (not measured in this run).'];
	const share = (label: string, x: { getUpdatesPerBotPerMinute: number; percentOfCorePerBot: number }, how: string) => [label, x.getUpdatesPerBotPerMinute.toFixed(1), count(Math.round(x.getUpdatesPerBotPerMinute * 60)), `${x.percentOfCorePerBot.toFixed(3)} %`, how];
	const windows = rest.windows.map((w) => [w.label, seconds(w.seconds), count(w.getUpdates.defaults), count(w.getUpdates.today), `${w.cpu.percentOfCore.toFixed(2)} %`, w.loadAvg1.toFixed(2)]);
	const ratioToToday = rest.defaultsAtRest.percentOfCorePerBot / rest.todayAtRest.percentOfCorePerBot;
	return [
		`- At rest, the defaults against today's settings (before issue 33: Idle After ${rest.idleAfterMinutes.today} min, Idle Interval 3 s, no faster reading`,
		`  during a conversation), measured first in the same n8n: ${rest.bots} bots of each, published at once and left without an update;`,
		`  window 1 once today's had slowed down, window 2 once the defaults had too (Idle After ${rest.idleAfterMinutes.defaults} min), window 3 with today's`,
		'  unpublished. CPU per bot above n8n\'s own idle: the defaults at rest from window 3, today\'s from window 2 minus window 3, the',
		'  defaults before Idle After from window 1 minus today\'s.',
		'',
		table(['Window', 'Length', 'getUpdates, defaults', "getUpdates, today's", "n8n's CPU", 'Load (1 min)'], windows),
		'',
		table(
			['Bot', 'getUpdates per minute', 'per hour', 'CPU per bot', 'from'],
			[
				share(`Defaults, at rest (after ${rest.idleAfterMinutes.defaults} quiet min)`, rest.defaultsAtRest, 'window 3'),
				share(`Today's settings, at rest (after ${rest.idleAfterMinutes.today} quiet min)`, rest.todayAtRest, 'window 2 − window 3'),
				share(`Defaults, before Idle After`, rest.defaultsBeforeIdle, 'window 1 − today\'s'),
			],
		),
		'',
		`- Target: a bot at rest with the defaults costs at most ${Math.round((B8.targets.restOverToday - 1) * 100)} % more CPU than with today's settings: ${ratioToToday <= B8.targets.restOverToday ? '**met**' : '**not met**'} (${(ratioToToday * 100).toFixed(0)} % of today's).`,
	];
}

function renderB8(r: B8Result): string[] {
	const t = B8.targets;
	const met = (ok: boolean) => (ok ? '**met**' : '**not met**');
	const rows = r.rows.map((row) => [
		count(row.bots),
		seconds(row.seconds),
		count(row.getUpdates),
		row.requestsPerSecond.toFixed(1),
		`${row.cpu.percentOfCore.toFixed(1)} %`,
		ms(row.msPerRequest, 2),
		ms(row.raw.msPerRequest, 2),
		ratio(row.msPerRequest, row.raw.msPerRequest),
		ms(row.n8nClient.msPerRequest, 2),
		`${row.percentOfCorePerBot.toFixed(3)} %`,
	]);
	const one = r.rows.find((row) => row.bots === 1);
	const hundred = r.rows.find((row) => row.bots === 100);
	const worst = r.rows.reduce((a, b) => (b.msPerRequest > a.msPerRequest ? b : a));
	return [
		`## B8 — many idle bots on one n8n (${r.rows.map((row) => row.bots).join(', ')} bots, real n8n ${r.n8nVersion})`,
		'',
		`One \`n8n start\` (${r.n8nVersion}, the packed package installed as a community package); every bot has its own credential and`,
		'a published workflow Rubika Trigger (By Reading, default settings) → No Op, and gets no update. They are published',
		`step by step up to each count (publishing took ${seconds(r.activationSeconds)} in all), each window once every trigger reads and n8n has`,
		`settled (15 s; n8n 2.41 publishes in the background), all unpublished again for n8n's own idle. Columns: getUpdates in`,
		`the sandbox's request log; CPU of n8n's process tree from /proc; CPU per request and per bot above n8n's own idle`,
		`(no trigger active, after the windows: ${r.none.cpu.percentOfCore.toFixed(2)} % of a core over ${seconds(r.none.seconds)}; before them, two minutes after n8n started:`,
		`${r.noneBefore.cpu.percentOfCore.toFixed(2)} %). Beside each row, after the windows, at the row's rate and each in a process of its own`,
		`that sleeps between requests as n8n does (bench/lib/requestLoop.cjs): a raw keep-alive node:http loop (the floor), and`,
		`n8n's own HTTP client alone (what \`this.helpers.httpRequest\` ends in; n8n gives a node no other way to make a request;`,
		`inside n8n it shares code that n8n keeps warm, so there a request can cost less than in this lone loop).`,
		`Every window is within the triggers' first quiet minutes, when they read once a second (Interval).`,
		'',
		table(['Bots', 'Window', 'getUpdates', 'per second', "n8n's CPU", 'CPU per request', 'raw loop, same rate', 'over the raw loop', "n8n's client alone, same rate", 'per bot'], rows),
		'',
		`- Targets: ≤ ${t.msPerRequest} ms of CPU per idle getUpdates: ${met(worst.msPerRequest <= t.msPerRequest)} (at most ${ms(worst.msPerRequest, 2)}, ${count(worst.bots)} bot${worst.bots === 1 ? '' : 's'}; aim ${t.aimMsPerRequest} ms: ${met(worst.msPerRequest <= t.aimMsPerRequest)});` +
			` ≤ ${t.percentPerBot} % of a core per idle bot: ${one ? `${met(one.percentOfCorePerBot <= t.percentPerBot)} (${one.percentOfCorePerBot.toFixed(3)} % with one bot; aim ${t.aimPercentPerBot} %: ${met(one.percentOfCorePerBot <= t.aimPercentPerBot)})` : 'n/a'};` +
			` 100 idle bots under ${t.hundredBotsPercent} % of a core: ${hundred ? `${met(hundred.cpu.percentOfCore <= t.hundredBotsPercent)} (${hundred.cpu.percentOfCore.toFixed(1)} %)` : 'n/a'}.`,
		...(one
			? [
					`- At one request a second the loops alone cost ${ms(one.raw.msPerRequest, 2)} (raw keep-alive loop) and ${ms(one.n8nClient.msPerRequest, 2)} (n8n's client) per request:`,
					'  a process woken once a second pays for cold caches on every request, one busy with many requests does not.',
				]
			: []),
		`- One bot answering while the other ${r.latency.bots - 1} idle: ${r.latency.delivered} / ${r.latency.sent} messages started an execution, latency from`,
		`  sending to the execution's start p50 ${ms(r.latency.p50Ms)}, p95 ${ms(r.latency.p95Ms)} (target ≤ ${ms(t.p95Ms)}: ${met(r.latency.p95Ms <= t.p95Ms)}), max ${ms(r.latency.maxMs)}.`,
		...renderB8Rest(r),
		`- Where the time per request goes (bench/profile-idle.mjs, V8\'s profiler attached to n8n after start-up):`,
		'  at first n8n resolved the credential on every getUpdates (a database read, a decryption and an expression',
		'  sandbox, 40–50 % of the time, 62–92 ms per request); the trigger now resolves it once per activation and at its',
		`  once-a-minute bot check. Then each wait between reads was cut into 100 ms sleeps, ten wake-ups a second (a Node`,
		`  process on this machine spends 2.2 ms of CPU a second on a 100 ms timer, 0.6 ms on a 1 s one); it is now one sleep`,
		`  that a stop cuts short, where n8n has one (2.8 and 2.41 do). What is left is`,
		`  n8n\'s HTTP client: a new agent, and so a new TCP connection, for every request (axios, follow-redirects, connect),`,
		`  and the garbage it leaves. The trigger\'s own code is under 2 % of it.`,
	];
}

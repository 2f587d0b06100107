/**
 * One probe: the sequence against the service at the base URL, the same sequence against a sandbox started
 * here, and the report: every exchange, what was found, and where the two differ. The token is removed from the
 * whole report by the transport's own redaction (nodes/shared/transport/redact.ts) before anyone sees it.
 */
import packageJson from '../package.json';
import { redactToken } from '../nodes/shared/transport/redact';
import { RUBIKA_METHODS } from '../nodes/shared/types';
import { saysMethodIsUnknown } from '../nodes/shared/transport/unknownMethod';
import { DEMO_BOT_TOKEN, DEMO_CHANNEL_ID, DEMO_GROUP_ID, DEMO_STICKERS, DEMO_USERS, startSandbox } from '../sandbox';
import type { Difference, Exchange, Findings, MethodSummary, ProbeReport, ProbeSettings } from '../sandbox/probeReport';
import { REPORT_FORMAT, UNKNOWN_METHOD, answerOf, isRateLimited } from '../sandbox/probeReport';
import { answerLabel, ProbeClient } from './client';
import { runInteractiveSequence } from './interactive';
import type { ProbeInputs, RunResult } from './sequence';
import { runSequence } from './sequence';
import { shapeDifferences, shapeOf } from './shapes';
import type { Terminal } from './terminal';

/** How long each interactive step waits for the person unless `--step-timeout` says otherwise. */
export const DEFAULT_STEP_TIMEOUT_SECONDS = 180;
/** Once the person says they have sent a message, how long the interactive run looks for it at most. */
const GRACE_MS = 15_000;

export async function runProbe(settings: ProbeSettings, token: string, log: (line: string) => void = () => undefined): Promise<ProbeReport> {
	const startedAt = new Date().toISOString();
	const client = new ProbeClient(settings.baseUrl, token, settings.paceMs, log);
	const real = await runSequence(client, { chatId: settings.chatId, stickerId: settings.stickerId, banMemberId: settings.banMemberId }, settings);
	const findings = allFindings(real, client.exchanges);
	let differences: Difference[] = [];
	let notCompared: string | undefined = real.stopped === undefined ? undefined : 'the run stopped early';
	if (notCompared === undefined) {
		log('the same against the sandbox…');
		const sandbox = await startSandbox();
		try {
			const reference = new ProbeClient(sandbox.baseUrl, DEMO_BOT_TOKEN, 0, () => undefined);
			const result = await runSequence(reference, sandboxInputs(real.chatType, settings), settings);
			if (result.stopped !== undefined) notCompared = `the sandbox run stopped: ${result.stopped}`;
			else {
				differences = [
					...exchangeDifferences(client.exchanges, reference.exchanges),
					...findingDifferences(findings, allFindings(result, reference.exchanges)),
				];
			}
		} finally {
			await sandbox.close();
		}
	}
	const report = reportOf({ settings, startedAt, run: real, exchanges: client.exchanges, findings, differences, notCompared });
	return withoutToken(report, token);
}

/** A run's report: what was asked, the methods and findings, how it compares, every exchange. */
function reportOf({
	settings,
	startedAt,
	run,
	exchanges,
	findings,
	differences,
	notCompared,
	chatType = run.chatType,
	stopped = run.stopped,
}: {
	settings: ProbeSettings;
	startedAt: string;
	run: RunResult;
	exchanges: Exchange[];
	findings: Findings;
	differences: Difference[];
	notCompared?: string;
	chatType?: string;
	stopped?: string;
}): ProbeReport {
	return {
		format: REPORT_FORMAT,
		tool: `${packageJson.name} ${packageJson.version} probe`,
		startedAt,
		finishedAt: new Date().toISOString(),
		settings,
		...(chatType === undefined ? {} : { chatType }),
		...(stopped === undefined ? {} : { stopped }),
		methods: methodSummaries(exchanges, run),
		findings,
		differences,
		...(notCompared === undefined ? {} : { notCompared }),
		exchanges,
	};
}

/**
 * The interactive run (interactive.ts) in the person's private chat, and its report. It is not compared with
 * the sandbox, which has no person to answer; its findings are in `interactive`.
 */
export async function runInteractiveProbe(
	settings: ProbeSettings,
	token: string,
	person: { terminal: Terminal; yes: boolean },
	log: (line: string) => void = () => undefined,
): Promise<ProbeReport> {
	const startedAt = new Date().toISOString();
	const stepTimeoutMs = (settings.interactive?.stepTimeoutSeconds ?? DEFAULT_STEP_TIMEOUT_SECONDS) * 1000;
	// Waiting polls getUpdates again and again; only what is not an empty OK is worth a line.
	const client = new ProbeClient(settings.baseUrl, token, settings.paceMs, (line) => {
		if (!line.startsWith('getUpdates (watching the chat): OK')) log(line);
	});
	const result = await runInteractiveSequence(client, settings.chatId, {
		...person,
		stepTimeoutMs,
		pollMs: Math.max(100, 4 * settings.paceMs),
		graceMs: Math.min(GRACE_MS, stepTimeoutMs),
		endpointTestUrl: settings.interactive?.endpointTestUrl,
	});
	const run: RunResult = {
		findings: {},
		skipped: new Map(RUBIKA_METHODS.map((method) => [method, 'not part of the interactive run (run npm run probe without --interactive)'])),
	};
	const report: ProbeReport = {
		...reportOf({
			settings,
			startedAt,
			run,
			exchanges: client.exchanges,
			findings: allFindings(run, client.exchanges),
			differences: [],
			notCompared: 'an interactive run is not compared with the sandbox, which has no person to answer',
			chatType: result.chatType,
			stopped: result.stopped,
		}),
		...(result.findings ? { interactive: result.findings } : {}),
	};
	return withoutToken(withoutEndpointPath(report, settings.interactive?.endpointTestUrl), token);
}

/**
 * The report with the throwaway endpoint's address cut to its origin everywhere: its path may be what lets
 * anyone read what was delivered there (a request-catcher's address).
 */
function withoutEndpointPath(report: ProbeReport, url: string | undefined): ProbeReport {
	if (!url) return report;
	const [escaped, shown] = [JSON.stringify(url).slice(1, -1), JSON.stringify(`${new URL(url).origin}/…`).slice(1, -1)];
	return JSON.parse(JSON.stringify(report).split(escaped).join(shown)) as ProbeReport;
}

/** The report with the token gone from every URL, body, header and message; refused if any trace is left. */
function withoutToken(report: ProbeReport, token: string): ProbeReport {
	const text = redactToken(JSON.stringify(report), token);
	if (text.includes(token) || text.includes(encodeURIComponent(token))) {
		throw new Error('the report would still hold the bot token, so it was not written (is the token shorter than 4 characters?)');
	}
	return JSON.parse(text) as ProbeReport;
}

/** The sandbox's counterparts of the inputs: a chat of the same type, a member of it, a sticker of its catalogue. */
function sandboxInputs(chatType: string | undefined, settings: ProbeSettings): ProbeInputs {
	const place =
		chatType === 'Group'
			? { chatId: DEMO_GROUP_ID, member: DEMO_USERS.ali.user_id }
			: chatType === 'Channel'
				? { chatId: DEMO_CHANNEL_ID, member: DEMO_USERS.ali.user_id }
				: { chatId: DEMO_USERS.sara.chat_id, member: DEMO_USERS.sara.user_id };
	return {
		chatId: place.chatId,
		...(settings.stickerId ? { stickerId: DEMO_STICKERS.like.sticker_id } : {}),
		...(settings.banMemberId ? { banMemberId: place.member } : {}),
	};
}

function allFindings(result: RunResult, exchanges: Exchange[]): Findings {
	return {
		...result.findings,
		bareBigIntegers: exchanges.some((exchange) => exchange.response?.bareBigIntegers === true),
		rateLimited: exchanges.filter((exchange) => isRateLimited(answerOf(exchange))).length,
		absentMethods: absentMethods(exchanges, result.findings.unknownMethod),
	};
}

/**
 * Methods never answered OK, and answered at least once in words that say the method is unknown (the node's own
 * test) or exactly as the made-up method was (its name aside).
 */
function absentMethods(exchanges: Exchange[], unknown: Findings['unknownMethod']): string[] {
	const answered = exchanges.filter((exchange) => (RUBIKA_METHODS as readonly string[]).includes(exchange.method));
	const succeeded = new Set(answered.filter((exchange) => answerOf(exchange).ok).map((exchange) => exchange.method));
	const absent = answered.filter((exchange) => {
		const answer = answerOf(exchange);
		if (succeeded.has(exchange.method) || exchange.response === undefined) return false;
		if (saysMethodIsUnknown(exchange.method, { httpCode: answer.httpStatus ?? 0, ...answer })) return true;
		return (
			unknown !== undefined &&
			answer.httpStatus === unknown.httpStatus &&
			answer.status === unknown.status &&
			answer.devMessage?.split(exchange.method).join(UNKNOWN_METHOD) === unknown.devMessage
		);
	});
	return [...new Set(absent.map((exchange) => exchange.method))];
}

/** Every method of the node, in the registry's order: what it answered, and its experiments, or why it was not called. */
function methodSummaries(exchanges: Exchange[], result: RunResult): Record<string, MethodSummary> {
	return Object.fromEntries(
		RUBIKA_METHODS.map((method): [string, MethodSummary] => {
			const calls = exchanges.filter((exchange) => exchange.method === method);
			const asTheNodeCalls = calls.filter((exchange) => exchange.kind === 'method');
			const experiments = calls.filter((exchange) => exchange.kind === 'experiment').map((exchange) => `${exchange.step}: ${answerLabel(exchange)}`);
			const skipped = asTheNodeCalls.length > 0 ? undefined : result.skipped.get(method) ?? 'the probe does not call this method yet';
			return [
				method,
				{
					answers: [...new Set(asTheNodeCalls.map(answerLabel))],
					...(experiments.length > 0 ? { experiments: [...new Set(experiments)] } : {}),
					...(skipped === undefined ? {} : { skipped }),
				},
			];
		}),
	);
}

/** Step by step: the HTTP status and the shape of each answer (the button id search is compared by its finding). */
function exchangeDifferences(real: Exchange[], sandbox: Exchange[]): Difference[] {
	const byStep = (exchanges: Exchange[]) => new Map(exchanges.filter((exchange) => !exchange.unpaired).map((exchange) => [exchange.step, exchange]));
	const [ours, theirs] = [byStep(real), byStep(sandbox)];
	const differences: Difference[] = [];
	for (const [step, exchange] of ours) {
		const other = theirs.get(step);
		const where = { step, method: exchange.method };
		if (!other) {
			differences.push({ ...where, path: '(step)', real: 'called', sandbox: 'not called' });
			continue;
		}
		const [realStatus, sandboxStatus] = [exchange.response?.httpStatus, other.response?.httpStatus];
		if (realStatus !== sandboxStatus) {
			differences.push({ ...where, path: 'HTTP status', real: String(realStatus ?? 'no answer'), sandbox: String(sandboxStatus ?? 'no answer') });
		}
		for (const difference of shapeDifferences(shapeOf(exchange.response?.body), shapeOf(other.response?.body))) {
			differences.push({ ...where, ...difference });
		}
	}
	for (const [step, exchange] of theirs) {
		if (!ours.has(step)) differences.push({ step, method: exchange.method, path: '(step)', real: 'not called', sandbox: 'called' });
	}
	return differences;
}

/** The findings that are facts about the service (not about hosts, times or this chat's content). */
const COMPARED_FINDINGS: Record<string, (findings: Findings) => unknown> = {
	'unknownMethod.packageSaysUnknownMethod': (findings) => findings.unknownMethod?.packageSaysUnknownMethod,
	'linkButtons.accepted': (findings) => findings.linkButtons?.accepted,
	'buttonIdLength.longestAccepted': (findings) => findings.buttonIdLength?.longestAccepted,
	'buttonIdLength.shortestRefused': (findings) => findings.buttonIdLength?.shortestRefused,
	'upload.sameHostAsApi': (findings) => findings.upload?.sameHostAsApi,
	'download.sameHostAsApi': (findings) => findings.download?.sameHostAsApi,
	'download.bytesMatch': (findings) => findings.download?.bytesMatch,
	'download.again.bytesMatch': (findings) => findings.download?.again?.bytesMatch,
	bareBigIntegers: (findings) => findings.bareBigIntegers,
	absentMethods: (findings) => findings.absentMethods,
};

function findingDifferences(real: Findings, sandbox: Findings): Difference[] {
	return Object.entries(COMPARED_FINDINGS).flatMap(([path, read]) => {
		const [ours, theirs] = [JSON.stringify(read(real)) ?? '(none)', JSON.stringify(read(sandbox)) ?? '(none)'];
		return ours === theirs ? [] : [{ step: 'findings', method: '', path, real: ours, sandbox: theirs }];
	});
}

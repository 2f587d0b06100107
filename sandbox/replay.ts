/**
 * A probe report (`npm run probe`, its format in probeReport.ts) as sandbox options, so the sandbox answers as the real
 * Rubika did: how it answers an unknown method, a bad token and a bad request (HTTP status included), whether
 * it takes link buttons, the longest button id, ids as bare big numbers, the methods it lacks, and, for each
 * method whose answer differed from the sandbox's, the recorded answer (a refusal as it came, a success in its
 * shape: config `recordedAnswers`). An interactive report (`--interactive`) gives the text and formatting
 * limits, whether a mention is refused in a private chat, whether an endpoint stops getUpdates and how one is
 * removed, and how the answers to input buttons came. `npm run sandbox -- --replay report.json`; in tests
 * `startSandbox(replayOptions(report).options)`.
 */
import { isPlainObject } from '../nodes/shared/json';
import { RUBIKA_METHODS } from '../nodes/shared/types';
import type { ErrorAnswer, RecordedAnswer, SandboxConfig, SandboxConfigPatch } from './config';
import type { AnswerSummary, InteractiveFindings, InteractiveStep, ProbeReport } from './probeReport';
import { REPORT_FORMAT, UNKNOWN_METHOD, answerOf, isRateLimited } from './probeReport';

export interface Replay {
	options: SandboxConfigPatch;
	/** What the sandbox plays differently from the report, in words. */
	notes: string[];
}

export function replayOptions(input: unknown): Replay {
	if (!isPlainObject(input) || input.format !== REPORT_FORMAT || !Array.isArray(input.exchanges) || !isPlainObject(input.findings)) {
		throw new Error(`not a probe report of format ${REPORT_FORMAT} (written by npm run probe)`);
	}
	const report = input as unknown as ProbeReport;
	const { findings } = report;
	const notes: string[] = [];
	const options: SandboxConfigPatch = {
		bareNumericIds: findings.bareBigIntegers === true,
		absentMethods: findings.absentMethods.filter((method) => (RUBIKA_METHODS as readonly string[]).includes(method)),
		recordedAnswers: recordedAnswers(report),
	};
	const unknownMethod = errorAnswer(findings.unknownMethod, 'an unknown method', notes);
	// The probe's made-up name becomes the place where the sandbox puts the name it was asked for.
	if (unknownMethod?.devMessage !== undefined) unknownMethod.devMessage = unknownMethod.devMessage.split(UNKNOWN_METHOD).join('{method}');
	if (unknownMethod) options.unknownMethod = unknownMethod;
	const badToken = errorAnswer(findings.badToken, 'a bad token', notes);
	if (badToken) options.badToken = badToken;
	if (findings.invalidInput?.httpStatus !== undefined) options.errorHttpStatus = findings.invalidInput.httpStatus;
	if (findings.linkButtons) options.linkButtons = findings.linkButtons.accepted ? 'accept' : 'reject';
	if (report.notCompared) notes.push(`the report compares nothing (${report.notCompared}), so no method's answer is replayed`);
	const ids = findings.buttonIdLength;
	if (ids?.shortestRefused !== null && ids?.shortestRefused !== undefined) options.maxButtonIdLength = ids.shortestRefused - 1;
	else if (ids?.inconclusive) notes.push(`the button id search was inconclusive (${ids.inconclusive}): no limit is applied`);
	if (report.interactive) Object.assign(options, interactiveOptions(report.interactive, notes));
	return { options, notes };
}

/** What an interactive run settled, as knobs; what it could not settle is said in `notes`. */
function interactiveOptions(findings: InteractiveFindings, notes: string[]): SandboxConfigPatch {
	const options: SandboxConfigPatch = {};
	const text = findings.textLength;
	if (text && !text.persian.inconclusive && text.persian.shortestRefused === null && text.persian.longestAccepted !== null) {
		options.maxTextLength = null;
		notes.push(`Rubika took every text up to ${text.persian.longestAccepted} characters: no text limit is applied`);
	} else if (text?.limit) {
		options.maxTextLength = text.limit;
		if (text.counts === 'unclear') notes.push('which unit Rubika counts a text in was unclear: textLengthUnit is left as it is');
		else options.textLengthUnit = text.counts;
	}
	const parts = findings.metadataParts;
	if (parts?.shortestRefused) options.maxMetadataParts = Math.max(1, parts.shortestRefused - 1);
	else if (parts?.longestAccepted) options.maxMetadataParts = parts.longestAccepted;
	const mention = findings.mentionInPrivateChat;
	if (mention?.answer.status !== undefined) options.mentionsOutsideGroups = mention.accepted ? 'accept' : 'reject';
	const endpoint = findings.endpoint;
	if (typeof endpoint?.stopsPolling === 'boolean') options.endpointStopsPolling = endpoint.stopsPolling;
	if (endpoint?.stopsPolling === true) options.endpointRemoval = endpoint.removedBy ?? 'none';
	const step = (key: string) => findings.steps.find((candidate) => candidate.key === key && candidate.updates.length > 0);
	// A shared number: a contact, or a text the probe masked as a phone number (not a word typed instead).
	const phoneStep = step('phoneNumber');
	const phone = messageIn(phoneStep);
	if (phone?.contact_message) options.phoneAnswer = 'contactMessage';
	else if (typeof phone?.text === 'string' && phoneStep?.masked.some((path) => path.endsWith('.text'))) options.phoneAnswer = 'text';
	// An answer under the inline keypad, known by the id of one of its buttons.
	if (step('inline')?.buttonIdAt.length) options.inlineInputAnswers = 'newMessage';
	else if (findings.steps.some((candidate) => candidate.key === 'inline' && candidate.outcome === 'done')) {
		notes.push('no answer on the inline keypad came through getUpdates (it may reach only a webhook): inlineInputAnswers is left as it is');
	}
	const date = messageIn(step('date'))?.text;
	if (typeof date === 'string') notes.push(`Rubika wrote a Calendar answer as ${JSON.stringify(date)}: give answer-button such dates`);
	return options;
}

/** The message of a step's first update. */
function messageIn(step: InteractiveStep | undefined): Record<string, unknown> | undefined {
	const update = step?.updates[0];
	const message = isPlainObject(update) ? update.new_message ?? update.updated_message : undefined;
	return isPlainObject(message) ? message : undefined;
}

/** An error answer for a knob; an answer that was not an envelope keeps its HTTP status and is said in a note. */
function errorAnswer(summary: AnswerSummary | undefined, what: string, notes: string[]): Partial<ErrorAnswer> | undefined {
	if (summary?.httpStatus === undefined) return undefined;
	if (summary.status === undefined) {
		notes.push(`Rubika answered ${what} with HTTP ${summary.httpStatus} and no JSON envelope; the sandbox answers that HTTP status with its own envelope`);
		return { httpStatus: summary.httpStatus };
	}
	return { httpStatus: summary.httpStatus, status: summary.status, devMessage: summary.devMessage ?? '' };
}

/**
 * The answer of each method whose call as the node makes it (the step named after the method) differed from the
 * sandbox's; an answer that only said "too many requests" says nothing about the method and is left out.
 */
function recordedAnswers(report: ProbeReport): SandboxConfig['recordedAnswers'] {
	const differing = new Set(report.differences.map((difference) => difference.step));
	const recorded: SandboxConfig['recordedAnswers'] = {};
	for (const method of RUBIKA_METHODS) {
		if (!differing.has(method)) continue;
		// The last attempt: an earlier one may have been rate limited and repeated.
		const exchange = report.exchanges.filter((candidate) => candidate.step === method && candidate.kind === 'method').pop();
		if (!exchange?.response || isRateLimited(answerOf(exchange))) continue;
		recorded[method] = { httpStatus: exchange.response.httpStatus, body: exchange.response.body } satisfies RecordedAnswer;
	}
	return recorded;
}

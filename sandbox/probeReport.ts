/**
 * The report `npm run probe` writes, and `npm run sandbox -- --replay` reads back (sandbox/replay.ts). Every
 * request and answer is in it as it went over the wire, with the bot token removed. It lives in the sandbox,
 * which reads it, so that the probe, which runs against a sandbox, imports the sandbox and not the reverse.
 */
import { isPlainObject } from '../nodes/shared/json';

export const REPORT_FORMAT = 1;

/** The made-up method the probe calls to see how Rubika answers a method it does not have (facts §1: unknown). */
export const UNKNOWN_METHOD = 'n8nProbeNoSuchMethod';

export interface RecordedRequest {
	method: 'GET' | 'POST';
	url: string;
	headers: Record<string, string>;
	/** The JSON body; for an upload, what the multipart part held. */
	body?: unknown;
}

interface RecordedResponse {
	httpStatus: number;
	headers: Record<string, string>;
	/**
	 * The JSON body (integers beyond 2^53 as strings of their digits), the text when it is not JSON, or for a
	 * download how many bytes came and whether they were the ones uploaded.
	 */
	body: unknown;
	/** The body held bare integers beyond 2^53 (ids), which plain JSON.parse would round. */
	bareBigIntegers?: true;
	/** Where the answer came from, when a redirect was followed. */
	redirectedTo?: string;
}

export type ExchangeKind = 'method' | 'experiment';

export interface Exchange {
	/** What the step does; the same label in the run against Rubika and in the one against the sandbox. */
	step: string;
	/** The Bot API method, or `upload` / `download`. */
	method: string;
	/** `method`: called as the node calls it; `experiment`: a deliberate test of something the facts mark unknown. */
	kind: ExchangeKind;
	/** The button id search: which lengths it tries depends on the answers, so its steps are not paired. */
	unpaired?: true;
	request: RecordedRequest;
	response?: RecordedResponse;
	/** Why no answer came (network error, timeout). */
	error?: string;
	ms: number;
}

/** What a refusal (or an answer) said, in short. */
export interface AnswerSummary {
	httpStatus?: number;
	status?: string;
	devMessage?: string;
}

/** One answer, as the probe's steps read it. */
export interface Answer extends AnswerSummary {
	/** HTTP 2xx with status OK. */
	ok: boolean;
	/** The envelope's `data` when ok, else empty. */
	data: Record<string, unknown>;
}

export interface Findings {
	/** A method no Rubika has. */
	unknownMethod?: AnswerSummary & {
		/** Whether the node, getting this answer to one of its undocumented methods, says "Rubika does not know the method". */
		packageSaysUnknownMethod: boolean;
	};
	/** getMe with a made-up token. */
	badToken?: AnswerSummary;
	/** getChat with a chat id that does not exist. */
	invalidInput?: AnswerSummary;
	/** A message with a Link button (`button_link`, known from one library only). */
	linkButtons?: { accepted: boolean; answer: AnswerSummary };
	/** The longest button id an inline keypad may carry, searched between the two lengths of `searched`. */
	buttonIdLength?: {
		searched: [number, number];
		/** null: even the shortest was refused. */
		longestAccepted: number | null;
		/** null: even the longest was accepted. */
		shortestRefused: number | null;
		refusal?: AnswerSummary;
		/** The search stopped without an answer (no connection, rate limited). */
		inconclusive?: string;
	};
	/** Where requestSendFile's upload_url points, and what the upload answered. */
	upload?: { host: string; protocol: string; sameHostAsApi: boolean; answer: AnswerSummary };
	/** Where getFile's download_url points, what it served, and whether it still worked at the end of the run. */
	download?: {
		host: string;
		protocol: string;
		sameHostAsApi: boolean;
		httpStatus?: number;
		contentType?: string;
		bytesMatch: boolean;
		again?: { afterSeconds: number; httpStatus?: number; bytesMatch: boolean };
	};
	/** Some answer carried ids as bare JSON numbers beyond 2^53. */
	bareBigIntegers: boolean;
	/** Answers that said TOO_REQUESTS (the probe waited and asked again). */
	rateLimited: number;
	/** Methods answered exactly like the unknown method, or in words that say the method is unknown. */
	absentMethods: string[];
}

export interface MethodSummary {
	/** How the method answered when called as the node calls it, each different answer once: `OK`, `INVALID_INPUT`, `HTTP 404`, `no answer`. */
	answers: string[];
	/** Experiments with the method, as `<step>: <answer>` (e.g. sendSticker with a made-up sticker id). */
	experiments?: string[];
	/** Why it was not called as the node calls it. */
	skipped?: string;
}

export interface Difference {
	/** The step, or `findings`. */
	step: string;
	method: string;
	/** Where in the answer (`data.chat.last_name`, `HTTP status`, `(step)` for a step only one side ran), or which finding. */
	path: string;
	real: string;
	sandbox: string;
}

/** What the person running the probe chose; the token is not part of it. */
export interface ProbeSettings {
	baseUrl: string;
	chatId: string;
	/** A sticker id for sendSticker; without it sendSticker is tried with a made-up id (does the method exist?). */
	stickerId?: string;
	/** Ban and at once unban this user (opt-in). */
	banMemberId?: string;
	/** Register this URL as the bot's ReceiveQuery endpoint (opt-in). */
	webhookUrl?: string;
	/** Call unpinAllChatMessages (opt-in: it unpins every message of the chat). */
	unpinAll: boolean;
	/** Call getUpdates once with limit 1 (opt-in). */
	getUpdates: boolean;
	/** Replace the bot's command list with one command (opt-in). */
	setCommands: boolean;
	/** Pause between two requests, in milliseconds. */
	paceMs: number;
}

export interface ProbeReport {
	format: typeof REPORT_FORMAT;
	/** `n8n-nodes-rubika <version> probe`. */
	tool: string;
	startedAt: string;
	finishedAt: string;
	settings: ProbeSettings;
	/** The chat's type as getChat gave it. */
	chatType?: string;
	/** Why the run stopped before the end. */
	stopped?: string;
	/** Every method of the node (RUBIKA_METHODS), in its order. */
	methods: Record<string, MethodSummary>;
	findings: Findings;
	/** Every difference from the sandbox's answers to the same requests (shapes and statuses, not ids or times). */
	differences: Difference[];
	/** Why the answers could not be compared with the sandbox's, when they could not. */
	notCompared?: string;
	exchanges: Exchange[];
}

/** Rubika's rate-limit statuses (facts §1; one library spells it without the S). */
const RATE_LIMITED = new Set(['TOO_REQUESTS', 'TOO_REQUEST']);

export function answerOf(exchange: Exchange): Answer {
	const response = exchange.response;
	const envelope = isPlainObject(response?.body) && typeof response.body.status === 'string' ? response.body : undefined;
	const ok = response !== undefined && response.httpStatus >= 200 && response.httpStatus < 300 && envelope?.status === 'OK';
	return {
		ok,
		httpStatus: response?.httpStatus,
		status: envelope?.status as string | undefined,
		...(typeof envelope?.dev_message === 'string' ? { devMessage: envelope.dev_message } : {}),
		data: ok && isPlainObject(envelope?.data) ? envelope.data : {},
	};
}

/** TOO_REQUESTS (facts §1), or HTTP 429 in case Rubika says it that way. */
export function isRateLimited(answer: AnswerSummary): boolean {
	return answer.httpStatus === 429 || (answer.status !== undefined && RATE_LIMITED.has(answer.status));
}

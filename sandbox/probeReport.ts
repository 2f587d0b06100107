/**
 * The report `npm run probe` writes, and `npm run sandbox -- --replay` reads back (sandbox/replay.ts). Every
 * request and answer is in it as it went over the wire, with the bot token removed. It lives in the sandbox,
 * which reads it, so that the probe, which runs against a sandbox, imports the sandbox and not the reverse.
 */
import { isPlainObject } from '../nodes/shared/json';
import type { SandboxConfig } from './config';

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
	/** The interactive run (`--interactive`): a person answers in their private chat with the bot. */
	interactive?: {
		/** How long each step waits for the person. */
		stepTimeoutSeconds: number;
		/** Register a throwaway ReceiveUpdate endpoint here, then remove it again (`--endpoint-test`); the report keeps its origin only. */
		endpointTestUrl?: string;
	};
}

/** One thing the person was asked to do, and what arrived through getUpdates meanwhile. */
export interface InteractiveStep {
	/** `hello`, an input kind, `inline` (the inline keypad), `others` (any other button), `endpoint …`. */
	key: string;
	/** The button type the step asked for, and on which keypad. */
	buttonType?: string;
	keypad?: 'chat' | 'inline';
	/**
	 * `arrived`: what the step waited for came; `skipped`: the person pressed Enter; `done`: a step that
	 * collects until Enter ended so; `sent, nothing arrived`: the person said they had sent it, and nothing
	 * came; `timeout`: neither.
	 */
	outcome: 'arrived' | 'skipped' | 'done' | 'sent, nothing arrived' | 'timeout';
	/** The updates of the chat that arrived, personal values masked (see InteractiveFindings.privacy). */
	updates: unknown[];
	/** Every path in those updates with the kinds of value seen there (`new_message.contact_message.phone_number: string`). */
	shape: Record<string, string>;
	/** Paths whose values were masked. */
	masked: string[];
	/** Where the id of a button the step asked for was found in them (`new_message.aux_data.button_id`). */
	buttonIdAt: string[];
}

/** A limit searched by sending messages: the largest accepted and the smallest refused. */
export interface LimitFinding {
	searched: [number, number];
	/** null: even the smallest was refused. */
	longestAccepted: number | null;
	/** null: even the largest was accepted. */
	shortestRefused: number | null;
	refusal?: AnswerSummary;
	/** The search stopped without an answer (no connection, rate limited). */
	inconclusive?: string;
}

export interface InteractiveFindings {
	/** How the person agreed to the run (reading the bot's updates; the endpoint test): at the terminal, or with --yes. */
	agreed: 'terminal' | '--yes';
	/** How values were masked in this report. */
	privacy: string;
	/** Old updates skipped before the first step (not recorded). */
	backlogSkipped: number;
	/** Whether the person's first message arrived through getUpdates (if not, no step could see an answer). */
	updatesArrive: boolean;
	/** The special button types sent in a keypad: which Rubika took, and how it refused the others. */
	buttonTypes?: { accepted: string[]; refused: Array<{ type: string; answer: AnswerSummary }> };
	steps: InteractiveStep[];
	/**
	 * The longest text Rubika took, searched with Persian letters (a code point and a UTF-16 unit each) and
	 * with Persian letters and emoji in turn (an emoji is one code point, two units); `counts` is the unit that
	 * explains both searches.
	 */
	textLength?: {
		persian: LimitFinding;
		withEmoji: LimitFinding & { longestAcceptedUtf16: number | null; shortestRefusedUtf16: number | null };
		counts: 'codePoints' | 'utf16' | 'unclear';
		/** The longest Persian text accepted (as many code points as units); null when none was refused in the range. */
		limit: number | null;
	};
	/** The most formatting parts one message was accepted with. */
	metadataParts?: LimitFinding;
	/** A MentionText of the person in their own private chat (documented as refused outside groups). */
	mentionInPrivateChat?: { accepted: boolean; answer: AnswerSummary };
	/** The opt-in endpoint test (`--endpoint-test`). */
	endpoint?: EndpointFinding;
}

/** The ways the probe tries to remove an endpoint: the sandbox's `endpointRemoval` knob's. */
export type EndpointRemovalWay = Exclude<SandboxConfig['endpointRemoval'], 'none'>;

export interface EndpointFinding {
	/** The throwaway endpoint's host (its path may hold a secret, so it is not kept). */
	host: string;
	/** What registering it as ReceiveUpdate answered; `endpointStatus` is `data.status` (`Done`, `InvalidUrl`). */
	registered: AnswerSummary & { endpointStatus?: string };
	/**
	 * true: a message the person sent while it was registered did not arrive through getUpdates; false: it
	 * arrived; null: not known (the person did not say they had sent it, or registering failed).
	 */
	stopsPolling: boolean | null;
	removals: Array<{ way: EndpointRemovalWay; answer: AnswerSummary & { endpointStatus?: string }; pollingBack?: boolean | null }>;
	/** The way after which getUpdates received messages again, when polling had stopped. */
	removedBy?: EndpointRemovalWay;
	/** Whether getUpdates receives new messages at the end (null: not checked). */
	pollingBack: boolean | null;
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
	/** What the interactive run (`--interactive`) found. */
	interactive?: InteractiveFindings;
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

/**
 * Every knob of the sandbox. Where the facts (docs/api-facts.md) mark a behaviour as unknown or
 * conflicting, the sandbox plays one plausible variant by default and a knob switches to the others,
 * so the node can be tested against each.
 */
import net from 'node:net';

import type { FileType, RubikaMethod } from '../nodes/shared/types';
import { FILE_SIZE_LIMITS, FILE_TYPES, MAX_METADATA_PARTS, MAX_TEXT_LENGTH, RUBIKA_METHODS } from '../nodes/shared/types';

export type OneTimeKeyboardSpelling = 'one_time_keyboard' | 'on_time_keyboard' | 'both';

/** Whether keypad buttons may carry `button_link` (known from one library only, facts §2/§3). */
export type LinkButtonsMode = 'accept' | 'reject';

/** How the sandbox counts a text's length against maxTextLength. */
type TextLengthUnit = 'codePoints' | 'utf16';

/** How updateBotEndpoints removes an endpoint (facts §4: Rubika documents no way). */
const ENDPOINT_REMOVALS = ['none', 'emptyUrl', 'nullUrl'] as const;
type EndpointRemoval = (typeof ENDPOINT_REMOVALS)[number];

/** sendPoll's undocumented fields (type, allows_multiple_answers, is_anonymous, correct_option_index, explanation). */
export type PollExtrasMode = 'accept' | 'ignore' | 'reject';

/** The keys a member can come under in getChatMember's answer (its shape is unknown, facts §9). */
const MEMBER_ANSWER_KEYS = ['member', 'chat_member', 'in_chat_member', 'user'] as const;
type MemberAnswerKey = (typeof MEMBER_ANSWER_KEYS)[number];

/** Names absentMethods may list: every method the sandbox answers. */
const ABSENT_METHOD_NAMES: readonly string[] = [...RUBIKA_METHODS, 'editInlineKeypad'];

export interface ErrorAnswer {
	/** HTTP status of the answer (default 200: the facts suggest errors come back as 200 + status). */
	httpStatus: number;
	/** Envelope `status` (default INVALID_INPUT). */
	status: string;
	devMessage: string;
}

/** An answer a real Rubika gave, as the probe recorded it (probe/, sandbox/replay.ts): HTTP status and body. */
export interface RecordedAnswer {
	httpStatus: number;
	/** The parsed JSON body (an envelope), or the text when it was not JSON. */
	body: unknown;
}

interface RateLimitConfig {
	/** Requests allowed per bot token in any sliding one-second window. */
	perSecond: number;
	/** HTTP status of the TOO_REQUESTS answer (default 200; 429 is the other plausible one). */
	httpStatus?: number;
	/** Envelope status (default TOO_REQUESTS). */
	status?: string;
	/** Send a Retry-After header with this many seconds (default: none, as nothing shows Rubika sends one). */
	retryAfterSeconds?: number;
}

export interface SandboxConfig {
	/** How an unknown token is answered (facts §1: unknown; the fast_rub library reads INVALID_INPUT as "bad token"). */
	badToken: ErrorAnswer;
	/** How an unknown method name is answered; the name replaces `{method}` in devMessage, or follows it after a colon. */
	unknownMethod: ErrorAnswer;
	/** HTTP status used for every other error envelope (validation, access, upload). */
	errorHttpStatus: number;
	/** Which spelling of the one-time keypad flag is honoured; the other is stored but ignored. */
	oneTimeKeyboardSpelling: OneTimeKeyboardSpelling;
	/**
	 * Link buttons (`type: "Link"` + `button_link`, rubpy only): 'accept' validates them; 'reject' plays a
	 * service that does not know them and answers INVALID_INPUT for any button_link, so a fallback can be tested.
	 */
	linkButtons: LinkButtonsMode;
	/** Longest button id a keypad may carry (facts §7: unknown); longer ones are INVALID_INPUT. null = no limit. */
	maxButtonIdLength: number | null;
	/**
	 * Methods answered exactly as an unknown method (`unknownMethod`), as by a Rubika that lacks them; meant
	 * for the undocumented ones the client libraries call (sendSticker, pinChatMessage, getChatMember…).
	 */
	absentMethods: string[];
	/**
	 * sendPoll's undocumented fields: 'accept' validates and stores them; 'ignore' stores a plain poll;
	 * 'reject' answers INVALID_INPUT naming the first one sent (JSON null counts as not sent).
	 */
	pollExtras: PollExtrasMode;
	/**
	 * What a real Rubika answered, per method (a probe report, sandbox/replay.ts): a refusal is answered as
	 * recorded, whatever the request; an OK answer's `data` takes the recorded answer's shape (its keys, the
	 * recorded values where the sandbox has none), keeping the sandbox's own values and effects.
	 */
	recordedAnswers: Partial<Record<RubikaMethod, RecordedAnswer>>;
	/** The key getChatMember puts the member under. */
	memberAnswerKey: MemberAnswerKey;
	/**
	 * getChatMember for someone not in the chat (left, banned, never joined): 'status' answers the member with
	 * status Left or Banned; 'null' answers the key with null (`{"member": null}`), as if no member were found.
	 */
	nonMemberAnswer: 'status' | 'null';
	/**
	 * unpinAllChatMessages and the message_id rubpy always sends (facts §9): 'ignore' does not read it;
	 * 'require' answers INVALID_INPUT without one and checks it names a message of the chat.
	 */
	unpinAllMessageId: 'ignore' | 'require';
	/** Write message ids as bare JSON numbers (> 2^53) in answers and webhook bodies, like an old sample. */
	bareNumericIds: boolean;
	/** Emit every documented-but-absent field as `null` instead of leaving it out (both happen in samples). */
	explicitNulls: boolean;
	/** Post webhook events to `url + /receiveUpdate` and `url + /receiveInlineMessage` (the 2022 documentation) instead of `url`. */
	appendEndpointSuffix: boolean;
	/** Deliver every webhook event twice (facts §4: duplicates are unknown, libraries dedup). */
	duplicateDeliveries: boolean;
	/** Give up on a webhook POST after this long; the delivery is logged as failed. */
	webhookTimeoutMs: number;
	/** updateBotEndpoints answers InvalidUrl for plain http (the real service wants public HTTPS). */
	requireHttpsEndpoints: boolean;
	/** Delay before every API answer. */
	latencyMs: number;
	/** Answer TOO_REQUESTS beyond this rate; null = unlimited. */
	rateLimit: RateLimitConfig | null;
	/** Per-type upload limits in bytes (documented values by default; lower them to keep tests fast). */
	fileSizeLimits: Record<FileType, number>;
	/**
	 * How a file a person sends gives its size in the message's `file` (facts §2: documented as a string of
	 * bytes): 'string', 'number', or 'absent' (no `size`), for a service that leaves it out.
	 */
	fileSizeInMessages: 'string' | 'number' | 'absent';
	/** Whether a download announces the file's length (Content-Length); false sends the body chunked, without one. */
	downloadContentLength: boolean;
	/** Updates kept per bot; older ones fall out of the getUpdates backlog. */
	updateRetention: number;
	/** getUpdates `limit` when absent, and the most it will return (larger values are clamped). */
	defaultUpdatesLimit: number;
	maxUpdatesLimit: number;
	/** A getUpdates `offset_id` the sandbox never issued: 'error' answers INVALID_INPUT, 'restart' reads from the oldest update. */
	unknownOffset: 'error' | 'restart';
	/**
	 * Groups and channels: the real bot sees only messages that start with "/", mention it, or reply to it,
	 * unless "receive all" is on in @BotFather (facts §5). false = receive all (the friendlier default).
	 */
	groupPrivacy: boolean;
	/**
	 * Longest text a message may carry (sendMessage's and editMessageText's `text`, sendFile's caption); longer
	 * is INVALID_INPUT. facts §7: 4,096 "characters" by one library; null = no limit.
	 */
	maxTextLength: number | null;
	/**
	 * What maxTextLength counts (facts §7: unknown): 'codePoints' as the library's Python `len` does (an emoji
	 * is 1), or 'utf16' as formatting offsets do (an emoji is 2).
	 */
	textLengthUnit: TextLengthUnit;
	/**
	 * Keypads in groups and channels (facts §7: one library says Rubika refuses them with INVALID_INPUT):
	 * 'reject' answers INVALID_INPUT to a send, editMessageKeypad or editChatKeypad carrying a keypad there.
	 */
	keypadsInGroups: 'accept' | 'reject';
	/** Most formatting parts one message may carry (facts §7: documented 30); more is INVALID_INPUT. */
	maxMetadataParts: number;
	/**
	 * A MentionText part outside a group (facts §7: documented as refused): 'reject' answers INVALID_INPUT,
	 * 'accept' takes it, as a service that does not enforce the rule would.
	 */
	mentionsOutsideGroups: 'reject' | 'accept';
	/**
	 * Whether a registered ReceiveUpdate endpoint stops getUpdates (facts §4: one document says so, others are
	 * silent): true = while one is registered, updates go to it only and getUpdates sees none of them.
	 */
	endpointStopsPolling: boolean;
	/**
	 * How updateBotEndpoints removes the endpoint of a type (facts §4: no documented way): 'none' (there is
	 * no way; an empty url is INVALID_INPUT), 'emptyUrl' (`url: ""`) or 'nullUrl' (`url` null or left out).
	 */
	endpointRemoval: EndpointRemoval;
	/**
	 * How a person's answer to an input button of an inline keypad (Textbox, Calendar, pickers, phone,
	 * location; facts §11) reaches the bot: 'inlineMessage' as an inline_message to ReceiveInlineMessage,
	 * like any inline tap; 'newMessage' as a NewMessage in the chat, as chat keypad answers do.
	 */
	inlineInputAnswers: 'inlineMessage' | 'newMessage';
	/**
	 * Where a shared phone number (AskMyPhoneNumber, MyPhoneNumber; facts §11) comes: 'contactMessage' in
	 * `contact_message {phone_number, first_name, last_name}`, 'text' as the message's text.
	 */
	phoneAnswer: 'contactMessage' | 'text';
	/** Sending into a private chat whose user stopped the bot answers INVALID_ACCESS (unknown in the facts). */
	rejectSendAfterStop: boolean;
	/**
	 * Rubika answering only some addresses (facts §1: reported to answer only Iranian ones): when set, Bot API,
	 * upload and download requests from any other client address are never answered (the connection stays
	 * open until the client gives up, as a blocked request times out). The test proxy (proxy.ts) connects from
	 * 127.0.0.2. null = every address is answered.
	 */
	answerOnlyFrom: string[] | null;
	/** Most API request log entries kept (oldest dropped first). */
	requestLogLimit: number;
}

export function defaultConfig(): SandboxConfig {
	return {
		badToken: { httpStatus: 200, status: 'INVALID_INPUT', devMessage: 'Invalid bot token' },
		unknownMethod: { httpStatus: 200, status: 'INVALID_INPUT', devMessage: 'Unknown method' },
		errorHttpStatus: 200,
		oneTimeKeyboardSpelling: 'both',
		linkButtons: 'accept',
		maxButtonIdLength: null,
		absentMethods: [],
		pollExtras: 'accept',
		recordedAnswers: {},
		memberAnswerKey: 'member',
		nonMemberAnswer: 'status',
		unpinAllMessageId: 'ignore',
		bareNumericIds: false,
		explicitNulls: false,
		appendEndpointSuffix: false,
		duplicateDeliveries: false,
		webhookTimeoutMs: 5_000,
		requireHttpsEndpoints: false,
		latencyMs: 0,
		rateLimit: null,
		fileSizeLimits: { ...FILE_SIZE_LIMITS },
		fileSizeInMessages: 'string',
		downloadContentLength: true,
		updateRetention: 100_000,
		defaultUpdatesLimit: 100,
		maxUpdatesLimit: 100,
		unknownOffset: 'error',
		groupPrivacy: false,
		maxTextLength: MAX_TEXT_LENGTH,
		textLengthUnit: 'codePoints',
		keypadsInGroups: 'accept',
		maxMetadataParts: MAX_METADATA_PARTS,
		mentionsOutsideGroups: 'reject',
		endpointStopsPolling: false,
		endpointRemoval: 'none',
		inlineInputAnswers: 'inlineMessage',
		phoneAnswer: 'contactMessage',
		rejectSendAfterStop: false,
		answerOnlyFrom: null,
		requestLogLimit: 100_000,
	};
}

/** What callers may pass: every field optional, nested answers partial. */
export type SandboxConfigPatch = Partial<
	Omit<SandboxConfig, 'badToken' | 'unknownMethod' | 'fileSizeLimits'>
> & {
	badToken?: Partial<ErrorAnswer>;
	unknownMethod?: Partial<ErrorAnswer>;
	fileSizeLimits?: Partial<Record<FileType, number>>;
};

const BOOLEAN_KEYS = [
	'bareNumericIds',
	'explicitNulls',
	'appendEndpointSuffix',
	'duplicateDeliveries',
	'requireHttpsEndpoints',
	'groupPrivacy',
	'rejectSendAfterStop',
	'endpointStopsPolling',
	'downloadContentLength',
] as const;
const NUMBER_KEYS = [
	'errorHttpStatus',
	'webhookTimeoutMs',
	'latencyMs',
	'updateRetention',
	'defaultUpdatesLimit',
	'maxUpdatesLimit',
	'requestLogLimit',
] as const;

/**
 * Applies a patch in place after checking it, so a typo in a test or an admin call fails loudly instead
 * of silently leaving the default in force. Throws a plain Error naming the bad key.
 */
export function applyConfigPatch(config: SandboxConfig, patch: unknown): void {
	if (!patch || typeof patch !== 'object' || Array.isArray(patch)) throw new Error('config patch must be an object');
	const input = patch as Record<string, unknown>;
	const known = new Set<string>([
		...BOOLEAN_KEYS,
		...NUMBER_KEYS,
		'badToken',
		'unknownMethod',
		'oneTimeKeyboardSpelling',
		'linkButtons',
		'absentMethods',
		'pollExtras',
		'maxButtonIdLength',
		'recordedAnswers',
		'memberAnswerKey',
		'nonMemberAnswer',
		'unpinAllMessageId',
		'rateLimit',
		'fileSizeLimits',
		'unknownOffset',
		'maxTextLength',
		'textLengthUnit',
		'keypadsInGroups',
		'maxMetadataParts',
		'mentionsOutsideGroups',
		'endpointRemoval',
		'inlineInputAnswers',
		'phoneAnswer',
		'answerOnlyFrom',
		'fileSizeInMessages',
	]);
	for (const key of Object.keys(input)) {
		if (!known.has(key)) throw new Error(`unknown config key "${key}"`);
	}
	for (const key of BOOLEAN_KEYS) {
		if (key in input && typeof input[key] !== 'boolean') throw new Error(`${key} must be a boolean`);
	}
	for (const key of NUMBER_KEYS) {
		if (key in input && (typeof input[key] !== 'number' || !Number.isFinite(input[key]) || (input[key] as number) < 0)) {
			throw new Error(`${key} must be a non-negative number`);
		}
	}
	if ('oneTimeKeyboardSpelling' in input && !['one_time_keyboard', 'on_time_keyboard', 'both'].includes(input.oneTimeKeyboardSpelling as string)) {
		throw new Error('oneTimeKeyboardSpelling must be one_time_keyboard, on_time_keyboard or both');
	}
	if ('linkButtons' in input && !['accept', 'reject'].includes(input.linkButtons as string)) {
		throw new Error('linkButtons must be accept or reject');
	}
	if ('absentMethods' in input) {
		const names = input.absentMethods;
		if (!Array.isArray(names)) throw new Error('absentMethods must be a list of method names');
		for (const name of names) {
			if (typeof name !== 'string' || !ABSENT_METHOD_NAMES.includes(name)) {
				throw new Error(`absentMethods: ${JSON.stringify(name)} is not a method of the sandbox (${ABSENT_METHOD_NAMES.join(', ')})`);
			}
		}
	}
	if ('pollExtras' in input && !['accept', 'ignore', 'reject'].includes(input.pollExtras as string)) {
		throw new Error('pollExtras must be accept, ignore or reject');
	}
	if ('maxButtonIdLength' in input && input.maxButtonIdLength !== null) {
		const length = input.maxButtonIdLength;
		if (typeof length !== 'number' || !Number.isInteger(length) || length < 1) throw new Error('maxButtonIdLength must be null or a whole number >= 1');
	}
	if ('recordedAnswers' in input) {
		const answers = input.recordedAnswers;
		if (!answers || typeof answers !== 'object' || Array.isArray(answers)) throw new Error('recordedAnswers must be an object of method names');
		for (const [method, answer] of Object.entries(answers as Record<string, Partial<RecordedAnswer> | null>)) {
			if (!(RUBIKA_METHODS as readonly string[]).includes(method)) throw new Error(`recordedAnswers: "${method}" is not a method of RUBIKA_METHODS`);
			if (!answer || typeof answer !== 'object' || !isHttpStatus(answer.httpStatus) || answer.body === undefined) {
				throw new Error(`recordedAnswers.${method} must be { httpStatus, body }`);
			}
		}
	}
	if ('memberAnswerKey' in input && !(MEMBER_ANSWER_KEYS as readonly string[]).includes(input.memberAnswerKey as string)) {
		throw new Error(`memberAnswerKey must be one of ${MEMBER_ANSWER_KEYS.join(', ')}`);
	}
	if ('nonMemberAnswer' in input && !['status', 'null'].includes(input.nonMemberAnswer as string)) {
		throw new Error('nonMemberAnswer must be status or null');
	}
	if ('unpinAllMessageId' in input && !['ignore', 'require'].includes(input.unpinAllMessageId as string)) {
		throw new Error('unpinAllMessageId must be ignore or require');
	}
	if ('maxTextLength' in input && input.maxTextLength !== null) {
		const length = input.maxTextLength;
		if (typeof length !== 'number' || !Number.isInteger(length) || length < 1) throw new Error('maxTextLength must be null or a whole number >= 1');
	}
	if ('textLengthUnit' in input && !['codePoints', 'utf16'].includes(input.textLengthUnit as string)) {
		throw new Error('textLengthUnit must be codePoints or utf16');
	}
	if ('keypadsInGroups' in input && !['accept', 'reject'].includes(input.keypadsInGroups as string)) {
		throw new Error('keypadsInGroups must be accept or reject');
	}
	if ('maxMetadataParts' in input) {
		const parts = input.maxMetadataParts;
		if (typeof parts !== 'number' || !Number.isInteger(parts) || parts < 1) throw new Error('maxMetadataParts must be a whole number >= 1');
	}
	if ('answerOnlyFrom' in input && input.answerOnlyFrom !== null) {
		const addresses = input.answerOnlyFrom;
		if (!Array.isArray(addresses) || !addresses.every((address) => typeof address === 'string' && net.isIP(address) !== 0)) {
			throw new Error('answerOnlyFrom must be null or a list of IP addresses');
		}
	}
	oneOf(input, 'mentionsOutsideGroups', ['reject', 'accept']);
	oneOf(input, 'endpointRemoval', ENDPOINT_REMOVALS);
	oneOf(input, 'inlineInputAnswers', ['inlineMessage', 'newMessage']);
	oneOf(input, 'phoneAnswer', ['contactMessage', 'text']);
	oneOf(input, 'fileSizeInMessages', ['string', 'number', 'absent']);
	if ('unknownOffset' in input && !['error', 'restart'].includes(input.unknownOffset as string)) {
		throw new Error('unknownOffset must be error or restart');
	}
	const answers: Array<'badToken' | 'unknownMethod'> = ['badToken', 'unknownMethod'];
	for (const key of answers) {
		if (!(key in input)) continue;
		const value = input[key] as Partial<ErrorAnswer> | null;
		if (!value || typeof value !== 'object') throw new Error(`${key} must be an object`);
		if (value.httpStatus !== undefined && !isHttpStatus(value.httpStatus)) throw new Error(`${key}.httpStatus must be an HTTP status`);
		if (value.status !== undefined && typeof value.status !== 'string') throw new Error(`${key}.status must be a string`);
		if (value.devMessage !== undefined && typeof value.devMessage !== 'string') throw new Error(`${key}.devMessage must be a string`);
	}
	if ('rateLimit' in input && input.rateLimit !== null) {
		const limit = input.rateLimit as Partial<RateLimitConfig>;
		if (typeof limit !== 'object' || typeof limit.perSecond !== 'number' || limit.perSecond <= 0) {
			throw new Error('rateLimit must be null or { perSecond > 0, httpStatus?, status?, retryAfterSeconds? }');
		}
		if (limit.httpStatus !== undefined && !isHttpStatus(limit.httpStatus)) throw new Error('rateLimit.httpStatus must be an HTTP status');
		if (limit.retryAfterSeconds !== undefined && !(typeof limit.retryAfterSeconds === 'number' && limit.retryAfterSeconds >= 0)) {
			throw new Error('rateLimit.retryAfterSeconds must be a number >= 0');
		}
	}
	if ('fileSizeLimits' in input) {
		const limits = input.fileSizeLimits as Record<string, unknown>;
		if (!limits || typeof limits !== 'object') throw new Error('fileSizeLimits must be an object');
		for (const [type, value] of Object.entries(limits)) {
			if (!(FILE_TYPES as readonly string[]).includes(type)) throw new Error(`fileSizeLimits: unknown file type "${type}"`);
			if (typeof value !== 'number' || value < 0) throw new Error(`fileSizeLimits.${type} must be a non-negative number`);
		}
	}

	// Checked: now apply.
	for (const [key, value] of Object.entries(input)) {
		if (key === 'badToken' || key === 'unknownMethod') {
			Object.assign(config[key], value);
		} else if (key === 'fileSizeLimits') {
			Object.assign(config.fileSizeLimits, value);
		} else if (key === 'absentMethods') {
			config.absentMethods = [...(value as string[])];
		} else if (key === 'answerOnlyFrom') {
			config.answerOnlyFrom = value === null ? null : [...(value as string[])];
		} else if (key === 'recordedAnswers') {
			config.recordedAnswers = structuredClone(value as SandboxConfig['recordedAnswers']);
		} else if (key === 'rateLimit') {
			config.rateLimit = value === null ? null : { ...(value as RateLimitConfig) };
		} else {
			(config as unknown as Record<string, unknown>)[key] = value;
		}
	}
}

/** A knob that takes one of a few words: anything else throws, naming them. */
function oneOf(input: Record<string, unknown>, key: string, values: readonly string[]): void {
	if (key in input && !values.includes(input[key] as string)) throw new Error(`${key} must be ${values.slice(0, -1).join(', ')} or ${values.at(-1)}`);
}

function isHttpStatus(value: unknown): boolean {
	return typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599;
}

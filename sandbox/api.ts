/**
 * The API route, `POST /v3/{token}/{method}`: every request is logged (token redacted), then delayed by
 * the configured latency, then checked against the fault queue and the rate limit, and only then
 * answered normally: bad token, unknown method, a refusal recorded from a real Rubika (a probe report),
 * malformed body, or the method's own answer (in the recorded answer's shape, when there is one).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { RubikaMethod } from '../nodes/shared/types';
import type { Answer } from './answers';
import { answerWithFault, envelope, isRecordedSuccess, recordedRefusal, reshapeLike, withRetryAfter } from './answers';
import type { ErrorAnswer, SandboxConfig } from './config';
import { ApiError } from './errors';
import type { FaultQueue, RateLimiter } from './faults';
import { BodyTooLargeError, readBody, send, sleep } from './http';
import type { MethodContext, MethodHandler } from './methodHelpers';
import { METHODS } from './methods';
import type { RequestLog } from './requestLog';
import type { BotRecord, FileRecord, SandboxState } from './state';

/** Defined in requestLog.ts; also exported here for importers of this file (test/transport/rate-limit.test.ts). */
export type { RequestLogEntry } from './requestLog';

/** What the API route touches; the sandbox provides it. */
export interface ApiContext {
	readonly state: SandboxState;
	readonly config: SandboxConfig;
	readonly requestLog: Pick<RequestLog, 'start' | 'finish'>;
	readonly faults: Pick<FaultQueue, 'take'>;
	readonly rateLimiter: Pick<RateLimiter, 'allow'>;
	/** The addresses requestSendFile and getFile answer with. */
	uploadUrl(slotId: string): string;
	downloadUrl(file: FileRecord): string;
}

const MAX_API_BODY = 8 * 1024 * 1024;

/** An error answer of the config; for an unknown method, its name goes where `{method}` is, or after a colon. */
function errorAnswer(answer: ErrorAnswer, method?: string): Answer {
	let devMessage = answer.devMessage;
	if (method !== undefined) devMessage = devMessage.includes('{method}') ? devMessage.split('{method}').join(method) : `${devMessage}: ${method}`;
	return envelope(answer.httpStatus, { status: answer.status, dev_message: devMessage }, false);
}

export async function handleApiRequest(
	context: ApiContext,
	req: IncomingMessage,
	res: ServerResponse,
	token: string,
	method: string,
	/** `/via/{name}` when the request came by the second address, else empty. */
	via = '',
): Promise<void> {
	const config = context.config;
	const received = Date.now();
	let raw: Buffer;
	let tooLarge = false;
	try {
		raw = await readBody(req, MAX_API_BODY);
	} catch (error) {
		if (!(error instanceof BodyTooLargeError)) throw error;
		raw = Buffer.alloc(0);
		tooLarge = true;
	}
	const text = raw.toString('utf8');
	let body: unknown = null;
	let parsed = true;
	if (text.trim() !== '') {
		try {
			body = JSON.parse(text);
		} catch {
			body = text;
			parsed = false;
		}
	}
	const bot = context.state.botByToken(token);
	const entry = context.requestLog.start({
		method,
		path: `${via}/v3/<token>/${method}`,
		body: tooLarge ? '<body too large>' : body,
		tokenValid: bot !== undefined,
		botId: bot?.bot_id ?? null,
		at: received,
	});
	const finish = (answer: Answer | null, fault?: string) => {
		context.requestLog.finish(entry, answer, fault);
		if (answer) send(res, answer.httpStatus, answer.body, answer.contentType, answer.headers);
		else req.socket.destroy();
	};

	if (config.latencyMs > 0) await sleep(config.latencyMs);

	const fault = context.faults.take({ kind: 'api', method });
	if (fault?.kind === 'delay') await sleep(fault.ms ?? 0);
	if (fault && fault.kind !== 'delay' && fault.kind !== 'duplicateUpdate') {
		const answered = answerWithFault(fault, () => {
			if (tooLarge) return bodyTooLarge(config.errorHttpStatus);
			return process(context, bot, method, body, parsed, req.method, false);
		});
		finish(answered, fault.kind);
		return;
	}

	if (config.rateLimit && !context.rateLimiter.allow(token, config.rateLimit.perSecond, Date.now())) {
		finish(
			withRetryAfter(
				envelope(
					config.rateLimit.httpStatus ?? 200,
					{ status: config.rateLimit.status ?? 'TOO_REQUESTS', dev_message: 'Too many requests' },
					false,
				),
				config.rateLimit.retryAfterSeconds,
			),
			'rateLimit',
		);
		return;
	}

	const answer = tooLarge
		? bodyTooLarge(config.errorHttpStatus)
		: process(context, bot, method, body, parsed, req.method, fault?.kind === 'duplicateUpdate');
	finish(answer, fault?.kind);
}

function bodyTooLarge(httpStatus: number): Answer {
	return envelope(httpStatus, { status: 'INVALID_INPUT', dev_message: 'request body too large' }, false);
}

function process(
	context: ApiContext,
	bot: BotRecord | undefined,
	method: string,
	body: unknown,
	parsed: boolean,
	httpMethod: string | undefined,
	duplicateUpdate: boolean,
): Answer {
	const config = context.config;
	if (!bot) return errorAnswer(config.badToken);
	// A method listed in absentMethods is answered exactly as one the service has never heard of.
	if (!Object.hasOwn(METHODS, method) || config.absentMethods.includes(method)) return errorAnswer(config.unknownMethod, method);
	// What a real Rubika answered this method (a probe report): its refusal stands for any request.
	const recorded = config.recordedAnswers[method as RubikaMethod];
	if (recorded && !isRecordedSuccess(recorded)) return recordedRefusal(recorded);
	const fail = (devMessage: string) =>
		envelope(config.errorHttpStatus, { status: 'INVALID_INPUT', dev_message: devMessage }, false);
	if (httpMethod !== 'POST') return fail('methods are called with POST');
	if (!parsed) return fail('the body is not valid JSON');
	if (body === null) body = {};
	if (typeof body !== 'object' || Array.isArray(body)) return fail('the body must be a JSON object');
	const methodContext: MethodContext = {
		state: context.state,
		config,
		bot,
		uploadUrl: (slotId) => context.uploadUrl(slotId),
		downloadUrl: (file) => context.downloadUrl(file),
		duplicateUpdate,
	};
	try {
		const data = (METHODS as Record<string, MethodHandler>)[method](methodContext, body as Record<string, unknown>);
		return envelope(200, { status: 'OK', data: recorded ? reshapeLike(data, recorded.body.data) : data }, config.bareNumericIds);
	} catch (error) {
		if (error instanceof ApiError) {
			return envelope(
				error.httpStatus ?? config.errorHttpStatus,
				{ status: error.status, dev_message: error.devMessage },
				false,
			);
		}
		// A sandbox bug: make it loud rather than pretend the service said something.
		console.error('[rubika-sandbox] internal error in', method, error);
		return envelope(500, { status: 'SANDBOX_INTERNAL_ERROR', dev_message: String(error) }, false);
	}
}

/**
 * The probe's HTTP client. It is a tool, not a node, so it uses Node's fetch directly rather than n8n's helpers,
 * and it keeps what the node's transport hides on purpose: every request and answer as it went over the wire.
 * The Bot API address is built by the credential's own rule (`rubikaRequestUrl`).
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { rubikaRequestUrl } from '../credentials/RubikaApi.credentials';
import { isPlainObject, parseJsonKeepingBigIntegers } from '../nodes/shared/json';
import type { Answer, AnswerSummary, Exchange, ExchangeKind, RecordedRequest } from '../sandbox/probeReport';
import { answerOf, isRateLimited } from '../sandbox/probeReport';

export interface StepLabel {
	step: string;
	kind: ExchangeKind;
	unpaired?: true;
	/**
	 * What of the answer's body goes into the report (the interactive run keeps only its own chat's updates,
	 * with personal values masked); the step reads the whole answer. Returning undefined keeps no record of
	 * the request at all (an empty poll).
	 */
	keep?: (body: unknown) => unknown;
}

const ANSWER_TIMEOUT_MS = 30_000;
const RATE_LIMIT_ATTEMPTS = 3;
const RATE_LIMIT_WAIT_MS = 5_000;
/** Longest text body kept in the report (an HTML error page says what it is long before this). */
const MAX_TEXT = 4_000;

export class ProbeClient {
	readonly exchanges: Exchange[] = [];
	#lastRequestAt = 0;

	constructor(
		readonly baseUrl: string,
		private readonly token: string,
		private readonly paceMs: number,
		private readonly log: (line: string) => void,
	) {}

	/**
	 * POSTs a Bot API method as the node does, and records it. A rate-limited answer is recorded too, then the
	 * request is made again after a pause, so one TOO_REQUESTS does not end an experiment.
	 */
	async call(label: StepLabel, method: string, body: Record<string, unknown>, token = this.token): Promise<Answer> {
		const url = rubikaRequestUrl({ accessToken: token, baseUrl: this.baseUrl }, method);
		const request: RecordedRequest = { method: 'POST', url, headers: { 'Content-Type': 'application/json' }, body };
		for (let attempt = 1; ; attempt++) {
			const exchange = await this.#send(label, method, request, { body: JSON.stringify(body), headers: request.headers });
			const answer = answerOf(exchange);
			if (label.keep && exchange.response) this.#keep(exchange, label.keep(exchange.response.body));
			if (!isRateLimited(answer) || attempt === RATE_LIMIT_ATTEMPTS) return answer;
			const retryAfter = Number(exchange.response?.headers['retry-after']);
			await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : RATE_LIMIT_WAIT_MS);
		}
	}

	/** POSTs a file to an upload_url as multipart/form-data with one part named `file`, as the node does (facts §6). */
	async upload(label: StepLabel, url: string, file: { name: string; type: string; content: Buffer }): Promise<Answer> {
		const form = new FormData();
		form.append('file', new Blob([file.content], { type: file.type }), file.name);
		const request: RecordedRequest = {
			method: 'POST',
			url,
			headers: { 'Content-Type': 'multipart/form-data' },
			body: { multipart: { name: 'file', fileName: file.name, contentType: file.type, bytes: file.content.length } },
		};
		// The node does not follow redirects on uploads either (nodes/shared/transport/files.ts).
		return answerOf(await this.#send(label, 'upload', request, { body: form, redirect: 'manual' }));
	}

	/** GETs a download_url and records how many bytes came and whether they are `expected`, not the bytes. */
	async download(label: StepLabel, url: string, expected: Buffer): Promise<{ httpStatus?: number; contentType?: string; bytesMatch: boolean }> {
		const exchange = await this.#send(label, 'download', { method: 'GET', url, headers: {} }, {}, expected);
		const body = exchange.response?.body;
		return {
			httpStatus: exchange.response?.httpStatus,
			contentType: exchange.response?.headers['content-type'],
			bytesMatch: isPlainObject(body) && body.matchesUpload === true,
		};
	}

	/** Replaces what the report keeps of an answer's body, or (undefined) drops the exchange. */
	#keep(exchange: Exchange, body: unknown): void {
		if (body !== undefined && exchange.response) exchange.response.body = body;
		else this.exchanges.splice(this.exchanges.indexOf(exchange), 1);
	}

	async #send(label: StepLabel, method: string, request: RecordedRequest, init: RequestInit, expectedBytes?: Buffer): Promise<Exchange> {
		const wait = this.#lastRequestAt + this.paceMs - Date.now();
		if (wait > 0) await sleep(wait);
		const started = Date.now();
		this.#lastRequestAt = started;
		const exchange: Exchange = { step: label.step, method, kind: label.kind, ...(label.unpaired ? { unpaired: true } : {}), request, ms: 0 };
		this.exchanges.push(exchange);
		try {
			const response = await fetch(request.url, { ...init, method: request.method, signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
			const raw = Buffer.from(await response.arrayBuffer());
			const ok = response.status >= 200 && response.status < 300;
			exchange.response = {
				httpStatus: response.status,
				headers: Object.fromEntries(response.headers),
				...(expectedBytes && ok ? { body: { bytes: raw.length, matchesUpload: raw.equals(expectedBytes) } } : readBody(raw)),
				...(response.redirected ? { redirectedTo: response.url } : {}),
			};
		} catch (error) {
			const cause = (error as { cause?: { message?: string } }).cause?.message;
			exchange.error = `${(error as Error).message}${cause ? ` (${cause})` : ''}`;
		}
		exchange.ms = Date.now() - started;
		this.log(`${label.step}: ${answerLabel(exchange)}`);
		return exchange;
	}
}

/** The body as JSON with big integers kept whole, noting whether there were any; else the text. */
function readBody(raw: Buffer): { body: unknown; bareBigIntegers?: true } {
	const text = raw.toString('utf8');
	try {
		const body = parseJsonKeepingBigIntegers(text);
		return JSON.stringify(body) === JSON.stringify(JSON.parse(text)) ? { body } : { body, bareBigIntegers: true };
	} catch {
		return { body: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… (${text.length} characters)` : text };
	}
}

/** An answer in a word or two: `OK`, `INVALID_INPUT`, `INVALID_INPUT (HTTP 400)`, `HTTP 404`, `no answer`. */
export function answerLabel(exchange: Exchange): string {
	const response = exchange.response;
	if (!response) return 'no answer';
	if (exchange.method === 'download') return `HTTP ${response.httpStatus}`;
	const { status } = answerOf(exchange);
	if (status === undefined) return `HTTP ${response.httpStatus}`;
	return response.httpStatus === 200 ? status : `${status} (HTTP ${response.httpStatus})`;
}

export function summaryOf(answer: AnswerSummary): AnswerSummary {
	const { httpStatus, status, devMessage } = answer;
	return { httpStatus, ...(status === undefined ? {} : { status }), ...(devMessage === undefined ? {} : { devMessage }) };
}

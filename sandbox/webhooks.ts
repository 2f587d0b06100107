/**
 * Webhook delivery (facts §4): after updateBotEndpoints, each new update is POSTed as {"update": …} to the
 * ReceiveUpdate address and each inline keypad tap as {"inline_message": …} to the ReceiveInlineMessage
 * address. Deliveries run in the background, one at a time per bot so they arrive in order; every attempt
 * is logged with the HTTP status the receiver answered. Retries are unknown for the real service, so
 * there are none. Tests await `settled()` instead of sleeping.
 */
import http from 'node:http';
import https from 'node:https';

import type { InlineMessage, Update, UpdateEndpointType, WebhookBody } from '../nodes/shared/types';
import type { SandboxConfig } from './config';
import { toWireJson } from './serialize';
import type { BotRecord } from './state';

export interface DeliveryRecord {
	id: number;
	botId: string;
	kind: 'update' | 'inline_message';
	endpointType: UpdateEndpointType;
	/** null when the bot has no endpoint of that type (the event was not delivered). */
	url: string | null;
	body: WebhookBody;
	delivered: boolean;
	/** What the receiver answered; null if it never did. */
	httpStatus: number | null;
	responseBody?: string;
	error?: string;
	/** The second copy of a duplicated delivery. */
	duplicate: boolean;
	at: number;
	durationMs?: number;
}

const SUFFIX: Record<'update' | 'inline_message', string> = {
	update: '/receiveUpdate',
	inline_message: '/receiveInlineMessage',
};

export class WebhookDispatcher {
	readonly log: DeliveryRecord[] = [];
	private nextId = 1;
	private readonly chains = new Map<string, Promise<void>>();
	private readonly inFlight = new Set<http.ClientRequest>();
	private closed = false;

	constructor(
		private readonly config: () => SandboxConfig,
		/** Consumes a queued duplicateDelivery fault, if any. */
		private readonly takeDuplicateFault: () => boolean,
	) {}

	deliverUpdate(bot: BotRecord, update: Update): void {
		this.dispatch(bot, 'update', 'ReceiveUpdate', { update });
	}

	deliverInline(bot: BotRecord, inline: InlineMessage): void {
		this.dispatch(bot, 'inline_message', 'ReceiveInlineMessage', { inline_message: inline });
	}

	private dispatch(bot: BotRecord, kind: 'update' | 'inline_message', endpointType: UpdateEndpointType, body: WebhookBody): void {
		if (this.closed) return;
		const endpoint = bot.endpoints.get(endpointType);
		if (!endpoint) {
			// Updates without a webhook simply wait in the getUpdates log; an inline tap is lost, so say so.
			if (kind === 'inline_message') {
				this.log.push(this.record(bot, kind, endpointType, null, body, false, 'no ReceiveInlineMessage endpoint registered'));
			}
			return;
		}
		const url = this.config().appendEndpointSuffix ? withSuffix(endpoint.url, SUFFIX[kind]) : endpoint.url;
		const copies = this.config().duplicateDeliveries || this.takeDuplicateFault() ? 2 : 1;
		for (let copy = 0; copy < copies; copy++) {
			const record = this.record(bot, kind, endpointType, url, body, copy > 0);
			this.log.push(record);
			this.enqueue(bot.bot_id, () => this.post(record));
		}
	}

	private record(
		bot: BotRecord,
		kind: 'update' | 'inline_message',
		endpointType: UpdateEndpointType,
		url: string | null,
		body: WebhookBody,
		duplicate: boolean,
		error?: string,
	): DeliveryRecord {
		return {
			id: this.nextId++,
			botId: bot.bot_id,
			kind,
			endpointType,
			url,
			body,
			delivered: false,
			httpStatus: null,
			duplicate,
			at: Date.now(),
			...(error ? { error } : {}),
		};
	}

	private enqueue(key: string, task: () => Promise<void>): void {
		const previous = this.chains.get(key) ?? Promise.resolve();
		const next = previous.then(task, task);
		this.chains.set(key, next);
		void next.then(() => {
			if (this.chains.get(key) === next) this.chains.delete(key);
		});
	}

	private post(record: DeliveryRecord): Promise<void> {
		if (this.closed) {
			record.error = 'sandbox closed';
			return Promise.resolve();
		}
		const started = Date.now();
		const payload = Buffer.from(toWireJson(record.body, this.config().bareNumericIds));
		return new Promise<void>((resolve) => {
			let finished = false;
			const finish = (error?: string) => {
				if (finished) return;
				finished = true;
				if (error) record.error = error;
				record.durationMs = Date.now() - started;
				this.inFlight.delete(request);
				resolve();
			};
			const url = record.url as string;
			const transport = url.startsWith('https:') ? https : http;
			const request = transport.request(url, {
				method: 'POST',
				agent: false,
				timeout: this.config().webhookTimeoutMs,
				headers: { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) },
			});
			this.inFlight.add(request);
			request.on('response', (response) => {
				record.httpStatus = response.statusCode ?? null;
				const chunks: Buffer[] = [];
				let size = 0;
				response.on('data', (chunk: Buffer) => {
					size += chunk.length;
					if (size <= 4096) chunks.push(chunk);
				});
				response.on('end', () => {
					record.responseBody = Buffer.concat(chunks).toString('utf8').slice(0, 4096);
					record.delivered = record.httpStatus !== null && record.httpStatus >= 200 && record.httpStatus < 300;
					finish(record.delivered ? undefined : `receiver answered HTTP ${record.httpStatus}`);
				});
				response.on('error', (error) => finish(error.message));
			});
			request.on('timeout', () => request.destroy(new Error(`no answer within ${this.config().webhookTimeoutMs} ms`)));
			request.on('error', (error) => finish(error.message));
			request.end(payload);
		});
	}

	/** Resolves once every queued delivery, including ones queued meanwhile, has finished. */
	async settled(): Promise<void> {
		while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
	}

	clearLog(): void {
		this.log.length = 0;
	}

	close(): void {
		this.closed = true;
		for (const request of this.inFlight) request.destroy(new Error('sandbox closed'));
	}
}

function withSuffix(address: string, suffix: string): string {
	const url = new URL(address);
	url.pathname = url.pathname.replace(/\/+$/, '') + suffix;
	return url.toString();
}

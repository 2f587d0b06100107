/**
 * The live event stream behind the chat page: `GET /_sandbox/events`, Server-Sent Events.
 *
 * The state is changed in many places (API methods, user actions, world building, webhook deliveries
 * finishing later), and none of them announces what it did. Rather than thread a notification through
 * every one of them, the stream compares the world with what it last told its clients and sends the
 * difference: after every HTTP request the sandbox answers (`poke()`), and on a short timer for changes
 * made in-process or asynchronously. Nothing is watched while no client is connected, so tests and
 * benchmarks without a page pay nothing.
 *
 * Events (each `data:` is JSON):
 * - `hello` {} on connect (clients load the state after it, so nothing falls between load and stream);
 * - `message` {chat_id, message}: a new message, the bot's or a person's;
 * - `message-edited` {chat_id, message}: text, formatting or inline keypad changed;
 * - `message-deleted` {chat_id, message_id};
 * - `chat` {chat}: a chat appeared or changed (chat keypad, bans, members, bot stopped/started);
 * - `bot` {bot}: a bot appeared or changed (commands, endpoints; never the token);
 * - `user` {user}: a user appeared;
 * - `delivery` {delivery}: a webhook delivery was queued or finished (e.g. an inline tap reaching the bot);
 * - `reset` {}: the world was replaced (`reset()`); clients reload everything.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { chatSnapshot, messageSnapshot } from '../snapshots';
import type { ChatRecord, SandboxState } from '../state';
import type { DeliveryRecord } from '../webhooks';

/** What the stream watches; the sandbox provides it. */
export interface EventsContext {
	/** The live state (a new object after a reset). */
	readonly state: SandboxState;
	/** The webhook delivery log, oldest first. */
	readonly webhooks: { readonly log: readonly DeliveryRecord[] };
}

/** How often the world is compared while a page is open; pokes after HTTP requests come sooner. */
const POLL_MS = 250;
/** A comment line this often keeps idle connections (and proxies in between) from timing out. */
const HEARTBEAT_MS = 15_000;

interface Baseline {
	state: SandboxState;
	/** chat id → message id → JSON of the stored message. */
	messages: Map<string, Map<string, string>>;
	chats: Map<string, string>;
	bots: Map<string, string>;
	users: Set<string>;
	/** Highest delivery id already announced; ids only grow, even across clearDeliveries(). */
	lastDeliveryId: number;
	/** Deliveries announced while still in flight, with what was announced. */
	pendingDeliveries: Map<DeliveryRecord, string>;
}

export class SandboxEvents {
	readonly #sandbox: EventsContext;
	readonly #clients = new Set<ServerResponse>();
	#baseline: Baseline | null = null;
	#seq = 0;
	#scheduled = false;
	#timer: NodeJS.Timeout | undefined;
	#heartbeat: NodeJS.Timeout | undefined;

	constructor(sandbox: EventsContext) {
		this.#sandbox = sandbox;
	}

	get clientCount(): number {
		return this.#clients.size;
	}

	subscribe(req: IncomingMessage, res: ServerResponse): void {
		req.resume();
		res.writeHead(200, {
			'Content-Type': 'text/event-stream; charset=utf-8',
			'Cache-Control': 'no-cache, no-transform',
			Connection: 'keep-alive',
			'Access-Control-Allow-Origin': '*',
			// Stops reverse proxies such as nginx from holding events back in a buffer.
			'X-Accel-Buffering': 'no',
		});
		res.socket?.setNoDelay(true);
		// Reconnect fast after a restart of the sandbox.
		res.write('retry: 1000\n\n');
		if (this.#clients.size === 0) this.start();
		// Compare first, so the new client's baseline is now and earlier changes go only to earlier clients.
		this.check();
		this.#clients.add(res);
		this.write(res, 'hello', {});
		res.on('close', () => {
			this.#clients.delete(res);
			if (this.#clients.size === 0) this.stop();
		});
	}

	/** Something may have changed: compare soon (coalesced, so a burst of requests costs one comparison). */
	poke(): void {
		if (this.#clients.size === 0 || this.#scheduled) return;
		this.#scheduled = true;
		setImmediate(() => {
			this.#scheduled = false;
			this.check();
		});
	}

	/** Ends every stream (the sandbox is closing). */
	close(): void {
		for (const res of this.#clients) res.end();
		this.#clients.clear();
		this.stop();
	}

	private start(): void {
		this.#baseline = null;
		this.#timer = setInterval(() => this.check(), POLL_MS).unref();
		this.#heartbeat = setInterval(() => {
			for (const res of this.#clients) res.write(': ping\n\n');
		}, HEARTBEAT_MS).unref();
	}

	private stop(): void {
		clearInterval(this.#timer);
		clearInterval(this.#heartbeat);
		this.#timer = undefined;
		this.#heartbeat = undefined;
		this.#baseline = null;
	}

	private broadcast(event: string, data: unknown): void {
		for (const res of this.#clients) this.write(res, event, data);
	}

	private write(res: ServerResponse, event: string, data: unknown): void {
		if (res.destroyed || res.writableEnded) return;
		// JSON.stringify never emits a raw newline, so one `data:` line always holds the whole payload.
		res.write(`id: ${++this.#seq}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
	}

	/** Compares the world with the baseline, announces the differences and makes the world the new baseline. */
	check(): void {
		const state = this.#sandbox.state;
		const previous = this.#baseline;
		if (previous && previous.state !== state) {
			this.#baseline = null;
			this.broadcast('reset', {});
		}
		const baseline = this.#baseline ?? this.freshBaseline(state);
		const announce = this.#baseline !== null;
		this.#baseline = baseline;

		for (const user of state.users.values()) {
			if (baseline.users.has(user.user_id)) continue;
			baseline.users.add(user.user_id);
			if (announce) this.broadcast('user', { user: { ...user } });
		}

		for (const bot of state.bots.values()) {
			const view = {
				bot_id: bot.bot_id,
				bot_title: bot.bot_title,
				username: bot.username,
				description: bot.description,
				start_message: bot.start_message,
				commands: bot.commands.map((command) => ({ ...command })),
				endpoints: [...bot.endpoints.values()].map((endpoint) => ({ type: endpoint.type, url: endpoint.url })),
			};
			const print = JSON.stringify(view);
			if (baseline.bots.get(bot.bot_id) === print) continue;
			baseline.bots.set(bot.bot_id, print);
			if (announce) this.broadcast('bot', { bot: view });
		}

		for (const chat of state.chats.values()) {
			// The chat event comes before its messages, so a client never sees a message of an unknown chat.
			const snapshot = chatSnapshot(state, chat);
			const { message_count: _count, ...stable } = snapshot;
			const print = JSON.stringify(stable);
			if (baseline.chats.get(chat.chat_id) !== print) {
				baseline.chats.set(chat.chat_id, print);
				if (announce) this.broadcast('chat', { chat: snapshot });
			}
			this.diffMessages(chat, baseline, announce);
		}

		this.diffDeliveries(baseline, announce);
	}

	private freshBaseline(state: SandboxState): Baseline {
		return {
			state,
			messages: new Map(),
			chats: new Map(),
			bots: new Map(),
			users: new Set(),
			// Deliveries made before the page connected are history, not news.
			lastDeliveryId: this.#sandbox.webhooks.log.at(-1)?.id ?? 0,
			pendingDeliveries: new Map(),
		};
	}

	private diffMessages(chat: ChatRecord, baseline: Baseline, announce: boolean): void {
		let known = baseline.messages.get(chat.chat_id);
		if (!known) {
			known = new Map();
			baseline.messages.set(chat.chat_id, known);
		}
		for (const [messageId, stored] of chat.messages) {
			const print = JSON.stringify(stored);
			const before = known.get(messageId);
			if (before === print) continue;
			known.set(messageId, print);
			if (!announce) continue;
			this.broadcast(before === undefined ? 'message' : 'message-edited', { chat_id: chat.chat_id, message: messageSnapshot(stored) });
		}
		if (known.size === chat.messages.size) return;
		for (const messageId of [...known.keys()]) {
			if (chat.messages.has(messageId)) continue;
			known.delete(messageId);
			if (announce) this.broadcast('message-deleted', { chat_id: chat.chat_id, message_id: messageId });
		}
	}

	private diffDeliveries(baseline: Baseline, announce: boolean): void {
		const log = this.#sandbox.webhooks.log;
		for (const [record, print] of baseline.pendingDeliveries) {
			const now = deliveryPrint(record);
			if (now === print) continue;
			if (finished(record)) baseline.pendingDeliveries.delete(record);
			else baseline.pendingDeliveries.set(record, now);
			if (announce) this.broadcast('delivery', { delivery: record });
		}
		// New records sit at the end of the log, in id order.
		let first = log.length;
		while (first > 0 && log[first - 1].id > baseline.lastDeliveryId) first--;
		for (const record of log.slice(first)) {
			baseline.lastDeliveryId = record.id;
			if (!finished(record)) baseline.pendingDeliveries.set(record, deliveryPrint(record));
			if (announce) this.broadcast('delivery', { delivery: record });
		}
	}
}

function finished(record: DeliveryRecord): boolean {
	return record.url === null || record.durationMs !== undefined || record.error !== undefined;
}

function deliveryPrint(record: DeliveryRecord): string {
	return JSON.stringify([record.delivered, record.httpStatus, record.error, record.durationMs]);
}

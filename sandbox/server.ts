/**
 * The Rubika sandbox: an in-memory, stateful fake of the Rubika Bot API v3 on node:http.
 *
 *   const sandbox = await startSandbox();               // 127.0.0.1, a free port, the demo seed
 *   POST `${sandbox.baseUrl}/v3/${DEMO_BOT_TOKEN}/sendMessage`
 *   sandbox.requestsFor('sendMessage'); sandbox.userSendMessage({ userId, text: 'hi' }); await sandbox.close();
 *
 * Routes: `/v3/{token}/{method}` (API), `/upload/<slot>` and `/files/<id>/<name>` (files, no token),
 * `/_sandbox/…` (admin API, see admin.ts and README.md), and the chat page: `/`, `/chat`, `/web/…`,
 * `/_sandbox/events` (see web/README.md).
 */
import http from 'node:http';
import type { Socket } from 'node:net';

import type { BotCommand, InlineMessage, Keypad, Sticker, Update } from '../nodes/shared/types';
import type { SyntheticUpdatesInput, UserMessageInput, UserMessageRef } from './actions';
import * as actions from './actions';
import { handleAdmin } from './admin';
import type { RequestLogEntry } from './api';
import { handleApiRequest } from './api';
import type { SandboxConfig, SandboxConfigPatch } from './config';
import { applyConfigPatch, defaultConfig } from './config';
import { handleDownload, handleUpload } from './files';
import type { ActiveFault, FaultSpec } from './faults';
import { FaultQueue, RateLimiter } from './faults';
import { send } from './http';
import type { DemoInfo, SeedName } from './seed';
import { applySeed, demoInfo } from './seed';
import type { BotSnapshot, ChatSnapshot, SandboxMessage } from './snapshots';
import { botSnapshot, chatSnapshot, messageSnapshot } from './snapshots';
import type { EndpointRecord, FileRecord, NewBot, NewGroupOrChannel, NewUser, UserRecord } from './state';
import { SandboxState } from './state';
import type { DeliveryRecord } from './webhooks';
import { WebhookDispatcher } from './webhooks';
import { SandboxEvents } from './web/events';
import { handleWeb, isWebPath } from './web/serve';

/** What a link-button tap answers: the address to open, or the channel that was joined. */
export type LinkTapResult =
	| { type: 'url'; url: string; buttonId: string }
	| { type: 'joinchannel'; username: string; askJoin: boolean; buttonId: string; chat: ChatSnapshot };

export interface SandboxOptions extends SandboxConfigPatch {
	/** Default 0: any free port. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Default 'demo' (see seed.ts); 'empty' for no bots, users or chats. */
	seed?: SeedName;
	/** Base of upload_url and download_url when clients reach the sandbox by another address. */
	publicBaseUrl?: string;
	/** Milliseconds since the epoch; message times and update_time come from it. */
	clock?: () => number;
}

const START_ONLY_KEYS = ['port', 'host', 'seed', 'publicBaseUrl', 'clock'] as const;

export async function startSandbox(options: SandboxOptions = {}): Promise<RubikaSandbox> {
	const sandbox = new RubikaSandbox(options);
	await sandbox.listen();
	return sandbox;
}

export class RubikaSandbox {
	/**
	 * Plain own properties, set once listening, so launchers that copy the returned object's data
	 * (scripts/lib/sandbox-child.cjs) find the address and the demo ids. Internals are #private and
	 * stay out of such copies.
	 */
	url = '';
	demo: DemoInfo | null = null;
	readonly config: SandboxConfig = defaultConfig();
	readonly faults = new FaultQueue();
	readonly rateLimiter = new RateLimiter();
	readonly webhooks: WebhookDispatcher;
	#currentState!: SandboxState;
	readonly #log: RequestLogEntry[] = [];
	#requestSeq = 0;
	readonly #server: http.Server;
	readonly #sockets = new Set<Socket>();
	#boundPort = 0;
	readonly #host: string;
	readonly #seed: SeedName;
	readonly #clock: () => number;
	readonly #publicBaseUrl: string | undefined;
	readonly #options: SandboxOptions;
	readonly #events = new SandboxEvents(this);

	constructor(options: SandboxOptions = {}) {
		this.#options = options;
		const patch: Record<string, unknown> = { ...options };
		for (const key of START_ONLY_KEYS) delete patch[key];
		applyConfigPatch(this.config, patch);
		this.#host = options.host ?? '127.0.0.1';
		this.#seed = options.seed ?? 'demo';
		this.#clock = options.clock ?? Date.now;
		this.#publicBaseUrl = options.publicBaseUrl?.replace(/\/+$/, '');
		this.webhooks = new WebhookDispatcher(
			() => this.config,
			() => this.faults.take({ kind: 'delivery' }) !== undefined,
		);
		this.resetState(this.#seed);
		this.#server = http.createServer((req, res) => {
			this.route(req, res)
				.catch((error: unknown) => {
					console.error('[rubika-sandbox] request failed', error);
					send(res, 500, JSON.stringify({ status: 'SANDBOX_INTERNAL_ERROR', dev_message: String(error) }));
				})
				// Any request may have changed the world: tell open chat pages (a no-op when none is open).
				.finally(() => this.#events.poke());
		});
		this.#server.on('connection', (socket) => {
			this.#sockets.add(socket);
			socket.on('close', () => this.#sockets.delete(socket));
		});
	}

	async listen(): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			this.#server.once('error', reject);
			this.#server.listen(this.#options.port ?? 0, this.#host, () => {
				this.#server.off('error', reject);
				resolve();
			});
		});
		const address = this.#server.address();
		this.#boundPort = typeof address === 'object' && address ? address.port : 0;
		this.url = this.baseUrl;
	}

	/** Stops the server, cuts keep-alive connections and in-flight webhook deliveries. */
	async close(): Promise<void> {
		this.webhooks.close();
		this.#events.close();
		const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
		for (const socket of this.#sockets) socket.destroy();
		this.#server.closeAllConnections();
		if (this.#server.listening) await closed;
	}

	get port(): number {
		return this.#boundPort;
	}

	/** What goes in the credential's base URL: `http://127.0.0.1:PORT` (no /v3). */
	get baseUrl(): string {
		const host = this.#host === '0.0.0.0' || this.#host === '::' ? '127.0.0.1' : this.#host;
		return `http://${host.includes(':') ? `[${host}]` : host}:${this.#boundPort}`;
	}

	get state(): SandboxState {
		return this.#currentState;
	}

	/** `{baseUrl}/v3/{token}/{method}` */
	methodUrl(method: string, token: string): string {
		return `${this.baseUrl}/v3/${token}/${method}`;
	}

	uploadUrl(slotId: string): string {
		return `${this.#publicBaseUrl ?? this.baseUrl}/upload/${slotId}`;
	}

	downloadUrl(file: FileRecord): string {
		return `${this.#publicBaseUrl ?? this.baseUrl}/files/${file.file_id}/${encodeURIComponent(file.file_name)}`;
	}

	private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
		const path = url.pathname;
		let match: RegExpExecArray | null;
		if ((match = /^\/v3\/([^/]*)\/([^/]+)\/?$/.exec(path))) {
			await handleApiRequest(this, req, res, safeDecode(match[1]), safeDecode(match[2]));
		} else if ((match = /^\/upload\/([^/]+)\/?$/.exec(path))) {
			await handleUpload(this, req, res, safeDecode(match[1]));
		} else if ((match = /^\/files\/([^/]+)(?:\/[^/]*)?$/.exec(path))) {
			await handleDownload(this, req, res, safeDecode(match[1]));
		} else if (isWebPath(path)) {
			await handleWeb(this.#events, req, res, path);
		} else if (path === '/_sandbox' || path.startsWith('/_sandbox/')) {
			await handleAdmin(this, req, res, url);
		} else {
			req.resume();
			send(res, 404, 'Not Found', 'text/plain; charset=utf-8');
		}
	}

	// ----- configuration, reset -----

	/** Changes settings at run time; returns a copy of the whole configuration. Throws on unknown keys. */
	configure(patch: SandboxConfigPatch): SandboxConfig {
		applyConfigPatch(this.config, patch);
		return structuredClone(this.config);
	}

	/** Back to a fresh world (the start seed unless another is given); clears logs, faults and deliveries. Config stays. */
	reset(seed: SeedName = this.#seed): void {
		this.resetState(seed);
		this.clearRequests();
		this.clearFaults();
		this.clearDeliveries();
		this.rateLimiter.clear();
	}

	private resetState(seed: SeedName): void {
		const state = new SandboxState(this.config, this.#clock);
		state.listener = {
			onUpdate: (bot, update) => this.webhooks.deliverUpdate(bot, update),
			onInlineMessage: (bot, inline) => this.webhooks.deliverInline(bot, inline),
		};
		applySeed(state, seed);
		this.#currentState = state;
		this.demo = seed === 'demo' ? demoInfo() : null;
	}

	// ----- request log -----

	/** Used by the routes: starts a log entry, completed when the answer goes out. */
	logRequest(entry: Pick<RequestLogEntry, 'method' | 'path' | 'body' | 'tokenValid' | 'botId' | 'at'>): RequestLogEntry {
		const full: RequestLogEntry = { seq: ++this.#requestSeq, ...entry, httpStatus: null, status: null, durationMs: null };
		this.#log.push(full);
		if (this.#log.length > this.config.requestLogLimit) this.#log.splice(0, this.#log.length - this.config.requestLogLimit);
		return full;
	}

	/** Every request received, oldest first (API methods, plus 'upload' and 'download'). */
	get requests(): RequestLogEntry[] {
		return this.#log.slice();
	}

	requestsFor(method: string): RequestLogEntry[] {
		return this.#log.filter((entry) => entry.method === method);
	}

	clearRequests(): void {
		this.#log.length = 0;
	}

	/** Waits until `count` requests for `method` have been answered (or dropped); rejects after `timeoutMs`. */
	async waitForRequest(method: string, options: { count?: number; timeoutMs?: number } = {}): Promise<RequestLogEntry[]> {
		const count = options.count ?? 1;
		const deadline = Date.now() + (options.timeoutMs ?? 5_000);
		for (;;) {
			const done = this.requestsFor(method).filter((entry) => entry.durationMs !== null);
			if (done.length >= count) return done;
			if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} ${method} request(s); saw ${done.length}`);
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
	}

	// ----- faults -----

	/** Queues a fault; faults are consumed in order, one per matching request. See faults.ts for kinds. */
	injectFault(spec: FaultSpec): ActiveFault {
		return this.faults.add(spec);
	}

	pendingFaults(): ActiveFault[] {
		return this.faults.list();
	}

	clearFaults(): void {
		this.faults.clear();
	}

	// ----- webhooks -----

	get deliveries(): DeliveryRecord[] {
		return this.webhooks.log.slice();
	}

	deliveriesSettled(): Promise<void> {
		return this.webhooks.settled();
	}

	clearDeliveries(): void {
		this.webhooks.clearLog();
	}

	// ----- building the world -----

	addBot(input: NewBot = {}): BotSnapshot {
		return botSnapshot(this.state, this.state.addBot(input).bot_id);
	}

	addUser(input: NewUser): UserRecord {
		return { ...this.state.addUser(input) };
	}

	addGroup(input: NewGroupOrChannel): ChatSnapshot {
		return chatSnapshot(this.state, this.state.addGroup(input));
	}

	addChannel(input: NewGroupOrChannel): ChatSnapshot {
		return chatSnapshot(this.state, this.state.addChannel(input));
	}

	/** The private chat of a bot and a user, created silently if missing (no StartedBot; see userStartBot). */
	privateChat(botId: string, userId: string, chatId?: string): ChatSnapshot {
		return chatSnapshot(this.state, this.state.privateChat(botId, userId, chatId));
	}

	/**
	 * `count` new users, each with a private chat with the bot (the default bot unless `botId`): the audience
	 * of a broadcast. Returns the chat ids in creation order.
	 */
	addRecipients(count: number, botId = this.state.defaultBot().bot_id): string[] {
		const chatIds: string[] = [];
		for (let index = 0; index < count; index++) {
			const user = this.state.addUser({ first_name: `Recipient ${index + 1}` });
			chatIds.push(this.state.privateChat(botId, user.user_id).chat_id);
		}
		return chatIds;
	}

	/** How many messages the bot has in each of these chats (a broadcast's audit: 1 each is exactly once). */
	botMessageCounts(chatIds: readonly string[]): number[] {
		return chatIds.map((chatId) => {
			let count = 0;
			for (const message of this.state.requireChat(chatId).messages.values()) if (message.sender_type === 'Bot') count++;
			return count;
		});
	}

	/** Adds a member or changes a role (an admin adding someone by hand also lifts a ban); null removes. */
	setRole(chatId: string, memberId: string, role: 'admin' | 'member' | null): ChatSnapshot {
		this.state.setRole(chatId, memberId, role);
		return this.chat(chatId);
	}

	/** Puts a file in the store as if someone had uploaded it (e.g. for a user to send). */
	addFile(input: { bytes: Buffer; name: string; mimeType?: string; type?: FileRecord['type'] }): { file_id: string; download_url: string } {
		const file = this.state.addFile({ bytes: input.bytes, file_name: input.name, mime_type: input.mimeType, type: input.type });
		return { file_id: file.file_id, download_url: this.downloadUrl(file) };
	}

	// ----- reading the world -----

	snapshot(): { bots: BotSnapshot[]; users: UserRecord[]; chats: ChatSnapshot[] } {
		return { bots: this.bots(), users: this.users(), chats: this.chats() };
	}

	bots(): BotSnapshot[] {
		return [...this.state.bots.keys()].map((id) => botSnapshot(this.state, id));
	}

	bot(botId: string): BotSnapshot {
		return botSnapshot(this.state, botId);
	}

	users(): UserRecord[] {
		return [...this.state.users.values()].map((user) => ({ ...user }));
	}

	chats(): ChatSnapshot[] {
		return [...this.state.chats.values()].map((chat) => chatSnapshot(this.state, chat));
	}

	chat(chatId: string): ChatSnapshot {
		return chatSnapshot(this.state, this.state.requireChat(chatId));
	}

	/** Every message in a chat, the bot's included, oldest first. */
	messages(chatId: string): SandboxMessage[] {
		return [...this.state.requireChat(chatId).messages.values()].map(messageSnapshot);
	}

	message(chatId: string, messageId: string): SandboxMessage | undefined {
		const message = this.state.requireChat(chatId).messages.get(messageId);
		return message && messageSnapshot(message);
	}

	/** The newest message in a chat (handy after a bot call). */
	lastMessage(chatId: string): SandboxMessage | undefined {
		return this.messages(chatId).at(-1);
	}

	chatKeypad(chatId: string): Keypad | null {
		return this.chat(chatId).chat_keypad;
	}

	commands(botId?: string): BotCommand[] {
		return this.bot(botId ?? this.state.defaultBot().bot_id).commands;
	}

	endpoints(botId?: string): EndpointRecord[] {
		return this.bot(botId ?? this.state.defaultBot().bot_id).endpoints;
	}

	bans(chatId: string): string[] {
		return this.chat(chatId).banned;
	}

	/** The bot's retained update log, oldest first (what getUpdates without offset_id would page through). */
	updates(botId?: string): Update[] {
		const bot = botId ? this.state.requireBot(botId) : this.state.defaultBot();
		return structuredClone(bot.updates.all());
	}

	file(fileId: string): FileRecord | undefined {
		return this.state.files.get(fileId);
	}

	/** The sticker catalogue sendSticker picks from (DEMO_STICKERS in every seed). */
	stickers(): Sticker[] {
		return structuredClone([...this.state.stickers.values()]);
	}

	// ----- what users do -----

	userSendMessage(input: UserMessageInput): SandboxMessage {
		return messageSnapshot(actions.userSendMessage(this.state, input));
	}

	userEditMessage(input: UserMessageRef & { text: string }): SandboxMessage {
		return messageSnapshot(actions.userEditMessage(this.state, input));
	}

	userDeleteMessage(input: UserMessageRef): void {
		actions.userDeleteMessage(this.state, input);
	}

	userTapInlineButton(input: UserMessageRef & { buttonId: string }): InlineMessage {
		return actions.userTapInlineButton(this.state, input);
	}

	userTapChatKeypadButton(input: { userId: string; chatId?: string; botId?: string; buttonId: string }): SandboxMessage {
		return messageSnapshot(actions.userTapChatKeypadButton(this.state, input));
	}

	userStartBot(input: { userId: string; botId?: string; startId?: string; sendStartMessage?: boolean }): ChatSnapshot {
		return chatSnapshot(this.state, actions.userStartBot(this.state, input));
	}

	userStopBot(input: { userId: string; botId?: string }): ChatSnapshot {
		return chatSnapshot(this.state, actions.userStopBot(this.state, input));
	}

	/** Joins a group or channel by `chatId`, or by `username` (what a joinchannel link button names). */
	userJoinChat(input: { userId: string; chatId?: string; username?: string }): ChatSnapshot {
		return chatSnapshot(this.state, actions.userJoinChat(this.state, input));
	}

	/**
	 * A tap on a link button of an inline keypad (`messageId`) or of the chat keypad; the bot hears nothing.
	 * `url`: answers the address to open. `joinchannel`: joins the channel with that username.
	 */
	userTapLinkButton(input: { userId: string; chatId?: string; botId?: string; messageId?: string; buttonId: string }): LinkTapResult {
		const tap = actions.userTapLinkButton(this.state, input);
		if (tap.type === 'url') return tap;
		return { ...tap, chat: chatSnapshot(this.state, tap.chat) };
	}

	/** A payment of the user to the bot changes state: the bot gets an UpdatedPayment update. */
	paymentUpdate(input: { userId: string; botId?: string; paymentId: string; status: 'Paid' | 'NotPaid' }): Update {
		return structuredClone(actions.paymentUpdate(this.state, input));
	}

	/** Fast backlog for paging tests: `count` NewMessage updates, no webhook delivery unless asked. */
	appendSyntheticUpdates(input: SyntheticUpdatesInput): void {
		actions.appendSyntheticUpdates(this.state, input);
	}
}

function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

/**
 * The Rubika sandbox: an in-memory, stateful fake of the Rubika Bot API v3 on node:http.
 *
 *   const sandbox = await startSandbox();               // 127.0.0.1, a free port, the demo seed
 *   POST `${sandbox.baseUrl}/v3/${DEMO_BOT_TOKEN}/sendMessage`
 *   sandbox.requestsFor('sendMessage'); sandbox.userSendMessage({ userId, text: 'hi' }); await sandbox.close();
 *
 * RubikaSandbox is the in-process test API: the state part (testApi.ts) plus configuration, reset, the request log
 * (requestLog.ts), faults (faults.ts) and webhook deliveries (webhooks.ts). It owns those parts and hands
 * each route module only what that module's context names (httpServer.ts wires the routes).
 *
 * With `stateFile` the state outlives the process (stateFile.ts, savedState.ts): `npm start` keeps its demo
 * there, so what n8n saved about the bot (cursors, registered webhooks) still holds after a restart.
 */
import type { AdminContext } from './admin';
import type { ApiContext } from './api';
import type { SandboxConfig, SandboxConfigPatch } from './config';
import { applyConfigPatch, defaultConfig } from './config';
import type { FilesContext } from './files';
import type { ActiveFault, FaultSpec } from './faults';
import { FaultQueue, RateLimiter } from './faults';
import { SandboxHttpServer } from './httpServer';
import type { RequestLogEntry } from './requestLog';
import { RequestLog } from './requestLog';
import type { DemoInfo, SeedName } from './seed';
import { applySeed, demoInfo } from './seed';
import { restoreSandbox, saveSandbox } from './savedState';
import type { FileRecord } from './state';
import { SandboxState } from './state';
import type { StateFileStatus } from './stateFile';
import { StateFile } from './stateFile';
import type { DeliveryRecord } from './webhooks';
import { WebhookDispatcher } from './webhooks';
import type { EventsContext } from './web/events';
import { SandboxEvents } from './web/events';
import { SandboxTestApi } from './testApi';

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
	/**
	 * Keep the state in this JSON file: restored from it at start when it exists (else built from `seed`),
	 * saved a moment after every HTTP request that changed it and at close(). Without it the state lives in
	 * memory only, as tests want.
	 */
	stateFile?: string;
}

const START_ONLY_KEYS = ['port', 'host', 'seed', 'publicBaseUrl', 'clock', 'stateFile'] as const;

export async function startSandbox(options: SandboxOptions = {}): Promise<RubikaSandbox> {
	const sandbox = new RubikaSandbox(options);
	await sandbox.listen();
	return sandbox;
}

export class RubikaSandbox extends SandboxTestApi implements AdminContext {
	/**
	 * Plain own properties, set once listening, so launchers that copy the returned object's data
	 * (tooling/sandbox-child.cjs) find the address and the demo ids. Internals are #private and
	 * stay out of such copies.
	 */
	url = '';
	demo: DemoInfo | null = null;
	/** Where the state is kept and whether it came from there; null without the stateFile option. */
	stateFile: StateFileStatus | null = null;
	readonly config: SandboxConfig = defaultConfig();
	readonly #faults = new FaultQueue();
	readonly #rateLimiter = new RateLimiter();
	readonly #requestLog = new RequestLog(() => this.config.requestLogLimit);
	readonly #webhooks: WebhookDispatcher;
	readonly #events: SandboxEvents;
	readonly #http: SandboxHttpServer;
	#currentState!: SandboxState;
	/** The seed the current state was built from (a restored state keeps its own). */
	#stateSeed!: SeedName;
	readonly #stateFile: StateFile | undefined;
	#boundPort = 0;
	readonly #host: string;
	readonly #port: number;
	readonly #seed: SeedName;
	readonly #clock: () => number;
	readonly #publicBaseUrl: string | undefined;

	constructor(options: SandboxOptions = {}) {
		super();
		const patch: Record<string, unknown> = { ...options };
		for (const key of START_ONLY_KEYS) delete patch[key];
		applyConfigPatch(this.config, patch);
		this.#host = options.host ?? '127.0.0.1';
		this.#port = options.port ?? 0;
		this.#seed = options.seed ?? 'demo';
		this.#clock = options.clock ?? Date.now;
		this.#publicBaseUrl = options.publicBaseUrl?.replace(/\/+$/, '');
		this.#webhooks = new WebhookDispatcher(
			() => this.config,
			() => this.#faults.take({ kind: 'delivery' }) !== undefined,
		);
		if (options.stateFile !== undefined) {
			this.#stateFile = new StateFile(options.stateFile, () => JSON.stringify(saveSandbox(this.state, this.#stateSeed)));
		}
		const restored = this.#stateFile?.load((data) => restoreSandbox(data, this.config, this.#clock));
		if (restored) this.useState(restored.state, restored.seed);
		else this.resetState(this.#seed);
		this.stateFile = this.#stateFile?.status ?? null;

		// What the route modules may touch: one object, of which each module's context type shows it a part.
		const sandbox = this;
		const parts: ApiContext & FilesContext & EventsContext = {
			get state() {
				return sandbox.state;
			},
			config: this.config,
			requestLog: this.#requestLog,
			faults: this.#faults,
			rateLimiter: this.#rateLimiter,
			webhooks: this.#webhooks,
			uploadUrl: (slotId) => this.uploadUrl(slotId),
			downloadUrl: (file) => this.downloadUrl(file),
		};
		this.#events = new SandboxEvents(parts);
		this.#http = new SandboxHttpServer({
			api: parts,
			files: parts,
			web: { events: this.#events },
			admin: this,
			// Tell open chat pages whatever changed (a no-op when none is open; they compare for themselves), and
			// save a state that may have changed.
			afterRequest: (mayHaveChangedState) => {
				this.#events.poke();
				if (mayHaveChangedState) this.#stateFile?.changed();
			},
		});
	}

	async listen(): Promise<void> {
		this.#boundPort = await this.#http.listen(this.#port, this.#host);
		this.url = this.baseUrl;
	}

	/** Stops the server, cuts keep-alive connections and in-flight webhook deliveries; saves the state to the state file. */
	async close(): Promise<void> {
		this.#webhooks.close();
		this.#events.close();
		await this.#http.close();
		this.#stateFile?.close();
	}

	// ----- addresses -----

	get port(): number {
		return this.#boundPort;
	}

	/** What goes in the credential's base URL: `http://127.0.0.1:PORT` (no /v3). */
	get baseUrl(): string {
		const host = this.#host === '0.0.0.0' || this.#host === '::' ? '127.0.0.1' : this.#host;
		return `http://${host.includes(':') ? `[${host}]` : host}:${this.#boundPort}`;
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

	get state(): SandboxState {
		return this.#currentState;
	}

	// ----- configuration, reset -----

	/** Changes settings at run time; returns a copy of the whole configuration. Throws on unknown keys. */
	configure(patch: SandboxConfigPatch): SandboxConfig {
		applyConfigPatch(this.config, patch);
		return structuredClone(this.config);
	}

	/** Back to a fresh state (the start seed unless another is given); clears logs, faults and deliveries. Config stays. */
	reset(seed: SeedName = this.#seed): void {
		this.resetState(seed);
		this.clearRequests();
		this.clearFaults();
		this.clearDeliveries();
		this.#rateLimiter.clear();
	}

	private resetState(seed: SeedName): void {
		const state = new SandboxState(this.config, this.#clock);
		applySeed(state, seed);
		this.useState(state, seed);
	}

	private useState(state: SandboxState, seed: SeedName): void {
		state.listener = {
			onUpdate: (bot, update) => this.#webhooks.deliverUpdate(bot, update),
			onInlineMessage: (bot, inline) => this.#webhooks.deliverInline(bot, inline),
		};
		this.#currentState = state;
		this.#stateSeed = seed;
		this.demo = seed === 'demo' ? demoInfo() : null;
	}

	// ----- request log -----

	/** Every request received, oldest first (API methods, plus 'upload' and 'download'). */
	get requests(): RequestLogEntry[] {
		return this.#requestLog.all();
	}

	requestsFor(method: string): RequestLogEntry[] {
		return this.#requestLog.forMethod(method);
	}

	clearRequests(): void {
		this.#requestLog.clear();
	}

	/** Waits until `count` requests for `method` have been answered (or dropped); rejects after `timeoutMs`. */
	waitForRequest(method: string, options: { count?: number; timeoutMs?: number } = {}): Promise<RequestLogEntry[]> {
		return this.#requestLog.waitFor(method, options);
	}

	// ----- faults -----

	/** Queues a fault; faults are consumed in order, one per matching request. See faults.ts for kinds. */
	injectFault(spec: FaultSpec): ActiveFault {
		return this.#faults.add(spec);
	}

	pendingFaults(): ActiveFault[] {
		return this.#faults.list();
	}

	clearFaults(): void {
		this.#faults.clear();
	}

	// ----- webhooks -----

	get deliveries(): DeliveryRecord[] {
		return this.#webhooks.log.slice();
	}

	deliveriesSettled(): Promise<void> {
		return this.#webhooks.settled();
	}

	clearDeliveries(): void {
		this.#webhooks.clearLog();
	}
}

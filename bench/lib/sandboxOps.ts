/**
 * What a benchmark can ask of the sandbox in its own process, over IPC (see sandboxProcess.ts): the sandbox
 * launcher (tooling/sandbox-child.cjs --serve) calls `serve()` with the running sandbox.
 *
 * Why a separate process: the sandbox's memory (stored messages, a 50 MB uploaded file, the request log) must
 * not show up in the figures of the process under test, and on a 2-core machine the server should get its own
 * core rather than share an event loop with the client it is serving.
 */
import { DEMO_USERS } from '../../sandbox';
import type { RubikaSandbox, SandboxConfigPatch } from '../../sandbox';

interface Request {
	id: number;
	op: string;
	args?: unknown;
}

let sandbox: RubikaSandbox;

const OPS: Record<string, (args: never) => unknown> = {
	configure: (patch: SandboxConfigPatch) => {
		sandbox.configure(patch);
		return {};
	},
	/** A fresh demo world, empty request log, rate limiter forgotten; configuration stays. */
	reset: () => {
		sandbox.reset();
		return {};
	},
	/** A new bot with a new token (a rate-limit window of its own in the sandbox, a gate of its own in the node). */
	createBot: () => {
		const { bot_id: botId, token } = sandbox.addBot();
		return { botId, token };
	},
	/** `count` new users, each with a private chat with the bot (the demo bot unless `botId`); returns the chat ids. */
	createRecipients: ({ count, botId }: { count: number; botId?: string }) => ({ chatIds: sandbox.addRecipients(count, botId) }),
	/** How many messages the bot has in each of these chats, and which texts. */
	botMessages: ({ chatIds }: { chatIds: string[] }) =>
		chatIds.map((chatId) =>
			sandbox
				.messages(chatId)
				.filter((message) => message.sender_type === 'Bot')
				.map((message) => message.text ?? null),
		),
	/** The request log, summarised: per method, answers by status and how many the rate limiter refused. */
	requestStats: () => {
		const stats: Record<string, { total: number; byStatus: Record<string, number>; rateLimited: number; unanswered: number }> = {};
		for (const entry of sandbox.requests) {
			const method = (stats[entry.method] ??= { total: 0, byStatus: {}, rateLimited: 0, unanswered: 0 });
			method.total++;
			const status = entry.status ?? (entry.httpStatus === null ? 'none' : `HTTP ${entry.httpStatus}`);
			method.byStatus[status] = (method.byStatus[status] ?? 0) + 1;
			if (entry.fault === 'rateLimit') method.rateLimited++;
			if (entry.httpStatus === null) method.unanswered++;
		}
		return stats;
	},
	/**
	 * Per recipient, from the sandbox's own state and log: did the bot's message arrive exactly once, and
	 * was every TOO_REQUESTS answer for that chat followed by a delivery (retried) or not (lost)?
	 */
	deliveryAudit: ({ chatIds, method = 'sendMessage' }: { chatIds: string[]; method?: string }) => {
		const attempts = new Map<string, { requests: number; rateLimited: number; ok: number }>();
		for (const entry of sandbox.requestsFor(method)) {
			const chatId = (entry.body as { chat_id?: unknown } | null)?.chat_id;
			if (typeof chatId !== 'string') continue;
			const counts = attempts.get(chatId) ?? { requests: 0, rateLimited: 0, ok: 0 };
			counts.requests++;
			if (entry.fault === 'rateLimit') counts.rateLimited++;
			if (entry.status === 'OK') counts.ok++;
			attempts.set(chatId, counts);
		}
		const audit = {
			recipients: chatIds.length,
			deliveredOnce: 0,
			missing: 0,
			duplicated: 0,
			requests: 0,
			rateLimitedAnswers: 0,
			rateLimitedThenDelivered: 0,
			rateLimitedNeverDelivered: 0,
		};
		for (const chatId of chatIds) {
			const delivered = sandbox.messages(chatId).filter((message) => message.sender_type === 'Bot').length;
			if (delivered === 1) audit.deliveredOnce++;
			else if (delivered === 0) audit.missing++;
			else audit.duplicated++;
			const counts = attempts.get(chatId);
			if (!counts) continue;
			audit.requests += counts.requests;
			audit.rateLimitedAnswers += counts.rateLimited;
			if (counts.rateLimited > 0) {
				if (delivered > 0) audit.rateLimitedThenDelivered += counts.rateLimited;
				else audit.rateLimitedNeverDelivered += counts.rateLimited;
			}
		}
		return audit;
	},
	clearRequests: () => {
		sandbox.clearRequests();
		return {};
	},
	appendSyntheticUpdates: ({ count, userId }: { count: number; userId?: string }) => {
		sandbox.appendSyntheticUpdates({ count, userId: userId ?? DEMO_USERS.sara.user_id });
		return { pending: sandbox.state.defaultBot().updates.all().length };
	},
	file: ({ fileId }: { fileId: string }) => {
		const file = sandbox.file(fileId);
		return file ? { size: file.bytes.length, name: file.file_name, type: file.type } : null;
	},
	memory: () => process.memoryUsage(),
};

/** Answers the parent's `{ id, op, args }` requests with `{ id, result }` or `{ id, error }`. */
export function serve(running: RubikaSandbox): void {
	sandbox = running;
	process.on('message', (raw) => {
		const request = raw as Request;
		let reply: { id: number; result?: unknown; error?: string };
		try {
			const op = OPS[request.op];
			if (!op) throw new Error(`unknown op ${request.op}`);
			reply = { id: request.id, result: op((request.args ?? {}) as never) };
		} catch (error) {
			reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
		}
		process.send?.(reply);
	});
}

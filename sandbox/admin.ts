/**
 * The admin HTTP API under `/_sandbox/…`: everything a test can do in-process, for out-of-process users
 * (a real n8n end-to-end test, a browser chat page). Plain JSON in and out — not Rubika envelopes, so it
 * can never be mistaken for the fake service. Errors are `{ "error": "…" }` with a 4xx status.
 * CORS is open because it only ever listens on a developer's machine.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { FileType } from '../nodes/shared/types';
import { FILE_TYPES } from '../nodes/shared/types';
import type { SandboxConfig, SandboxConfigPatch } from './config';
import { ActionError } from './errors';
import type { ActiveFault, FaultSpec } from './faults';
import { readBody, send, sendJson } from './http';
import type { RequestLogEntry } from './requestLog';
import type { SeedName } from './seed';
import type { DeliveryRecord } from './webhooks';
import type { SandboxTestApi } from './testApi';

/**
 * What the admin routes touch: the sandbox's in-process test API, nothing beneath it (no state, no
 * queues), so HTTP and in-process callers do the same things the same way.
 */
export interface AdminContext
	extends Pick<
		SandboxTestApi,
		| 'snapshot'
		| 'bots'
		| 'bot'
		| 'addBot'
		| 'rotateToken'
		| 'updates'
		| 'appendSyntheticUpdates'
		| 'users'
		| 'addUser'
		| 'addRecipients'
		| 'botMessageCounts'
		| 'chats'
		| 'chat'
		| 'addGroup'
		| 'addChannel'
		| 'messages'
		| 'setRole'
		| 'stickers'
		| 'addFile'
		| 'userSendMessage'
		| 'userEditMessage'
		| 'userDeleteMessage'
		| 'userTapInlineButton'
		| 'userTapChatKeypadButton'
		| 'userTapLinkButton'
		| 'userAnswerButton'
		| 'userStartBot'
		| 'userStopBot'
		| 'userJoinChat'
		| 'paymentUpdate'
	> {
	configure(patch: SandboxConfigPatch): SandboxConfig;
	reset(seed?: SeedName): void;
	readonly requests: RequestLogEntry[];
	requestsFor(method: string): RequestLogEntry[];
	clearRequests(): void;
	readonly deliveries: DeliveryRecord[];
	deliveriesSettled(): Promise<void>;
	clearDeliveries(): void;
	pendingFaults(): ActiveFault[];
	injectFault(spec: FaultSpec): ActiveFault;
	clearFaults(): void;
}

interface RouteContext {
	sandbox: AdminContext;
	params: Record<string, string>;
	query: URLSearchParams;
	body: unknown;
	req: IncomingMessage;
}

interface Route {
	method: string;
	pattern: RegExp;
	keys: string[];
	raw: boolean;
	handler: (context: RouteContext) => unknown;
}

const routes: Route[] = [];

function route(method: string, path: string, handler: Route['handler'], raw = false): void {
	const keys: string[] = [];
	const pattern = new RegExp(
		'^/_sandbox' +
			path.replace(/:([a-zA-Z]+)/g, (_match, key: string) => {
				keys.push(key);
				return '([^/]+)';
			}) +
			'/?$',
	);
	routes.push({ method, pattern, keys, raw, handler });
}

function object(body: unknown): Record<string, unknown> {
	if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ActionError('the body must be a JSON object');
	return body as Record<string, unknown>;
}

/** Actions take the same camelCase inputs in-process and over HTTP. */
const ACTIONS: Record<string, (sandbox: AdminContext, input: never) => unknown> = {
	'send-message': (sandbox, input) => sandbox.userSendMessage(input),
	'edit-message': (sandbox, input) => sandbox.userEditMessage(input),
	'delete-message': (sandbox, input) => {
		sandbox.userDeleteMessage(input);
		return {};
	},
	'tap-inline-button': (sandbox, input) => sandbox.userTapInlineButton(input),
	'tap-chat-keypad-button': (sandbox, input) => sandbox.userTapChatKeypadButton(input),
	'start-bot': (sandbox, input) => sandbox.userStartBot(input),
	'stop-bot': (sandbox, input) => sandbox.userStopBot(input),
	'join-chat': (sandbox, input) => sandbox.userJoinChat(input),
	'tap-link-button': (sandbox, input) => sandbox.userTapLinkButton(input),
	'answer-button': (sandbox, input) => sandbox.userAnswerButton(input),
	'payment-update': (sandbox, input) => sandbox.paymentUpdate(input),
};

route('GET', '/health', () => ({ ok: true }));
route('GET', '/state', ({ sandbox }) => sandbox.snapshot());
route('GET', '/config', ({ sandbox }) => sandbox.configure({}));
route('PATCH', '/config', ({ sandbox, body }) => sandbox.configure(object(body)));
route('POST', '/reset', ({ sandbox, body }) => {
	const seed = (body as { seed?: unknown } | null)?.seed;
	if (seed !== undefined && seed !== 'demo' && seed !== 'empty') throw new ActionError('seed must be demo or empty');
	sandbox.reset(seed as SeedName | undefined);
	return { ok: true };
});

route('GET', '/bots', ({ sandbox }) => sandbox.bots());
route('POST', '/bots', ({ sandbox, body }) => sandbox.addBot(object(body)));
route('GET', '/bots/:botId', ({ sandbox, params }) => sandbox.bot(params.botId));
route('POST', '/bots/:botId/token', ({ sandbox, params, body }) => {
	const { token } = object(body ?? {});
	if (token !== undefined && typeof token !== 'string') throw new ActionError('token must be a string');
	return sandbox.rotateToken(params.botId, token);
});
route('GET', '/bots/:botId/updates', ({ sandbox, params }) => ({ updates: sandbox.updates(params.botId) }));
route('POST', '/bots/:botId/synthetic-updates', ({ sandbox, params, body }) => {
	const input = object(body);
	sandbox.appendSyntheticUpdates({ ...input, botId: params.botId } as never);
	return { ok: true };
});

route('GET', '/users', ({ sandbox }) => sandbox.users());
route('POST', '/users', ({ sandbox, body }) => sandbox.addUser(object(body) as never));

route('POST', '/recipients', ({ sandbox, body }) => {
	const { count, botId } = object(body);
	if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 100_000) throw new ActionError('count must be a whole number from 1 to 100000');
	if (botId !== undefined && typeof botId !== 'string') throw new ActionError('botId must be a string');
	return { chatIds: sandbox.addRecipients(count as number, botId) };
});
route('POST', '/bot-message-counts', ({ sandbox, body }) => {
	const { chatIds } = object(body);
	if (!Array.isArray(chatIds) || !chatIds.every((id) => typeof id === 'string')) throw new ActionError('chatIds must be a list of chat ids');
	return { counts: sandbox.botMessageCounts(chatIds) };
});

route('GET', '/chats', ({ sandbox }) => sandbox.chats());
route('POST', '/chats', ({ sandbox, body }) => {
	const input = object(body);
	if (input.type === 'Group') return sandbox.addGroup(input as never);
	if (input.type === 'Channel') return sandbox.addChannel(input as never);
	throw new ActionError('type must be Group or Channel');
});
route('GET', '/chats/:chatId', ({ sandbox, params }) => sandbox.chat(params.chatId));
route('GET', '/chats/:chatId/messages', ({ sandbox, params }) => sandbox.messages(params.chatId));
route('PUT', '/chats/:chatId/members/:memberId', ({ sandbox, params, body }) => {
	const role = object(body).role;
	if (role !== 'admin' && role !== 'member' && role !== null) throw new ActionError('role must be admin, member or null');
	return sandbox.setRole(params.chatId, params.memberId, role);
});

route('GET', '/stickers', ({ sandbox }) => sandbox.stickers());

route(
	'POST',
	'/files',
	({ sandbox, req, body }) => {
		const type = (req.headers['x-file-type'] as string | undefined) ?? 'File';
		if (!(FILE_TYPES as readonly string[]).includes(type)) throw new ActionError(`X-File-Type must be one of ${FILE_TYPES.join(', ')}`);
		const name = req.headers['x-file-name'];
		if (typeof name !== 'string' || !name) throw new ActionError('X-File-Name (URI-encoded) is required');
		return sandbox.addFile({
			bytes: body as Buffer,
			name: decodeURIComponent(name),
			mimeType: req.headers['content-type'],
			type: type as FileType,
		});
	},
	true,
);

route('POST', '/actions/:action', ({ sandbox, params, body }) => {
	const action = Object.hasOwn(ACTIONS, params.action) ? ACTIONS[params.action] : undefined;
	if (!action) throw new ActionError(`unknown action ${params.action}; known: ${Object.keys(ACTIONS).join(', ')}`, 404);
	return action(sandbox, object(body) as never) ?? {};
});

route('GET', '/requests', ({ sandbox, query }) => {
	const method = query.get('method');
	return method ? sandbox.requestsFor(method) : sandbox.requests;
});
route('DELETE', '/requests', ({ sandbox }) => {
	sandbox.clearRequests();
	return { ok: true };
});

route('GET', '/deliveries', ({ sandbox }) => sandbox.deliveries);
route('DELETE', '/deliveries', ({ sandbox }) => {
	sandbox.clearDeliveries();
	return { ok: true };
});
route('POST', '/deliveries/settle', async ({ sandbox }) => {
	await sandbox.deliveriesSettled();
	return sandbox.deliveries;
});

route('GET', '/faults', ({ sandbox }) => sandbox.pendingFaults());
route('POST', '/faults', ({ sandbox, body }) => sandbox.injectFault(object(body) as unknown as FaultSpec));
route('DELETE', '/faults', ({ sandbox }) => {
	sandbox.clearFaults();
	return { ok: true };
});

const CORS = {
	'Access-Control-Allow-Origin': '*',
	'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
	'Access-Control-Allow-Headers': 'Content-Type, X-File-Name, X-File-Type',
};

export async function handleAdmin(sandbox: AdminContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
	for (const [name, value] of Object.entries(CORS)) res.setHeader(name, value);
	if (req.method === 'OPTIONS') {
		send(res, 204, '');
		return;
	}
	const candidates = routes.filter((candidate) => candidate.pattern.test(url.pathname));
	const match = candidates.find((candidate) => candidate.method === req.method);
	if (!match) {
		req.resume();
		if (candidates.length) sendJson(res, 405, { error: `${req.method} not allowed on ${url.pathname}` });
		else sendJson(res, 404, { error: `no admin route ${url.pathname}` });
		return;
	}
	const values = match.pattern.exec(url.pathname)?.slice(1) ?? [];
	const params = Object.fromEntries(match.keys.map((key, index) => [key, decodeURIComponent(values[index])]));
	try {
		const raw = await readBody(req, 256 * 1024 * 1024);
		let body: unknown = raw;
		if (!match.raw) {
			const text = raw.toString('utf8');
			try {
				body = text.trim() === '' ? null : JSON.parse(text);
			} catch {
				throw new ActionError('the body is not valid JSON');
			}
		}
		const result = await match.handler({ sandbox, params, query: url.searchParams, body, req });
		sendJson(res, 200, result ?? {});
	} catch (error) {
		const status = error instanceof ActionError ? error.httpStatus : 400;
		sendJson(res, status, { error: error instanceof Error ? error.message : String(error) });
	}
}

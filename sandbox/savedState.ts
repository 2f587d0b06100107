/**
 * The sandbox's state as a state file holds it (`startSandbox({ stateFile })`, stateFile.ts): plain JSON
 * with a format name and a version, written by saveSandbox and read back by restoreSandbox.
 *
 * Everything the real Rubika would still know after a restart is kept: bots (token, commands, registered
 * endpoints, the update log with the cursors it issued), users, chats (members, bans, chat keypad, pins,
 * messages), files with their bytes, the sticker catalogue, upload addresses not used yet, and where message
 * ids stand. What belongs to the sandbox rather than to Rubika is not: the configuration, the request log,
 * webhook deliveries, faults.
 *
 * Restoring goes through SandboxState's own builders (addBot, addUser, privateChat, addGroup…), so ids,
 * tokens and references are checked as when the state was first built and the lookup indexes are rebuilt;
 * the other fields are checked for their kind. Message bodies and updates are taken as written: they came
 * from the sandbox itself, and a file cut short fails as JSON long before.
 */
import type { BotCommand, Keypad, Sticker, UpdateEndpointType } from '../nodes/shared/types';
import { FILE_TYPES, UPDATE_ENDPOINT_TYPES } from '../nodes/shared/types';
import { isPlainObject } from '../nodes/shared/json';
import type { SandboxConfig } from './config';
import type { SeedName } from './seed';
import type { BotRecord, ChatRecord, EndpointRecord, FileRecord, NewUser, Role, StoredMessage, UploadSlot, UserRecord } from './state';
import { SandboxState } from './state';
import type { SavedUpdateLog } from './updates';

const STATE_FORMAT = 'rubika-sandbox-state';
/** Raise it when the shape changes; a file of another version is set aside, never guessed at. */
const STATE_VERSION = 1;

export interface SavedSandbox {
	format: typeof STATE_FORMAT;
	version: typeof STATE_VERSION;
	/** The seed the state was built from: whether the demo ids (`sandbox.demo`) apply to it. */
	seed: SeedName;
	/** Named `world` since format version 1; kept so that the state files written so far still load. */
	world: SavedContents;
}

interface SavedContents {
	lastMessageId: string;
	bots: SavedBot[];
	users: UserRecord[];
	chats: SavedChat[];
	files: SavedFile[];
	stickers: Sticker[];
	uploadSlots: UploadSlot[];
}

/** A bot as the file keeps it: the record's own fields, its endpoints as a list and its update log saved. */
interface SavedBot
	extends Pick<BotRecord, 'bot_id' | 'token' | 'bot_title' | 'username' | 'description' | 'start_message' | 'commands'> {
	endpoints: EndpointRecord[];
	updates: SavedUpdateLog;
}

interface SavedChat {
	chat_id: string;
	kind: ChatRecord['kind'];
	title: string | null;
	username: string | null;
	botId: string | null;
	userId: string | null;
	botStopped: boolean;
	ownerId: string | null;
	/** In the order the members got their roles (getChatAdministrators lists admins in that order). */
	roles: Array<[string, Role]>;
	banned: string[];
	chatKeypad: Keypad | null;
	messages: StoredMessage[];
	pinned: string[];
}

interface SavedFile extends Omit<FileRecord, 'bytes'> {
	/** The file's bytes, base64. */
	bytes: string;
}

/** A state file that cannot be used as it is: wrong format or version, or a state that does not hold together. */
class SavedStateError extends Error {}

export function saveSandbox(state: SandboxState, seed: SeedName): SavedSandbox {
	return {
		format: STATE_FORMAT,
		version: STATE_VERSION,
		seed,
		world: {
			lastMessageId: state.lastMessageId,
			bots: [...state.bots.values()].map(saveBot),
			users: [...state.users.values()],
			chats: [...state.chats.values()].map(saveChat),
			files: [...state.files.values()].map((file) => ({ ...file, bytes: file.bytes.toString('base64') })),
			stickers: [...state.stickers.values()],
			uploadSlots: [...state.uploadSlots.values()],
		},
	};
}

function saveBot(bot: BotRecord): SavedBot {
	return {
		bot_id: bot.bot_id,
		token: bot.token,
		bot_title: bot.bot_title,
		username: bot.username,
		description: bot.description,
		start_message: bot.start_message,
		commands: bot.commands,
		endpoints: [...bot.endpoints.values()],
		updates: bot.updates.save(),
	};
}

function saveChat(chat: ChatRecord): SavedChat {
	return {
		chat_id: chat.chat_id,
		kind: chat.kind,
		title: chat.title,
		username: chat.username,
		botId: chat.botId,
		userId: chat.userId,
		botStopped: chat.botStopped,
		ownerId: chat.ownerId,
		roles: [...chat.roles],
		banned: [...chat.banned],
		chatKeypad: chat.chatKeypad,
		messages: [...chat.messages.values()],
		pinned: chat.pinned,
	};
}

/** The state a state file's JSON describes; throws SavedStateError naming the first thing that is wrong. */
export function restoreSandbox(data: unknown, config: SandboxConfig, clock: () => number): { state: SandboxState; seed: SeedName } {
	if (!isPlainObject(data) || data.format !== STATE_FORMAT) throw new SavedStateError(`not a sandbox state file (no "format": "${STATE_FORMAT}")`);
	if (data.version !== STATE_VERSION) {
		throw new SavedStateError(`state file version ${JSON.stringify(data.version)}; this sandbox reads version ${STATE_VERSION}`);
	}
	need(data.seed === 'demo' || data.seed === 'empty', 'seed', 'must be "demo" or "empty"');
	const world = data.world;
	need(isPlainObject(world), 'world', 'must be an object');
	const state = new SandboxState(config, clock);
	// Bots and users first: chats refer to them.
	restoreEach(world, 'bots', (bot) => restoreBot(state, bot));
	restoreEach(world, 'users', (user) => state.addUser(user as unknown as NewUser));
	restoreEach(world, 'files', (file) => restoreFile(state, file));
	restoreEach(world, 'stickers', (sticker) => {
		need(typeof sticker.sticker_id === 'string', 'sticker_id', 'must be a string');
		state.stickers.set(sticker.sticker_id, sticker as unknown as Sticker);
	});
	restoreEach(world, 'chats', (chat) => restoreChat(state, chat));
	restoreEach(world, 'uploadSlots', (slot) => {
		need(typeof slot.id === 'string' && typeof slot.botId === 'string', 'id, botId', 'must be strings');
		state.uploadSlots.set(slot.id, slot as unknown as UploadSlot);
	});
	need(isDigits(world.lastMessageId), 'world.lastMessageId', 'must be a string of digits');
	state.continueMessageIdsAfter(world.lastMessageId);
	return { state, seed: data.seed };
}

function restoreBot(state: SandboxState, saved: Record<string, unknown>): void {
	const bot = state.addBot({
		bot_id: saved.bot_id as string,
		token: saved.token as string,
		bot_title: stringField(saved, 'bot_title'),
		username: stringField(saved, 'username'),
		description: nullableString(saved, 'description'),
		start_message: nullableString(saved, 'start_message'),
	});
	need(Array.isArray(saved.commands), 'commands', 'must be a list');
	bot.commands = saved.commands as BotCommand[];
	need(Array.isArray(saved.endpoints), 'endpoints', 'must be a list');
	for (const endpoint of saved.endpoints as EndpointRecord[]) {
		need(isPlainObject(endpoint) && UPDATE_ENDPOINT_TYPES.includes(endpoint.type as UpdateEndpointType), 'endpoints', 'each needs a known type');
		need(typeof endpoint.url === 'string', 'endpoints', 'each needs a url');
		bot.endpoints.set(endpoint.type, endpoint);
	}
	const log = saved.updates;
	need(isPlainObject(log) && typeof log.epoch === 'string', 'updates.epoch', 'must be a string');
	need(Number.isSafeInteger(log.firstSeq) && (log.firstSeq as number) >= 0, 'updates.firstSeq', 'must be a whole number >= 0');
	need(Array.isArray(log.updates) && log.updates.every(isPlainObject), 'updates.updates', 'must be a list of updates');
	bot.updates = state.newUpdateLog(log as unknown as SavedUpdateLog);
}

function restoreFile(state: SandboxState, saved: Record<string, unknown>): void {
	need(typeof saved.bytes === 'string' && BASE64.test(saved.bytes), 'bytes', 'must be base64');
	need(FILE_TYPES.includes(saved.type as FileRecord['type']), 'type', `must be one of ${FILE_TYPES.join(', ')}`);
	need(typeof saved.file_id === 'string', 'file_id', 'must be a string');
	const file = state.addFile({
		file_id: saved.file_id,
		bytes: Buffer.from(saved.bytes, 'base64'),
		file_name: stringField(saved, 'file_name'),
		mime_type: stringField(saved, 'mime_type'),
		type: saved.type as FileRecord['type'],
	});
	need(typeof saved.uploadedAt === 'number', 'uploadedAt', 'must be a number');
	file.uploadedAt = saved.uploadedAt;
}

function restoreChat(state: SandboxState, saved: Record<string, unknown>): void {
	const chatId = saved.chat_id as string;
	let chat: ChatRecord;
	if (saved.kind === 'Private') {
		chat = state.privateChat(saved.botId as string, saved.userId as string, chatId);
		need(chat.chat_id === chatId, 'chat_id', `the private chat of this bot and user is ${chat.chat_id} already`);
	} else {
		need(saved.kind === 'Group' || saved.kind === 'Channel', 'kind', 'must be Private, Group or Channel');
		const input = { chat_id: chatId, title: saved.title as string, username: nullableString(saved, 'username'), ownerId: saved.ownerId as string };
		chat = saved.kind === 'Group' ? state.addGroup(input) : state.addChannel(input);
	}
	need(Array.isArray(saved.roles), 'roles', 'must be a list');
	chat.roles.clear();
	for (const entry of saved.roles as unknown[]) {
		const [memberId, role] = Array.isArray(entry) ? entry : [];
		need(state.users.has(memberId) || state.bots.has(memberId), 'roles', `${JSON.stringify(memberId)} is no user or bot`);
		need(role === 'owner' || role === 'admin' || role === 'member', 'roles', `${JSON.stringify(role)} is no role`);
		chat.roles.set(memberId, role);
	}
	need(Array.isArray(saved.banned) && saved.banned.every((id) => typeof id === 'string'), 'banned', 'must be a list of ids');
	saved.banned.forEach((id) => chat.banned.add(id));
	need(typeof saved.botStopped === 'boolean', 'botStopped', 'must be true or false');
	chat.botStopped = saved.botStopped;
	need(saved.chatKeypad === null || isPlainObject(saved.chatKeypad), 'chatKeypad', 'must be a keypad or null');
	chat.chatKeypad = saved.chatKeypad as Keypad | null;
	need(Array.isArray(saved.messages), 'messages', 'must be a list');
	for (const message of saved.messages as StoredMessage[]) {
		need(isPlainObject(message) && isDigits(message.message_id) && message.chat_id === chatId, 'messages', `each needs a message_id of digits and chat_id ${chatId}`);
		chat.messages.set(message.message_id, message);
	}
	need(Array.isArray(saved.pinned) && saved.pinned.every((id) => chat.messages.has(id)), 'pinned', 'must list messages of the chat');
	chat.pinned = saved.pinned;
}

/** Runs `restore` on each object of `world[key]`; any error it throws is prefixed with the entry's place. */
function restoreEach(world: Record<string, unknown>, key: string, restore: (entry: Record<string, unknown>) => void): void {
	const list = world[key];
	need(Array.isArray(list), `world.${key}`, 'must be a list');
	list.forEach((entry, index) => {
		const where = `world.${key}[${index}]`;
		need(isPlainObject(entry), where, 'must be an object');
		try {
			restore(entry);
		} catch (error) {
			throw new SavedStateError(`${where}: ${error instanceof Error ? error.message : String(error)}`);
		}
	});
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isDigits(value: unknown): value is string {
	return typeof value === 'string' && /^\d+$/.test(value);
}

function stringField(saved: Record<string, unknown>, key: string): string {
	const value = saved[key];
	need(typeof value === 'string', key, 'must be a string');
	return value;
}

function nullableString(saved: Record<string, unknown>, key: string): string | null {
	const value = saved[key];
	need(value === null || typeof value === 'string', key, 'must be a string or null');
	return value;
}

function need(condition: boolean, where: string, expected: string): asserts condition {
	if (!condition) throw new SavedStateError(`${where}: ${expected}`);
}

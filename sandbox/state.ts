/**
 * The sandbox's state: bots, users, chats with their members and messages, files, and each bot's update
 * log. Pure in-memory data plus the bookkeeping every method and user action shares; what a method
 * validates and answers lives in methods.ts, what a simulated user does in actions.ts.
 */
import type {
	AuxData,
	BotCommand,
	ContactMessage,
	FileType,
	ForwardedFrom,
	InlineMessage,
	Keypad,
	Location,
	MessageSenderType,
	Metadata,
	Poll,
	RubikaFile,
	Sticker,
	Update,
	UpdateEndpointType,
} from '../nodes/shared/types';
import type { SandboxConfig } from './config';
import { ActionError } from './errors';
import { GUID_PATTERN, MessageIdSequence, newGuid, newOpaqueId, newToken, TOKEN_PATTERN } from './ids';
import type { SavedUpdateLog } from './updates';
import { UpdateLog } from './updates';
import { CHANNEL_USERNAME } from '../nodes/Rubika/keypad/buttonLink';

export interface EndpointRecord {
	type: UpdateEndpointType;
	url: string;
	registeredAt: number;
}

export interface BotRecord {
	bot_id: string;
	token: string;
	bot_title: string;
	username: string;
	description: string | null;
	start_message: string | null;
	share_url: string;
	commands: BotCommand[];
	endpoints: Map<UpdateEndpointType, EndpointRecord>;
	updates: UpdateLog;
}

export interface UserRecord {
	user_id: string;
	first_name: string;
	last_name: string | null;
	username: string | null;
}

/** Private = one bot and one user (`b0…` id); groups (`g0…`) and channels (`c0…`) have members with roles. */
export type ChatKind = 'Private' | 'Group' | 'Channel';
export type Role = 'owner' | 'admin' | 'member';

export interface StoredMessage {
	message_id: string;
	chat_id: string;
	sender_type: MessageSenderType;
	sender_id: string;
	/** Unix seconds. */
	time: number;
	is_edited: boolean;
	text?: string;
	metadata?: Metadata;
	inline_keypad?: Keypad;
	file?: RubikaFile;
	poll?: Poll;
	location?: Location;
	contact_message?: ContactMessage;
	sticker?: Sticker;
	forwarded_from?: ForwardedFrom;
	reply_to_message_id?: string;
	aux_data?: AuxData;
	/** Kept so tests can see what the bot asked for; the sandbox notifies nobody. */
	disable_notification?: boolean;
}

export interface ChatRecord {
	chat_id: string;
	kind: ChatKind;
	title: string | null;
	username: string | null;
	/** Private chats only. */
	botId: string | null;
	userId: string | null;
	/** Private chats only: the user pressed "stop". */
	botStopped: boolean;
	ownerId: string | null;
	/** Every member (users and bots) with its role; the owner and admins are members too. */
	roles: Map<string, Role>;
	banned: Set<string>;
	chatKeypad: Keypad | null;
	messages: Map<string, StoredMessage>;
	/** Pinned message ids, oldest first (pinChatMessage, undocumented). */
	pinned: string[];
}

export interface FileRecord {
	file_id: string;
	file_name: string;
	mime_type: string;
	type: FileType;
	bytes: Buffer;
	uploadedAt: number;
}

export interface UploadSlot {
	id: string;
	type: FileType;
	botId: string;
	createdAt: number;
}

export interface NewBot {
	bot_id?: string;
	token?: string;
	bot_title?: string;
	username?: string;
	description?: string | null;
	start_message?: string | null;
}

export interface NewUser {
	user_id?: string;
	first_name: string;
	last_name?: string | null;
	username?: string | null;
}

export interface NewGroupOrChannel {
	chat_id?: string;
	title: string;
	username?: string | null;
	/** A user id. */
	ownerId: string;
	/** User or bot ids. */
	adminIds?: string[];
	memberIds?: string[];
}

/** Hooks the server sets to hear about events (webhook delivery). */
export interface StateListener {
	onUpdate(bot: BotRecord, update: Update): void;
	onInlineMessage(bot: BotRecord, inline: InlineMessage): void;
}

export class SandboxState {
	readonly bots = new Map<string, BotRecord>();
	readonly users = new Map<string, UserRecord>();
	readonly chats = new Map<string, ChatRecord>();
	readonly files = new Map<string, FileRecord>();
	/** The sticker catalogue sendSticker picks from (seed.ts); each sticker's file is in `files`. */
	readonly stickers = new Map<string, Sticker>();
	readonly uploadSlots = new Map<string, UploadSlot>();
	private readonly botsByToken = new Map<string, BotRecord>();
	private readonly privateChats = new Map<string, ChatRecord>();
	private readonly messageIds = new MessageIdSequence();
	listener: StateListener | undefined;

	constructor(
		readonly config: SandboxConfig,
		readonly clock: () => number = Date.now,
	) {}

	nowSeconds(): number {
		return Math.floor(this.clock() / 1000);
	}

	nextMessageId(): string {
		return this.messageIds.next();
	}

	/** The newest message id given out; see continueMessageIdsAfter. */
	get lastMessageId(): string {
		return this.messageIds.lastIssued;
	}

	/** A restored state (savedState.ts) goes on with ids larger than the ones it had given out. */
	continueMessageIdsAfter(id: string): void {
		this.messageIds.continueAfter(id);
	}

	// ----- creation -----

	addBot(input: NewBot = {}): BotRecord {
		const bot_id = input.bot_id ?? newGuid('b0');
		const token = input.token ?? newToken();
		checkGuid(bot_id, 'b0');
		if (!TOKEN_PATTERN.test(token)) throw new ActionError('a bot token must be 64 letters and digits');
		if (this.bots.has(bot_id) || this.chats.has(bot_id)) throw new ActionError(`id ${bot_id} is taken`);
		if (this.botsByToken.has(token)) throw new ActionError('token already in use');
		const username = input.username ?? `bot_${bot_id.slice(2, 10).toLowerCase()}_bot`;
		const bot: BotRecord = {
			bot_id,
			token,
			bot_title: input.bot_title ?? 'Sandbox Bot',
			username,
			description: input.description ?? null,
			start_message: input.start_message ?? null,
			share_url: `https://rubika.ir/${username}`,
			commands: [],
			endpoints: new Map(),
			updates: this.newUpdateLog(),
		};
		this.bots.set(bot_id, bot);
		this.botsByToken.set(token, bot);
		return bot;
	}

	/**
	 * Gives the bot a new token, as @BotFather's token rotation does: the old one is refused from now on (as
	 * any unknown token), the bot id, its updates and its endpoints stay. Returns the new token.
	 */
	rotateToken(botId: string, token: string = newToken()): string {
		const bot = this.requireBot(botId);
		if (!TOKEN_PATTERN.test(token)) throw new ActionError('a bot token must be 64 letters and digits');
		if (this.botsByToken.has(token)) throw new ActionError('token already in use');
		this.botsByToken.delete(bot.token);
		bot.token = token;
		this.botsByToken.set(token, bot);
		return token;
	}

	/** A bot's update log under the configured retention; `saved` continues a restored one (savedState.ts). */
	newUpdateLog(saved?: SavedUpdateLog): UpdateLog {
		return new UpdateLog(() => this.config.updateRetention, saved);
	}

	addUser(input: NewUser): UserRecord {
		const user_id = input.user_id ?? newGuid('u0');
		checkGuid(user_id, 'u0');
		if (this.users.has(user_id)) throw new ActionError(`user ${user_id} exists`);
		if (typeof input.first_name !== 'string' || !input.first_name) throw new ActionError('first_name is required');
		const user: UserRecord = {
			user_id,
			first_name: input.first_name,
			last_name: input.last_name ?? null,
			username: input.username ?? null,
		};
		this.users.set(user_id, user);
		return user;
	}

	/** The private chat between a bot and a user, created on first use (a user opening the bot). */
	privateChat(botId: string, userId: string, chatId?: string): ChatRecord {
		this.requireBot(botId);
		this.requireUser(userId);
		const key = `${botId}:${userId}`;
		const existing = this.privateChats.get(key);
		if (existing) return existing;
		const chat_id = chatId ?? newGuid('b0');
		checkGuid(chat_id, 'b0');
		if (this.chats.has(chat_id) || this.bots.has(chat_id)) throw new ActionError(`id ${chat_id} is taken`);
		const chat = this.newChat(chat_id, 'Private');
		chat.botId = botId;
		chat.userId = userId;
		chat.roles.set(userId, 'member');
		chat.roles.set(botId, 'member');
		this.chats.set(chat_id, chat);
		this.privateChats.set(key, chat);
		return chat;
	}

	findPrivateChat(botId: string, userId: string): ChatRecord | undefined {
		return this.privateChats.get(`${botId}:${userId}`);
	}

	addGroup(input: NewGroupOrChannel): ChatRecord {
		return this.addMultiChat('Group', input);
	}

	addChannel(input: NewGroupOrChannel): ChatRecord {
		return this.addMultiChat('Channel', input);
	}

	private addMultiChat(kind: 'Group' | 'Channel', input: NewGroupOrChannel): ChatRecord {
		const prefix = kind === 'Group' ? 'g0' : 'c0';
		const chat_id = input.chat_id ?? newGuid(prefix);
		checkGuid(chat_id, prefix);
		if (this.chats.has(chat_id)) throw new ActionError(`chat ${chat_id} exists`);
		if (typeof input.title !== 'string' || !input.title) throw new ActionError('title is required');
		this.requireUser(input.ownerId);
		const chat = this.newChat(chat_id, kind);
		chat.title = input.title;
		if (input.username !== undefined && input.username !== null) {
			if (typeof input.username !== 'string' || !CHANNEL_USERNAME.test(input.username)) {
				throw new ActionError(`username must be a letter, then letters, digits or _ (3-32 long, without @); got ${JSON.stringify(input.username)}`);
			}
			if (this.findChatByUsername(input.username)) throw new ActionError(`a chat with username ${input.username} exists`);
		}
		chat.username = input.username ?? null;
		chat.ownerId = input.ownerId;
		this.chats.set(chat_id, chat);
		chat.roles.set(input.ownerId, 'owner');
		for (const id of input.adminIds ?? []) this.setRole(chat_id, id, 'admin');
		for (const id of input.memberIds ?? []) this.setRole(chat_id, id, 'member');
		return chat;
	}

	private newChat(chat_id: string, kind: ChatKind): ChatRecord {
		return {
			chat_id,
			kind,
			title: null,
			username: null,
			botId: null,
			userId: null,
			botStopped: false,
			ownerId: null,
			roles: new Map(),
			banned: new Set(),
			chatKeypad: null,
			messages: new Map(),
			pinned: [],
		};
	}

	/**
	 * Adds a member, changes a role, or removes one (role null). This is an admin adding someone by hand,
	 * which the spec allows even for a banned user, so it also lifts the ban.
	 */
	setRole(chatId: string, memberId: string, role: Exclude<Role, 'owner'> | null): void {
		const chat = this.requireChat(chatId);
		if (chat.kind === 'Private') throw new ActionError('private chats have fixed members');
		if (!this.users.has(memberId) && !this.bots.has(memberId)) throw new ActionError(`no user or bot ${memberId}`, 404);
		if (chat.ownerId === memberId) throw new ActionError('the owner keeps the owner role');
		if (role === null) {
			chat.roles.delete(memberId);
			return;
		}
		chat.banned.delete(memberId);
		// A new role moves the member to the end, so the roles keep the order in which members got them
		// (getChatAdministrators lists admins in the order they became admins).
		if (chat.roles.get(memberId) !== role) chat.roles.delete(memberId);
		chat.roles.set(memberId, role);
	}

	// ----- lookup -----

	botByToken(token: string): BotRecord | undefined {
		return this.botsByToken.get(token);
	}

	requireBot(id: string): BotRecord {
		const bot = this.bots.get(id);
		if (!bot) throw new ActionError(`no bot ${id}`, 404);
		return bot;
	}

	requireUser(id: string): UserRecord {
		const user = this.users.get(id);
		if (!user) throw new ActionError(`no user ${id}`, 404);
		return user;
	}

	/** The group or channel with this username (without "@"; case does not matter), if any. */
	findChatByUsername(username: string): ChatRecord | undefined {
		const wanted = username.replace(/^@/, '').toLowerCase();
		return [...this.chats.values()].find((chat) => chat.kind !== 'Private' && chat.username?.toLowerCase() === wanted);
	}

	requireChat(id: string): ChatRecord {
		const chat = this.chats.get(id);
		if (!chat) throw new ActionError(`no chat ${id}`, 404);
		return chat;
	}

	/** The first bot, used when an action does not say which bot it is about (usually the demo bot). */
	defaultBot(): BotRecord {
		const first = this.bots.values().next();
		if (first.done) throw new ActionError('the sandbox has no bot', 404);
		return first.value;
	}

	roleOf(chat: ChatRecord, id: string): Role | undefined {
		return chat.roles.get(id);
	}

	isAdmin(chat: ChatRecord, id: string): boolean {
		const role = chat.roles.get(id);
		return role === 'owner' || role === 'admin';
	}

	/** A chat as a bot can see it: its own private chats, and groups/channels it is a member of. */
	chatForBot(bot: BotRecord, chatId: string): ChatRecord | undefined {
		const chat = this.chats.get(chatId);
		if (!chat) return undefined;
		if (chat.kind === 'Private') return chat.botId === bot.bot_id ? chat : undefined;
		return chat.roles.has(bot.bot_id) ? chat : undefined;
	}

	botsInChat(chat: ChatRecord): BotRecord[] {
		if (chat.kind === 'Private') return [this.requireBot(chat.botId as string)];
		const bots: BotRecord[] = [];
		for (const id of chat.roles.keys()) {
			const bot = this.bots.get(id);
			if (bot) bots.push(bot);
		}
		return bots;
	}

	// ----- messages, updates, files -----

	addMessage(
		chat: ChatRecord,
		fields: Omit<StoredMessage, 'message_id' | 'chat_id' | 'time' | 'is_edited'> & { time?: number },
	): StoredMessage {
		const message: StoredMessage = {
			message_id: this.nextMessageId(),
			chat_id: chat.chat_id,
			time: fields.time ?? this.nowSeconds(),
			is_edited: false,
			...stripUndefined(fields),
		};
		chat.messages.set(message.message_id, message);
		return message;
	}

	/** Removes a message, and its pin with it. */
	deleteMessage(chat: ChatRecord, messageId: string): void {
		chat.messages.delete(messageId);
		this.unpin(chat, messageId);
	}

	/** Pins a message; pinning one already pinned makes it the most recent. */
	pin(chat: ChatRecord, messageId: string): void {
		this.unpin(chat, messageId);
		chat.pinned.push(messageId);
	}

	unpin(chat: ChatRecord, messageId: string): void {
		const index = chat.pinned.indexOf(messageId);
		if (index >= 0) chat.pinned.splice(index, 1);
	}

	/**
	 * Appends to the bot's log and tells the listener (webhook delivery). With `endpointStopsPolling`, an update
	 * that goes to a registered ReceiveUpdate endpoint is not kept for getUpdates.
	 */
	appendUpdate(bot: BotRecord, update: Update): void {
		if (!(this.config.endpointStopsPolling && bot.endpoints.has('ReceiveUpdate'))) bot.updates.append(update);
		this.listener?.onUpdate(bot, update);
	}

	emitInlineMessage(bot: BotRecord, inline: InlineMessage): void {
		this.listener?.onInlineMessage(bot, inline);
	}

	addFile(input: { bytes: Buffer; file_name: string; mime_type?: string; type?: FileType; file_id?: string }): FileRecord {
		const file: FileRecord = {
			file_id: input.file_id ?? newOpaqueId(18),
			file_name: input.file_name,
			mime_type: input.mime_type || 'application/octet-stream',
			type: input.type ?? 'File',
			bytes: input.bytes,
			uploadedAt: this.clock(),
		};
		this.files.set(file.file_id, file);
		return file;
	}

	createUploadSlot(bot: BotRecord, type: FileType): UploadSlot {
		const slot: UploadSlot = { id: newOpaqueId(24), type, botId: bot.bot_id, createdAt: this.clock() };
		this.uploadSlots.set(slot.id, slot);
		return slot;
	}
}

function checkGuid(id: string, prefix: string): void {
	if (typeof id !== 'string' || !GUID_PATTERN.test(id) || !id.startsWith(prefix)) {
		throw new ActionError(`"${id}" is not a ${prefix}… id of 32 letters and digits`);
	}
}

function stripUndefined<T extends object>(value: T): T {
	const out = { ...value };
	for (const key of Object.keys(out) as Array<keyof T>) {
		if (out[key] === undefined) delete out[key];
	}
	return out;
}

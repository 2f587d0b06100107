/**
 * The sandbox's in-process test API, its state part: building it (bots, users, chats, files), reading
 * it (snapshots, never the live records), and acting as the people in it (user actions make the updates a
 * bot sees). RubikaSandbox (server.ts) is this plus the request log, faults, webhooks and the HTTP server.
 */
import type { BotCommand, InlineMessage, Keypad, Sticker, Update } from '../nodes/shared/types';
import type { ButtonAnswerInput, SyntheticUpdatesInput, UserMessageInput, UserMessageRef } from './actions';
import * as actions from './actions';
import type { BotSnapshot, ChatSnapshot, SandboxMessage } from './snapshots';
import { botSnapshot, chatSnapshot, messageSnapshot } from './snapshots';
import type { EndpointRecord, FileRecord, NewBot, NewGroupOrChannel, NewUser, SandboxState, UserRecord } from './state';

/** What a link-button tap answers: the address to open, or the channel that was joined. */
export type LinkTapResult =
	| { type: 'url'; url: string; buttonId: string }
	| { type: 'joinchannel'; username: string; askJoin: boolean; buttonId: string; chat: ChatSnapshot };

export abstract class SandboxTestApi {
	/** The live state (replaced by a reset). */
	abstract get state(): SandboxState;

	/** The `download_url` of a stored file. */
	abstract downloadUrl(file: FileRecord): string;

	// ----- building the state -----

	addBot(input: NewBot = {}): BotSnapshot {
		return botSnapshot(this.state, this.state.addBot(input).bot_id);
	}

	/** A new token for the bot (a random one unless `token`); the old one is refused from now on. */
	rotateToken(botId: string, token?: string): { token: string } {
		return { token: this.state.rotateToken(botId, token) };
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

	// ----- reading the state -----

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

	/**
	 * A person answers an input button of the chat keypad, or of an inline keypad (`messageId`), with the value
	 * its type asks for: `text` (Textbox), `date` (Calendar), `number` (NumberPicker), `item` (StringPicker),
	 * `phoneNumber` (AskMyPhoneNumber, MyPhoneNumber) or `location` (Location, AskMyLocation, AskLocation,
	 * MyLocation). Answers the NewMessage, or the inline_message delivered to ReceiveInlineMessage.
	 */
	userAnswerButton(input: ButtonAnswerInput): { delivery: 'message'; message: SandboxMessage } | { delivery: 'inline'; inlineMessage: InlineMessage } {
		const answer = actions.userAnswerButton(this.state, input);
		return answer.delivery === 'message' ? { delivery: 'message', message: messageSnapshot(answer.message) } : structuredClone(answer);
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

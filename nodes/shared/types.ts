/**
 * Rubika Bot API v3 types, defined once and shared by the nodes, the sandbox server and the tests.
 *
 * Sources: Rubika's Bot API documentation and docs/api-facts.md (what the real service does, cited as "facts §N").
 * Where the facts conflict we keep every plausible variant (e.g. both spellings of the one-time keypad flag,
 * the union of both ButtonType lists) so the node accepts whatever the service sends back.
 */

/** Every JSON method of the official documentation, in the order of the spec. `requestSendFile`'s upload step is not a method. */
const DOCUMENTED_METHODS = [
	'getMe',
	'getChat',
	'getFile',
	'getUpdates',
	'sendMessage',
	'sendPoll',
	'sendLocation',
	'sendContact',
	'sendFile',
	'forwardMessage',
	'editMessageText',
	'editMessageKeypad',
	'deleteMessage',
	'editChatKeypad',
	'setCommands',
	'updateBotEndpoints',
	'requestSendFile',
	'banChatMember',
	'unbanChatMember',
] as const;

/**
 * Methods Rubika's client libraries call (rubpy, rubka) that the official documentation does not list
 * (facts §9). A Rubika may not offer them; the node says so when it answers as if not.
 */
export const UNDOCUMENTED_METHODS = [
	'sendSticker',
	'pinChatMessage',
	'unpinChatMessage',
	'unpinAllChatMessages',
	'getChatMember',
	'getChatAdministrators',
	'getChatMemberCount',
] as const;

export const RUBIKA_METHODS = [...DOCUMENTED_METHODS, ...UNDOCUMENTED_METHODS] as const;
export type RubikaMethod = (typeof RUBIKA_METHODS)[number];
export type UndocumentedMethod = (typeof UNDOCUMENTED_METHODS)[number];

export function isUndocumentedMethod(method: string): method is UndocumentedMethod {
	return (UNDOCUMENTED_METHODS as readonly string[]).includes(method);
}

type ChatType = 'User' | 'Bot' | 'Group' | 'Channel';

type ForwardedFromType = 'User' | 'Channel' | 'Bot';

export type PaymentStatusType = 'Paid' | 'NotPaid';

type PollState = 'Open' | 'Closed';

export const FILE_TYPES = ['File', 'Image', 'Voice', 'Music', 'Gif', 'Video'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** Documented size limit per file type (facts §6), in bytes. Types without a documented limit use File's. */
export const FILE_SIZE_LIMITS: Record<FileType, number> = {
	File: 50 * 1024 * 1024,
	Image: 10 * 1024 * 1024,
	Video: 50 * 1024 * 1024,
	Gif: 50 * 1024 * 1024,
	Voice: 50 * 1024 * 1024,
	Music: 50 * 1024 * 1024,
};

export type MessageSenderType = 'User' | 'Bot';

export const CHAT_KEYPAD_TYPES = ['None', 'New', 'Remove'] as const;

export const UPDATE_ENDPOINT_TYPES = [
	'ReceiveUpdate',
	'ReceiveInlineMessage',
	'ReceiveQuery',
	'GetSelectionItem',
	'SearchSelectionItems',
] as const;
export type UpdateEndpointType = (typeof UPDATE_ENDPOINT_TYPES)[number];

export const UPDATE_TYPES = [
	'NewMessage',
	'UpdatedMessage',
	'RemovedMessage',
	'StartedBot',
	'StoppedBot',
	'UpdatedPayment',
] as const;
export type UpdateType = (typeof UPDATE_TYPES)[number];

/** Union of the old (21) and new (18) official ButtonType lists: the facts disagree, the service accepts both. */
export const BUTTON_TYPES = [
	'Simple',
	'Selection',
	'Calendar',
	'NumberPicker',
	'StringPicker',
	'Location',
	'Payment',
	'CameraImage',
	'CameraVideo',
	'GalleryImage',
	'GalleryVideo',
	'File',
	'Audio',
	'RecordAudio',
	'MyPhoneNumber',
	'MyLocation',
	'Textbox',
	'Link',
	'AskMyPhoneNumber',
	'AskLocation',
	'AskMyLocation',
	'Barcode',
] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number];

/** The values of the enumerations inside a button's settings objects (facts §3, documented). */
export const BUTTON_CALENDAR_TYPES = ['DatePersian', 'DateGregorian'] as const;
export const BUTTON_TEXTBOX_LINE_TYPES = ['SingleLine', 'MultiLine'] as const;
export const BUTTON_TEXTBOX_KEYPAD_TYPES = ['String', 'Number'] as const;
export const BUTTON_LOCATION_TYPES = ['Picker', 'View'] as const;
/**
 * A Selection's search, as the keypad builder offers it: ButtonSelectionSearch without `Api`, and the list's items
 * always in the button (ButtonSelectionGet `Local`). With `Api` Rubika asks the bot's GetSelectionItem and
 * SearchSelectionItems endpoints for the items, in a request and for an answer nothing documents (facts §4, §11).
 */
export const BUTTON_SELECTION_SEARCH_TYPES = ['None', 'Local'] as const;

export const METADATA_TYPES = [
	'Bold',
	'Italic',
	'Mono',
	'Underline',
	'Strike',
	'Spoiler',
	'Link',
	'MentionText',
	'Pre',
	'Quote',
] as const;
export type MetadataType = (typeof METADATA_TYPES)[number];

/** Most formatting parts one message may carry (facts §7). */
export const MAX_METADATA_PARTS = 30;

/**
 * Longest text one message may carry, in UTF-16 code units (facts §7): one library (maxrubika) gives 4,096
 * "characters" for editMessageText and the others assume the same for sendMessage; Rubika documents no limit.
 * Which unit Rubika counts is unknown (Python's len, which maxrubika uses, counts code points). UTF-16 units
 * are never fewer than code points (an emoji is 1 code point, 2 units; a Persian letter 1 of each), so a text
 * within this many units is within the limit whichever of the two Rubika counts. The probe should confirm it;
 * the sandbox's `maxTextLength` and `textLengthUnit` play the variants.
 */
export const MAX_TEXT_LENGTH = 4096;

/** What a `Link` button opens (only rubpy documents it, facts §2): a web address or a channel to join. */
export const BUTTON_LINK_TYPES = ['url', 'joinchannel'] as const;
type ButtonLinkType = (typeof BUTTON_LINK_TYPES)[number];

export interface ButtonLink {
	type: ButtonLinkType;
	/** For `url`: the address opened. */
	link_url?: string;
	/** For `joinchannel`: the channel's username, and whether the app asks before joining. */
	joinchannel_data?: { username: string; ask_join?: boolean };
}

export interface Button {
	id: string;
	type: ButtonType | string;
	button_text: string;
	/** Only on `Link` buttons. */
	button_link?: ButtonLink;
	/** Type-specific sub-objects (button_selection, button_calendar, …) pass through untouched. */
	[extra: string]: unknown;
}

export interface KeypadRow {
	buttons: Button[];
}

export interface Keypad {
	rows: KeypadRow[];
	resize_keyboard?: boolean;
	one_time_keyboard?: boolean;
	/** The older spelling of `one_time_keyboard`, still used by most libraries. */
	on_time_keyboard?: boolean;
}

export interface MetadataPart {
	type: MetadataType;
	from_index: number;
	length: number;
	link_url?: string;
	mention_text_user_id?: string;
}

export interface Metadata {
	meta_data_parts: MetadataPart[];
}

export interface BotCommand {
	command: string;
	description: string;
}

export interface RubikaFile {
	file_id: string;
	file_name?: string;
	/** Bytes, as a string. */
	size?: string;
}

export interface Bot {
	bot_id: string;
	bot_title: string;
	avatar?: RubikaFile | null;
	description?: string | null;
	username: string;
	start_message?: string | null;
	share_url?: string | null;
}

export interface Chat {
	chat_id: string;
	chat_type: ChatType;
	user_id?: string | null;
	first_name?: string | null;
	last_name?: string | null;
	title?: string | null;
	username?: string | null;
}

export interface ForwardedFrom {
	type_from: ForwardedFromType;
	message_id: string;
	from_chat_id: string;
	from_sender_id?: string | null;
}

export interface AuxData {
	start_id?: string | null;
	button_id?: string | null;
}

export interface Location {
	longitude: string;
	latitude: string;
}

export interface ContactMessage {
	phone_number: string;
	first_name: string;
	last_name?: string;
}

interface PollStatus {
	state: PollState;
	selection_index: number;
	percent_vote_options: number[];
	total_vote: number;
	show_total_votes: boolean;
}

/** `sendPoll`'s `type` as the client libraries send it (not in the official documentation). */
export const POLL_TYPES = ['Regular', 'Quiz'] as const;
type PollType = (typeof POLL_TYPES)[number];

export interface Poll {
	question: string;
	options: string[];
	poll_status?: PollStatus;
	/** The fields below are sent by the client libraries for quizzes and multi-answer polls; undocumented. */
	type?: PollType;
	allows_multiple_answers?: boolean;
	is_anonymous?: boolean;
	/** 0-based index into `options`; quizzes only. */
	correct_option_index?: number;
	/** Shown after answering a quiz. */
	explanation?: string;
}

/**
 * A member as the sandbox answers getChatMember/getChatAdministrators. The real answer is not documented
 * anywhere: the node reads it tolerantly (nodes/Rubika/actions/chat/members.ts) and the sandbox plays this shape.
 */
export type ChatMemberStatus = 'Creator' | 'Administrator' | 'Member' | 'Left' | 'Banned';

export interface ChatMember {
	/** A user id (u0…) or, for a bot member, its bot id. */
	user_id: string;
	first_name?: string | null;
	last_name?: string | null;
	username?: string | null;
	status: ChatMemberStatus;
}

export interface Sticker {
	sticker_id: string;
	file: RubikaFile;
	emoji_character: string;
}

interface PaymentStatus {
	payment_id: string;
	status: PaymentStatusType;
}

export interface Message {
	message_id: string;
	text?: string | null;
	/** Unix seconds; the documentation says int, every sample shows a string. */
	time: string | number;
	is_edited?: boolean;
	sender_type: MessageSenderType;
	sender_id: string;
	aux_data?: AuxData | null;
	file?: RubikaFile | null;
	reply_to_message_id?: string | null;
	forwarded_from?: ForwardedFrom | null;
	forwarded_no_link?: string | null;
	location?: Location | null;
	sticker?: Sticker | null;
	contact_message?: ContactMessage | null;
	poll?: Poll | null;
	metadata?: Metadata | null;
	/** Not documented on Message, but what a bot's own message shows. */
	inline_keypad?: Keypad | null;
}

export interface Update {
	type: UpdateType;
	chat_id: string;
	removed_message_id?: string | null;
	new_message?: Message | null;
	updated_message?: Message | null;
	updated_payment?: PaymentStatus | null;
	/** Undocumented but read by two libraries as part of a de-duplication key. */
	update_time?: string | number;
}

/** An inline keypad tap, delivered only to the ReceiveInlineMessage endpoint. */
export interface InlineMessage {
	sender_id: string;
	text?: string | null;
	file?: RubikaFile | null;
	location?: Location | null;
	/** Not in the documented model; rubka reads it here too (a shared phone number, facts §11). */
	contact_message?: ContactMessage | null;
	aux_data?: AuxData | null;
	message_id: string;
	chat_id: string;
}

/** What the service POSTs to a registered endpoint. Dispatch on the key, never on the path. */
export type WebhookBody = { update: Update } | { inline_message: InlineMessage };

/** `data` of each method, as far as the facts tell (§1). Methods not listed answer `{}`. */
export interface MethodResults {
	getMe: { bot: Bot };
	getChat: { chat: Chat };
	getFile: { download_url: string };
	getUpdates: { updates: Update[]; next_offset_id?: string | null };
	sendMessage: { message_id: string };
	sendPoll: { message_id: string };
	sendLocation: { message_id: string };
	sendContact: { message_id: string };
	sendFile: { message_id: string };
	sendSticker: { message_id: string };
	forwardMessage: { new_message_id: string };
	requestSendFile: { upload_url: string };
	updateBotEndpoints: { status: 'Done' | 'InvalidUrl' | string };
}

/** Answer of a POST to an `upload_url`. */
export interface UploadResult {
	file_id: string;
}

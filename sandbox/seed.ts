/**
 * The demo state, with fixed ids and token so tests, benchmarks and the demo can name them:
 * - the demo bot;
 * - Sara, Reza and Ali, each with a private chat with the bot;
 * - "Sandbox Group": owner Sara, admins Reza and the bot, member Ali;
 * - "Quiet Group": owner Reza, members Sara, Ali and the bot (not an admin: moderation is refused);
 * - "Sandbox Channel": owner Sara, admin the bot, subscribers Reza and Ali.
 * The sticker catalogue (DEMO_STICKERS) is part of every seed, the empty one included: it stands for
 * Rubika's own stickers, not for anything a test builds.
 */
import type { RubikaFile, Sticker } from '../nodes/shared/types';
import type { SandboxState } from './state';

export const DEMO_BOT_TOKEN = 'sRnZduZskFgZ3ltxjtzAmZeA6NorTYHwMUFsVUmtpyrmUKLAPHJIyEY2lU2F8HDD';
export const DEMO_BOT_ID = 'b0Za0JSGM2pIyphThDWVDrFm5R62Auxl';
export const DEMO_BOT_TITLE = 'Sandbox Demo Bot';
export const DEMO_BOT_USERNAME = 'sandbox_demo_bot';

export interface DemoUser {
	user_id: string;
	first_name: string;
	last_name: string | null;
	username: string | null;
	/** The user's private chat with the demo bot. */
	chat_id: string;
}

export const DEMO_USERS = {
	sara: {
		user_id: 'u0DwXV4kXs1JEU2EDK5drafw2pSOGBHD',
		first_name: 'Sara',
		last_name: 'Karimi',
		username: 'sara_k',
		chat_id: 'b0fmK4lPjBjf3YEfErJNQK7siVKEBjED',
	},
	reza: {
		user_id: 'u0W4JBmkQiX63OwPBAVFMMB6BqSzFQjC',
		first_name: 'Reza',
		last_name: 'Rahimi',
		username: 'reza_r',
		chat_id: 'b0teTrmCNTFxEBYyp91GgN6AtBvETUpm',
	},
	// No last name or username: getChat leaves them out (or null with explicitNulls).
	ali: {
		user_id: 'u05sUAAku08QjcN7HszinEujxZCrb80g',
		first_name: 'Ali',
		last_name: null,
		username: null,
		chat_id: 'b0oKevoqAg5pvvePejs2Hh5C6GgoO9AB',
	},
} as const satisfies Record<string, DemoUser>;

/** The bot is an admin here. */
export const DEMO_GROUP_ID = 'g0JH0Z53d0BLU8bM85ikB5L8Q8BTNqWd';
/** The bot is only a member here. */
export const DEMO_QUIET_GROUP_ID = 'g0OLke8CoYD0DrEIb2oyxRHitF0h07tK';
/** The bot is an admin here. */
export const DEMO_CHANNEL_ID = 'c0VmwffiYmEJ3ZYHtCo0KQyilVHE4BoG';

/** A sticker of the catalogue: its file (an SVG image) is in the sandbox's files, so getFile works on it. */
export interface DemoSticker extends Sticker {
	file: Required<RubikaFile>;
}

/** The pictures behind the stickers: the emoji drawn large. */
function stickerSvg(emoji: string): string {
	return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128"><text x="64" y="100" font-size="96" text-anchor="middle">${emoji}</text></svg>`;
}

function demoSticker(sticker_id: string, emoji_character: string, file_id: string, file_name: string): DemoSticker {
	return { sticker_id, emoji_character, file: { file_id, file_name, size: String(Buffer.byteLength(stickerSvg(emoji_character))) } };
}

export const DEMO_STICKERS = {
	like: demoSticker('st5bQ2mYx8RkV1wLhN3cT7pZ', '👍', 'stkFile0LikeQ2mYx8RkV1wLh', 'like.svg'),
	heart: demoSticker('st9HfW4nKe2JdP6sGv0aXr5U', '❤️', 'stkFile0HeartW4nKe2JdP6s', 'heart.svg'),
	party: demoSticker('st3LuC7tMz1QbE8yRo4iFk6D', '🎉', 'stkFile0PartyC7tMz1QbE8y', 'party.svg'),
} as const satisfies Record<string, DemoSticker>;

export type SeedName = 'demo' | 'empty';

/** The demo ids in one plain object (what `sandbox.demo` holds when the demo seed is loaded). */
export interface DemoInfo {
	token: string;
	botId: string;
	botUsername: string;
	users: typeof DEMO_USERS;
	groupId: string;
	quietGroupId: string;
	channelId: string;
	stickers: typeof DEMO_STICKERS;
}

export function demoInfo(): DemoInfo {
	return {
		token: DEMO_BOT_TOKEN,
		botId: DEMO_BOT_ID,
		botUsername: DEMO_BOT_USERNAME,
		users: structuredClone(DEMO_USERS),
		groupId: DEMO_GROUP_ID,
		quietGroupId: DEMO_QUIET_GROUP_ID,
		channelId: DEMO_CHANNEL_ID,
		stickers: structuredClone(DEMO_STICKERS),
	};
}

function seedDemo(state: SandboxState): void {
	state.addBot({
		bot_id: DEMO_BOT_ID,
		token: DEMO_BOT_TOKEN,
		bot_title: DEMO_BOT_TITLE,
		username: DEMO_BOT_USERNAME,
		description: 'A bot that lives in the Rubika sandbox',
		start_message: 'Hi! I am the sandbox demo bot.',
	});
	for (const user of Object.values(DEMO_USERS)) {
		state.addUser(user);
		state.privateChat(DEMO_BOT_ID, user.user_id, user.chat_id);
	}
	const { sara, reza, ali } = DEMO_USERS;
	state.addGroup({
		chat_id: DEMO_GROUP_ID,
		title: 'Sandbox Group',
		ownerId: sara.user_id,
		adminIds: [reza.user_id, DEMO_BOT_ID],
		memberIds: [ali.user_id],
	});
	state.addGroup({
		chat_id: DEMO_QUIET_GROUP_ID,
		title: 'Quiet Group',
		ownerId: reza.user_id,
		memberIds: [sara.user_id, ali.user_id, DEMO_BOT_ID],
	});
	state.addChannel({
		chat_id: DEMO_CHANNEL_ID,
		title: 'Sandbox Channel',
		username: 'sandbox_channel',
		ownerId: sara.user_id,
		adminIds: [DEMO_BOT_ID],
		memberIds: [reza.user_id, ali.user_id],
	});
}

function seedStickers(state: SandboxState): void {
	for (const sticker of Object.values(DEMO_STICKERS)) {
		state.addFile({
			file_id: sticker.file.file_id,
			file_name: sticker.file.file_name,
			mime_type: 'image/svg+xml',
			type: 'Image',
			bytes: Buffer.from(stickerSvg(sticker.emoji_character)),
		});
		state.stickers.set(sticker.sticker_id, structuredClone(sticker));
	}
}

export function applySeed(state: SandboxState, seed: SeedName): void {
	seedStickers(state);
	if (seed === 'demo') seedDemo(state);
}

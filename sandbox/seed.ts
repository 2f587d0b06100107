/**
 * The demo world, with fixed ids and token so tests, benchmarks and the demo can name them:
 * - the demo bot;
 * - Sara, Reza and Ali, each with a private chat with the bot;
 * - "Sandbox Group": owner Sara, admins Reza and the bot, member Ali;
 * - "Quiet Group": owner Reza, members Sara, Ali and the bot (not an admin: moderation is refused);
 * - "Sandbox Channel": owner Sara, admin the bot, subscribers Reza and Ali.
 */
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
	};
}

export function seedDemo(state: SandboxState): void {
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

export function applySeed(state: SandboxState, seed: SeedName): void {
	if (seed === 'demo') seedDemo(state);
}

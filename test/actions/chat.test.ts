import type { NodeApiError } from 'n8n-workflow';

import { DEMO_CHANNEL_ID, DEMO_GROUP_ID, DEMO_QUIET_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { useActionSandbox } from './helpers';

const { sara, reza, ali } = DEMO_USERS;
const actions = useActionSandbox('chat');
const { run, bodies, expectRefused, refusesEach } = actions;
const memberIds = (chatId: string) => actions.sandbox.chat(chatId).members.map((member) => member.id);

describe('Chat → Get', () => {
	test('a group: the chat object itself, one item per input item', async () => {
		const result = await run({ operation: 'getChat', chatId: '={{ $json.chat }}' }, [
			{ json: { chat: DEMO_GROUP_ID } },
			{ json: { chat: ` ${ali.chat_id} ` } },
		]);
		expect(result.error).toBeUndefined();
		expect(bodies('getChat')).toEqual([{ chat_id: DEMO_GROUP_ID }, { chat_id: ali.chat_id }]);
		expect(result.items.map((item) => item.json)).toEqual([
			{ chat_id: DEMO_GROUP_ID, chat_type: 'Group', title: 'Sandbox Group' },
			{ chat_id: ali.chat_id, chat_type: 'User', user_id: ali.user_id, first_name: 'Ali' },
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('an unknown chat is Rubika\'s INVALID_INPUT, with its dev_message', async () => {
		const result = await run({ operation: 'getChat', chatId: 'g0UnknownChat' });
		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe('Rubika getChat failed: INVALID_INPUT – chat_id: chat g0UnknownChat not found');
		expect(error.description).toContain('chat_id: chat g0UnknownChat not found');
		expect(error.context.itemIndex).toBe(0);
		expect(bodies('getChat')).toEqual([{ chat_id: 'g0UnknownChat' }]);
	});

	test('a missing or spaced chat id is refused before sending', async () => {
		expectRefused(await run({ operation: 'getChat', chatId: '={{ "" }}' }), 'Chat ID: is required [item 0]');
		expectRefused(
			await run({ operation: 'getChat', chatId: 'g0 abc' }),
			'Chat ID: must be a single ID without spaces, got "g0 abc" [item 0]',
		);
	});
});

describe('Chat → Ban Member / Unban Member', () => {
	test('ban removes and bans the member; unban lifts the ban only', async () => {
		expect(memberIds(DEMO_GROUP_ID)).toContain(ali.user_id);
		const banned = await run({ operation: 'banChatMember', chatId: DEMO_GROUP_ID, userId: ali.user_id });
		expect(banned.error).toBeUndefined();
		expect(bodies('banChatMember')).toEqual([{ chat_id: DEMO_GROUP_ID, user_id: ali.user_id }]);
		expect(banned.items.map((item) => item.json)).toEqual([{ chat_id: DEMO_GROUP_ID, user_id: ali.user_id, banned: true }]);
		expect(actions.sandbox.bans(DEMO_GROUP_ID)).toEqual([ali.user_id]);
		expect(memberIds(DEMO_GROUP_ID)).not.toContain(ali.user_id);

		const unbanned = await run({ operation: 'unbanChatMember', chatId: DEMO_GROUP_ID, userId: ali.user_id });
		expect(unbanned.error).toBeUndefined();
		expect(bodies('unbanChatMember')).toEqual([{ chat_id: DEMO_GROUP_ID, user_id: ali.user_id }]);
		expect(unbanned.items.map((item) => item.json)).toEqual([{ chat_id: DEMO_GROUP_ID, user_id: ali.user_id, banned: false }]);
		expect(actions.sandbox.bans(DEMO_GROUP_ID)).toEqual([]);
		expect(memberIds(DEMO_GROUP_ID)).not.toContain(ali.user_id);
	});

	test('a broadcast of bans across items, in a channel', async () => {
		const result = await run({ operation: 'banChatMember', chatId: DEMO_CHANNEL_ID, userId: '={{ $json.user }}' }, [
			{ json: { user: reza.user_id } },
			{ json: { user: ali.user_id } },
		]);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.user_id)).toEqual([reza.user_id, ali.user_id]);
		expect(actions.sandbox.bans(DEMO_CHANNEL_ID).sort()).toEqual([reza.user_id, ali.user_id].sort());
	});

	test('where the bot is not an admin: INVALID_ACCESS with Rubika\'s dev_message, nothing changes', async () => {
		const result = await run({ operation: 'banChatMember', chatId: DEMO_QUIET_GROUP_ID, userId: ali.user_id });
		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe('Rubika banChatMember failed: INVALID_ACCESS – the bot must be an admin of the chat');
		expect(error.description).toMatch(/not allowed.*admin/);
		expect(error.description).toContain('Rubika says: the bot must be an admin of the chat');
		expect(error.context.itemIndex).toBe(0);
		expect(bodies('banChatMember')).toEqual([{ chat_id: DEMO_QUIET_GROUP_ID, user_id: ali.user_id }]);
		expect(actions.sandbox.bans(DEMO_QUIET_GROUP_ID)).toEqual([]);
		expect(memberIds(DEMO_QUIET_GROUP_ID)).toContain(ali.user_id);
	});

	test('Continue On Fail keeps going and says why an item failed', async () => {
		const result = await run(
			{ operation: 'banChatMember', chatId: '={{ $json.chat }}', userId: ali.user_id },
			[{ json: { chat: DEMO_QUIET_GROUP_ID } }, { json: { chat: DEMO_GROUP_ID } }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'INVALID_ACCESS', dev_message: 'the bot must be an admin of the chat' });
		expect(result.items[1].json).toEqual({ chat_id: DEMO_GROUP_ID, user_id: ali.user_id, banned: true });
	});

	test('a missing user id is refused before sending', async () => {
		const result = await run({ operation: 'unbanChatMember', chatId: DEMO_GROUP_ID, userId: '={{ $json.nobody }}' });
		expectRefused(result, 'User ID: is required [item 0]');
	});
});

describe('Chat → Set Chat Keypad / Remove Chat Keypad', () => {
	const builderRows = {
		rows: [
			{ buttons: { button: [{ text: 'Yes', id: 'yes' }, { text: 'No' }] } },
			{ buttons: { button: [{ text: 'Share location', type: 'AskMyLocation', id: 'loc' }] } },
		],
	};
	const builtKeypad = {
		rows: [
			{
				buttons: [
					{ id: 'yes', type: 'Simple', button_text: 'Yes' },
					{ id: 'r1b2', type: 'Simple', button_text: 'No' },
				],
			},
			{ buttons: [{ id: 'loc', type: 'AskMyLocation', button_text: 'Share location' }] },
		],
	};

	test('builder: New with the keypad and both spellings of the one-time flag; stored on the chat', async () => {
		const result = await run({
			operation: 'setChatKeypad',
			chatId: sara.chat_id,
			chatKeypad: builderRows,
			resizeKeyboard: false,
			oneTimeKeyboard: true,
		});
		expect(result.error).toBeUndefined();
		const keypad = { ...builtKeypad, resize_keyboard: false, one_time_keyboard: true, on_time_keyboard: true };
		expect(bodies('editChatKeypad')).toEqual([{ chat_id: sara.chat_id, chat_keypad_type: 'New', chat_keypad: keypad }]);
		expect(result.items.map((item) => item.json)).toEqual([{ chat_id: sara.chat_id, chat_keypad: keypad }]);
		expect(actions.sandbox.chatKeypad(sara.chat_id)).toMatchObject(builtKeypad);
		expect(actions.sandbox.chat(sara.chat_id).chat_keypad_one_time).toBe(true);
	});

	test('builder defaults: resized, not one-time', async () => {
		const result = await run({ operation: 'setChatKeypad', chatId: DEMO_GROUP_ID, chatKeypad: builderRows });
		expect(result.error).toBeUndefined();
		expect(bodies('editChatKeypad')[0]).toEqual({
			chat_id: DEMO_GROUP_ID,
			chat_keypad_type: 'New',
			chat_keypad: { ...builtKeypad, resize_keyboard: true, one_time_keyboard: false, on_time_keyboard: false },
		});
	});

	test('JSON: flags written in the JSON win over the switches; replaces an earlier keypad', async () => {
		await run({ operation: 'setChatKeypad', chatId: sara.chat_id, chatKeypad: builderRows });
		const result = await run({
			operation: 'setChatKeypad',
			chatId: sara.chat_id,
			chatKeypadMode: 'json',
			chatKeypadJson: '{"rows": [{"buttons": [{"id": "menu", "button_text": "Menu"}]}], "on_time_keyboard": true}',
			resizeKeyboard: false,
			oneTimeKeyboard: false,
		});
		expect(result.error).toBeUndefined();
		const keypad = {
			rows: [{ buttons: [{ id: 'menu', type: 'Simple', button_text: 'Menu' }] }],
			resize_keyboard: false,
			one_time_keyboard: true,
			on_time_keyboard: true,
		};
		expect(bodies('editChatKeypad')[1]).toEqual({ chat_id: sara.chat_id, chat_keypad_type: 'New', chat_keypad: keypad });
		expect(actions.sandbox.chatKeypad(sara.chat_id)).toMatchObject({ rows: keypad.rows });
	});

	refusesEach(
		{ operation: 'setChatKeypad', chatId: sara.chat_id, chatKeypadMode: 'json' },
		[
			[
				'JSON that does not parse',
				{ chatKeypadJson: '{"rows": [' },
				/^Chat Keypad \(JSON\): the keypad is not valid JSON: .+ \[item 0\]$/,
			],
			[
				'a keypad without buttons',
				{ chatKeypadJson: '{"rows": []}' },
				/^Chat Keypad \(JSON\): must have at least one row with at least one button \[item 0\]$/,
			],
			[
				'the same button id twice',
				{ chatKeypadJson: '[[{"id": "a", "text": "A"}, {"id": "a", "text": "B"}]]' },
				/^Chat Keypad \(JSON\): row 1, button 2: button id "a" is used twice .* \[item 0\]$/,
			],
		],
		() => expect(actions.sandbox.chatKeypad(sara.chat_id)).toBeNull(),
	);

	test('an empty builder is refused before sending', async () => {
		const result = await run({ operation: 'setChatKeypad', chatId: sara.chat_id, chatKeypad: {} });
		expectRefused(result, 'Chat Keypad: must have at least one row with at least one button [item 0]');
	});

	test('remove: Remove, and the chat has no keypad any more', async () => {
		await run({ operation: 'setChatKeypad', chatId: reza.chat_id, chatKeypad: builderRows });
		expect(actions.sandbox.chatKeypad(reza.chat_id)).not.toBeNull();
		const result = await run({ operation: 'removeChatKeypad', chatId: reza.chat_id });
		expect(result.error).toBeUndefined();
		expect(bodies('editChatKeypad')[1]).toEqual({ chat_id: reza.chat_id, chat_keypad_type: 'Remove' });
		expect(result.items.map((item) => item.json)).toEqual([{ chat_id: reza.chat_id, chat_keypad: null }]);
		expect(actions.sandbox.chatKeypad(reza.chat_id)).toBeNull();
	});

	test('remove in an unknown chat is INVALID_INPUT', async () => {
		const result = await run({ operation: 'removeChatKeypad', chatId: 'b0NoSuchChat' });
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Rubika editChatKeypad failed: INVALID_INPUT – chat_id: chat b0NoSuchChat not found');
	});
});

/**
 * Link buttons (type "Link" + button_link, facts §2/§3: rubpy only) over real HTTP: what the sandbox
 * accepts and refuses, the `linkButtons` switch that plays a service without them, and what a tap does.
 */
import { DEMO_CHANNEL_ID, DEMO_USERS } from '../../sandbox';
import { useSandbox, withSandbox } from '../support/sandbox';
import { adminCall, fails, ok } from './helpers';

const { sara, ali } = DEMO_USERS;
const t = useSandbox();
beforeEach(() => {
	t.sandbox.configure({ linkButtons: 'accept' });
});

const RESUME = 'http://127.0.0.1:5678/webhook-waiting/123/abc?approved=true&signature=0f3a';
const urlButton = (id: string, link_url: unknown, extra: Record<string, unknown> = {}) => ({
	id,
	type: 'Link',
	button_text: id,
	button_link: { type: 'url', link_url, ...extra },
});
const joinButton = (id: string, username: unknown, extra: Record<string, unknown> = {}) => ({
	id,
	type: 'Link',
	button_text: id,
	button_link: { type: 'joinchannel', joinchannel_data: { username, ...extra } },
});
const inline = (...buttons: unknown[]) => ({ chat_id: sara.chat_id, text: 'Approve?', inline_keypad: { rows: [{ buttons }] } });
const chatKeypad = (...buttons: unknown[]) => ({ chat_id: sara.chat_id, text: 'Menu', chat_keypad_type: 'New', chat_keypad: { rows: [{ buttons }] } });

describe('link buttons are accepted and stored as sent', () => {
	test('a url button with n8n\'s resume URL and a joinchannel button, in one inline keypad', async () => {
		const buttons = [urlButton('approve', RESUME), joinButton('join', 'sandbox_channel', { ask_join: false })];
		const { message_id } = await ok(t.sandbox, 'sendMessage', inline(...buttons));
		expect(t.sandbox.message(sara.chat_id, message_id)?.inline_keypad).toEqual({ rows: [{ buttons }] });
	});

	test('https, open_chat_data, and null for absent fields are fine; so are chat keypads and editMessageKeypad', async () => {
		await ok(t.sandbox, 'sendMessage', inline(urlButton('a', 'https://rubika.ir/x?y=1#z', { joinchannel_data: null, open_chat_data: { object_guid: 'c0abc', object_type: 'Channel' } })));
		await ok(t.sandbox, 'sendMessage', inline(joinButton('b', 'Sandbox_Channel2', { ask_join: true })));
		await ok(t.sandbox, 'sendMessage', chatKeypad(urlButton('c', 'https://example.com')));
		expect(t.sandbox.chatKeypad(sara.chat_id)?.rows[0].buttons[0]).toMatchObject({ id: 'c', button_link: { type: 'url', link_url: 'https://example.com' } });
		await ok(t.sandbox, 'editChatKeypad', { chat_id: sara.chat_id, chat_keypad_type: 'New', chat_keypad: { rows: [{ buttons: [joinButton('d', 'sandbox_channel')] }] } });
		const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'x' });
		await ok(t.sandbox, 'editMessageKeypad', { chat_id: sara.chat_id, message_id, inline_keypad: { rows: [{ buttons: [urlButton('e', RESUME)] }] } });
	});
});

describe('malformed link buttons are INVALID_INPUT naming the row, button and field', () => {
	const refused: Array<[string, unknown, RegExp]> = [
		['a Link button without button_link', { id: 'x', type: 'Link', button_text: 'x' }, /inline_keypad\.rows\[0\]\.buttons\[1\]\.button_link is required for a Link button/],
		['button_link on a Simple button', { id: 'x', type: 'Simple', button_text: 'x', button_link: { type: 'url', link_url: RESUME } }, /buttons\[1\]\.button_link is only allowed on buttons of type Link, not "Simple"/],
		['button_link that is not an object', { id: 'x', type: 'Link', button_text: 'x', button_link: 'https://x.y' }, /buttons\[1\]\.button_link must be an object, got a string/],
		['an unknown link type', { id: 'x', type: 'Link', button_text: 'x', button_link: { type: 'URL', link_url: RESUME } }, /button_link\.type must be one of url, joinchannel; got "URL"/],
		['url without link_url', urlButton('x', undefined), /button_link\.link_url is required for type url/],
		['an empty link_url', urlButton('x', ''), /button_link\.link_url is required for type url/],
		['a relative link_url', urlButton('x', '/webhook-waiting/1'), /button_link\.link_url must be an absolute http\(s\) URL/],
		['a javascript: link_url', urlButton('x', 'javascript:alert(1)'), /link_url must be an absolute http\(s\) URL or a rubika:\/\/ link; got "javascript:alert\(1\)"/],
		['a data: link_url', urlButton('x', 'data:text/html,<b>x</b>'), /link_url must be an absolute http\(s\) URL/],
		['an ftp link_url', urlButton('x', 'ftp://example.com/f'), /link_url must be an absolute http\(s\) URL/],
		['a link_url with a space', urlButton('x', 'https://example.com/a b'), /link_url must be an absolute http\(s\) URL/],
		['a link_url with a newline', urlButton('x', 'https://example.com/\njavascript:x'), /link_url must be an absolute http\(s\) URL/],
		['joinchannel_data on a url button', urlButton('x', RESUME, { joinchannel_data: { username: 'sandbox_channel' } }), /joinchannel_data is only allowed for type joinchannel/],
		['joinchannel without joinchannel_data', { id: 'x', type: 'Link', button_text: 'x', button_link: { type: 'joinchannel' } }, /button_link\.joinchannel_data is required for type joinchannel/],
		['link_url on a joinchannel button', { id: 'x', type: 'Link', button_text: 'x', button_link: { type: 'joinchannel', link_url: RESUME, joinchannel_data: { username: 'abc' } } }, /link_url is only allowed for type url/],
		['a username with @', joinButton('x', '@sandbox_channel'), /joinchannel_data\.username must be a channel username.*got "@sandbox_channel"/],
		['a username with a space', joinButton('x', 'sandbox channel'), /joinchannel_data\.username must be a channel username/],
		['a missing username', joinButton('x', undefined), /joinchannel_data\.username must be a channel username/],
		['ask_join as a string', joinButton('x', 'sandbox_channel', { ask_join: 'yes' }), /joinchannel_data\.ask_join must be a boolean, got a string/],
		['open_chat_data without object_guid', urlButton('x', RESUME, { open_chat_data: { object_type: 'Channel' } }), /open_chat_data\.object_guid must be a non-empty string/],
	];
	test.each(refused)('%s', async (_name, button, message) => {
		const ok1 = { id: 'fine', type: 'Simple', button_text: 'fine' };
		expect(await fails(t.sandbox, 'sendMessage', inline(ok1, button))).toMatch(message);
		expect(t.sandbox.messages(sara.chat_id)).toEqual([]);
	});

	test('chat keypads, editMessageKeypad and editChatKeypad check the same way', async () => {
		expect(await fails(t.sandbox, 'sendMessage', chatKeypad(urlButton('x', 'javascript:alert(1)')))).toMatch(/^chat_keypad\.rows\[0\]\.buttons\[0\]\.button_link\.link_url/);
		const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'x' });
		expect(await fails(t.sandbox, 'editMessageKeypad', { chat_id: sara.chat_id, message_id, inline_keypad: { rows: [{ buttons: [{ id: 'x', type: 'Link', button_text: 'x' }] }] } })).toMatch(/button_link is required/);
		expect(await fails(t.sandbox, 'editChatKeypad', { chat_id: sara.chat_id, chat_keypad_type: 'New', chat_keypad: { rows: [{ buttons: [joinButton('x', '1abc')] }] } })).toMatch(/username must be a channel username/);
	});
});

describe('linkButtons: reject plays a service that does not know link buttons', () => {
	test('configure: any button_link is INVALID_INPUT; the Link-parts fallback in the text still works', async () => {
		t.sandbox.configure({ linkButtons: 'reject' });
		expect(await fails(t.sandbox, 'sendMessage', inline(urlButton('approve', RESUME)))).toMatch(
			/^inline_keypad\.rows\[0\]\.buttons\[0\]\.button_link: link buttons are not supported/,
		);
		expect(await fails(t.sandbox, 'sendMessage', inline(joinButton('join', 'sandbox_channel')))).toMatch(/button_link: link buttons are not supported/);
		expect(await fails(t.sandbox, 'sendMessage', chatKeypad(urlButton('c', RESUME)))).toMatch(/^chat_keypad\.rows\[0\]\.buttons\[0\]\.button_link: link buttons are not supported/);
		expect(t.sandbox.messages(sara.chat_id)).toEqual([]);
		// The fallback: the links as Link parts of the text, plain buttons (or none) in the keypad.
		const text = 'Approve or decline';
		await ok(t.sandbox, 'sendMessage', {
			chat_id: sara.chat_id,
			text,
			metadata: { meta_data_parts: [{ type: 'Link', from_index: 0, length: 7, link_url: RESUME }] },
			inline_keypad: { rows: [{ buttons: [{ id: 'other', type: 'Simple', button_text: 'Other' }] }] },
		});
	});

	test('PATCH /config switches it over HTTP, checks the value, and GET shows it', async () => {
		expect((await adminCall(t.sandbox, 'GET', '/config')).json).toMatchObject({ linkButtons: 'accept' });
		const bad = await adminCall(t.sandbox, 'PATCH', '/config', { linkButtons: 'ignore' });
		expect(bad.httpStatus).toBe(400);
		expect(bad.json.error).toMatch(/linkButtons must be accept or reject/);
		const patched = await adminCall(t.sandbox, 'PATCH', '/config', { linkButtons: 'reject' });
		expect(patched.json).toMatchObject({ linkButtons: 'reject' });
		await fails(t.sandbox, 'sendMessage', inline(urlButton('approve', RESUME)));
		await adminCall(t.sandbox, 'PATCH', '/config', { linkButtons: 'accept' });
		await ok(t.sandbox, 'sendMessage', inline(urlButton('approve', RESUME)));
	});

	test('startSandbox({linkButtons: "reject"}) starts that way', async () => {
		await withSandbox({ linkButtons: 'reject' }, async (other) => {
			expect(await fails(other, 'sendMessage', inline(urlButton('approve', RESUME)))).toMatch(/not supported/);
		});
	});
});

describe('tapping a link button', () => {
	test('url: answers the address, sends nothing to the bot; an ordinary inline tap on it is refused', async () => {
		const { message_id } = await ok(t.sandbox, 'sendMessage', inline(urlButton('approve', RESUME), { id: 'no', type: 'Simple', button_text: 'No' }));
		const tap = await adminCall(t.sandbox, 'POST', '/actions/tap-link-button', { userId: sara.user_id, chatId: sara.chat_id, messageId: message_id, buttonId: 'approve' });
		expect(tap.json).toEqual({ type: 'url', url: RESUME, buttonId: 'approve' });
		const inlineTap = await adminCall(t.sandbox, 'POST', '/actions/tap-inline-button', { userId: sara.user_id, chatId: sara.chat_id, messageId: message_id, buttonId: 'approve' });
		expect(inlineTap.httpStatus).toBe(400);
		expect(inlineTap.json.error).toMatch(/is a link button/);
		const notLink = await adminCall(t.sandbox, 'POST', '/actions/tap-link-button', { userId: sara.user_id, chatId: sara.chat_id, messageId: message_id, buttonId: 'no' });
		expect(notLink.json.error).toMatch(/is not a link button/);
		await t.sandbox.deliveriesSettled();
		expect(t.sandbox.deliveries).toEqual([]);
		expect(t.sandbox.updates()).toEqual([]);
	});

	test('joinchannel: joins the channel with that username; a ban or an unknown username is refused', async () => {
		const channel = t.sandbox.addChannel({ title: 'News', username: 'news_channel', ownerId: sara.user_id });
		const { message_id } = await ok(t.sandbox, 'sendMessage', inline(joinButton('join', 'news_channel'), joinButton('ghost', 'no_such_channel')));
		expect(t.sandbox.chat(channel.chat_id).members.some((member) => member.id === ali.user_id)).toBe(false);
		// Ali taps a button of Sara's chat: he cannot see it.
		const foreign = await adminCall(t.sandbox, 'POST', '/actions/tap-link-button', { userId: ali.user_id, chatId: sara.chat_id, messageId: message_id, buttonId: 'join' });
		expect(foreign.httpStatus).toBe(403);
		const tap = await adminCall(t.sandbox, 'POST', '/actions/tap-link-button', { userId: sara.user_id, chatId: sara.chat_id, messageId: message_id, buttonId: 'join' });
		expect(tap.json).toMatchObject({ type: 'joinchannel', username: 'news_channel', askJoin: false, chat: { chat_id: channel.chat_id } });
		const ghost = await adminCall(t.sandbox, 'POST', '/actions/tap-link-button', { userId: sara.user_id, chatId: sara.chat_id, messageId: message_id, buttonId: 'ghost' });
		expect(ghost.httpStatus).toBe(404);
		expect(ghost.json.error).toMatch(/no group or channel has the username no_such_channel/);

		// The demo channel has a username too; join-chat takes one instead of a chat id.
		expect(t.sandbox.chat(DEMO_CHANNEL_ID).username).toBe('sandbox_channel');
		const left = t.sandbox.setRole(DEMO_CHANNEL_ID, ali.user_id, null);
		expect(left.members.some((member) => member.id === ali.user_id)).toBe(false);
		const joined = await adminCall(t.sandbox, 'POST', '/actions/join-chat', { userId: ali.user_id, username: 'Sandbox_Channel' });
		expect(joined.json.members).toEqual(expect.arrayContaining([expect.objectContaining({ id: ali.user_id, role: 'member' })]));
		await ok(t.sandbox, 'banChatMember', { chat_id: DEMO_CHANNEL_ID, user_id: ali.user_id });
		const banned = await adminCall(t.sandbox, 'POST', '/actions/join-chat', { userId: ali.user_id, username: 'sandbox_channel' });
		expect(banned.httpStatus).toBe(403);
	});

	test('a chat-keypad link button opens its link instead of sending a message', async () => {
		await ok(t.sandbox, 'sendMessage', { ...chatKeypad(urlButton('site', 'https://example.com/')), chat_keypad: { rows: [{ buttons: [urlButton('site', 'https://example.com/')] }], one_time_keyboard: true } });
		expect(() => t.sandbox.userTapChatKeypadButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: 'site' })).toThrow(/is a link button/);
		expect(t.sandbox.userTapLinkButton({ userId: sara.user_id, chatId: sara.chat_id, buttonId: 'site' })).toEqual({ type: 'url', url: 'https://example.com/', buttonId: 'site' });
		expect(t.sandbox.chatKeypad(sara.chat_id)).toBeNull();
		expect(t.sandbox.messages(sara.chat_id).map((message) => message.sender_type)).toEqual(['Bot']);
	});

	test('channel usernames are checked and unique', () => {
		expect(() => t.sandbox.addChannel({ title: 'Dup', username: 'SANDBOX_CHANNEL', ownerId: sara.user_id })).toThrow(/exists/);
		expect(() => t.sandbox.addChannel({ title: 'Bad', username: '@bad name', ownerId: sara.user_id })).toThrow(/username must be/);
	});
});

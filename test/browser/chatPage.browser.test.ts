/**
 * The sandbox chat page in headless Chromium (Debian's, driven by playwright-core). The sandbox runs
 * in-process; the test plays the bot over raw HTTP, as a bot would, and a tiny webhook server receives
 * the inline taps the way a webhook-mode bot does.
 *
 * Skips, saying why, only when /usr/bin/chromium is missing and cannot be installed (see
 * scripts/ensure-browser.mjs, which installs it when run as root on Debian). With REQUIRE_BROWSER=1 (for CI)
 * or an explicit CHROMIUM_PATH, a missing browser fails the tests instead.
 */
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import type { RubikaSandbox } from '../../sandbox';
import { DEMO_BOT_TOKEN, DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import { useSandbox } from '../support/sandbox';
import type { TestBrowser } from './browser';
import { findChromium, openBrowser, saveScreenshot } from './browser';
import { direction, eventually, openChat } from './sandboxPage';

const { sara, reza, ali } = DEMO_USERS;
const chromium = findChromium();
const mustRun = Boolean(process.env.REQUIRE_BROWSER === '1' || process.env.CI === 'true' || process.env.CHROMIUM_PATH);
if (!chromium.path && !mustRun) console.warn(`[chat page browser test] SKIPPED: ${chromium.reason}`);
else if (chromium.path) console.log(`[chat page browser test] using ${chromium.path} (found or installed in ${chromium.ms} ms)`);
const describeInBrowser = chromium.path || mustRun ? describe : describe.skip;

jest.setTimeout(60_000);

/** Calls the API as the demo bot; fails the test on anything but OK. */
async function bot(sandbox: RubikaSandbox, method: string, body: unknown): Promise<any> {
	const response = await fetch(sandbox.methodUrl(method, DEMO_BOT_TOKEN), {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	const answer = (await response.json()) as { status: string; data?: unknown; dev_message?: string };
	if (answer.status !== 'OK') throw new Error(`${method}: ${answer.status} ${answer.dev_message ?? ''}`);
	return answer.data;
}

/** A webhook-mode bot's inline endpoint: records each tap and answers it through `onTap`. */
async function startInlineBot(onTap: (inline: any) => Promise<void>): Promise<{ url: string; taps: any[]; close(): Promise<void> }> {
	const taps: any[] = [];
	const server = http.createServer((req, res) => {
		let raw = '';
		req.on('data', (chunk) => (raw += chunk));
		req.on('end', () => {
			const inline = JSON.parse(raw).inline_message;
			taps.push(inline);
			// Answer the delivery first, like a real webhook; the bot's reply is a separate API call.
			res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
			void onTap(inline).catch((error) => console.error('inline bot failed', error));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
		taps,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

const keypad = (...rows: Array<Array<[id: string, text: string]>>) => ({
	rows: rows.map((row) => ({ buttons: row.map(([id, button_text]) => ({ id, type: 'Simple', button_text })) })),
});

describeInBrowser('the chat page in Chromium', () => {
	let browser: TestBrowser;

	beforeAll(async () => {
		if (!chromium.path) throw new Error(`no browser: ${chromium.reason}`);
		browser = await openBrowser({
			executablePath: chromium.path as string,
			// The event stream is cut when a page closes or the sandbox stops; that is no page error.
			ignoreFailedRequests: (url) => url.endsWith('/_sandbox/events'),
		});
	});
	afterAll(async () => {
		await browser?.close();
	});
	// After the hooks above: its afterAll closes the sandbox once the browser is closed.
	const t = useSandbox();

	test('Sara sends /start, the bot answers with an inline keypad, her taps reach the bot', async () => {
		const inlineBot = await startInlineBot(async (inline) => {
			const choice = inline.aux_data.button_id === 'yes' ? 'Yes' : 'No';
			await bot(t.sandbox, 'editMessageText', { chat_id: inline.chat_id, message_id: inline.message_id, text: `Do you like the sandbox? You said: ${choice}` });
			await bot(t.sandbox, 'sendMessage', { chat_id: inline.chat_id, text: `Thanks, ${choice} it is!`, reply_to_message_id: inline.message_id });
		});
		try {
			await bot(t.sandbox, 'updateBotEndpoints', { url: inlineBot.url, type: 'ReceiveInlineMessage' });
			await bot(t.sandbox, 'setCommands', {
				bot_commands: [
					{ command: 'start', description: 'Start over' },
					{ command: 'help', description: 'What I can do' },
				],
			});
			const page = await openChat(browser, t.sandbox, sara.user_id, sara.chat_id);
			await page.locator('#chat-title', { hasText: 'Sandbox Demo Bot' }).waitFor();

			// Typing "/" suggests the bot's commands; Enter sends the highlighted one.
			const input = page.getByRole('textbox', { name: 'Message' });
			await input.fill('/st');
			const suggestions = page.getByRole('listbox', { name: 'Bot commands' });
			await suggestions.getByRole('option', { name: /\/start/ }).waitFor();
			expect(await suggestions.getByRole('option').count()).toBe(1);
			await input.press('Enter');
			const start = await eventually(() => t.sandbox.messages(sara.chat_id).find((message) => message.text === '/start'), 'the /start message');
			expect(start).toMatchObject({ sender_type: 'User', sender_id: sara.user_id });
			await page.locator('.message.outgoing', { hasText: '/start' }).waitFor();

			// The bot replies with formatting, an inline keypad and a one-time chat keypad.
			const { message_id } = await bot(t.sandbox, 'sendMessage', {
				chat_id: sara.chat_id,
				text: 'Do you like the sandbox?',
				metadata: { meta_data_parts: [{ type: 'Bold', from_index: 12, length: 11 }] },
				inline_keypad: keypad([
					['yes', '👍 Yes'],
					['no', '👎 No'],
				]),
				chat_keypad_type: 'New',
				chat_keypad: { ...keypad([['menu', '📋 Menu']]), resize_keyboard: true, one_time_keyboard: true },
			});
			const question = page.locator(`#message-${message_id}`);
			await question.getByRole('button', { name: '👍 Yes' }).waitFor();
			expect(await question.locator('.text').innerHTML()).toBe('Do you like <strong>the sandbox</strong>?');

			// An inline tap goes to the bot's ReceiveInlineMessage endpoint with the button's id.
			await question.getByRole('button', { name: '👍 Yes' }).click();
			await eventually(() => inlineBot.taps.length === 1, 'the inline tap at the bot');
			expect(inlineBot.taps[0]).toEqual({
				sender_id: sara.user_id,
				text: '👍 Yes',
				location: null,
				aux_data: { start_id: null, button_id: 'yes' },
				message_id,
				chat_id: sara.chat_id,
			});
			await t.sandbox.deliveriesSettled();
			expect(t.sandbox.deliveries).toEqual([
				expect.objectContaining({ kind: 'inline_message', endpointType: 'ReceiveInlineMessage', delivered: true, httpStatus: 200 }),
			]);
			// The bot's follow-up (an edit and a reply) appears live.
			await question.locator('.edited').waitFor();
			await question.locator('.text', { hasText: 'You said: Yes' }).waitFor();
			await page.locator('.message.incoming', { hasText: 'Thanks, Yes it is!' }).locator('.reply-quote').waitFor();
			await page.locator('#toast', { hasText: 'reached the bot (HTTP 200)' }).waitFor();

			// A chat keypad tap is a new message with aux_data.button_id; a one-time keypad goes away.
			const keypadArea = page.getByRole('group', { name: 'Chat keypad' });
			await keypadArea.getByRole('button', { name: '📋 Menu' }).click();
			const tap = await eventually(() => t.sandbox.messages(sara.chat_id).find((message) => message.aux_data?.button_id === 'menu'), 'the keypad message');
			expect(tap).toMatchObject({ sender_type: 'User', sender_id: sara.user_id, text: '📋 Menu', aux_data: { start_id: null, button_id: 'menu' } });
			expect(t.sandbox.chatKeypad(sara.chat_id)).toBeNull();
			await keypadArea.waitFor({ state: 'hidden' });
			await page.locator('.message.outgoing', { hasText: '📋 Menu' }).locator('.aux', { hasText: 'button: menu' }).waitFor();

			expect(browser.errors(page)).toEqual([]);
			await page.close();
		} finally {
			await inlineBot.close();
		}
	});

	test('Sara replies, edits and deletes her messages; stop and start reach the bot', async () => {
		const page = await openChat(browser, t.sandbox, sara.user_id, sara.chat_id);
		const input = page.getByRole('textbox', { name: 'Message' });
		await input.fill('Hello there');
		await page.getByRole('button', { name: 'Send', exact: true }).click();
		const first = await eventually(() => t.sandbox.lastMessage(sara.chat_id), 'the message');
		expect(first.text).toBe('Hello there');
		const item = page.locator(`#message-${first.message_id}`);

		await item.getByRole('button', { name: 'Reply' }).click();
		await page.locator('#draft-context', { hasText: 'Reply to Sara Karimi' }).waitFor();
		await input.fill('A reply');
		await input.press('Enter');
		const reply = await eventually(() => t.sandbox.messages(sara.chat_id).find((message) => message.text === 'A reply'), 'the reply');
		expect(reply.reply_to_message_id).toBe(first.message_id);

		await item.getByRole('button', { name: 'Edit' }).click();
		await input.fill('Hello there, edited');
		await input.press('Enter');
		await item.locator('.edited').waitFor();
		expect(t.sandbox.message(sara.chat_id, first.message_id)).toMatchObject({ text: 'Hello there, edited', is_edited: true });

		await item.getByRole('button', { name: 'Delete' }).click();
		await item.waitFor({ state: 'detached' });
		expect(t.sandbox.message(sara.chat_id, first.message_id)).toBeUndefined();

		await page.getByRole('button', { name: 'Stop bot' }).click();
		await page.locator('#notice', { hasText: 'You stopped this bot' }).waitFor();
		await page.getByRole('button', { name: 'Restart bot' }).click();
		await page.locator('#notice').waitFor({ state: 'hidden' });
		const types = t.sandbox.updates().map((update) => update.type);
		expect(types).toEqual(['NewMessage', 'NewMessage', 'UpdatedMessage', 'RemovedMessage', 'StoppedBot', 'StartedBot', 'NewMessage']);

		// A polling bot has no ReceiveInlineMessage endpoint: the tap is logged as undelivered, and the page says so.
		const { message_id } = await bot(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'Rate us', inline_keypad: keypad([['five', '⭐️⭐️⭐️⭐️⭐️']]) });
		await page.locator(`#message-${message_id}`).getByRole('button', { name: '⭐️⭐️⭐️⭐️⭐️' }).click();
		await page.locator('#toast', { hasText: 'was not delivered: the bot has no ReceiveInlineMessage endpoint' }).waitFor();
		expect(t.sandbox.deliveries).toEqual([
			expect.objectContaining({ kind: 'inline_message', url: null, delivered: false, body: { inline_message: expect.objectContaining({ message_id, aux_data: { start_id: null, button_id: 'five' } }) } }),
		]);
		expect(browser.errors(page)).toEqual([]);
		await page.close();
	});

	test('a banned user cannot post and is told why; a channel subscriber cannot post', async () => {
		const page = await openChat(browser, t.sandbox, ali.user_id, DEMO_GROUP_ID);
		await page.getByRole('textbox', { name: 'Message' }).waitFor();
		await bot(t.sandbox, 'banChatMember', { chat_id: DEMO_GROUP_ID, user_id: ali.user_id });
		const notice = page.locator('#notice');
		await notice.locator('text=You are banned from Sandbox Group.').waitFor();
		await notice.locator('text=Banned by Sandbox Demo Bot (banChatMember)').waitFor();
		expect(await page.getByRole('textbox', { name: 'Message' }).isVisible()).toBe(false);
		await page.locator('.chat-item[aria-current="true"]', { hasText: 'Group · banned' }).waitFor();

		await page.getByRole('button', { name: /Sandbox Channel/ }).click();
		await notice.locator('text=Only the owner and admins post in this channel').waitFor();
		expect(browser.errors(page)).toEqual([]);
		await page.close();
	});

	test('the pinned bar shows the most recent pin and how many there are; quiz and poll cards say what they are', async () => {
		const page = await openChat(browser, t.sandbox, reza.user_id, DEMO_GROUP_ID);
		const bar = page.locator('#pinned-bar');
		expect(await bar.isVisible()).toBe(false);

		const { message_id: rules } = await bot(t.sandbox, 'sendMessage', { chat_id: DEMO_GROUP_ID, text: 'قوانین گروه: با احترام باشید' });
		await bot(t.sandbox, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: rules });
		await bar.locator('#pinned-preview', { hasText: 'قوانین گروه' }).waitFor();
		expect(await bar.locator('#pinned-count').textContent()).toBe('· 1 pinned');
		expect(await bar.locator('#pinned-preview').getAttribute('dir')).toBe('auto');
		expect(await bar.locator('#pinned-preview').evaluate(direction)).toBe('rtl');

		const { message_id: quiz } = await bot(t.sandbox, 'sendPoll', {
			chat_id: DEMO_GROUP_ID,
			question: 'Capital of Iran?',
			options: ['Tabriz', 'Tehran', 'Shiraz'],
			type: 'Quiz',
			correct_option_index: 1,
			explanation: 'Tehran has been the capital since 1786.',
			is_anonymous: false,
		});
		await bot(t.sandbox, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: quiz });
		await bar.locator('#pinned-preview', { hasText: '📊 Quiz: Capital of Iran?' }).waitFor();
		expect(await bar.locator('#pinned-count').textContent()).toBe('· 2 pinned');

		const card = page.locator(`#message-${quiz} .poll`);
		await card.locator('.poll-kind', { hasText: 'Quiz' }).waitFor();
		expect(await card.locator('li.correct .poll-option').allTextContents()).toEqual(['Tehran']);
		expect(await card.locator('.poll-correct').getAttribute('title')).toBe('Correct answer');
		expect(await card.locator('.poll-explanation').textContent()).toContain('Tehran has been the capital since 1786.');
		expect(await card.locator('.poll-status').textContent()).toBe('Quiz · Public · 0 votes');

		await bot(t.sandbox, 'sendPoll', { chat_id: DEMO_GROUP_ID, question: 'Lunch?', options: ['Kebab', 'Ash'], allows_multiple_answers: true, is_anonymous: true });
		const poll = page.locator('.poll', { hasText: 'Lunch?' });
		await poll.waitFor();
		expect(await poll.locator('.poll-status').textContent()).toBe('Poll · Anonymous · Multiple answers · 0 votes');
		expect(await poll.locator('.poll-kind').count()).toBe(0);

		// Unpinning the quiz brings the rules back; a click on the bar shows the pinned message.
		await bot(t.sandbox, 'unpinChatMessage', { chat_id: DEMO_GROUP_ID, message_id: '' });
		await bar.locator('#pinned-preview', { hasText: 'قوانین گروه' }).waitFor();
		expect(await bar.locator('#pinned-count').textContent()).toBe('· 1 pinned');
		await bar.click();
		await page.locator(`#message-${rules}.flash`).waitFor();
		await bot(t.sandbox, 'deleteMessage', { chat_id: DEMO_GROUP_ID, message_id: rules });
		await bar.waitFor({ state: 'hidden' });
		expect(browser.errors(page)).toEqual([]);
		await page.close();
	});

	test('renders what bots send, also in a narrow window; screenshot for the docs', async () => {
		await bot(t.sandbox, 'setCommands', {
			bot_commands: [
				{ command: 'start', description: 'Start over' },
				{ command: 'menu', description: 'Show the menu' },
				{ command: 'help', description: 'What I can do' },
			],
		});
		t.sandbox.userStartBot({ userId: sara.user_id });
		const welcome = 'Welcome to the Rubika sandbox! Format text with bold, italic, code and links.\nخوش آمدید! این پیام از راست به چپ است.';
		const at = (word: string) => welcome.indexOf(word);
		const { message_id: welcomeId } = await bot(t.sandbox, 'sendMessage', {
			chat_id: sara.chat_id,
			text: welcome,
			metadata: {
				meta_data_parts: [
					{ type: 'Bold', from_index: at('Rubika sandbox'), length: 'Rubika sandbox'.length },
					{ type: 'Bold', from_index: at('bold'), length: 4 },
					{ type: 'Italic', from_index: at('italic'), length: 6 },
					{ type: 'Mono', from_index: at('code'), length: 4 },
					{ type: 'Link', from_index: at('links'), length: 5, link_url: 'https://rubika.ir' },
					{ type: 'Bold', from_index: at('خوش آمدید'), length: 'خوش آمدید'.length },
				],
			},
			inline_keypad: keypad(
				[
					['docs', '📖 Docs'],
					['about', 'ℹ️ About'],
				],
				[['lang', '🌐 فارسی']],
			),
		});
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'Thanks! 🙏', replyToMessageId: welcomeId });
		await bot(t.sandbox, 'sendPoll', { chat_id: sara.chat_id, question: 'Which trigger do you use?', options: ['Polling', 'Webhook'] });
		const { upload_url } = await bot(t.sandbox, 'requestSendFile', { type: 'File' });
		const form = new FormData();
		form.append('file', new Blob(['%PDF-1.4 sandbox report'], { type: 'application/pdf' }), 'weekly-report.pdf');
		const uploaded = (await (await fetch(upload_url, { method: 'POST', body: form })).json()) as { data: { file_id: string } };
		await bot(t.sandbox, 'sendFile', { chat_id: sara.chat_id, file_id: uploaded.data.file_id, text: 'Your weekly report' });
		await bot(t.sandbox, 'sendMessage', {
			chat_id: sara.chat_id,
			text: 'Pick an option below, or type / for commands.',
			metadata: { meta_data_parts: [{ type: 'Mono', from_index: 30, length: 1 }] },
			chat_keypad_type: 'New',
			chat_keypad: { ...keypad([['menu', '📋 Menu'], ['settings', '⚙️ Settings']], [['help', '❓ Help']]), resize_keyboard: true },
		});

		const page = await openChat(browser, t.sandbox, sara.user_id, sara.chat_id, { width: 1200, height: 960 });
		const welcomeItem = page.locator(`#message-${welcomeId}`);
		await welcomeItem.waitFor();
		const text = welcomeItem.locator('.text');
		expect(await text.getAttribute('dir')).toBe('auto');
		expect(await text.locator('a').getAttribute('href')).toBe('https://rubika.ir');
		expect(await text.locator('strong').allTextContents()).toEqual(['Rubika sandbox', 'bold', 'خوش آمدید']);
		await page.locator('.poll', { hasText: 'Which trigger do you use?' }).waitFor();
		const download = page.locator('a.file-link', { hasText: 'weekly-report.pdf' });
		expect(await download.getAttribute('href')).toMatch(/^\/files\/[^/]+\/weekly-report\.pdf$/);
		const file = await page.evaluate(async (href) => (await fetch(href as string)).text(), await download.getAttribute('href'));
		expect(file).toBe('%PDF-1.4 sandbox report');
		await page.locator('.message.outgoing .reply-quote', { hasText: 'Welcome to the Rubika sandbox' }).waitFor();
		await page.getByRole('group', { name: 'Chat keypad' }).getByRole('button', { name: '⚙️ Settings' }).waitFor();
		await page.locator('#commands-button').click();
		expect(await page.getByRole('listbox', { name: 'Bot commands' }).getByRole('option').allTextContents()).toEqual(['/startStart over', '/menuShow the menu', '/helpWhat I can do']);
		await page.keyboard.press('Escape');
		await page.locator('#suggestions').waitFor({ state: 'hidden' });
		await page.getByRole('textbox', { name: 'Message' }).fill('');
		await page.mouse.move(0, 0);
		// The docs' picture is refreshed only on request (RUBIKA_SCREENSHOTS=1), so a test run leaves the repository clean.
		const target = process.env.RUBIKA_SCREENSHOTS === '1' ? 'docs/images/chat-page.png' : path.join(os.tmpdir(), 'rubika-chat-page.png');
		await saveScreenshot(page, target);

		// Locations, contacts and forwards, arriving live.
		await bot(t.sandbox, 'sendLocation', { chat_id: sara.chat_id, latitude: '35.6892', longitude: '51.3890' });
		await bot(t.sandbox, 'sendContact', { chat_id: sara.chat_id, first_name: 'Reza', last_name: 'Rahimi', phone_number: '+98 912 000 0000' });
		const fromGroup = t.sandbox.userSendMessage({ userId: reza.user_id, chatId: DEMO_GROUP_ID, text: 'جلسه ساعت ۱۰ است 🕙' });
		await bot(t.sandbox, 'forwardMessage', { from_chat_id: DEMO_GROUP_ID, message_id: fromGroup.message_id, to_chat_id: sara.chat_id });
		await page.locator('.location-card', { hasText: '35.6892, 51.3890' }).waitFor();
		await page.locator('.contact-card', { hasText: 'Reza Rahimi' }).waitFor();
		const forwarded = page.locator('.message', { has: page.locator('.forwarded', { hasText: 'Forwarded from Reza Rahimi' }) });
		await forwarded.waitFor();
		// Persian runs right to left: dir="auto" lets the browser take the direction from the text itself.
		expect(await forwarded.locator('.text').evaluate(direction)).toBe('rtl');
		expect(await text.evaluate(direction)).toBe('ltr');

		// A narrow window: one column, nothing wider than the screen.
		await page.setViewportSize({ width: 380, height: 760 });
		const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
		expect(overflow).toBeLessThanOrEqual(0);
		expect(await page.getByRole('textbox', { name: 'Message' }).isVisible()).toBe(true);
		expect(browser.errors(page)).toEqual([]);
		await page.close();
	});
});

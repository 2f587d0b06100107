/**
 * The chat page over plain HTTP: the sandbox serves the page and its files, streams its changes as
 * Server-Sent Events, and the formatting renderer the page uses turns text + metadata into the right HTML.
 * The page itself, in a real browser, is tested in test/browser/.
 */
import { readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { DEMO_BOT_ID, DEMO_GROUP_ID, DEMO_STICKERS, DEMO_USERS } from '../../sandbox';
import * as jalali from '../../sandbox/web/jalali';
import { escapeHtml, isSafeUrl, previewText, renderText } from '../../sandbox/web/render';
import { useSandbox, withSandbox } from '../support/sandbox';
import { adminCall, ok, startReceiver } from './helpers';

const { sara, ali } = DEMO_USERS;

interface SseEvent {
	id?: string;
	event: string;
	data: any;
}

/** A raw SSE client: collects parsed events and lets a test wait for one. */
function openStream(url: string): Promise<{ events: SseEvent[]; next(event: string, match?: (data: any) => boolean, timeoutMs?: number): Promise<SseEvent>; headers: http.IncomingHttpHeaders; close(): void; ended: Promise<void> }> {
	return new Promise((resolve, reject) => {
		const events: SseEvent[] = [];
		const waiters: Array<() => void> = [];
		const request = http.get(url, (response) => {
			const ended = new Promise<void>((done) => response.once('close', () => done()));
			response.setEncoding('utf8');
			let buffer = '';
			response.on('data', (chunk: string) => {
				buffer += chunk;
				let end: number;
				while ((end = buffer.indexOf('\n\n')) >= 0) {
					const block = buffer.slice(0, end);
					buffer = buffer.slice(end + 2);
					const fields: Record<string, string> = {};
					for (const line of block.split('\n')) {
						if (!line || line.startsWith(':')) continue;
						const colon = line.indexOf(':');
						fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '');
					}
					if (fields.event) events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data) });
					waiters.splice(0).forEach((wake) => wake());
				}
			});
			resolve({
				events,
				headers: response.headers,
				next(event, match = () => true, timeoutMs = 3000) {
					return new Promise((found, fail) => {
						const deadline = setTimeout(() => fail(new Error(`no ${event} event; saw ${events.map((e) => e.event).join(', ')}`)), timeoutMs);
						const look = () => {
							const hit = events.find((candidate) => candidate.event === event && match(candidate.data));
							if (hit) {
								clearTimeout(deadline);
								found(hit);
							} else waiters.push(look);
						};
						look();
					});
				},
				close: () => request.destroy(),
				ended,
			});
		});
		request.on('error', reject);
	});
}

async function get(url: string): Promise<{ status: number; type: string; body: string; headers: http.IncomingHttpHeaders }> {
	const response = await fetch(url);
	return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text(), headers: Object.fromEntries(response.headers) };
}

describe('serving the page', () => {
	const t = useSandbox();

	test('/ and /chat serve the page; its entry module, style, renderer, calendar and icon are served with their types', async () => {
		for (const path of ['/', '/chat']) {
			const page = await get(t.sandbox.baseUrl + path);
			expect(page.status).toBe(200);
			expect(page.type).toBe('text/html; charset=utf-8');
			expect(page.body).toContain('<title>Rubika sandbox chat</title>');
			expect(page.headers['content-security-policy']).toContain("script-src 'self'");
		}
		const page = (await get(t.sandbox.baseUrl + '/')).body;
		for (const [asset, type] of [
			['/web/app/main.js', 'text/javascript; charset=utf-8'],
			['/web/render.js', 'text/javascript; charset=utf-8'],
			['/web/jalali.js', 'text/javascript; charset=utf-8'],
			['/web/style.css', 'text/css; charset=utf-8'],
			['/web/icon.svg', 'image/svg+xml'],
		]) {
			expect(page).toContain(`"${asset}"`);
			const answer = await get(t.sandbox.baseUrl + asset);
			expect({ asset, status: answer.status, type: answer.type }).toEqual({ asset, status: 200, type });
		}
	});

	test('every module of the page (sandbox/web/app/) is served as JavaScript, which a module script needs', async () => {
		const page = (await get(t.sandbox.baseUrl + '/')).body;
		expect(page).toContain('<script type="module" src="/web/app/main.js">');
		const modules = readdirSync(path.join(__dirname, '../../sandbox/web/app'));
		expect(modules).toContain('main.js');
		for (const module of modules) {
			const answer = await get(`${t.sandbox.baseUrl}/web/app/${module}`);
			expect({ module, status: answer.status, type: answer.type, nosniff: answer.headers['x-content-type-options'] }).toEqual({
				module,
				status: 200,
				type: 'text/javascript; charset=utf-8',
				nosniff: 'nosniff',
			});
		}
	});

	test('only files of the page: no sources, no other folders, no other methods', async () => {
		for (const path of [
			'/web/events.ts',
			'/web/serve.ts',
			'/web/render.d.ts',
			'/web/jalali.d.ts',
			'/web/..%2Fserver.ts',
			'/web/../server.ts',
			'/web/.hidden.js',
			'/web/missing.js',
			'/web/',
			'/web/app/',
			'/web/app/.hidden.js',
			'/web/app/missing.js',
			'/web/app%2Fmain.js',
			'/web/app/..%2Fserve.ts',
			'/web/app/app/main.js',
			'/web/other/main.js',
		]) {
			expect({ path, status: (await get(t.sandbox.baseUrl + path)).status }).toEqual({ path, status: 404 });
		}
		const post = await fetch(t.sandbox.baseUrl + '/', { method: 'POST', body: 'x' });
		expect(post.status).toBe(405);
		// The API and the admin API are untouched by the new routes.
		expect((await adminCall(t.sandbox, 'GET', '/health')).json).toEqual({ ok: true });
		expect((await ok(t.sandbox, 'getMe')).bot.bot_id).toBe(DEMO_BOT_ID);
	});
});

describe('the event stream', () => {
	const t = useSandbox();

	test('is an event stream that says hello, then announces a bot message and a user action', async () => {
		const stream = await openStream(`${t.sandbox.baseUrl}/_sandbox/events`);
		try {
			expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
			await stream.next('hello');

			const { message_id } = await ok(t.sandbox, 'sendMessage', {
				chat_id: sara.chat_id,
				text: 'Hello Sara',
				inline_keypad: { rows: [{ buttons: [{ id: 'yes', type: 'Simple', button_text: 'Yes' }] }] },
			});
			const fromBot = await stream.next('message', (data) => data.message.message_id === message_id);
			expect(fromBot.data).toEqual({
				chat_id: sara.chat_id,
				message: expect.objectContaining({ sender_type: 'Bot', text: 'Hello Sara', inline_keypad: expect.any(Object) }),
			});

			const sent = (await adminCall(t.sandbox, 'POST', '/actions/send-message', { userId: sara.user_id, chatId: sara.chat_id, text: 'hi bot' })).json;
			const fromUser = await stream.next('message', (data) => data.message.message_id === sent.message_id);
			expect(fromUser.data.message).toMatchObject({ sender_type: 'User', sender_id: sara.user_id, text: 'hi bot' });
			// Event ids only grow, so a client can tell order.
			expect(Number(fromUser.id)).toBeGreaterThan(Number(fromBot.id));
		} finally {
			stream.close();
		}
	});

	test('edits, deletions, chat keypads, bans, commands and in-process actions', async () => {
		const stream = await openStream(`${t.sandbox.baseUrl}/_sandbox/events`);
		try {
			await stream.next('hello');
			const { message_id } = await ok(t.sandbox, 'sendMessage', {
				chat_id: sara.chat_id,
				text: 'menu',
				chat_keypad_type: 'New',
				chat_keypad: { rows: [{ buttons: [{ id: 'm', type: 'Simple', button_text: 'Menu' }] }], one_time_keyboard: true },
			});
			const keypad = await stream.next('chat', (data) => data.chat.chat_id === sara.chat_id && data.chat.chat_keypad !== null);
			expect(keypad.data.chat).toMatchObject({ chat_keypad_one_time: true, chat_keypad: { rows: [{ buttons: [{ id: 'm' }] }] } });

			await ok(t.sandbox, 'editMessageText', { chat_id: sara.chat_id, message_id, text: 'menu (edited)' });
			const edited = await stream.next('message-edited');
			expect(edited.data.message).toMatchObject({ message_id, text: 'menu (edited)', is_edited: true });

			await ok(t.sandbox, 'deleteMessage', { chat_id: sara.chat_id, message_id });
			expect((await stream.next('message-deleted')).data).toEqual({ chat_id: sara.chat_id, message_id });

			await ok(t.sandbox, 'banChatMember', { chat_id: DEMO_GROUP_ID, user_id: ali.user_id });
			const ban = await stream.next('chat', (data) => data.chat.chat_id === DEMO_GROUP_ID);
			expect(ban.data.chat.banned).toEqual([ali.user_id]);

			await ok(t.sandbox, 'setCommands', { bot_commands: [{ command: 'help', description: 'How to use me' }] });
			const bot = await stream.next('bot');
			expect(bot.data.bot).toMatchObject({ bot_id: DEMO_BOT_ID, commands: [{ command: 'help', description: 'How to use me' }] });
			expect(bot.data.bot).not.toHaveProperty('token');

			// An in-process action (no HTTP request) still shows up: the one-time keypad tap clears the keypad.
			const tapped = t.sandbox.userTapChatKeypadButton({ userId: sara.user_id, buttonId: 'm' });
			const tap = await stream.next('message', (data) => data.message.message_id === tapped.message_id);
			expect(tap.data.message.aux_data).toEqual({ start_id: null, button_id: 'm' });
			await stream.next('chat', (data) => data.chat.chat_id === sara.chat_id && data.chat.chat_keypad === null);

			t.sandbox.reset();
			await stream.next('reset');
		} finally {
			stream.close();
		}
	});

	test('pins and unpins show up as chat events carrying the pinned message ids', async () => {
		const stream = await openStream(`${t.sandbox.baseUrl}/_sandbox/events`);
		try {
			await stream.next('hello');
			const { message_id } = await ok(t.sandbox, 'sendMessage', { chat_id: DEMO_GROUP_ID, text: 'House rules' });
			await ok(t.sandbox, 'pinChatMessage', { chat_id: DEMO_GROUP_ID, message_id });
			await stream.next('chat', (data) => data.chat.chat_id === DEMO_GROUP_ID && data.chat.pinned_message_ids.includes(message_id));
			await ok(t.sandbox, 'unpinAllChatMessages', { chat_id: DEMO_GROUP_ID });
			await stream.next('chat', (data) => data.chat.chat_id === DEMO_GROUP_ID && data.chat.pinned_message_ids.length === 0);
		} finally {
			stream.close();
		}
	});

	test('an inline tap shows up as a delivery, queued and then finished', async () => {
		const receiver = await startReceiver();
		const stream = await openStream(`${t.sandbox.baseUrl}/_sandbox/events`);
		try {
			await stream.next('hello');
			await ok(t.sandbox, 'updateBotEndpoints', { url: receiver.url, type: 'ReceiveInlineMessage' });
			const { message_id } = await ok(t.sandbox, 'sendMessage', {
				chat_id: sara.chat_id,
				text: 'vote',
				inline_keypad: { rows: [{ buttons: [{ id: 'up', type: 'Simple', button_text: '👍' }] }] },
			});
			await adminCall(t.sandbox, 'POST', '/actions/tap-inline-button', { userId: sara.user_id, chatId: sara.chat_id, messageId: message_id, buttonId: 'up' });
			const done = await stream.next('delivery', (data) => data.delivery.delivered === true);
			expect(done.data.delivery).toMatchObject({
				kind: 'inline_message',
				httpStatus: 200,
				body: { inline_message: { sender_id: sara.user_id, message_id, aux_data: { button_id: 'up' } } },
			});
		} finally {
			stream.close();
			await receiver.close();
		}
	});

	test('clients connected at once all get the events; closing the sandbox ends their streams', async () => {
		const streams = await withSandbox({}, async (local) => {
			const first = await openStream(`${local.baseUrl}/_sandbox/events`);
			const second = await openStream(`${local.baseUrl}/_sandbox/events`);
			await Promise.all([first.next('hello'), second.next('hello')]);
			local.userSendMessage({ userId: sara.user_id, text: 'to both' });
			await Promise.all([first.next('message'), second.next('message')]);
			return [first, second];
		});
		// The sandbox is closed now: both responses must have ended (a stream left open would hang here).
		await Promise.all(streams.map((stream) => stream.ended));
		expect(streams.map((stream) => stream.events.at(-1)?.event)).toEqual(['message', 'message']);
	});
});

describe('the formatting renderer (sandbox/web/render.js, shared with the page)', () => {
	const part = (type: string, from_index: number, length: number, extra: Record<string, string> = {}) => ({ type, from_index, length, ...extra }) as any;

	test.each([
		['plain text, escaped', 'a < b & "c"', [], 'a &lt; b &amp; &quot;c&quot;'],
		['no metadata at all', 'hi', undefined, 'hi'],
		['bold', 'Hello world', [part('Bold', 0, 5)], '<strong>Hello</strong> world'],
		['every inline style', 'BIUSM', [part('Bold', 0, 1), part('Italic', 1, 1), part('Underline', 2, 1), part('Strike', 3, 1), part('Mono', 4, 1)], '<strong>B</strong><em>I</em><u>U</u><s>S</s><code>M</code>'],
		['nested: italic inside bold', 'abcdef', [part('Bold', 0, 6), part('Italic', 2, 2)], '<strong>ab<em>cd</em>ef</strong>'],
		['nested, listed inner first', 'abcdef', [part('Italic', 2, 2), part('Bold', 0, 6)], '<strong>ab<em>cd</em>ef</strong>'],
		['overlapping ranges are split, never crossed', 'abcdef', [part('Bold', 0, 4), part('Italic', 2, 4)], '<strong>ab<em>cd</em></strong><em>ef</em>'],
		['same range: block, link, styles from outside in', 'same', [part('Italic', 0, 4), part('Bold', 0, 4), part('Quote', 0, 4)], '<blockquote><strong><em>same</em></strong></blockquote>'],
		['pre and quote', 'code\nsaid', [part('Pre', 0, 4), part('Quote', 5, 4)], '<pre>code</pre>\n<blockquote>said</blockquote>'],
		['spoiler', 'it was him', [part('Spoiler', 7, 3)], 'it was <span class="spoiler" tabindex="0" title="Spoiler: click to reveal">him</span>'],
		['link', 'see docs', [part('Link', 4, 4, { link_url: 'https://rubika.ir/docs?a=1&b=2' })], 'see <a href="https://rubika.ir/docs?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">docs</a>'],
		['mention', 'hi Sara', [part('MentionText', 3, 4, { mention_text_user_id: 'u0DwXV4kXs1JEU2EDK5drafw2pSOGBHD' })], 'hi <span class="mention" data-user-id="u0DwXV4kXs1JEU2EDK5drafw2pSOGBHD">Sara</span>'],
		['emoji count two UTF-16 units', '👋 Hi', [part('Bold', 3, 2)], '👋 <strong>Hi</strong>'],
		['emoji inside a range', 'a👍b', [part('Italic', 1, 2)], 'a<em>👍</em>b'],
		['a range cutting an emoji in half grows to the whole emoji', '👍ok', [part('Bold', 1, 1)], '<strong>👍</strong>ok'],
		['family emoji (joined code points) stays whole', 'x👨‍👩‍👧y', [part('Bold', 1, 8)], 'x<strong>👨‍👩‍👧</strong>y'],
		['Persian', 'سلام دنیا', [part('Bold', 5, 4)], 'سلام <strong>دنیا</strong>'],
		['Persian and English nested', 'ربات Rubika خوب', [part('Italic', 0, 15), part('Bold', 5, 6)], '<em>ربات <strong>Rubika</strong> خوب</em>'],
		['script in text is escaped, inside and outside parts', '<script>alert(1)</script>', [part('Bold', 0, 8)], '<strong>&lt;script&gt;</strong>alert(1)&lt;/script&gt;'],
		['a javascript: link is not clickable', 'click', [part('Link', 0, 5, { link_url: 'javascript://%0aalert(1)' })], '<span class="link-unsafe" title="javascript://%0aalert(1)">click</span>'],
		['quotes in a link address cannot leave the attribute', 'x', [part('Link', 0, 1, { link_url: 'https://a.example/"onmouseover="alert(1)' })], '<a href="https://a.example/&quot;onmouseover=&quot;alert(1)" target="_blank" rel="noopener noreferrer">x</a>'],
		['quotes in a mention id are escaped', 'x', [part('MentionText', 0, 1, { mention_text_user_id: '"><img src=x>' })], '<span class="mention" data-user-id="&quot;&gt;&lt;img src=x&gt;">x</span>'],
		['unknown types and bad ranges are ignored; ranges past the end are cut', 'abc', [part('Blink', 0, 3), part('Bold', -1, 2), part('Italic', 1, 0), part('Mono', 1, 99)], 'a<code>bc</code>'],
	])('%s', (_name, text, parts, html) => {
		expect(renderText(text, parts as any)).toBe(html);
	});

	test('helpers', () => {
		expect(escapeHtml(`<a href='x'>&</a>`)).toBe('&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;');
		expect(isSafeUrl('https://rubika.ir')).toBe(true);
		expect(isSafeUrl('rubika://profile')).toBe(true);
		expect(isSafeUrl('javascript://x')).toBe(false);
		expect(isSafeUrl('data:text/html,x')).toBe(false);
		expect(isSafeUrl('https://a b')).toBe(false);
		expect(previewText({ text: 'hello' })).toBe('hello');
		expect(previewText({ poll: { question: 'Lunch?', options: ['a', 'b'] } })).toBe('📊 Lunch?');
		expect(previewText({ poll: { question: 'Capital?', options: ['a', 'b'], type: 'Quiz', correct_option_index: 0 } })).toBe('📊 Quiz: Capital?');
		expect(previewText({ sticker: DEMO_STICKERS.party })).toBe('🎉 Sticker');
		expect(previewText({ file: { file_id: 'f', file_name: 'report.pdf' } })).toBe('📎 report.pdf');
	});
});

describe('the Persian calendar (sandbox/web/jalali.js, the date picker’s arithmetic)', () => {
	const gregorian = (date: jalali.CalendarDate) => `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;

	test.each([
		['Nowruz 1403', [1403, 1, 1], '2024-03-20'],
		['the last day of 1399, a leap year', [1399, 12, 30], '2021-03-20'],
		['Nowruz 1400', [1400, 1, 1], '2021-03-21'],
		['the last day of 1402, not a leap year', [1402, 12, 29], '2024-03-19'],
		['the last day of 1403, a leap year', [1403, 12, 30], '2025-03-20'],
		['Nowruz 1404', [1404, 1, 1], '2025-03-21'],
		['22 Bahman 1357', [1357, 11, 22], '1979-02-11'],
		['the Unix epoch', [1348, 10, 11], '1970-01-01'],
		['the last day of 1408, the leap year after 1403 (not 1407)', [1408, 12, 30], '2030-03-20'],
		['the first day of Mehr, after six months of 31 days', [1403, 7, 1], '2024-09-22'],
	])('%s: %j = %s', (_name, [year, month, day], date) => {
		expect(gregorian(jalali.toGregorian(year, month, day))).toBe(date);
		const [gy, gm, gd] = date.split('-').map(Number);
		expect(jalali.toJalali(gy, gm, gd)).toEqual({ year, month, day });
	});

	test('leap years and month lengths', () => {
		const leap = [1391, 1395, 1399, 1403, 1408, 1412, 1416];
		for (let year = 1390; year <= 1416; year++) expect({ year, leap: jalali.isLeapYear(year) }).toEqual({ year, leap: leap.includes(year) });
		expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((month) => jalali.monthLength(1403, month))).toEqual([31, 31, 31, 31, 31, 31, 30, 30, 30, 30, 30, 30]);
		expect(jalali.monthLength(1402, 12)).toBe(29);
	});

	test('agrees with ICU’s Persian calendar (Node’s Intl) on every day of 1300–1500, and goes back and forth', () => {
		const icu = new Intl.DateTimeFormat('en-u-ca-persian-nu-latn', { timeZone: 'UTC', year: 'numeric', month: 'numeric', day: 'numeric' });
		expect(icu.resolvedOptions().calendar).toBe('persian');
		const first = jalali.toEpochDay(1300, 1, 1);
		const end = jalali.toEpochDay(1501, 1, 1);
		expect(end - first).toBe(73414);
		const differ: string[] = [];
		for (let epochDay = first; epochDay < end; epochDay++) {
			const parts = Object.fromEntries(icu.formatToParts(new Date(epochDay * 86_400_000)).map((part) => [part.type, part.value]));
			const ours = jalali.fromEpochDay(epochDay);
			if (`${ours.year}/${ours.month}/${ours.day}` !== `${parts.year}/${parts.month}/${parts.day}` || jalali.toEpochDay(ours.year, ours.month, ours.day) !== epochDay) {
				differ.push(`${gregorian(jalali.toGregorian(ours.year, ours.month, ours.day))}: ours ${ours.year}/${ours.month}/${ours.day}, ICU ${parts.year}/${parts.month}/${parts.day}`);
			}
		}
		expect(differ).toEqual([]);
	});

	test('Persian digits both ways, Arabic-Indic ones read too; the names', () => {
		expect(jalali.persianDigits('1403/01/15')).toBe('۱۴۰۳/۰۱/۱۵');
		expect(jalali.latinDigits('۱۴۰۳/۰۱/۱۵')).toBe('1403/01/15');
		expect(jalali.latinDigits('١٤٠٣-٠١-١٥')).toBe('1403-01-15');
		expect(jalali.MONTH_NAMES).toHaveLength(12);
		expect([jalali.MONTH_NAMES[0], jalali.MONTH_NAMES[11]]).toEqual(['فروردین', 'اسفند']);
		expect([jalali.WEEKDAY_NAMES[0], jalali.WEEKDAY_NAMES[6]]).toEqual(['شنبه', 'جمعه']);
	});
});

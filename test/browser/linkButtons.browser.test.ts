/**
 * Link buttons on the sandbox chat page in headless Chromium: the bot (over raw HTTP with the demo token)
 * sends a url button (an n8n-style resume URL on a tiny page server of this test), a joinchannel button
 * and a Link part in the text; the user's taps open a new tab at the URL and join the channel, and nothing
 * reaches the bot. A javascript: URL cannot be sent, and one smuggled into the state is never opened.
 * Skips like chatPage.browser.test.ts when Chromium is missing and cannot be installed.
 */
import http from 'node:http';

import type { RubikaSandbox } from '../../sandbox';
import { DEMO_BOT_TOKEN, DEMO_USERS } from '../../sandbox';
import { useSandbox } from '../support/sandbox';
import type { TestBrowser } from './browser';
import { findChromium, openBrowser } from './browser';
import { direction, eventually, openChat } from './sandboxPage';

const { sara, reza } = DEMO_USERS;
const chromium = findChromium();
const mustRun = Boolean(process.env.REQUIRE_BROWSER === '1' || process.env.CI === 'true' || process.env.CHROMIUM_PATH);
if (!chromium.path && !mustRun) console.warn(`[link buttons browser test] SKIPPED: ${chromium.reason}`);
const describeInBrowser = chromium.path || mustRun ? describe : describe.skip;

jest.setTimeout(60_000);

/** Calls the API as the demo bot; answers the whole envelope. */
async function call(sandbox: RubikaSandbox, method: string, body: unknown): Promise<{ status: string; data?: any; dev_message?: string }> {
	const response = await fetch(sandbox.methodUrl(method, DEMO_BOT_TOKEN), {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	return (await response.json()) as { status: string; data?: any; dev_message?: string };
}

async function bot(sandbox: RubikaSandbox, method: string, body: unknown): Promise<any> {
	const answer = await call(sandbox, method, body);
	if (answer.status !== 'OK') throw new Error(`${method}: ${answer.status} ${answer.dev_message ?? ''}`);
	return answer.data;
}

interface TinyServer {
	url: string;
	hits: string[];
	close(): Promise<void>;
}

/** Serves a small page per path (title = the path) and records each request's path and query. */
async function startPages(): Promise<TinyServer> {
	const hits: string[] = [];
	const server = http.createServer((req, res) => {
		hits.push(req.url ?? '');
		if (req.url === '/favicon.ico') return void res.writeHead(404).end();
		const title = req.url?.startsWith('/webhook-waiting/') ? 'Approved' : `Page ${req.url}`;
		res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>${title}</title><p>${title}</p>`);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
		hits,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

describeInBrowser('link buttons on the chat page', () => {
	let browser: TestBrowser;
	let pages: TinyServer;
	/** A webhook-mode bot's inline endpoint: a link button must never reach it. */
	let inlineEndpoint: TinyServer;

	beforeAll(async () => {
		if (!chromium.path) throw new Error(`no browser: ${chromium.reason}`);
		pages = await startPages();
		inlineEndpoint = await startPages();
		browser = await openBrowser({
			executablePath: chromium.path as string,
			ignoreFailedRequests: (url) => url.endsWith('/_sandbox/events'),
		});
	});
	afterAll(async () => {
		await browser?.close();
		await pages?.close();
		await inlineEndpoint?.close();
	});
	// After the hooks above: its afterAll closes the sandbox once the browser is closed.
	const t = useSandbox();
	beforeEach(() => {
		pages.hits.length = 0;
		inlineEndpoint.hits.length = 0;
	});

	test('a url button opens a new tab at its URL, a joinchannel button joins and opens the channel, nothing reaches the bot', async () => {
		const news = t.sandbox.addChannel({ title: 'Sandbox News', username: 'sandbox_news', ownerId: reza.user_id });
		await bot(t.sandbox, 'updateBotEndpoints', { url: inlineEndpoint.url, type: 'ReceiveInlineMessage' });
		const resumeUrl = `${pages.url}/webhook-waiting/123/abc?approved=true&signature=0f3a9c`;
		const text = 'درخواست مرخصی: تأیید می‌کنید؟ Details';
		const { message_id } = await bot(t.sandbox, 'sendMessage', {
			chat_id: sara.chat_id,
			text,
			metadata: { meta_data_parts: [{ type: 'Link', from_index: text.indexOf('Details'), length: 7, link_url: `${pages.url}/details` }] },
			inline_keypad: {
				rows: [
					{
						buttons: [
							{ id: 'approve', type: 'Link', button_text: '✅ تأیید', button_link: { type: 'url', link_url: resumeUrl } },
							{ id: 'later', type: 'Simple', button_text: 'Later' },
						],
					},
					{ buttons: [{ id: 'join', type: 'Link', button_text: '📢 Join the news', button_link: { type: 'joinchannel', joinchannel_data: { username: 'sandbox_news' } } }] },
				],
			},
		});

		// A javascript: or data: address cannot even be sent.
		for (const bad of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>']) {
			const refused = await call(t.sandbox, 'sendMessage', {
				chat_id: sara.chat_id,
				text: 'x',
				inline_keypad: { rows: [{ buttons: [{ id: 'x', type: 'Link', button_text: 'x', button_link: { type: 'url', link_url: bad } }] }] },
			});
			expect(refused).toEqual({ status: 'INVALID_INPUT', dev_message: expect.stringMatching(/^inline_keypad\.rows\[0\]\.buttons\[0\]\.button_link\.link_url must be an absolute http\(s\) URL/) });
		}

		const page = await openChat(browser, t.sandbox, sara.user_id, sara.chat_id);
		const item = page.locator(`#message-${message_id}`);
		const approve = item.getByRole('link', { name: '✅ تأیید' });
		await approve.waitFor();
		// Distinct: a link with the ↗ mark and the URL as its tooltip; Persian still runs right to left.
		expect(await approve.getAttribute('href')).toBe(resumeUrl);
		expect(await approve.getAttribute('target')).toBe('_blank');
		expect(await approve.getAttribute('rel')).toMatch(/noopener/);
		expect(await approve.getAttribute('title')).toBe(resumeUrl);
		expect(await approve.locator('.link-mark').textContent()).toBe('↗');
		expect(await approve.evaluate(direction)).toBe('rtl');
		expect(await item.locator('.text').evaluate(direction)).toBe('rtl');
		expect(await item.getByRole('button', { name: 'Later' }).locator('.link-mark').count()).toBe(0);

		// The url button: a new tab at exactly that URL, served by the test's page server.
		const [approved] = await Promise.all([browser.context.waitForEvent('page'), approve.click()]);
		await approved.waitForLoadState();
		expect(approved.url()).toBe(resumeUrl);
		expect(await approved.title()).toBe('Approved');
		expect(pages.hits).toContain('/webhook-waiting/123/abc?approved=true&signature=0f3a9c');
		await approved.close();

		// A Link part of the text opens in a new tab too.
		const details = item.locator('.text a', { hasText: 'Details' });
		expect(await details.getAttribute('target')).toBe('_blank');
		const [detailsPage] = await Promise.all([browser.context.waitForEvent('page'), details.click()]);
		await detailsPage.waitForLoadState();
		expect(detailsPage.url()).toBe(`${pages.url}/details`);
		await detailsPage.close();

		// The joinchannel button: Sara joins @sandbox_news and the page opens it.
		expect(t.sandbox.chat(news.chat_id).members.some((member) => member.id === sara.user_id)).toBe(false);
		const join = item.getByRole('button', { name: '📢 Join the news' });
		expect(await join.getAttribute('title')).toBe('Join @sandbox_news');
		await join.click();
		await eventually(() => t.sandbox.chat(news.chat_id).members.find((member) => member.id === sara.user_id && member.role === 'member'), 'Sara in the channel');
		await page.locator(`.chat-item[aria-current="true"][data-chat-id="${news.chat_id}"]`).waitFor();
		await page.locator('#chat-title', { hasText: 'Sandbox News' }).waitFor();
		await page.locator('#toast', { hasText: 'You joined Sandbox News.' }).waitFor();

		// No tap of a link button is an inline message: the bot's endpoint heard nothing.
		await t.sandbox.deliveriesSettled();
		expect(t.sandbox.deliveries).toEqual([]);
		expect(inlineEndpoint.hits).toEqual([]);
		expect(browser.errors(page)).toEqual([]);
		await page.close();
	});

	test('an unsafe address that got into the state anyway is shown but never opened; chat-keypad link buttons work too', async () => {
		const { message_id } = await bot(t.sandbox, 'sendMessage', {
			chat_id: sara.chat_id,
			text: 'Open it',
			inline_keypad: { rows: [{ buttons: [{ id: 'evil', type: 'Link', button_text: 'Open', button_link: { type: 'url', link_url: `${pages.url}/fine` } }] }] },
			chat_keypad_type: 'New',
			chat_keypad: {
				rows: [{ buttons: [{ id: 'site', type: 'Link', button_text: '🌐 Site', button_link: { type: 'url', link_url: `${pages.url}/site` } }] }],
				one_time_keyboard: true,
			},
		});
		// Validation refuses it, so write it into the state directly, as a bug elsewhere might.
		const stored = t.sandbox.state.chats.get(sara.chat_id)?.messages.get(message_id);
		(stored?.inline_keypad?.rows[0].buttons[0].button_link as { link_url: string }).link_url = 'javascript:alert(document.domain)';

		const page = await openChat(browser, t.sandbox, sara.user_id, sara.chat_id);
		const evil = page.locator(`#message-${message_id}`).getByRole('button', { name: 'Open' });
		await evil.waitFor();
		expect(await evil.getAttribute('aria-disabled')).toBe('true');
		expect(await page.locator(`#message-${message_id} a`).count()).toBe(0);
		let opened = 0;
		const count = () => (opened += 1);
		browser.context.on('page', count);
		page.on('dialog', (dialog) => void dialog.dismiss().then(count));
		// aria-disabled: Playwright would wait for it to be enabled; a person can click it all the same.
		await evil.click({ force: true });
		await page.locator('#toast', { hasText: 'This link is not opened: only http(s) addresses are' }).waitFor();
		await page.waitForTimeout(300);
		browser.context.off('page', count);
		expect(opened).toBe(0);

		// The chat keypad's link button opens its page; the one-time keypad folds away; no message is sent.
		const keypadArea = page.getByRole('group', { name: 'Chat keypad' });
		const site = keypadArea.getByRole('link', { name: '🌐 Site' });
		const [sitePage] = await Promise.all([browser.context.waitForEvent('page'), site.click()]);
		await sitePage.waitForLoadState();
		expect(sitePage.url()).toBe(`${pages.url}/site`);
		await sitePage.close();
		await eventually(() => t.sandbox.chatKeypad(sara.chat_id) === null, 'the one-time keypad cleared');
		await keypadArea.waitFor({ state: 'hidden' });
		expect(t.sandbox.messages(sara.chat_id).map((message) => message.sender_type)).toEqual(['Bot']);
		expect(t.sandbox.updates()).toEqual([]);
		expect(browser.errors(page)).toEqual([]);
		await page.close();
	});
});

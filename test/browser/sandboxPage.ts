/**
 * Driving the sandbox chat page in a jest browser test: open a user's chat once the page is live, wait for
 * what the sandbox or the page will do, read a node's text direction. (browser.ts, kept free of jest and the
 * sandbox for the end-to-end suite, starts the browser.)
 */
import type { Page } from 'playwright-core';

import type { RubikaSandbox } from '../../sandbox';
import type { TestBrowser } from './browser';

function chatUrl(sandbox: RubikaSandbox, userId: string, chatId: string): string {
	return `${sandbox.baseUrl}/?user=${userId}&chat=${chatId}`;
}

/** A new tab on the user's chat, once the event stream is live and the chat is open. */
export async function openChat(browser: TestBrowser, sandbox: RubikaSandbox, userId: string, chatId: string, size?: { width: number; height: number }): Promise<Page> {
	const page = await browser.newPage(size);
	await page.goto(chatUrl(sandbox, userId, chatId));
	await page.locator('#live-status[data-state="live"]').waitFor();
	await page.locator(`.chat-item[aria-current="true"][data-chat-id="${chatId}"]`).waitFor();
	return page;
}

/** Polls `read` until it gives something truthy (5 s by default). */
export async function eventually<T>(read: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 5000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
}

/** Runs in the page (`locator.evaluate(direction)`). This file is compiled without the DOM's types, hence the loose typing. */
export const direction = (node: unknown): string => (globalThis as any).getComputedStyle(node).direction;

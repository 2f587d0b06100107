/**
 * Input buttons on the sandbox chat page in headless Chromium: a tap on a Textbox, Calendar (Persian and
 * Gregorian), Number Picker, String Picker, phone or location button opens what a phone shows, and Send
 * answers through the sandbox's answer-button action. The bot (the demo bot over raw HTTP) reads what it
 * received with getUpdates, or at its ReceiveInlineMessage endpoint for an answer under a message; the page
 * shows the answer as Sara's message. Skips like chatPage.browser.test.ts when Chromium is missing and cannot
 * be installed.
 */
import os from 'node:os';
import path from 'node:path';

import type { Locator, Page } from 'playwright-core';

import { DEMO_USERS } from '../../sandbox';
import type { Receiver } from '../sandbox/helpers';
import { ok, startReceiver } from '../sandbox/helpers';
import { useSandbox } from '../support/sandbox';
import type { TestBrowser } from './browser';
import { findChromium, openBrowser, saveScreenshot } from './browser';
import { direction, eventually, openChat } from './sandboxPage';

const { sara } = DEMO_USERS;
const chromium = findChromium();
const mustRun = Boolean(process.env.REQUIRE_BROWSER === '1' || process.env.CI === 'true' || process.env.CHROMIUM_PATH);
if (!chromium.path && !mustRun) console.warn(`[input buttons browser test] SKIPPED: ${chromium.reason}`);
const describeInBrowser = chromium.path || mustRun ? describe : describe.skip;

jest.setTimeout(60_000);

/** The docs' pictures are refreshed only on request (RUBIKA_SCREENSHOTS=1), so a test run leaves the repository clean. */
const picture = (name: string) => (process.env.RUBIKA_SCREENSHOTS === '1' ? `docs/images/${name}` : path.join(os.tmpdir(), `rubika-${name}`));

/** Every input button the chat page answers, on one chat keypad, and one plain button. */
const INPUT_KEYPAD = {
	rows: [
		{
			buttons: [
				{ id: 'name', type: 'Textbox', button_text: '✍️ Name', button_textbox: { type_line: 'SingleLine', type_keypad: 'String', place_holder: 'First and last name', title: 'Your full name' } },
				{ id: 'note', type: 'Textbox', button_text: '📝 Note', button_textbox: { type_line: 'MultiLine', type_keypad: 'String', title: 'A note for the host' } },
				{ id: 'age', type: 'Textbox', button_text: '🎂 Age', button_textbox: { type_line: 'SingleLine', type_keypad: 'Number', title: 'How old are you?' } },
			],
		},
		{
			buttons: [
				{ id: 'arrival', type: 'Calendar', button_text: '📅 ورود', button_calendar: { type: 'DatePersian', min_year: '1402', max_year: '1404', default_value: '1403/12/25', title: 'تاریخ ورود' } },
				{ id: 'flight', type: 'Calendar', button_text: '✈️ Flight', button_calendar: { type: 'DateGregorian', min_year: '2024', max_year: '2026', default_value: '2025-02-27', title: 'Flight date' } },
			],
		},
		{
			buttons: [
				{ id: 'guests', type: 'NumberPicker', button_text: '👥 Guests', button_number_picker: { min_value: '1', max_value: '12', default_value: '2', title: 'How many guests?' } },
				{ id: 'city', type: 'StringPicker', button_text: '🏙 شهر', button_string_picker: { items: ['تهران', 'اصفهان', 'شیراز'], default_value: 'تهران', title: 'کدام شهر؟' } },
			],
		},
		{
			buttons: [
				{ id: 'phone', type: 'AskMyPhoneNumber', button_text: '📞 My number' },
				{ id: 'here', type: 'AskMyLocation', button_text: '📍 Where am I' },
				{
					id: 'meet',
					type: 'Location',
					button_text: '🗺 Meeting point',
					button_location: { type: 'Picker', default_pointer_location: { latitude: '35.7448', longitude: '51.3753' }, title: 'Where shall we meet?' },
				},
			],
		},
		{ buttons: [{ id: 'menu', type: 'Simple', button_text: '📋 Menu' }] },
	],
	resize_keyboard: true,
};

describeInBrowser('input buttons on the chat page', () => {
	let browser: TestBrowser;
	/** The bot's ReceiveInlineMessage endpoint. */
	let endpoint: Receiver;

	beforeAll(async () => {
		if (!chromium.path) throw new Error(`no browser: ${chromium.reason}`);
		endpoint = await startReceiver();
		browser = await openBrowser({ executablePath: chromium.path as string, ignoreFailedRequests: (url) => url.endsWith('/_sandbox/events') });
	});
	afterAll(async () => {
		await browser?.close();
		await endpoint?.close();
	});
	// After the hooks above: its afterAll closes the sandbox once the browser is closed.
	const t = useSandbox();

	/** The demo bot reading its updates with getUpdates, each read going on where the last stopped. */
	let offset: string | undefined;
	beforeEach(() => {
		offset = undefined;
		endpoint.hits.length = 0;
	});
	async function nextNewMessage(): Promise<any> {
		return eventually(async () => {
			const { updates, next_offset_id } = await ok(t.sandbox, 'getUpdates', { limit: 10, ...(offset ? { offset_id: offset } : {}) });
			offset = next_offset_id;
			expect(updates.map((update: any) => update.type)).toEqual(updates.length ? ['NewMessage'] : []);
			return updates[0]?.new_message;
		}, 'a NewMessage for the bot');
	}

	async function openSheet(page: Page, area: Locator, button: string, title: string): Promise<Locator> {
		await area.getByRole('button', { name: button }).click();
		const sheet = page.getByRole('dialog', { name: title });
		await sheet.waitFor();
		return sheet;
	}

	/** Sara's answer as the page shows it: her message carrying the button's id. */
	const answerShown = (page: Page, buttonId: string) => page.locator('.message.outgoing', { has: page.locator('.aux', { hasText: `button: ${buttonId}` }) });

	test('each input button of the chat keypad opens what a phone shows; the bot gets the answer and the page shows it as Sara’s message', async () => {
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'رزرو اتاق: Book a room', chat_keypad_type: 'New', chat_keypad: INPUT_KEYPAD });
		const page = await openChat(browser, t.sandbox, sara.user_id, sara.chat_id, { width: 1200, height: 960 });
		const keypad = page.getByRole('group', { name: 'Chat keypad' });
		await keypad.getByRole('button', { name: '✍️ Name' }).waitFor();
		expect(await keypad.getByRole('button', { name: '✍️ Name' }).getAttribute('aria-haspopup')).toBe('dialog');
		expect(await keypad.getByRole('button', { name: '📋 Menu' }).getAttribute('aria-haspopup')).toBeNull();

		// Textbox, one line: its title, its placeholder; Enter sends. Escape first closes it and sends nothing.
		let sheet = await openSheet(page, keypad, '✍️ Name', 'Your full name');
		await page.keyboard.press('Escape');
		await sheet.waitFor({ state: 'hidden' });
		sheet = await openSheet(page, keypad, '✍️ Name', 'Your full name');
		const name = sheet.getByRole('textbox', { name: 'Your full name' });
		expect(await name.getAttribute('placeholder')).toBe('First and last name');
		expect(await name.evaluate((node: any) => node === (globalThis as any).document.activeElement)).toBe(true);
		await name.fill('سارا کریمی');
		expect(await name.evaluate(direction)).toBe('rtl');
		await name.press('Enter');
		await sheet.waitFor({ state: 'hidden' });
		expect(await nextNewMessage()).toMatchObject({ sender_id: sara.user_id, text: 'سارا کریمی', aux_data: { start_id: null, button_id: 'name' } });
		await answerShown(page, 'name').locator('.text', { hasText: 'سارا کریمی' }).waitFor();

		// Textbox, several lines: Enter is a new line, Ctrl+Enter sends.
		sheet = await openSheet(page, keypad, '📝 Note', 'A note for the host');
		const note = sheet.getByRole('textbox', { name: 'A note for the host' });
		expect(await note.evaluate((node: any) => node.tagName)).toBe('TEXTAREA');
		await note.pressSequentially('Vegetarian, please.');
		await note.press('Enter');
		await note.pressSequentially('Arriving late.');
		await note.press('Control+Enter');
		expect((await nextNewMessage()).text).toBe('Vegetarian, please.\nArriving late.');
		await sheet.waitFor({ state: 'hidden' });

		// Textbox with a Number keypad: the sheet draws the keypad; what the sandbox refuses shows in the sheet and the error line.
		sheet = await openSheet(page, keypad, '🎂 Age', 'How old are you?');
		const age = sheet.getByRole('textbox', { name: 'How old are you?' });
		expect(await age.getAttribute('inputmode')).toBe('decimal');
		await age.fill('ten');
		await sheet.getByRole('button', { name: 'Send' }).click();
		const refusal = 'this Textbox has a Number keypad: text must be a number; got "ten"';
		await sheet.getByRole('alert').filter({ hasText: refusal }).waitFor();
		expect(await page.locator('#composer-error').textContent()).toBe(refusal);
		await age.fill('');
		const digits = sheet.getByRole('group', { name: 'Number keypad' });
		for (const key of ['3', '5', '4']) await digits.getByRole('button', { name: key, exact: true }).click();
		await digits.getByRole('button', { name: 'Delete' }).click();
		expect(await age.inputValue()).toBe('35');
		await sheet.getByRole('button', { name: 'Send' }).click();
		expect(await nextNewMessage()).toMatchObject({ text: '35', aux_data: { button_id: 'age' } });
		await sheet.waitFor({ state: 'hidden' });

		// Calendar, Persian: right to left, Persian months and digits, weeks from Saturday, only its years.
		sheet = await openSheet(page, keypad, '📅 ورود', 'تاریخ ورود');
		const persian = sheet.locator('.date-picker');
		expect(await persian.getAttribute('lang')).toBe('fa');
		expect(await persian.evaluate(direction)).toBe('rtl');
		const persianGrid = sheet.getByRole('grid');
		expect(await persianGrid.getAttribute('aria-label')).toBe('اسفند ۱۴۰۳');
		expect(await persianGrid.locator('th').allTextContents()).toEqual(['ش', 'ی', 'د', 'س', 'چ', 'پ', 'ج']);
		expect(await sheet.getByRole('combobox', { name: 'Year' }).locator('option').allTextContents()).toEqual(['۱۴۰۲', '۱۴۰۳', '۱۴۰۴']);
		// The default day has the focus; in a right-to-left month the next day is to the left. 1403 is a leap year: Esfand has 30 days.
		const picked = sheet.getByRole('button', { name: '۲۵ اسفند ۱۴۰۳', exact: true });
		expect(await picked.getAttribute('aria-pressed')).toBe('true');
		expect(await picked.evaluate((node: any) => node === (globalThis as any).document.activeElement)).toBe(true);
		for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
		expect(await sheet.getByRole('button', { name: '۳۰ اسفند ۱۴۰۳', exact: true }).getAttribute('aria-pressed')).toBe('true');
		await sheet.locator('.date-chosen', { hasText: 'پنجشنبه ۳۰ اسفند ۱۴۰۳' }).filter({ hasText: 'Thursday 20 March 2025' }).waitFor();
		// 1402 is not: its Esfand ends on the 29th, which the picked day becomes.
		await sheet.getByRole('combobox', { name: 'Year' }).selectOption('1402');
		expect(await persianGrid.getAttribute('aria-label')).toBe('اسفند ۱۴۰۲');
		expect(await sheet.getByRole('button', { name: '۲۹ اسفند ۱۴۰۲', exact: true }).getAttribute('aria-pressed')).toBe('true');
		expect(await sheet.getByRole('button', { name: '۳۰ اسفند ۱۴۰۲', exact: true }).count()).toBe(0);
		await sheet.getByRole('button', { name: 'Next month' }).click();
		await sheet.getByRole('button', { name: '۱ فروردین ۱۴۰۳', exact: true }).click();
		await sheet.locator('.date-chosen', { hasText: 'چهارشنبه ۱ فروردین ۱۴۰۳' }).filter({ hasText: 'Wednesday 20 March 2024' }).waitFor();
		expect(await sheet.locator('.date-sent').textContent()).toBe('sends 1403/01/01');
		await sheet.getByRole('button', { name: 'Send' }).click();
		expect(await nextNewMessage()).toMatchObject({ text: '1403/01/01', aux_data: { button_id: 'arrival' } });
		await answerShown(page, 'arrival').locator('.text', { hasText: '1403/01/01' }).waitFor();

		// Calendar, Gregorian: left to right, weeks from Monday; February 2025 has 28 days.
		sheet = await openSheet(page, keypad, '✈️ Flight', 'Flight date');
		expect(await sheet.locator('.date-picker').evaluate(direction)).toBe('ltr');
		expect(await sheet.getByRole('grid').getAttribute('aria-label')).toBe('February 2025');
		expect(await sheet.getByRole('grid').locator('th').allTextContents()).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);
		expect(await sheet.getByRole('button', { name: '27 February 2025', exact: true }).getAttribute('aria-pressed')).toBe('true');
		expect(await sheet.getByRole('button', { name: '29 February 2025', exact: true }).count()).toBe(0);
		await page.keyboard.press('ArrowRight');
		await page.keyboard.press('ArrowRight');
		expect(await sheet.getByRole('grid').getAttribute('aria-label')).toBe('March 2025');
		expect(await sheet.getByRole('button', { name: '1 March 2025', exact: true }).getAttribute('aria-pressed')).toBe('true');
		await sheet.locator('.date-chosen', { hasText: 'Saturday 1 March 2025' }).filter({ hasText: 'شنبه ۱۱ اسفند ۱۴۰۳' }).waitFor();
		await sheet.getByRole('button', { name: 'Send' }).click();
		expect(await nextNewMessage()).toMatchObject({ text: '2025-03-01', aux_data: { button_id: 'flight' } });

		// Number Picker: the wheel within its range; − and +, the arrow keys; a typed number out of range is brought back.
		sheet = await openSheet(page, keypad, '👥 Guests', 'How many guests?');
		const guests = sheet.getByRole('spinbutton', { name: 'How many guests?' });
		expect(await guests.inputValue()).toBe('2');
		expect(await sheet.getByRole('button', { name: 'Decrease' }).isEnabled()).toBe(true);
		await sheet.getByRole('button', { name: 'Increase' }).click();
		await sheet.getByRole('button', { name: 'Increase' }).click();
		await guests.press('ArrowUp');
		expect(await guests.inputValue()).toBe('5');
		await guests.fill('40');
		await guests.press('Tab');
		expect(await guests.inputValue()).toBe('12');
		expect(await sheet.getByRole('button', { name: 'Increase' }).isDisabled()).toBe(true);
		await sheet.getByRole('slider', { name: 'Slide to a number' }).fill('7');
		expect(await guests.inputValue()).toBe('7');
		await sheet.getByRole('button', { name: 'Send' }).click();
		expect(await nextNewMessage()).toMatchObject({ text: '7', aux_data: { button_id: 'guests' } });

		// String Picker: its items, the default one picked; Persian right to left.
		sheet = await openSheet(page, keypad, '🏙 شهر', 'کدام شهر؟');
		const cities = sheet.getByRole('radiogroup', { name: 'کدام شهر؟' });
		expect(await cities.getByRole('radio').count()).toBe(3);
		expect(await cities.getByRole('radio', { name: 'تهران' }).isChecked()).toBe(true);
		expect(await cities.evaluate(direction)).toBe('rtl');
		expect(await cities.locator('span', { hasText: 'اصفهان' }).evaluate(direction)).toBe('rtl');
		await cities.getByRole('radio', { name: 'اصفهان' }).check();
		await sheet.getByRole('button', { name: 'Send' }).click();
		expect(await nextNewMessage()).toMatchObject({ text: 'اصفهان', aux_data: { button_id: 'city' } });

		// My phone number: Sara's (made-up) number, shared as a contact.
		sheet = await openSheet(page, keypad, '📞 My number', '📞 My number');
		await sheet.getByText('Sandbox Demo Bot asks for your phone number').waitFor();
		await sheet.getByText('Sara Karimi').waitFor();
		const shownNumber = (await sheet.locator('.share-number').textContent()) ?? '';
		const number = shownNumber.replace(/ /g, '');
		expect(number).toMatch(/^\+98912\d{7}$/);
		await sheet.getByRole('button', { name: 'Share my number' }).click();
		expect(await nextNewMessage()).toMatchObject({ contact_message: { phone_number: number, first_name: 'Sara', last_name: 'Karimi' }, aux_data: { button_id: 'phone' } });
		await answerShown(page, 'phone').locator('.contact-card', { hasText: 'Sara Karimi' }).waitFor();

		// My location: no map; a landmark picked fills latitude and longitude.
		sheet = await openSheet(page, keypad, '📍 Where am I', '📍 Where am I');
		const places = sheet.getByRole('radiogroup', { name: 'Places' });
		expect(await places.evaluate(direction)).toBe('ltr');
		expect(await places.getByRole('radio', { name: /Azadi Tower, Tehran/ }).isChecked()).toBe(true);
		await places.getByRole('radio', { name: /Naqsh-e Jahan Square, Isfahan/ }).check();
		expect(await sheet.getByRole('textbox', { name: 'Latitude' }).inputValue()).toBe('32.6575');
		await sheet.getByRole('button', { name: 'Share my location' }).click();
		expect(await nextNewMessage()).toMatchObject({ location: { latitude: '32.6575', longitude: '51.6776' }, aux_data: { button_id: 'here' } });
		await answerShown(page, 'here').locator('.location-card', { hasText: '32.6575, 51.6776' }).waitFor();

		// A place to pick: the bot's own point first; typed coordinates go as typed.
		sheet = await openSheet(page, keypad, '🗺 Meeting point', 'Where shall we meet?');
		expect(await sheet.getByRole('radio', { name: /The bot's place/ }).isChecked()).toBe(true);
		expect(await sheet.getByRole('textbox', { name: 'Longitude' }).inputValue()).toBe('51.3753');
		await sheet.getByRole('textbox', { name: 'Latitude' }).fill('35.7');
		await sheet.getByRole('textbox', { name: 'Longitude' }).fill('51.4');
		expect(await sheet.getByRole('radiogroup', { name: 'Places' }).getByRole('radio', { checked: true }).count()).toBe(0);
		await sheet.getByRole('button', { name: 'Send this place' }).click();
		expect(await nextNewMessage()).toMatchObject({ location: { latitude: '35.7', longitude: '51.4' }, aux_data: { button_id: 'meet' } });

		await answerShown(page, 'meet').locator('.location-card').waitFor();
		await page.mouse.move(0, 0);
		await saveScreenshot(page, picture('chat-page-input-buttons.png'));

		// A plain button is still a tap: no sheet, its text at once.
		await keypad.getByRole('button', { name: '📋 Menu' }).click();
		expect(await nextNewMessage()).toMatchObject({ text: '📋 Menu', aux_data: { button_id: 'menu' } });
		expect(await page.getByRole('dialog').count()).toBe(0);
		expect(await page.locator('.message.outgoing').count()).toBe(11);
		// The one refusal provoked above is the browser's only complaint.
		expect(browser.errors(page)).toEqual([{ kind: 'console', text: expect.stringContaining('400 (Bad Request)'), url: expect.stringMatching(/\/_sandbox\/actions\/answer-button$/) }]);
		await page.close();
	});

	test('under a message, on a phone: the answer goes to the bot’s endpoint (or, with inlineInputAnswers newMessage, into the chat); a View place is only shown', async () => {
		await ok(t.sandbox, 'updateBotEndpoints', { url: endpoint.url, type: 'ReceiveInlineMessage' });
		const { message_id } = await ok(t.sandbox, 'sendMessage', {
			chat_id: sara.chat_id,
			text: 'کی می‌آیید و با چند نفر؟',
			inline_keypad: {
				rows: [
					{
						buttons: [
							{ id: 'when', type: 'Calendar', button_text: '📅 تاریخ', button_calendar: { type: 'DatePersian', min_year: '1403', max_year: '1405', default_value: '۱۴۰۴/۰۱/۰۱', title: 'روز ورود' } },
							{ id: 'size', type: 'StringPicker', button_text: '👥 نفرات', button_string_picker: { items: ['۱ نفر', '۲ نفر', '۳ نفر'], title: 'چند نفر؟' } },
						],
					},
					{ buttons: [{ id: 'hotel', type: 'Location', button_text: '🏨 Hotel', button_location: { type: 'View', default_pointer_location: { latitude: '32.6546', longitude: '51.6680' }, title: 'Abbasi Hotel' } }] },
				],
			},
		});
		const phone = { width: 390, height: 844 };
		const page = await openChat(browser, t.sandbox, sara.user_id, sara.chat_id, phone);
		const question = page.locator(`#message-${message_id}`);
		let sheet = await openSheet(page, question, '📅 تاریخ', 'روز ورود');
		// A bottom sheet the width of the phone, nothing wider than the screen.
		const box = await sheet.boundingBox();
		expect(box && { left: box.x, width: box.width, bottom: Math.round(box.y + box.height) }).toEqual({ left: 0, width: phone.width, bottom: phone.height });
		expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBeLessThanOrEqual(0);
		// The default value may use Persian digits.
		expect(await sheet.getByRole('button', { name: '۱ فروردین ۱۴۰۴', exact: true }).getAttribute('aria-pressed')).toBe('true');
		await sheet.getByRole('button', { name: '۱۵ فروردین ۱۴۰۴', exact: true }).click();
		await page.mouse.move(0, 0);
		await saveScreenshot(page, picture('chat-page-date-picker.png'));
		await sheet.getByRole('button', { name: 'Send' }).click();
		await eventually(() => endpoint.hits.length === 1, 'the answer at the bot’s endpoint');
		expect(endpoint.hits[0].body).toEqual({
			inline_message: { sender_id: sara.user_id, text: '1404/01/15', location: null, aux_data: { start_id: null, button_id: 'when' }, message_id, chat_id: sara.chat_id },
		});
		await page.locator('#toast', { hasText: '“1404/01/15” reached the bot (HTTP 200).' }).waitFor();
		// An inline answer is no message in the chat.
		expect(t.sandbox.messages(sara.chat_id).map((message) => message.sender_type)).toEqual(['Bot']);

		// A View location button shows its place and sends nothing.
		sheet = await openSheet(page, question, '🏨 Hotel', 'Abbasi Hotel');
		await sheet.getByText('32.6546, 51.6680').waitFor();
		expect(await sheet.getByRole('button', { name: 'Send' }).isVisible()).toBe(false);
		await sheet.getByRole('button', { name: 'Close' }).click();
		await sheet.waitFor({ state: 'hidden' });

		// With the sandbox's other reading of the facts an inline answer is a NewMessage, shown as Sara's.
		t.sandbox.configure({ inlineInputAnswers: 'newMessage' });
		try {
			sheet = await openSheet(page, question, '👥 نفرات', 'چند نفر؟');
			expect(await sheet.getByRole('radio', { name: '۱ نفر' }).isChecked()).toBe(true);
			await sheet.getByRole('radio', { name: '۳ نفر' }).check();
			await sheet.getByRole('button', { name: 'Send' }).click();
			expect(await nextNewMessage()).toMatchObject({ sender_id: sara.user_id, text: '۳ نفر', aux_data: { button_id: 'size' } });
			await answerShown(page, 'size').locator('.text', { hasText: '۳ نفر' }).waitFor();
		} finally {
			t.sandbox.configure({ inlineInputAnswers: 'inlineMessage' });
		}
		await t.sandbox.deliveriesSettled();
		expect(endpoint.hits).toHaveLength(1);
		expect(browser.errors(page)).toEqual([]);
		await page.close();
	});

	test('a one-time chat keypad folds away after an answer; a keypad the bot replaced meanwhile is refused, and the page says so', async () => {
		const picker = (id: string, title: string) => ({ id, type: 'NumberPicker', button_text: `🔢 ${title}`, button_number_picker: { min_value: '0.5', max_value: '2.5', title } });
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'How much?', chat_keypad_type: 'New', chat_keypad: { rows: [{ buttons: [picker('old', 'Old amount')] }], one_time_keyboard: true } });
		const page = await openChat(browser, t.sandbox, sara.user_id, sara.chat_id);
		const keypad = page.getByRole('group', { name: 'Chat keypad' });
		let sheet = await openSheet(page, keypad, '🔢 Old amount', 'Old amount');
		// Decimal bounds: steps of 0.1, from the smallest value up.
		const amount = sheet.getByRole('spinbutton', { name: 'Old amount' });
		expect(await amount.inputValue()).toBe('0.5');
		await sheet.getByRole('button', { name: 'Increase' }).click();
		expect(await amount.inputValue()).toBe('0.6');
		// While the sheet is open the bot sends another keypad: the answer's button is gone.
		await ok(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text: 'Sorry, this one', chat_keypad_type: 'New', chat_keypad: { rows: [{ buttons: [picker('new', 'New amount')] }], one_time_keyboard: true } });
		await sheet.getByRole('button', { name: 'Send' }).click();
		const refusal = `chat ${sara.chat_id} shows no chat keypad button old`;
		await sheet.getByRole('alert').filter({ hasText: refusal }).waitFor();
		expect(await page.locator('#composer-error').textContent()).toBe(refusal);
		await sheet.getByRole('button', { name: 'Cancel' }).click();
		await sheet.waitFor({ state: 'hidden' });

		sheet = await openSheet(page, keypad, '🔢 New amount', 'New amount');
		await sheet.getByRole('spinbutton', { name: 'New amount' }).fill('1.7');
		await sheet.getByRole('button', { name: 'Send' }).click();
		expect(await nextNewMessage()).toMatchObject({ text: '1.7', aux_data: { button_id: 'new' } });
		await keypad.waitFor({ state: 'hidden' });
		expect(t.sandbox.chatKeypad(sara.chat_id)).toBeNull();
		await answerShown(page, 'new').waitFor();
		expect(browser.errors(page)).toEqual([{ kind: 'console', text: expect.stringContaining('404 (Not Found)'), url: expect.stringMatching(/\/_sandbox\/actions\/answer-button$/) }]);
		await page.close();
	});
});

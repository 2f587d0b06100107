/**
 * Message → Send and Wait for Response, the sending half: the message and its answer links as Rubika gets
 * them (Link buttons, text links, the fallback between them), the execution put to wait, and bad input
 * refused before anything is sent. The person's half (the pages and the resume) runs in real n8n: e2e.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { DEMO_USERS } from '../../sandbox';
import { answerRecordedPage, confirmAnswerPage, formPage } from '../../nodes/Rubika/waiting/responsePages';
import { Rubika } from '../../nodes/Rubika/Rubika.node';
import { FORM_FIELD_TYPES, FREE_TEXT_FIELDS, parseFormFields, readSubmission, submittedFields } from '../../nodes/Rubika/waiting/responseForm';
import { isPersonsBrowser } from '../../nodes/Rubika/waiting/webhook';
import { BUTTON_TYPES } from '../../nodes/shared/types';
import { waitUntil } from '../../nodes/Rubika/waiting/waitTime';
import USER_AGENTS from '../fixtures/user-agents.json';
import { useActionSandbox } from './helpers';

const t = useActionSandbox('message');
const chatId = DEMO_USERS.sara.chat_id;

const approval = (extra: IDataObject = {}) => ({
	operation: 'sendAndWait',
	chatId,
	message: 'Publish the post?',
	...extra,
});

interface SentMessage {
	text: string;
	inline_keypad?: { rows: Array<{ buttons: Array<{ id: string; type: string; button_text: string; button_link?: { type: string; link_url: string } }> }> };
	metadata?: { meta_data_parts: Array<{ type: string; from_index: number; length: number; link_url?: string }> };
}

const sent = () => t.bodies('sendMessage') as SentMessage[];

describe('Send and Wait for Response: the message', () => {
	it('approve and decline as Link buttons opening the signed resume address; the execution waits', async () => {
		const result = await t.run(
			approval({ approvalOptions: { values: { approvalType: 'double', approveLabel: 'بله', disapproveLabel: 'خیر' } } }),
		);
		expect(result.error).toBeUndefined();
		expect(result.run.waitTill).toBeInstanceOf(Date);
		expect(result.run.status).toBe('waiting');
		const [body] = sent();
		expect(body.text).toBe('Publish the post?');
		const buttons = body.inline_keypad!.rows[0].buttons;
		expect(buttons.map((button) => [button.id, button.type, button.button_text, button.button_link?.type])).toEqual([
			['approve', 'Link', 'بله', 'url'],
			['decline', 'Link', 'خیر', 'url'],
		]);
		const [approve, decline] = buttons.map((button) => new URL(button.button_link!.link_url));
		expect(approve.searchParams.get('approved')).toBe('true');
		expect(decline.searchParams.get('approved')).toBe('false');
		expect(approve.pathname).toMatch(/^\/webhook-waiting\/.+\/under-test$/);
		expect(approve.searchParams.get('signature')).toEqual(expect.any(String));
		expect(result.items[0].json).toMatchObject({ chat_id: chatId, message_id: expect.any(String), links_as: 'buttons' });
	});

	it('Approve Only gives one button; Free Text and Custom Form one link to the form', async () => {
		await t.run(approval());
		await t.run(approval({ responseType: 'freeText', options: { messageButtonLabel: 'Answer' } }));
		const [single, free] = sent();
		expect(single.inline_keypad!.rows[0].buttons.map((button) => button.button_text)).toEqual(['Approve']);
		const link = free.inline_keypad!.rows[0].buttons;
		expect(link.map((button) => button.button_text)).toEqual(['Answer']);
		expect(new URL(link[0].button_link!.link_url).searchParams.has('approved')).toBe(false);
	});

	it('Links As Text Links: the labels as Link parts after the text, offsets in UTF-16 after the user\'s own formatting', async () => {
		const result = await t.run(
			approval({
				message: 'انتشار؟ 🚀 **now**',
				formatting: 'markdown',
				approvalOptions: { values: { approvalType: 'double' } },
				options: { linksAs: 'text' },
			}),
		);
		expect(result.error).toBeUndefined();
		const [body] = sent();
		expect(body.inline_keypad).toBeUndefined();
		expect(body.text).toBe('انتشار؟ 🚀 now\n\nApprove\nDecline');
		const parts = body.metadata!.meta_data_parts;
		expect(parts[0]).toEqual({ type: 'Bold', from_index: 11, length: 3 });
		expect(parts.slice(1).map((part) => [part.type, body.text.slice(part.from_index, part.from_index + part.length)])).toEqual([
			['Link', 'Approve'],
			['Link', 'Decline'],
		]);
		expect(new URL(parts[1].link_url!).searchParams.get('approved')).toBe('true');
		expect(result.items[0].json.links_as).toBe('text');
	});

	it('falls back to text links when Rubika refuses the buttons (INVALID_INPUT), by default', async () => {
		t.sandbox.injectFault({ kind: 'status', method: 'sendMessage', status: 'INVALID_INPUT', devMessage: 'unknown button type' });
		const result = await t.run(approval());
		expect(result.error).toBeUndefined();
		const [first, second] = sent();
		expect(first.inline_keypad).toBeDefined();
		expect(second.inline_keypad).toBeUndefined();
		expect(second.text).toBe('Publish the post?\n\nApprove');
		expect(result.items[0].json.links_as).toBe('text');
		expect(result.run.status).toBe('waiting');
	});

	it('with Links As Buttons, a refusal is the error: nothing else is sent and nothing waits', async () => {
		t.sandbox.injectFault({ kind: 'status', method: 'sendMessage', status: 'INVALID_INPUT', devMessage: 'unknown button type' });
		const result = await t.run(approval({ options: { linksAs: 'buttons' } }));
		expect(result.error?.message).toMatch(/INVALID_INPUT|invalid/i);
		expect(sent()).toHaveLength(1);
		expect(result.run.waitTill).toBeUndefined();
	});

	it('sends once for the whole execution, however many items come in', async () => {
		const result = await t.run(approval(), [{ json: { n: 1 } }, { json: { n: 2 } }, { json: { n: 3 } }]);
		expect(result.error).toBeUndefined();
		expect(sent()).toHaveLength(1);
	});

	it('Limit Wait Time: the execution resumes by itself at that time', async () => {
		const before = Date.now();
		const result = await t.run(
			approval({ options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'hours' } } } }),
		);
		const waitTill = (result.run.waitTill as Date).getTime();
		expect(waitTill).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
		expect(waitTill).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000);
		expect(waitUntil({ values: { limitType: 'atSpecifiedTime', maxDateAndTime: '2030-05-01T10:00:00Z' } }).toISOString()).toBe(
			'2030-05-01T10:00:00.000Z',
		);
	});

	t.refusesEach(approval(), [
		['no message', { message: ' ' }, 'Message: is required [item 0]'],
		['a custom form without fields', { responseType: 'customForm', defineForm: 'fields', formFields: {} }, 'Form Fields: needs at least one field [item 0]'],
		['a custom form in broken JSON', { responseType: 'customForm', defineForm: 'json', jsonOutput: '[{' }, /^Form Fields: is not valid JSON/],
		['a dropdown without choices', { responseType: 'customForm', defineForm: 'json', jsonOutput: '[{"fieldLabel":"Pick","fieldType":"dropdown"}]' }, 'Form Fields: field 1: a dropdown needs at least one choice [item 0]'],
		['a date that is not one', { options: { limitWaitTime: { values: { limitType: 'atSpecifiedTime', maxDateAndTime: 'soon' } } } }, 'Limit Wait Time: "soon" is not a date and time [item 0]'],
	]);
});

describe('Send and Wait for Response: the form', () => {
	const fields = parseFormFields(
		'json',
		[],
		JSON.stringify([
			{ fieldLabel: 'نام', requiredField: true },
			{ fieldLabel: 'Count', fieldType: 'number' },
			{ fieldLabel: 'Priority', fieldType: 'dropdown', fieldOptions: { values: [{ option: 'Low' }, { option: 'High' }] } },
			{ fieldLabel: 'Agree', fieldType: 'checkbox' },
		]),
	);

	it('reads a submission into values named by label, typed', () => {
		expect(readSubmission(fields, { 'field-0': 'سارا', 'field-1': '3', 'field-2': 'High', 'field-3': 'true' })).toEqual({
			ok: true,
			values: { نام: 'سارا', Count: 3, Priority: 'High', Agree: true },
		});
	});

	it('reads the fields of a multipart body (n8n\'s { data, files }) and of a urlencoded one', () => {
		expect(submittedFields({ data: { 'field-0': 'a' }, files: {} })).toEqual({ 'field-0': 'a' });
		expect(submittedFields({ 'field-0': 'a' })).toEqual({ 'field-0': 'a' });
		expect(submittedFields(undefined)).toEqual({});
	});

	it('a browser on a phone, tablet or desktop may approve; link previews, crawlers and programs may not', () => {
		const people = Object.entries(USER_AGENTS.people).filter(([, agent]) => !isPersonsBrowser(agent));
		const programs = Object.entries(USER_AGENTS.programs).filter(([, agent]) => isPersonsBrowser(agent));
		expect({ peopleRefused: people, programsLetThrough: programs }).toEqual({ peopleRefused: [], programsLetThrough: [] });
		expect(isPersonsBrowser(undefined)).toBe(false);
	});

	it('matches bot names as whole words: a phone whose model name contains "bot" is a person', () => {
		expect(isPersonsBrowser(USER_AGENTS.people['Chrome on a CUBOT phone (Android 11)'])).toBe(true);
		expect(isPersonsBrowser('Mozilla/5.0 (Linux; Android 12; ROBOTECH X1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/110.0 Mobile Safari/537.36')).toBe(true);
		expect(isPersonsBrowser('Mozilla/5.0 (compatible; bot)')).toBe(false);
		expect(isPersonsBrowser('Mozilla/5.0 (compatible; SomeNewBot/0.1)')).toBe(false);
	});

	it('pages name their language: Persian where the texts are Persian, English otherwise', () => {
		expect(answerRecordedPage({ title: 'پاسخ شما دریافت شد' })).toContain('<html lang="fa" dir="auto">');
		expect(answerRecordedPage({ title: 'Thank you' })).toContain('<html lang="en" dir="auto">');
		expect(formPage({ title: 'Your answer', buttonLabel: 'ارسال' }, FREE_TEXT_FIELDS)).toContain('lang="fa"');
		expect(confirmAnswerPage({ title: 'Your answer' }, '✅ تأیید')).toContain('lang="fa"');
	});

	it('the page for a request that is not a recognised browser is one button posting back to the same address', () => {
		const html = confirmAnswerPage({ title: 'Your answer' }, '<Approve>');
		expect(html).toContain('<form method="post" enctype="multipart/form-data"><button type="submit">&lt;Approve&gt;</button></form>');
		expect(html).not.toMatch(/action=|<script/i);
	});

	it('refuses a missing required field, a non-number and an unknown choice, naming each', () => {
		expect(readSubmission(fields, { 'field-1': 'x', 'field-2': 'Urgent' })).toEqual({
			ok: false,
			problems: ['نام is required', 'Count must be a number', 'Priority must be one of the choices'],
		});
	});

	it('renders escaped, right-to-left capable HTML that posts back to itself', () => {
		const html = formPage({ title: '<b>پاسخ</b>', buttonLabel: 'ارسال' }, [...FREE_TEXT_FIELDS, ...fields], ['x <y>']);
		expect(html).toContain('dir="auto"');
		expect(html).toContain('&lt;b&gt;پاسخ&lt;/b&gt;');
		expect(html).toContain('<form method="post" enctype="multipart/form-data"');
		expect(html).toContain('x &lt;y&gt;');
		expect(html).not.toMatch(/<script/i);
		expect(html).toContain('<option>High</option>');
	});
});

describe('the panel', () => {
	const properties = new Rubika().description.properties;
	const valuesOf = (name: string, show?: string) => {
		const property = properties.find((entry) => entry.name === name && (!show || entry.displayOptions?.show?.operation?.includes(show)));
		return ((property?.options?.[0] ?? {}) as { values?: INodeProperties[] }).values ?? [];
	};

	it('keypad buttons offer every button type and show the link fields only for Link buttons', () => {
		const rows = valuesOf('inlineKeypad', 'sendMessage');
		const button = ((rows.find((entry) => entry.name === 'buttons')?.options?.[0] ?? {}) as { values?: INodeProperties[] }).values ?? [];
		const type = button.find((entry) => entry.name === 'type');
		expect(type?.default).toBe('Simple');
		expect(type?.options?.map((option) => (option as { value: string }).value).sort()).toEqual([...BUTTON_TYPES].sort());
		expect(button.find((entry) => entry.name === 'url')?.displayOptions?.show).toEqual({ type: ['Link'], linkType: ['url'] });
		expect(button.find((entry) => entry.name === 'channelUsername')?.displayOptions?.show).toEqual({ type: ['Link'], linkType: ['joinchannel'] });
	});

	it('form fields offer every field type, and Choices only for dropdowns', () => {
		const fields = valuesOf('formFields');
		expect(fields.find((entry) => entry.name === 'fieldType')?.options?.map((option) => (option as { value: string }).value).sort()).toEqual(
			[...FORM_FIELD_TYPES].sort(),
		);
		expect(fields.find((entry) => entry.name === 'fieldOptions')?.displayOptions?.show).toEqual({ fieldType: ['dropdown'] });
	});

	it('is what n8n turns into a human-review tool: operation sendAndWait, a message, response type and approval options', () => {
		const operation = properties.find((entry) => entry.name === 'operation' && entry.displayOptions?.show?.resource?.includes('message'));
		expect(operation?.options?.some((option) => (option as { value: string }).value === 'sendAndWait')).toBe(true);
		for (const name of ['message', 'responseType', 'approvalOptions', 'answerIn']) {
			expect(properties.some((entry) => entry.name === name && entry.displayOptions?.show?.operation?.includes('sendAndWait'))).toBe(true);
		}
		// n8n's tool fixes Response Type to Approval (a hidden field): Answer In stays (hidden only for Custom Form),
		// and each other type's fields hide with it, so the tool shows the approval's fields only.
		const sendAndWait = properties.filter((entry) => entry.displayOptions?.show?.operation?.includes('sendAndWait'));
		expect(sendAndWait.find((entry) => entry.name === 'answerIn')?.displayOptions?.hide).toEqual({ responseType: ['customForm'] });
		const ofOtherTypes = sendAndWait.filter((entry) => {
			const shown = entry.displayOptions?.show?.responseType;
			return Array.isArray(shown) && !shown.includes('approval');
		});
		expect(ofOtherTypes.map((entry) => entry.name).sort()).toEqual(
			['calendarType', 'choices', 'choicesJson', 'defineChoices', 'defineForm', 'formFields', 'fromYear', 'jsonOutput', 'listItems', 'locationKind', 'maxNumber', 'minNumber', 'textLines', 'toYear'].sort(),
		);
		expect(new Rubika().description.webhooks?.map((webhook) => [webhook.httpMethod, webhook.path, webhook.restartWebhook])).toEqual([
			['GET', '={{ $nodeId }}', true],
			['POST', '={{ $nodeId }}', true],
			// The address a trigger hands an answer tap to (Answer In: Chat).
			['POST', '', true],
		]);
	});
});

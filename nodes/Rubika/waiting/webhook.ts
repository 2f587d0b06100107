/**
 * The waiting webhook of Send and Wait for Response: n8n calls it when a person opens one of the links the
 * message carries (GET) or submits the form (POST), at the waiting execution's resume address. It answers
 * the person's browser and hands the answer to the execution, which then goes on.
 */
import type { IDataObject, IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { isFallbackLinkProof } from '../../shared/chatAnswers';
import { tokenOf } from '../../shared/transport/credential';
import { readAnswerIn, receiveChatAnswer } from './chatAnswer';
import { approvalLabels } from './labels';
import type { FormField } from './responseForm';
import { FREE_TEXT_FIELDS, parseFormFields, readSubmission, submittedFields } from './responseForm';
import { answerRecordedPage, confirmAnswerPage, formPage } from './responsePages';

/**
 * GET opens a link (approval, or the form page); POST submits the form. Both resume the waiting execution.
 * A POST without the node id in the path is a tap a Rubika trigger forwards (Answer In: Chat): on n8n 2.14+
 * it carries the execution's resume token instead of n8n's signature, and n8n looks it up by this empty path.
 */
export const WAITING_WEBHOOKS: IWebhookDescription[] = [
	...(['GET', 'POST'] as const).map((httpMethod): IWebhookDescription => ({
		name: 'default',
		httpMethod,
		responseMode: 'onReceived',
		responseData: '',
		path: '={{ $nodeId }}',
		restartWebhook: true,
		isFullPath: true,
	})),
	{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: '', restartWebhook: true, isFullPath: true },
];

export type ResponseType = 'approval' | 'freeText' | 'customForm';

interface ResponseTexts {
	formTitle: string;
	formDescription: string;
	formButtonLabel: string;
	answerTitle: string;
	answerDescription: string;
}

const DEFAULT_RESPONSE_TEXTS: ResponseTexts = {
	formTitle: 'Your answer',
	formDescription: '',
	formButtonLabel: 'Submit',
	answerTitle: 'Thank you, your answer was received',
	answerDescription: 'You can close this page now.',
};

/**
 * Names that link previews, crawlers and HTTP programs give themselves, compared with whole words of the
 * User-Agent: "bot" inside a word is no sign (a CUBOT phone is a phone).
 */
const PROGRAM_WORDS = new Set([
	'bot', 'crawler', 'spider', 'preview', 'slurp', 'favicon', 'facebookexternalhit', 'facebot', 'vkshare',
	'skypeuripreview', 'embedly', 'iframely', 'phantomjs', 'chrome-lighthouse', 'lighthouse', 'python-requests',
	'python-urllib', 'curl', 'wget', 'okhttp', 'go-http-client', 'node-fetch', 'axios', 'undici', 'java',
	'apache-httpclient', 'libwww-perl', 'scrapy',
]);
/** A product with a version whose name ends so ("AhrefsBot/7.0", "Baiduspider/2.0") is a crawler. */
const CRAWLER_PRODUCT = /(?:^|[\s;(])[\w.!-]*(?:bot|spider|crawler)\/[\w.]/i;
/** Crawlers name a page about themselves ("+http://…"); a person's browser never puts an address there. */
const ADDRESS = /\bhttps?:\/\/|\+http/i;

/**
 * Whether a request comes from a person's browser: only that may approve, so that a link preview (a
 * messenger fetching the page to show a card) or another program opening the link decides nothing. Every
 * browser's User-Agent starts with "Mozilla/"; programs that say so too are recognised by their names as
 * whole words, by a "…bot/1.0"-like product, or by the address of their about page. Exported for the test
 * that runs it over a list of real User-Agents (test/fixtures/user-agents.json), too many for a workflow each.
 */
export function isPersonsBrowser(userAgent: string | undefined): boolean {
	const agent = userAgent ?? '';
	if (!agent.startsWith('Mozilla/') || ADDRESS.test(agent) || CRAWLER_PRODUCT.test(agent)) return false;
	return !agent
		.toLowerCase()
		.split(/[^a-z0-9!-]+/)
		.some((word) => PROGRAM_WORDS.has(word));
}

function readResponseTexts(options: IDataObject): ResponseTexts {
	const text = (key: keyof ResponseTexts) => {
		const value = options[key];
		return typeof value === 'string' && value.trim() !== '' ? value : DEFAULT_RESPONSE_TEXTS[key];
	};
	return {
		formTitle: text('formTitle'),
		formDescription: text('formDescription'),
		formButtonLabel: text('formButtonLabel'),
		answerTitle: text('answerTitle'),
		answerDescription: text('answerDescription'),
	};
}

/** The fields the form shows for a response type (validated before the message was sent). */
export function responseFormFields(
	responseType: ResponseType,
	getParameter: (name: string, fallback: unknown) => unknown,
): FormField[] {
	if (responseType === 'freeText') return FREE_TEXT_FIELDS;
	return parseFormFields(
		String(getParameter('defineForm', 'fields')),
		getParameter('formFields.values', []),
		getParameter('jsonOutput', ''),
	);
}

export async function respondToWaitingPerson(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	const response = this.getResponseObject();
	const responseType = this.getNodeParameter('responseType', 'approval') as ResponseType;
	const texts = readResponseTexts(this.getNodeParameter('options', {}) as IDataObject);
	const answerIn = responseType === 'approval' ? readAnswerIn(this.getNodeParameter('answerIn', 'webPage')) : 'webPage';
	if (answerIn !== 'webPage') {
		// Answer buttons that fell back to links: those links carry a proof keyed with the bot token.
		const query = request.query as IDataObject;
		const botToken = (await tokenOf(this)) ?? '';
		const link = isFallbackLinkProof(botToken, this.getExecutionId(), String(query.approved), query.proof);
		if (!link) return await receiveChatAnswer.call(this, answerIn, botToken);
	}
	const respondedAt = new Date().toISOString();
	const sendHtml = (status: number, html: string): IWebhookResponseData => {
		response.status(status).setHeader('Content-Type', 'text/html; charset=utf-8');
		response.setHeader('Cache-Control', 'no-store');
		response.send(html);
		return { noWebhookResponse: true };
	};
	const recorded = (data: IDataObject): IWebhookResponseData => ({
		webhookResponse: answerRecordedPage({ title: texts.answerTitle, description: texts.answerDescription }),
		workflowData: [[{ json: { data: { ...data, respondedAt } } }]],
	});

	if (responseType === 'approval') {
		const approved = (request.query as IDataObject).approved === 'true';
		// A browser opening the link answers at once. Anything else (a link preview, a crawler, a browser we
		// do not recognise) gets a page with one button and decides nothing: previews never submit forms, and
		// a person whose browser we misjudged still answers with one more tap.
		if (request.method === 'POST' || isPersonsBrowser(request.headers['user-agent'])) return recorded({ approved });
		const labels = approvalLabels(this.getNodeParameter('approvalOptions.values', {}) as IDataObject);
		return sendHtml(200, confirmAnswerPage({ title: texts.formTitle }, approved ? labels.approve : labels.decline));
	}

	const fields = responseFormFields(responseType, (name, fallback) => this.getNodeParameter(name, fallback));
	const pageTexts = { title: texts.formTitle, description: texts.formDescription, buttonLabel: texts.formButtonLabel };
	if (request.method !== 'POST') return sendHtml(200, formPage(pageTexts, fields));

	const body = submittedFields(this.getBodyData());
	const submission = readSubmission(fields, body);
	if (!submission.ok) {
		const entered = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, String(value ?? '')]));
		return sendHtml(400, formPage(pageTexts, fields, submission.problems, entered));
	}
	if (responseType === 'freeText') return recorded({ text: submission.values[FREE_TEXT_FIELDS[0].label] });
	return recorded(submission.values);
}

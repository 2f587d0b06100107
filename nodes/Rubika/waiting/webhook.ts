/**
 * The waiting webhook of Send and Wait for Response: n8n calls it when a person opens one of the links the
 * message carries (GET) or submits the form (POST), at the waiting execution's resume address. It answers
 * the person's browser and hands the answer to the execution, which then goes on.
 */
import type { IDataObject, IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { isFallbackLinkProof } from '../../shared/chatAnswers';
import { tokenOf } from '../../shared/transport/credential';
import { readAnswerIn, receiveChatAnswer } from './chatAnswer';
import { parseFormFields, readSubmission, submittedFields, submittedTexts } from './responseForm';
import { answerRecordedPage, confirmAnswerPage, formPage } from './responsePages';
import { questionOf } from './questions';
import type { FormField } from './responseForm';
import type { GivenAnswer, ParameterReader, Question } from './questions/types';
import { fallbackLinkKind } from './questions/types';

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

/** What Send and Wait asks for: one of the questions (questions/), or a Custom Form (web page only). */
export type ResponseType = 'approval' | 'choice' | 'freeText' | 'date' | 'number' | 'listItem' | 'phoneNumber' | 'location' | 'customForm';

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

/**
 * What the node asks, as its parameters define it: a question (answered in the chat or on the web page), or
 * the fields of a Custom Form. Checked before the message is sent (InputError), read again by the webhook.
 */
export function readQuestion(responseType: ResponseType, parameters: ParameterReader): { question: Question } | { customForm: ReturnType<typeof parseFormFields> } {
	const question = questionOf(responseType, parameters);
	if (question) return { question };
	return {
		customForm: parseFormFields(String(parameters('defineForm', 'fields')), parameters('formFields.values', []), parameters('jsonOutput', '')),
	};
}

export async function respondToWaitingPerson(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	const response = this.getResponseObject();
	const responseType = this.getNodeParameter('responseType', 'approval') as ResponseType;
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const texts = readResponseTexts(options);
	const asked = readQuestion(responseType, (name, fallback) => this.getNodeParameter(name, fallback));
	const answerIn = 'question' in asked ? readAnswerIn(this.getNodeParameter('answerIn', 'webPage')) : 'webPage';
	const query = request.query as IDataObject;
	if ('question' in asked && answerIn !== 'webPage') {
		// Answer buttons that fell back to links: those links carry a proof keyed with the bot token.
		const botToken = (await tokenOf(this)) ?? '';
		const link = isFallbackLinkProof(botToken, this.getExecutionId(), fallbackLinkKind(asked.question, query.approved), query.proof);
		if (!link) return await receiveChatAnswer.call(this, answerIn, botToken, asked.question);
	}
	const respondedAt = new Date().toISOString();
	const sendHtml = (status: number, html: string): IWebhookResponseData => {
		response.status(status).setHeader('Content-Type', 'text/html; charset=utf-8');
		response.setHeader('Cache-Control', 'no-store');
		response.send(html);
		return { noWebhookResponse: true };
	};
	// A question answered on the page says so, as one answered in the chat does; a Custom Form's values are
	// named by its labels, so it gets nothing else.
	const recorded = (data: IDataObject): IWebhookResponseData => ({
		webhookResponse: answerRecordedPage({ title: texts.answerTitle, description: texts.answerDescription }),
		workflowData: [[{ json: { data: { ...data, ...('question' in asked ? { answeredIn: 'webPage' } : {}), respondedAt } } }]],
	});

	if ('question' in asked && 'links' in asked.question.web) {
		const { question } = asked;
		const approved = query.approved === 'true';
		const reading = question.read({ decision: approved ? 'approve' : 'decline' });
		const link = asked.question.web.links.find((entry) => entry.approved === (approved ? 'true' : 'false'));
		if (!reading.ok || !link) return sendHtml(404, answerRecordedPage({ title: texts.formTitle, description: reading.ok ? '' : reading.problem }, '✗'));
		// A browser opening the link answers at once. Anything else (a link preview, a crawler, a browser we
		// do not recognise) gets a page with one button and decides nothing: previews never submit forms, and
		// a person whose browser we misjudged still answers with one more tap.
		if (request.method === 'POST' || isPersonsBrowser(request.headers['user-agent'])) return recorded(reading.data);
		return sendHtml(200, confirmAnswerPage({ title: texts.formTitle }, link.label));
	}

	const fields = 'question' in asked ? (asked.question.web as { form: FormField[] }).form : asked.customForm;
	const pageTexts = { title: texts.formTitle, description: texts.formDescription, buttonLabel: texts.formButtonLabel };
	if (request.method !== 'POST') return sendHtml(200, formPage(pageTexts, fields));

	const body = submittedFields(this.getBodyData());
	const again = (problems: string[]) => {
		const entered = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, String(value ?? '')]));
		return sendHtml(400, formPage(pageTexts, fields, problems, entered));
	};
	if ('question' in asked) {
		const web = asked.question.web as { form: FormField[]; given(values: string[]): GivenAnswer };
		const values = submittedTexts(fields, body);
		const missing = fields.filter((field, index) => field.required && values[index].trim() === '').map((field) => `${field.label} is required`);
		if (missing.length > 0) return again(missing);
		const reading = asked.question.read(web.given(values));
		return reading.ok ? recorded(reading.data) : again([reading.problem]);
	}
	const submission = readSubmission(fields, body);
	return submission.ok ? recorded(submission.values) : again(submission.problems);
}

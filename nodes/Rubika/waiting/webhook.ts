/**
 * The waiting webhook of Send and Wait for Response: n8n calls it when a person opens one of the links the
 * message carries (GET) or submits the form (POST), at the waiting execution's resume address. It answers
 * the person's browser and hands the answer to the execution, which then goes on.
 */
import type { IDataObject, IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { FormField } from './responseForm';
import { FREE_TEXT_FIELDS, parseFormFields, readSubmission, submittedFields } from './responseForm';
import { answerRecordedPage, formPage } from './responsePages';

/** GET opens a link (approval, or the form page); POST submits the form. Both resume the waiting execution. */
export const WAITING_WEBHOOKS: IWebhookDescription[] = (['GET', 'POST'] as const).map((httpMethod) => ({
	name: 'default',
	httpMethod,
	responseMode: 'onReceived',
	responseData: '',
	path: '={{ $nodeId }}',
	restartWebhook: true,
	isFullPath: true,
}));

export type ResponseType = 'approval' | 'freeText' | 'customForm';

export interface ResponseTexts {
	formTitle: string;
	formDescription: string;
	formButtonLabel: string;
	answerTitle: string;
	answerDescription: string;
}

export const DEFAULT_RESPONSE_TEXTS: ResponseTexts = {
	formTitle: 'Your answer',
	formDescription: '',
	formButtonLabel: 'Submit',
	answerTitle: 'Thank you, your answer was received',
	answerDescription: 'You can close this page now.',
};

/** Programs that fetch links, some of which also name themselves Mozilla (link previews, crawlers). */
const NOT_A_PERSON = /bot|crawl|spider|preview|slurp|facebookexternalhit|embed|fetch|curl|wget|python-|node-fetch|axios|okhttp|go-http/i;

/**
 * Whether a request comes from a person's browser: only that may approve, so that a link preview (a
 * messenger fetching the page to show a card) or another program opening the link decides nothing. Every
 * browser's User-Agent starts with "Mozilla/"; programs that say so too are recognised by name.
 */
export function isPersonsBrowser(userAgent: string | undefined): boolean {
	const agent = userAgent ?? '';
	return agent.startsWith('Mozilla/') && !NOT_A_PERSON.test(agent);
}

export function readResponseTexts(options: IDataObject): ResponseTexts {
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
		if (!isPersonsBrowser(request.headers['user-agent'])) {
			// Answered without resuming: the execution goes on waiting for the person.
			return sendHtml(200, answerRecordedPage({ title: texts.formTitle }, '…'));
		}
		const query = request.query as IDataObject;
		return recorded({ approved: query.approved === 'true' });
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

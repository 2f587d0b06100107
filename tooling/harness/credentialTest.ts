/**
 * Runs the credential's declared test the way n8n's CredentialsTester does (that class lives in the `n8n`
 * CLI package, which the unit suite does not install; the end-to-end suite runs the real one):
 * the `test.request` is authenticated with our `authenticate`, sent with n8n's own HTTP client, then
 * - a network failure → the error's `cause.code` (n8n shows that code),
 * - a non-2xx answer → "Received HTTP status code: N",
 * - otherwise each `responseSuccessBody` rule in order: `get(body, key) === value` → its message.
 */
import { OutboundHttp } from '@n8n/backend-network';
import { Container } from '@n8n/di';
import type { IAuthenticateRuleResponseSuccessBody, IHttpRequestOptions } from 'n8n-workflow';

import { RubikaApi } from '../../credentials/RubikaApi.credentials';
import type { TestCredentials } from './n8n';

export interface CredentialTestOutcome {
	status: 'OK' | 'Error';
	message: string;
}

export async function testRubikaCredential(credentials: TestCredentials): Promise<CredentialTestOutcome> {
	const type = new RubikaApi();
	const declared = type.test.request;
	const request: IHttpRequestOptions = {
		method: declared.method ?? 'GET',
		url: declared.url ?? '',
		baseURL: credentials.baseUrl,
		body: declared.body as IHttpRequestOptions['body'],
		json: true,
	};
	const authenticate = type.authenticate as (c: object, r: IHttpRequestOptions) => Promise<IHttpRequestOptions>;
	const authenticated = await authenticate({ ...credentials }, request);
	let body: unknown;
	try {
		body = await Container.get(OutboundHttp).requests().request({ ...authenticated, returnFullResponse: false });
	} catch (error) {
		const status = (error as { response?: { status?: number } }).response?.status;
		if (status !== undefined) return { status: 'Error', message: `Received HTTP status code: ${status}` };
		const code = (error as { cause?: { code?: string }; code?: string }).cause?.code ?? (error as { code?: string }).code;
		return { status: 'Error', message: code ?? (error as Error).message };
	}
	for (const rule of type.test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const { key, value, message } = (rule as IAuthenticateRuleResponseSuccessBody).properties;
		if (getPath(body, key) === value) return { status: 'Error', message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

function getPath(value: unknown, path: string): unknown {
	return path.split('.').reduce<unknown>(
		(current, segment) =>
			current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[segment] : undefined,
		value,
	);
}

import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

export const RUBIKA_DEFAULT_BASE_URL = 'https://botapi.rubika.ir';

/**
 * Builds `{base}/v3/{token}/{method}` from a request whose `url` is a bare method name.
 *
 * Rubika has no auth header: the token is a path segment. Doing it here keeps every call on
 * `httpRequestWithAuthentication`, so the token is never handled by operation code. Absolute URLs
 * (the per-upload and download addresses the API hands out) carry no token and pass through untouched.
 */
export function rubikaRequestUrl(
	credentials: ICredentialDataDecryptedObject,
	requestUrl: string,
): string {
	if (/^https?:\/\//i.test(requestUrl)) return requestUrl;
	const base = String(credentials.baseUrl || RUBIKA_DEFAULT_BASE_URL)
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/v3$/, '');
	const token = encodeURIComponent(String(credentials.accessToken ?? '').trim());
	const method = requestUrl.replace(/^\/+/, '');
	return `${base}/v3/${token}/${method}`;
}

export class RubikaApi implements ICredentialType {
	name = 'rubikaApi';

	displayName = 'Rubika Bot API';

	icon: Icon = { light: 'file:../icons/rubika.svg', dark: 'file:../icons/rubika.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-rubika/n8n-nodes-rubika#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Bot Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The token @BotFather gave your bot in Rubika',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: RUBIKA_DEFAULT_BASE_URL,
			description:
				'Address of the Bot API. Keep the default for Rubika itself; change it for a self-hosted gateway or the local Rubika sandbox (for example http://127.0.0.1:8765).',
		},
	];

	authenticate: IAuthenticate = async (credentials, requestOptions): Promise<IHttpRequestOptions> => {
		const url = rubikaRequestUrl(credentials, requestOptions.url);
		const authenticated: IHttpRequestOptions = { ...requestOptions, url };
		// The credential test sends a baseURL; the full URL above already contains it.
		delete authenticated.baseURL;
		return authenticated;
	};

	// n8n's tester fails the test when `get(body, key) === value`, checked in order. The last rule fails
	// any 200 answer that has no bot id, which is what a server that is not the Rubika Bot API returns.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: 'getMe',
			method: 'POST',
			body: {},
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'status',
					value: 'INVALID_INPUT',
					message: 'Rubika rejected the bot token (INVALID_INPUT). Copy the token again from @BotFather.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'status',
					value: 'INVALID_ACCESS',
					message: 'Rubika refused access with this bot token (INVALID_ACCESS). Is the bot still active?',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'status',
					value: 'TOO_REQUESTS',
					message: 'Rubika is rate limiting this bot (TOO_REQUESTS). Wait a minute and test again.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'data.bot.bot_id',
					value: undefined,
					message:
						'The server at the Base URL answered, but not like the Rubika Bot API (no bot in the getMe answer). Check the Base URL.',
				},
			},
		],
	};
}

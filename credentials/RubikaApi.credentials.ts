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

/** The credential's Base URL without a trailing slash or `/v3`. */
function apiBase(credentials: ICredentialDataDecryptedObject): string {
	return String(credentials.baseUrl || RUBIKA_DEFAULT_BASE_URL)
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/v3$/i, '');
}

/**
 * Builds `{base}/v3/{token}/{method}`.
 *
 * Rubika has no auth header: the token is a path segment. Doing it here keeps every call on
 * `httpRequestWithAuthentication`, so the token is never handled by operation code. A request may name:
 * - a bare method (`getMe`): what this package's nodes send;
 * - an absolute address under the Base URL without a token (`{base}/v3/getMe` or `{base}/getMe`): what a
 *   person types into n8n's HTTP Request node with this credential ("Custom API Call");
 * - any other absolute address (the per-upload and download addresses the API hands out, other hosts,
 *   or a Bot API address that already holds a token): passed through untouched, so the token never goes
 *   anywhere it was not meant to.
 */
export function rubikaRequestUrl(credentials: ICredentialDataDecryptedObject, requestUrl: string): string {
	const base = apiBase(credentials);
	const token = encodeURIComponent(String(credentials.accessToken ?? '').trim());
	if (!/^https?:\/\//i.test(requestUrl)) return `${base}/v3/${token}/${requestUrl.replace(/^\/+/, '')}`;
	if (!requestUrl.toLowerCase().startsWith(`${base.toLowerCase()}/`)) return requestUrl;
	const rest = requestUrl.slice(base.length + 1).replace(/^v3\//i, '');
	// One path segment (and maybe a query) is a method; more already hold a token or are something else.
	if (!/^[A-Za-z][A-Za-z0-9_]*(?:[?#].*)?$/.test(rest)) return requestUrl;
	return `${base}/v3/${token}/${rest}`;
}

/** What n8n's HTTP client takes as a request's `proxy`. */
type ProxyOption = NonNullable<IHttpRequestOptions['proxy']>;

/**
 * The credential's Proxy as n8n's request option, or undefined when none is set. The user name and password
 * come from their own fields, else from the address (`http://user:password@host:port`). Only http:// and
 * https:// proxies: n8n's HTTP client ignores any other kind.
 */
export function rubikaProxy(credentials: ICredentialDataDecryptedObject): ProxyOption | undefined {
	const address = String(credentials.proxy ?? '').trim();
	if (address === '') return undefined;
	let url: URL;
	try {
		url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `http://${address}`);
	} catch {
		url = new URL('invalid:');
	}
	if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
		throw new Error(`The Proxy in the Rubika credential must be an http:// or https:// address with a host, such as http://proxy.example:3128 (got "${url.protocol === 'invalid:' ? 'an address that does not parse' : url.protocol}")`);
	}
	const username = String(credentials.proxyUsername ?? '').trim() || decodeURIComponent(url.username);
	const password = String(credentials.proxyPassword ?? '') || decodeURIComponent(url.password);
	return {
		protocol: url.protocol.slice(0, -1),
		host: url.hostname.replace(/^\[|\]$/g, ''),
		port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
		...(username ? { auth: { username, password } } : {}),
	};
}

export class RubikaApi implements ICredentialType {
	name = 'rubikaApi';

	displayName = 'Rubika Bot API';

	icon: Icon = { light: 'file:../icons/rubika.svg', dark: 'file:../icons/rubika.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-rubika/n8n-nodes-rubika/blob/main/docs/credentials.md';

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
				'Address of the Bot API. Keep the default for Rubika itself. Rubika\'s other address for the same API, https://messengerg2b1.iranlms.ir (the one its 2022 documentation and several client libraries use), is an alternative when this one cannot be reached. Change it also for a gateway that forwards to Rubika (one hosted in Iran, for an n8n abroad) or the local Rubika sandbox (for example http://127.0.0.1:8765). If the test answers ENOTFOUND, ECONNREFUSED or ETIMEDOUT, n8n could not reach this host: check the address, n8n\'s network (DNS, firewall) and the proxy.',
		},
		{
			displayName: 'Proxy',
			name: 'proxy',
			type: 'string',
			default: '',
			placeholder: 'http://proxy.example:3128',
			description:
				'Optional. An HTTP or HTTPS proxy every request of this credential goes through (Bot API calls, file uploads and downloads, the credential test). Rubika often answers only addresses in Iran: an n8n abroad reaches it through a proxy there. Leave empty to connect directly, or through n8n\'s own HTTPS_PROXY when the instance sets one.',
		},
		{
			displayName: 'Proxy Username',
			name: 'proxyUsername',
			type: 'string',
			default: '',
			description: 'Optional. For a proxy that asks for a user name and password.',
		},
		{
			displayName: 'Proxy Password',
			name: 'proxyPassword',
			type: 'string',
			typeOptions: { password: true },
			default: '',
		},
	];

	authenticate: IAuthenticate = async (credentials, requestOptions): Promise<IHttpRequestOptions> => {
		// n8n's HTTP Request node hands over legacy request options: the address may be in `uri`.
		const legacy = requestOptions as IHttpRequestOptions & { uri?: string };
		const address = legacy.url ?? legacy.uri;
		if (typeof address !== 'string') return requestOptions;
		const authenticated: IHttpRequestOptions & { uri?: string } = { ...legacy };
		const url = rubikaRequestUrl(credentials, address);
		if (legacy.url !== undefined) authenticated.url = url;
		if (legacy.uri !== undefined) authenticated.uri = url;
		// The credential test sends a baseURL; the full URL above already contains it.
		delete authenticated.baseURL;
		// A proxy the request names itself (the HTTP Request node's own option) wins.
		const proxy = rubikaProxy(credentials);
		if (proxy && authenticated.proxy === undefined) authenticated.proxy = proxy;
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

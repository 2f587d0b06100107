/**
 * The one set of link-button rules (nodes/shared/buttonLink.ts): what it finds, and that the node (before
 * sending) and the sandbox (as the service) refuse exactly the same buttons, each in its own words.
 */
import { appLinkOf, buttonLinkProblems } from '../../nodes/Rubika/keypad/buttonLink';
import { InputError } from '../../nodes/shared/errors';
import { validateKeypad as validateNodeKeypad } from '../../nodes/Rubika/keypad';
import { defaultConfig } from '../../sandbox/config';
import { ApiError } from '../../sandbox/errors';
import { validateKeypad as validateSandboxKeypad } from '../../sandbox/validation';

const RESUME = 'http://127.0.0.1:5678/webhook-waiting/123/abc?approved=true&signature=0f3a';
const url = (link_url: unknown, extra: Record<string, unknown> = {}) => ({ type: 'Link', button_link: { type: 'url', link_url, ...extra } });
const join = (username: unknown, extra: Record<string, unknown> = {}) => ({
	type: 'Link',
	button_link: { type: 'joinchannel', joinchannel_data: { username, ...extra } },
});

describe('buttonLinkProblems', () => {
	test.each<[string, Record<string, unknown>]>([
		['a Simple button without button_link', { type: 'Simple' }],
		['a Simple button with button_link null', { type: 'Simple', button_link: null }],
		['n8n\'s resume address', url(RESUME)],
		['https with query and fragment, open_chat_data, null for the other type\'s field', url('https://rubika.ir/x?y=1#z', { joinchannel_data: null, open_chat_data: { object_guid: 'c0abc', object_type: 'Channel' } })],
		['an upper-case scheme', url('HTTPS://Example.com')],
		['a channel to join, ask_join given', join('Sandbox_Channel2', { ask_join: true })],
		['a channel to join, ask_join null', join('abc', { ask_join: null })],
		['a Rubika app link to a group invitation', url('rubika://g.rubika.ir/BHFBIFJE0HFRQUYDGNWNSAWFBMVBBPVW')],
		['a Rubika app link to a profile, upper-case scheme', url('RUBIKA://l.rubika.ir/sandbox_channel')],
	])('nothing wrong: %s', (_name, button) => {
		expect(buttonLinkProblems(button)).toEqual([]);
	});

	test.each<[string, Record<string, unknown>, Array<[string, string, unknown]>]>([
		['button_link on a Simple button', { type: 'Simple', button_link: { type: 'url', link_url: RESUME } }, [['notLinkButton', 'button_link', { type: 'url', link_url: RESUME }]]],
		['a Link button without button_link', { type: 'Link' }, [['required', 'button_link', undefined]]],
		['button_link as text', { type: 'Link', button_link: 'https://x.y' }, [['notObject', 'button_link', 'https://x.y']]],
		['an unknown link type', { type: 'Link', button_link: { type: 'URL', link_url: RESUME } }, [['unknownLinkType', 'button_link.type', 'URL']]],
		['an empty address', url(' '), [['urlMissing', 'button_link.link_url', ' ']]],
		['a javascript: address', url('javascript:alert(1)'), [['badUrl', 'button_link.link_url', 'javascript:alert(1)']]],
		['an address padded with spaces', url(' https://example.com '), [['badUrl', 'button_link.link_url', ' https://example.com ']]],
		['an address without a host after //', url('http:///example.com'), [['badUrl', 'button_link.link_url', 'http:///example.com']]],
		['an address with one slash', url('http:/example.com'), [['badUrl', 'button_link.link_url', 'http:/example.com']]],
		[
			'every problem of a url link, in order',
			url('ftp://x', { joinchannel_data: { username: 'abc' }, open_chat_data: { object_guid: '', object_type: 7 } }),
			[
				['badUrl', 'button_link.link_url', 'ftp://x'],
				['otherLinkTypeField', 'button_link.joinchannel_data', { username: 'abc' }],
				['emptyText', 'button_link.open_chat_data.object_guid', ''],
				['emptyText', 'button_link.open_chat_data.object_type', 7],
			],
		],
		[
			'every problem of a joinchannel link, in order',
			{ type: 'Link', button_link: { type: 'joinchannel', link_url: RESUME, joinchannel_data: { username: '@news', ask_join: 'yes' }, open_chat_data: [] } },
			[
				['otherLinkTypeField', 'button_link.link_url', RESUME],
				['badUsername', 'button_link.joinchannel_data.username', '@news'],
				['notBoolean', 'button_link.joinchannel_data.ask_join', 'yes'],
				['notObject', 'button_link.open_chat_data', []],
			],
		],
		['joinchannel without its data', { type: 'Link', button_link: { type: 'joinchannel' } }, [['required', 'button_link.joinchannel_data', undefined]]],
		['joinchannel data as text', { type: 'Link', button_link: { type: 'joinchannel', joinchannel_data: 'news' } }, [['notObject', 'button_link.joinchannel_data', 'news']]],
	])('%s', (_name, button, expected) => {
		expect(buttonLinkProblems(button)).toEqual(expected.map(([code, path, value]) => ({ code, path, value })));
	});

	test.each(['rubika:/g.rubika.ir/x', 'rubika://', 'rubika:///x', 'rubika://g.rubika.ir/a b', 'rubikax://g.rubika.ir/x'])(
		'a rubika link without a host, or with a space, is refused: %j',
		(link) => {
			expect(buttonLinkProblems(url(link)).map((problem) => problem.code)).toEqual(['badUrl']);
		},
	);

	test('a url link takes an absolute http(s) address with a host, nothing a browser would strip', () => {
		const accepted = (url: string) => buttonLinkProblems({ type: 'Link', button_link: { type: 'url', link_url: url } }).length === 0;
		expect([RESUME, 'https://a.b/c d', 'https://a.b/\tx', 'mailto:a@b.c', 'http://', 'https://[::1]:8080/x'].map(accepted)).toEqual([
			true,
			false,
			false,
			false,
			false,
			true,
		]);
	});
});

describe('appLinkOf: the rubika.ir addresses the client libraries send as app links', () => {
	test.each([
		['https://rubika.ir/joing/BHFBIFJE0HFRQUYDGNWNSAWFBMVBBPVW', 'rubika://g.rubika.ir/BHFBIFJE0HFRQUYDGNWNSAWFBMVBBPVW'],
		['https://rubika.ir/joinc/CAIBJBAA0RXIXWPHVXOYUYZWDUMZSXPA', 'rubika://c.rubika.ir/CAIBJBAA0RXIXWPHVXOYUYZWDUMZSXPA'],
		['https://rubika.ir/post/sandbox_channel/abc123', 'rubika://p.rubika.ir/sandbox_channel/abc123'],
		['http://www.rubika.ir/joing/ABC?x=1', 'rubika://g.rubika.ir/ABC?x=1'],
		['HTTPS://Rubika.IR/JoinC/ABC', 'rubika://c.rubika.ir/ABC'],
	])('%s → %s', (address, appLink) => {
		expect(appLinkOf(address)).toBe(appLink);
	});

	test.each(['https://rubika.ir/', 'https://rubika.ir/joing/', 'https://rubika.ir/sandbox_channel', 'https://rubika.ir.evil.example/joing/ABC', 'https://example.com/joing/ABC', 'rubika://g.rubika.ir/ABC'])(
		'left as it is: %s',
		(address) => {
			expect(appLinkOf(address)).toBe(address);
		},
	);
});

describe('the node and the sandbox refuse the same link buttons', () => {
	const cases: Array<[string, Record<string, unknown>, RegExp | null, RegExp | null]> = [
		// [case, button fields, the node's message (null: accepted), the sandbox's dev_message]
		['a resume address', url(RESUME), null, null],
		['a Rubika app link', url('rubika://c.rubika.ir/CAIBJBAA0RXIXWPHVXOYUYZWDUMZSXPA'), null, null],
		['a channel to join', join('sandbox_channel', { ask_join: false }), null, null],
		['open_chat_data riding along', url(RESUME, { open_chat_data: { object_guid: 'c0abc', object_type: 'Channel' } }), null, null],
		['button_link on a Simple button', { type: 'Simple', button_link: { type: 'url', link_url: RESUME } }, /^row 1, button 2: button_link is only for Link buttons$/, /^inline_keypad\.rows\[0\]\.buttons\[1\]\.button_link is only allowed on buttons of type Link, not "Simple"$/],
		['a Link button without button_link', { type: 'Link' }, /a Link button needs a web address or a channel to join \(button_link\)$/, /buttons\[1\]\.button_link is required for a Link button$/],
		['an unknown link type', { type: 'Link', button_link: { type: 'URL', link_url: RESUME } }, /button_link\.type must be url or joinchannel$/, /button_link\.type must be one of url, joinchannel; got "URL"$/],
		['an empty address', url(''), /the URL "" is not a web address \(http:\/\/ or https:\/\/\) or a Rubika link \(rubika:\/\/\)$/, /link_url is required for type url/],
		['a javascript: address', url('javascript:alert(1)'), /the URL "javascript:alert\(1\)" is not a web address/, /link_url must be an absolute http\(s\) URL or a rubika:\/\/ link; got "javascript:alert\(1\)"$/],
		['an address padded with spaces', url(' https://example.com '), /the URL " https:\/\/example\.com " is not a web address/, /link_url must be an absolute http\(s\) URL/],
		['an address with one slash', url('http:/example.com'), /the URL "http:\/example\.com" is not a web address/, /link_url must be an absolute http\(s\) URL/],
		['joinchannel_data on a url link', url(RESUME, { joinchannel_data: { username: 'abc' } }), /row 1, button 2: button_link\.joinchannel_data is only for joinchannel links$/, /button_link\.joinchannel_data is only allowed for type joinchannel$/],
		['link_url on a joinchannel link', { type: 'Link', button_link: { type: 'joinchannel', link_url: RESUME, joinchannel_data: { username: 'abc' } } }, /button_link\.link_url is only for url links$/, /button_link\.link_url is only allowed for type url$/],
		['joinchannel without its data', { type: 'Link', button_link: { type: 'joinchannel' } }, /the channel username "" is not valid/, /button_link\.joinchannel_data is required for type joinchannel$/],
		['a username with @', join('@sandbox_channel'), /the channel username "@sandbox_channel" is not valid \(letters, digits and _, 3 to 32\)$/, /joinchannel_data\.username must be a channel username .*got "@sandbox_channel"$/],
		['ask_join as text', join('sandbox_channel', { ask_join: 'yes' }), /button_link\.joinchannel_data\.ask_join must be true or false, got "yes"$/, /joinchannel_data\.ask_join must be a boolean, got a string$/],
		['open_chat_data without object_guid', url(RESUME, { open_chat_data: { object_type: 'Channel' } }), /button_link\.open_chat_data\.object_guid must be a non-empty text$/, /open_chat_data\.object_guid must be a non-empty string, got a undefined$/],
		['open_chat_data as a list', url(RESUME, { open_chat_data: [] }), /button_link\.open_chat_data must be an object$/, /open_chat_data must be an object, got an array$/],
	];

	test.each(cases)('%s', (_name, fields, nodeMessage, sandboxMessage) => {
		const keypad = { rows: [{ buttons: [{ id: 'fine', type: 'Simple', button_text: 'Fine' }, { id: 'x', button_text: 'X', ...fields }] }] };
		let nodeError: unknown;
		let sandboxError: unknown;
		try {
			validateNodeKeypad(structuredClone(keypad), 'Inline Keypad (JSON)', 'inline');
		} catch (error) {
			nodeError = error;
		}
		try {
			validateSandboxKeypad(structuredClone(keypad), 'inline_keypad', 'inline', defaultConfig());
		} catch (error) {
			sandboxError = error;
		}
		if (nodeMessage === null) {
			expect(nodeError).toBeUndefined();
			expect(sandboxError).toBeUndefined();
			return;
		}
		expect(nodeError).toBeInstanceOf(InputError);
		expect((nodeError as InputError).field).toBe('Inline Keypad (JSON)');
		expect((nodeError as InputError).message).toMatch(/^row 1, button 2: /);
		expect((nodeError as InputError).message).toMatch(nodeMessage);
		expect(sandboxError).toBeInstanceOf(ApiError);
		expect((sandboxError as ApiError).status).toBe('INVALID_INPUT');
		expect((sandboxError as ApiError).devMessage).toMatch(/^inline_keypad\.rows\[0\]\.buttons\[1\]\.button_link/);
		expect((sandboxError as ApiError).devMessage).toMatch(sandboxMessage!);
	});
});

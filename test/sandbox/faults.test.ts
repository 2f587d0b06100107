import axios from 'axios';

import { DEMO_BOT_TOKEN, DEMO_USERS } from '../../sandbox';
import { useSandbox, withSandbox } from '../support/sandbox';
import { api, multipartBody, ok, postRaw } from './helpers';

const { sara } = DEMO_USERS;
const t = useSandbox();

const send = (text = 'x') => api(t.sandbox, 'sendMessage', { chat_id: sara.chat_id, text });

describe('fault kinds', () => {
	test('httpStatus answers that status with the given body, without effect', async () => {
		t.sandbox.injectFault({ kind: 'httpStatus', httpStatus: 503, body: 'Service Unavailable' });
		const answer = await send();
		expect(answer).toMatchObject({ httpStatus: 503, text: 'Service Unavailable' });
		expect(t.sandbox.messages(sara.chat_id)).toEqual([]);
		expect(t.sandbox.requestsFor('sendMessage')[0]).toMatchObject({ httpStatus: 503, status: null, fault: 'httpStatus' });
		expect((await send()).json.status).toBe('OK');
	});

	test('status answers an error envelope: TOO_REQUESTS on 429, INVALID_ACCESS on 200', async () => {
		t.sandbox.injectFault({ kind: 'status', status: 'TOO_REQUESTS', httpStatus: 429 });
		t.sandbox.injectFault({ kind: 'status', status: 'INVALID_ACCESS' });
		const first = await send();
		expect(first.httpStatus).toBe(429);
		expect(first.json).toEqual({ status: 'TOO_REQUESTS', dev_message: expect.any(String) });
		const second = await send();
		expect(second.httpStatus).toBe(200);
		expect(second.json.status).toBe('INVALID_ACCESS');
		expect(t.sandbox.messages(sara.chat_id)).toEqual([]);
	});

	test('retryAfterSeconds adds a Retry-After header to a status or httpStatus fault', async () => {
		t.sandbox.injectFault({ kind: 'status', status: 'TOO_REQUESTS', httpStatus: 429, retryAfterSeconds: 2 });
		t.sandbox.injectFault({ kind: 'httpStatus', httpStatus: 503, retryAfterSeconds: 0.5 });
		const limited = await send();
		expect(limited.httpStatus).toBe(429);
		expect(limited.headers['retry-after']).toBe('2');
		expect((await send()).headers['retry-after']).toBe('0.5');
		expect((await send()).headers['retry-after']).toBeUndefined();
		expect(() => t.sandbox.injectFault({ kind: 'status', retryAfterSeconds: -1 })).toThrow(/retryAfterSeconds/);
	});

	test('delay waits, then answers normally', async () => {
		t.sandbox.injectFault({ kind: 'delay', ms: 300 });
		const started = Date.now();
		const answer = await send();
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect(answer.json.status).toBe('OK');
		expect(t.sandbox.messages(sara.chat_id)).toHaveLength(1);
	});

	test('malformed answers invalid JSON with HTTP 200', async () => {
		t.sandbox.injectFault({ kind: 'malformed' });
		const answer = await send();
		expect(answer.httpStatus).toBe(200);
		expect(answer.headers['content-type']).toMatch(/json/);
		expect(() => JSON.parse(answer.text)).toThrow();
	});

	test('truncated cuts the real answer, after the request took effect', async () => {
		t.sandbox.injectFault({ kind: 'truncated' });
		const answer = await send('did it arrive?');
		expect(answer.text.startsWith('{"status":"OK"')).toBe(true);
		expect(() => JSON.parse(answer.text)).toThrow();
		expect(t.sandbox.messages(sara.chat_id).map((message) => message.text)).toEqual(['did it arrive?']);
	});

	test('html answers a 502 gateway page', async () => {
		t.sandbox.injectFault({ kind: 'html' });
		const answer = await send();
		expect(answer.httpStatus).toBe(502);
		expect(answer.headers['content-type']).toMatch(/text\/html/);
		expect(answer.text).toMatch(/<html>.*502 Bad Gateway/);
	});

	test('empty answers 200 with no body', async () => {
		t.sandbox.injectFault({ kind: 'empty' });
		const answer = await send();
		expect(answer).toMatchObject({ httpStatus: 200, text: '' });
	});

	test('drop closes the connection without an answer, with or without effect', async () => {
		t.sandbox.injectFault({ kind: 'drop' });
		await expect(send('lost')).rejects.toThrow(/socket hang up|ECONNRESET/);
		expect(t.sandbox.messages(sara.chat_id)).toEqual([]);
		t.sandbox.injectFault({ kind: 'drop', afterEffect: true });
		await expect(send('arrived')).rejects.toThrow(/socket hang up|ECONNRESET/);
		expect(t.sandbox.messages(sara.chat_id).map((message) => message.text)).toEqual(['arrived']);
		expect(t.sandbox.requestsFor('sendMessage').map((entry) => [entry.fault, entry.httpStatus])).toEqual([
			['drop', null],
			['drop', null],
		]);
	});
});

describe('fault matching', () => {
	test('a method filter leaves other methods alone; faults apply in order and are consumed', async () => {
		t.sandbox.injectFault({ kind: 'httpStatus', httpStatus: 500, method: 'sendMessage' });
		t.sandbox.injectFault({ kind: 'httpStatus', httpStatus: 502, method: 'sendMessage' });
		expect((await api(t.sandbox, 'getMe')).httpStatus).toBe(200);
		expect((await send()).httpStatus).toBe(500);
		expect((await send()).httpStatus).toBe(502);
		expect((await send()).httpStatus).toBe(200);
		expect(t.sandbox.pendingFaults()).toEqual([]);
	});

	test('times and skip', async () => {
		t.sandbox.injectFault({ kind: 'status', status: 'TOO_REQUESTS', times: 2, skip: 1 });
		const statuses = [];
		for (let index = 0; index < 4; index++) statuses.push((await send()).json.status);
		expect(statuses).toEqual(['OK', 'TOO_REQUESTS', 'TOO_REQUESTS', 'OK']);
	});

	test('times: Infinity lasts until cleared', async () => {
		t.sandbox.injectFault({ kind: 'empty', times: Infinity });
		for (let index = 0; index < 3; index++) expect((await send()).text).toBe('');
		t.sandbox.clearFaults();
		expect((await send()).json.status).toBe('OK');
	});

	test('faults hit even requests with a bad token, and are logged', async () => {
		t.sandbox.injectFault({ kind: 'html' });
		const answer = await api(t.sandbox, 'getMe', undefined, 'bad');
		expect(answer.httpStatus).toBe(502);
		expect(t.sandbox.requests[0]).toMatchObject({ method: 'getMe', tokenValid: false, fault: 'html', httpStatus: 502 });
	});

	test('upload and download faults are opt-in by name', async () => {
		t.sandbox.injectFault({ kind: 'httpStatus', httpStatus: 503, method: 'upload' });
		t.sandbox.injectFault({ kind: 'truncated', method: 'download' });
		const { upload_url } = await ok(t.sandbox, 'requestSendFile', { type: 'File' });
		const form = multipartBody([{ name: 'file', filename: 'a.bin', data: Buffer.alloc(100, 7) }]);
		expect((await postRaw(upload_url, form.body, form.contentType)).httpStatus).toBe(503);
		const uploaded = await postRaw(upload_url, form.body, form.contentType);
		const { download_url } = await ok(t.sandbox, 'getFile', { file_id: uploaded.json.data.file_id });
		await expect(axios.get(download_url, { responseType: 'arraybuffer' })).rejects.toThrow();
		const whole = await axios.get(download_url, { responseType: 'arraybuffer' });
		expect(Buffer.from(whole.data).length).toBe(100);
	});

	test('bad fault specs are refused', () => {
		expect(() => t.sandbox.injectFault({ kind: 'explode' as never })).toThrow(/kind/);
		expect(() => t.sandbox.injectFault({ kind: 'delay' })).toThrow(/ms/);
		expect(() => t.sandbox.injectFault({ kind: 'empty', times: 0 })).toThrow(/times/);
	});
});

describe('latency and rate limit', () => {
	test('latencyMs delays every call', async () => {
		await withSandbox({ latencyMs: 150 }, async (slow) => {
			const started = Date.now();
			await api(slow, 'getMe');
			await api(slow, 'getMe');
			expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		});
	});

	test('beyond perSecond the answer is TOO_REQUESTS, with the configured HTTP status', async () => {
		await withSandbox({ rateLimit: { perSecond: 3 } }, async (limited) => {
			const answers = await Promise.all(Array.from({ length: 5 }, () => api(limited, 'getMe')));
			const statuses = answers.map((answer) => answer.json.status).sort();
			expect(statuses).toEqual(['OK', 'OK', 'OK', 'TOO_REQUESTS', 'TOO_REQUESTS']);
			expect(answers.every((answer) => answer.httpStatus === 200)).toBe(true);
			expect(limited.requests.filter((entry) => entry.fault === 'rateLimit')).toHaveLength(2);
			await new Promise((resolve) => setTimeout(resolve, 1100));
			expect((await api(limited, 'getMe')).json.status).toBe('OK');
			limited.configure({ rateLimit: { perSecond: 1, httpStatus: 429 } });
			await new Promise((resolve) => setTimeout(resolve, 1100));
			await api(limited, 'getMe');
			expect((await api(limited, 'getMe')).httpStatus).toBe(429);
			// Limits are per token.
			expect((await api(limited, 'getMe', undefined, 'another')).json.status).toBe('INVALID_INPUT');
			limited.configure({ rateLimit: { perSecond: 1, retryAfterSeconds: 1 } });
			expect((await api(limited, 'getMe')).headers['retry-after']).toBe('1');
		});
	});

	test.each([1, 2, 5, 30])(
		'a limit of %i per second is per bot, and refuses as Rubika does: TOO_REQUESTS on HTTP 200, without Retry-After',
		async (perSecond) => {
			await withSandbox({ rateLimit: { perSecond } }, async (limited) => {
				const [first, second] = [limited.addBot(), limited.addBot()];
				const burst = async (token: string) =>
					await Promise.all(Array.from({ length: perSecond + 3 }, async () => await api(limited, 'getMe', undefined, token)));
				const [answers, othersAnswers] = await Promise.all([burst(first.token), burst(second.token)]);
				for (const each of [answers, othersAnswers]) {
					expect(each.filter((answer) => answer.json.status === 'OK')).toHaveLength(perSecond);
					const refused = each.filter((answer) => answer.json.status !== 'OK');
					expect(refused).toHaveLength(3);
					for (const answer of refused) {
						expect(answer.httpStatus).toBe(200);
						expect(answer.json.status).toBe('TOO_REQUESTS');
						expect(answer.headers['retry-after']).toBeUndefined();
					}
				}
			});
		},
	);
});

test('token-free file addresses are untouched by API faults', async () => {
	const { upload_url } = await ok(t.sandbox, 'requestSendFile', { type: 'File' });
	t.sandbox.injectFault({ kind: 'html' });
	const form = multipartBody([{ name: 'file', filename: 'a.bin', data: 'x' }]);
	expect((await postRaw(upload_url, form.body, form.contentType)).json.status).toBe('OK');
	expect(upload_url).not.toContain(DEMO_BOT_TOKEN);
	expect(t.sandbox.pendingFaults()).toHaveLength(1);
	// The fault is still there for the next call with the token.
	expect((await api(t.sandbox, 'getMe')).httpStatus).toBe(502);
	expect(t.sandbox.pendingFaults()).toEqual([]);
});

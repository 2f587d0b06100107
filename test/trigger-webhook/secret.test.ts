/** The pure helpers behind the webhook's secret and its repeated-tap window. */
import {
	deriveSecret,
	hideSecret,
	presentedSecret,
	registeredUrl,
	secretLocationOf,
	secretsMatch,
	webhookPathFor,
} from '../../nodes/RubikaTrigger/webhook/secret';
import { isRepeatedTap } from '../../nodes/RubikaTrigger/webhook/taps';
import type { IDataObject } from 'n8n-workflow';

describe('secret', () => {
	const token = 'A'.repeat(64);

	test('is derived from the token and the webhook id, stable, and reveals neither', () => {
		const secret = deriveSecret(token, 'hook-1');
		expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
		expect(deriveSecret(token, 'hook-1')).toBe(secret);
		expect(deriveSecret(token, 'hook-2')).not.toBe(secret);
		expect(deriveSecret('B'.repeat(64), 'hook-1')).not.toBe(secret);
		expect(secret).not.toContain('AAAA');
		expect(secret).not.toContain('hook');
	});

	test('goes into the path (the default), the query or nowhere, and can be hidden again', () => {
		expect(webhookPathFor('path', 'webhook')).toBe('webhook/:secret');
		expect(webhookPathFor('path', 'webhook', 'receiveUpdate')).toBe('webhook/:secret/receiveUpdate');
		expect(webhookPathFor('query', 'webhook', 'receiveUpdate')).toBe('webhook/receiveUpdate');
		expect(webhookPathFor('off', 'webhook')).toBe('webhook');
		const inPath = registeredUrl('https://n8n.example.com/webhook/abc/webhook/:secret', 'path', 'S3cr3t');
		expect(inPath).toBe('https://n8n.example.com/webhook/abc/webhook/S3cr3t');
		expect(hideSecret(inPath, 'S3cr3t')).toBe('https://n8n.example.com/webhook/abc/webhook/***');
		const inQuery = registeredUrl('https://n8n.example.com/webhook/abc/webhook', 'query', 'S3cr3t');
		expect(inQuery).toBe('https://n8n.example.com/webhook/abc/webhook?secret=S3cr3t');
		expect(hideSecret(inQuery, 'S3cr3t')).toBe('https://n8n.example.com/webhook/abc/webhook?secret=***');
		expect(registeredUrl('https://n8n.example.com/webhook/abc/webhook', 'off', '')).toBe('https://n8n.example.com/webhook/abc/webhook');
		expect(() => registeredUrl('https://n8n.example.com/webhook/abc/webhook', 'path', 'S3cr3t')).toThrow(/:secret/);
		expect(secretLocationOf('query')).toBe('query');
		expect(secretLocationOf(undefined)).toBe('path');
		expect(secretLocationOf('elsewhere')).toBe('path');
	});

	test('is read from the query, also with a known endpoint suffix glued on', () => {
		expect(presentedSecret({ secret: 'abc' })).toBe('abc');
		expect(presentedSecret({ secret: 'abc/receiveUpdate' })).toBe('abc');
		expect(presentedSecret({ secret: 'abc/receiveinlinemessage/' })).toBe('abc');
		expect(presentedSecret({ secret: 'abc/other' })).toBeUndefined();
		expect(presentedSecret({ secret: ['abc', 'abc'] })).toBeUndefined();
		expect(presentedSecret({ secret: '' })).toBeUndefined();
		expect(presentedSecret({})).toBeUndefined();
		expect(presentedSecret(undefined)).toBeUndefined();
	});

	test('matches exactly', () => {
		expect(secretsMatch('abc', 'abc')).toBe(true);
		expect(secretsMatch('abd', 'abc')).toBe(false);
		expect(secretsMatch('abcabc', 'abc')).toBe(false);
		expect(secretsMatch(undefined, 'abc')).toBe(false);
	});
});

describe('repeated taps', () => {
	test('identical taps inside the window are one; the window runs from the first tap', () => {
		const store = {};
		expect(isRepeatedTap(store, 'tap', 5000, 1_000_000)).toBe(false);
		expect(isRepeatedTap(store, 'tap', 5000, 1_001_000)).toBe(true);
		expect(isRepeatedTap(store, 'tap', 5000, 1_004_999)).toBe(true);
		expect(isRepeatedTap(store, 'tap', 5000, 1_005_000)).toBe(false);
		expect(isRepeatedTap(store, 'other tap', 5000, 1_005_001)).toBe(false);
	});

	test('a window of 0 counts every tap and clears what was kept', () => {
		const store: IDataObject = {};
		isRepeatedTap(store, 'tap', 5000, 1000);
		expect(isRepeatedTap(store, 'tap', 0, 1001)).toBe(false);
		expect(store.recentTaps).toBeUndefined();
	});

	test('keeps only taps inside the window, and at most a bounded number', () => {
		const store: IDataObject = {};
		for (let index = 0; index < 800; index++) isRepeatedTap(store, `tap ${index}`, 60_000, 1000 + index);
		expect(Object.keys(store.recentTaps as object)).toHaveLength(500);
		isRepeatedTap(store, 'late', 60_000, 1000 + 800 + 60_000);
		expect(Object.keys(store.recentTaps as object).length).toBeLessThan(500);
	});
});

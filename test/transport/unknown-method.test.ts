/**
 * How a Rubika that lacks a method answers is not documented (facts §1), so every plausible "no such method"
 * answer must become one clear message, and nothing else may be mistaken for it.
 */
import { saysMethodIsUnknown, unknownMethodReport, undocumentedMethodHint } from '../../nodes/shared/transport/unknownMethod';

describe('recognising "no such method"', () => {
	test.each([
		['INVALID_INPUT + "Unknown method"', { httpCode: 200, status: 'INVALID_INPUT', devMessage: 'Unknown method' }],
		['a METHOD_NOT_FOUND status', { httpCode: 200, status: 'METHOD_NOT_FOUND' }],
		['"method pinChatMessage does not exist"', { httpCode: 400, status: 'ERROR', devMessage: 'method pinChatMessage does not exist' }],
		['"Method not found"', { httpCode: 200, status: 'INVALID_INPUT', devMessage: 'Method not found' }],
		['"invalid method"', { httpCode: 200, status: 'INVALID_INPUT', devMessage: 'invalid method' }],
		['HTTP 404 on an undocumented method', { httpCode: 404 }],
	])('%s', (_name, answer) => {
		expect(saysMethodIsUnknown('pinChatMessage', answer)).toBe(true);
		const report = unknownMethodReport('pinChatMessage', answer);
		expect(report?.message).toBe('Rubika does not know the method pinChatMessage');
		expect(report?.description).toContain("not in Rubika's official Bot API documentation");
	});

	test.each([
		['an unknown chat', { httpCode: 200, status: 'INVALID_INPUT', devMessage: 'chat_id: chat g0x not found' }],
		['a bad field named with the method', { httpCode: 200, status: 'INVALID_INPUT', devMessage: 'invalid input for method sendMessage: text' }],
		['no admin rights', { httpCode: 200, status: 'INVALID_ACCESS' }],
		['a bare INVALID_INPUT', { httpCode: 200, status: 'INVALID_INPUT' }],
	])('not mistaken: %s', (_name, answer) => {
		expect(saysMethodIsUnknown('pinChatMessage', answer)).toBe(false);
	});

	test('HTTP 404 on a documented method is a wrong Base URL, not a missing method', () => {
		expect(saysMethodIsUnknown('sendMessage', { httpCode: 404 })).toBe(false);
	});

	test('a documented or made-up name (Custom API Call) that Rubika says it does not know: check the spelling', () => {
		const report = unknownMethodReport('sendMesage', { httpCode: 200, status: 'INVALID_INPUT', devMessage: 'Unknown method' });
		expect(report?.message).toBe('Rubika does not know the method sendMesage');
		expect(report?.description).toMatch(/check its spelling/);
	});

	test('other refusals of an undocumented method carry a hint; documented methods none', () => {
		expect(undocumentedMethodHint('getChatMember')).toMatch(/not in Rubika's official documentation/);
		expect(undocumentedMethodHint('sendMessage')).toBe('');
	});
});

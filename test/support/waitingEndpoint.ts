/** Stands in for n8n's `/webhook-waiting` where the triggers hand on taps on Send and Wait's answer buttons. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ChatAnswerDelivery } from '../../nodes/shared/chatAnswers';

interface WaitingAnswer {
	status: number;
	body: object;
}

/**
 * Stands in for n8n's `/webhook-waiting`: records what a trigger posts, answers like the waiting node — the
 * same answer each time, or the n-th answer for the n-th request (from 0), as n8n answers a tap that won and
 * one that lost.
 */
export async function fakeWaitingEndpoint(answer: WaitingAnswer | ((index: number) => WaitingAnswer) = { status: 200, body: { status: 'resumed' } }) {
	const received: Array<{ url: string; body: ChatAnswerDelivery }> = [];
	const server = http.createServer((request, response) => {
		let text = '';
		request.on('data', (chunk) => (text += chunk));
		request.on('end', () => {
			const { status, body } = typeof answer === 'function' ? answer(received.length) : answer;
			received.push({ url: request.url ?? '', body: JSON.parse(text) as ChatAnswerDelivery });
			response.writeHead(status, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify(body));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook-waiting`;
	return { base, received, close: async () => await new Promise((resolve) => server.close(resolve)) };
}

export async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
	const started = Date.now();
	while (!condition()) {
		if (Date.now() - started > timeoutMs) throw new Error('timed out');
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

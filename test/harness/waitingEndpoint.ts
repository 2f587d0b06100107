/** Stands in for n8n's `/webhook-waiting` where the triggers hand on taps on Send and Wait's answer buttons. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ChatAnswerDelivery } from '../../nodes/shared/chatAnswers';

/** Stands in for n8n's `/webhook-waiting`: records what a trigger posts, answers like the waiting node. */
export async function fakeWaitingEndpoint(answer = { status: 200, body: { status: 'resumed' } }) {
	const received: Array<{ url: string; body: ChatAnswerDelivery }> = [];
	const server = http.createServer((request, response) => {
		let text = '';
		request.on('data', (chunk) => (text += chunk));
		request.on('end', () => {
			received.push({ url: request.url ?? '', body: JSON.parse(text) as ChatAnswerDelivery });
			response.writeHead(answer.status, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify(answer.body));
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

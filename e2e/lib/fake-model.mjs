// A stand-in for an OpenAI-compatible chat model, for the AI assistant example's end-to-end test: answers
// POST /v1/chat/completions (plain or streamed) with a text that says what it was asked and how many earlier
// messages of the conversation came with the question, and keeps every request for the test to read.
// Nothing here knows about n8n; it only speaks the OpenAI wire format the model node sends.
import http from 'node:http';

/** The answer to a conversation: the last user message, echoed, and how many messages came before it. */
export function fakeAnswer(messages) {
	const turns = messages.filter((m) => m.role === 'user' || m.role === 'assistant');
	const question = [...turns].reverse().find((m) => m.role === 'user');
	const text = typeof question?.content === 'string' ? question.content : JSON.stringify(question?.content ?? '');
	return `You asked: ${text} (${turns.length - 1} earlier messages in this chat)`;
}

export async function startFakeModel({ port = 0, host = '127.0.0.1' } = {}) {
	const requests = [];
	const server = http.createServer((req, res) => {
		let raw = '';
		req.on('data', (chunk) => (raw += chunk));
		req.on('end', () => {
			const path = (req.url ?? '').split('?')[0];
			if (req.method === 'GET' && path.endsWith('/models')) {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', owned_by: 'fake' }] }));
				return;
			}
			if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
				res.writeHead(404, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
				return;
			}
			let body;
			try {
				body = JSON.parse(raw);
			} catch {
				res.writeHead(400, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: 'body is not JSON' } }));
				return;
			}
			requests.push({ at: Date.now(), authorization: req.headers.authorization, body });
			const content = fakeAnswer(body.messages ?? []);
			const id = `chatcmpl-${requests.length}`;
			const created = Math.floor(Date.now() / 1000);
			const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
			if (body.stream) {
				res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
				const chunk = (delta, finish) =>
					`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
				res.write(chunk({ role: 'assistant', content }, null));
				res.write(chunk({}, 'stop'));
				if (body.stream_options?.include_usage) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`);
				res.end('data: [DONE]\n\n');
				return;
			}
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(
				JSON.stringify({
					id,
					object: 'chat.completion',
					created,
					model: body.model,
					choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
					usage,
				}),
			);
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, resolve);
	});
	const address = server.address();
	return {
		url: `http://${host}:${address.port}/v1`,
		requests,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

// A stand-in for an OpenAI-compatible chat model, for the AI assistant example's end-to-end test: answers
// POST /v1/chat/completions (plain or streamed) with a text that says what it was asked and how many earlier
// messages of the conversation came with the question, or, when it is offered tools, calls each of them once
// (fakeToolTurn), and keeps every request for the test to read.
// Nothing here knows about n8n; it only speaks the OpenAI wire format the model node sends.
import http from 'node:http';

/** The answer to a conversation: the last user message, echoed, and how many messages came before it. */
export function fakeAnswer(messages) {
	const turns = messages.filter((m) => m.role === 'user' || m.role === 'assistant');
	const question = [...turns].reverse().find((m) => m.role === 'user');
	const text = typeof question?.content === 'string' ? question.content : JSON.stringify(question?.content ?? '');
	return `You asked: ${text} (${turns.length - 1} earlier messages in this chat)`;
}

/**
 * With tools offered (an AI Agent with tools), the model calls each tool once, in the order offered, one per turn,
 * filling every parameter the tool asks for (a text: `Question for <tool>: <parameter>`); once every tool has answered it
 * says what each one answered (`<tool>: <the tool's answer>` lines). Undefined when no tool is offered.
 */
function fakeToolTurn(messages, tools) {
	if (!Array.isArray(tools) || tools.length === 0) return undefined;
	const called = new Map();
	for (const m of messages) for (const call of m.tool_calls ?? []) called.set(call.id, call.function?.name);
	const answered = messages.filter((m) => m.role === 'tool').map((m) => [called.get(m.tool_call_id), typeof m.content === 'string' ? m.content : JSON.stringify(m.content)]);
	const next = tools.map((tool) => tool.function ?? tool).find((tool) => ![...called.values()].includes(tool.name));
	if (!next) return { content: answered.map(([name, content]) => `${name}: ${content}`).join('\n') };
	const fill = (schema, label) => {
		if (schema?.type === 'object') return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, inner]) => [key, fill(inner, `${label}: ${key}`)]));
		if (schema?.type === 'number' || schema?.type === 'integer') return 1;
		return schema?.type === 'boolean' ? true : `Question for ${label}`;
	};
	const args = fill({ type: 'object', ...next.parameters }, next.name);
	return { toolCall: { id: `call_${called.size + 1}`, type: 'function', function: { name: next.name, arguments: JSON.stringify(args) } } };
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
			const turn = fakeToolTurn(body.messages ?? [], body.tools);
			const toolCalls = turn?.toolCall ? [turn.toolCall] : undefined;
			const content = toolCalls ? null : (turn?.content ?? fakeAnswer(body.messages ?? []));
			const finishReason = toolCalls ? 'tool_calls' : 'stop';
			const id = `chatcmpl-${requests.length}`;
			const created = Math.floor(Date.now() / 1000);
			const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
			if (body.stream) {
				res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
				const chunk = (delta, finish) =>
					`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
				res.write(chunk({ role: 'assistant', content, ...(toolCalls ? { tool_calls: toolCalls.map((call, index) => ({ index, ...call })) } : {}) }, null));
				res.write(chunk({}, finishReason));
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
					choices: [{ index: 0, message: { role: 'assistant', content, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, finish_reason: finishReason }],
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

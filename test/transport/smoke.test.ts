import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { runNode } from '../../tooling/harness/n8n';

test('getMe through the real engine', async () => {
	const seen: string[] = [];
	const server = http.createServer((req, res) => {
		seen.push(`${req.method} ${req.url}`);
		res.setHeader('content-type', 'application/json');
		res.end('{"status":"OK","data":{"bot":{"bot_id":"b0123","bot_title":"Demo","username":"demo_bot","message_id":12345678901234567891}}}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const result = await runNode({
		parameters: { resource: 'bot', operation: 'getMe' },
		credentials: { accessToken: 'secret-token', baseUrl: `http://127.0.0.1:${port}` },
	});
	server.close();
	expect(result.error).toBeUndefined();
	expect(seen).toEqual(['POST /v3/secret-token/getMe']);
	expect(result.items[0].json).toEqual({ bot_id: 'b0123', bot_title: 'Demo', username: 'demo_bot', message_id: '12345678901234567891' });
});

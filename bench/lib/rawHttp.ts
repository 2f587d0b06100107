/**
 * The baselines' HTTP client: plain node:http, nothing of n8n. What a hand-written integration would do,
 * so the difference to the node is what the node (and n8n's engine and HTTP client) add.
 */
import http from 'node:http';

export function postJson(url: string, body: unknown, agent: http.Agent): Promise<{ statusCode: number; json: unknown }> {
	const payload = Buffer.from(JSON.stringify(body));
	return new Promise((resolve, reject) => {
		const request = http.request(
			url,
			{
				method: 'POST',
				agent,
				headers: { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) },
			},
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => {
					try {
						resolve({ statusCode: response.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
					} catch (error) {
						reject(error);
					}
				});
				response.on('error', reject);
			},
		);
		request.on('error', reject);
		request.end(payload);
	});
}

/** A Rubika envelope's data, or an error naming the status. */
export function envelopeData(method: string, answer: { json: unknown }): Record<string, unknown> {
	const envelope = answer.json as { status?: string; data?: Record<string, unknown>; dev_message?: string };
	if (envelope?.status !== 'OK') throw new Error(`${method}: ${envelope?.status} ${envelope?.dev_message ?? ''}`);
	return envelope.data ?? {};
}

/** Keep-alive reuses one socket for the whole loop; the other agent opens a new connection per request. */
export function keepAliveAgent(): http.Agent {
	return new http.Agent({ keepAlive: true, maxSockets: 1 });
}

export function freshConnectionAgent(): http.Agent {
	return new http.Agent({ keepAlive: false });
}

#!/usr/bin/env node
// B8's comparisons: getUpdates requests at a fixed rate from a process of their own that sleeps between them, as
// an idle n8n does, and the CPU that process spent per request. What a request costs depends on the rate: a
// process woken once a second pays for cold caches each time, one busy with a hundred a second does not, so
// each row of B8 gets its comparisons at its own rate. Two clients:
//   raw  plain node:http with one keep-alive agent (what a hand-written integration would do): the floor;
//   n8n  n8n's own HTTP client alone, the function `this.helpers.httpRequest` ends in (a new agent, and so a new
//        TCP connection, per request), loaded from the installed n8n. Inside n8n the same code is kept warm by
//        n8n itself, so there it can cost less than in this lone loop.
// Run with n8n's Node:  node requestLoop.cjs <raw|n8n> <url> <requestsPerSecond> <seconds> [n8nDir]
// Prints one JSON line: { client, requests, seconds, cpuMs, msPerRequest }.
'use strict';
const http = require('node:http');
const path = require('node:path');

const [client, url, rateText, secondsText, n8nDir] = process.argv.slice(2);
const rate = Number(rateText);
const seconds = Number(secondsText);
const body = { limit: 100 };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function rawClient() {
	const agent = new http.Agent({ keepAlive: true });
	const payload = Buffer.from(JSON.stringify(body));
	return () =>
		new Promise((resolve, reject) => {
			const request = http.request(url, { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } }, (response) => {
				const chunks = [];
				response.on('data', (chunk) => chunks.push(chunk));
				response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
				response.on('error', reject);
			});
			request.on('error', reject);
			request.end(payload);
		});
}

function n8nClient() {
	const modules = path.join(n8nDir, 'node_modules');
	require(path.join(modules, 'reflect-metadata'));
	const { httpRequest } = require(path.join(modules, '@n8n/backend-network/dist/http/axios/request'));
	return () => httpRequest({ method: 'POST', url, body, json: true, timeout: 30_000 });
}

async function main() {
	const request = client === 'n8n' ? n8nClient() : rawClient();
	// A few requests first, so that loading and compiling the client is not counted.
	for (let index = 0; index < 3; index++) await request();
	await sleep(1000 / rate);
	const total = Math.max(1, Math.round(rate * seconds));
	const cpuBefore = process.cpuUsage();
	const begin = performance.now();
	for (let index = 0; index < total; index++) {
		await request();
		const wait = begin + ((index + 1) / rate) * 1000 - performance.now();
		if (wait > 0) await sleep(wait);
	}
	const cpu = process.cpuUsage(cpuBefore);
	const cpuMs = (cpu.user + cpu.system) / 1000;
	process.stdout.write(`${JSON.stringify({ client, requests: total, seconds: (performance.now() - begin) / 1000, cpuMs, msPerRequest: cpuMs / total })}\n`);
}

main().catch((error) => {
	process.stderr.write(`${error?.stack ?? error}\n`);
	process.exit(1);
});

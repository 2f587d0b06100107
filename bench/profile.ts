/**
 * Where the time goes: runs a workload a few times under the V8 CPU profiler and prints the heaviest packages
 * and functions by self time. Not part of `npm run bench`; a tool for hunting overhead:
 *
 *   TS_NODE_PREFER_TS_EXTS=true node -r ts-node/register/transpile-only bench/profile.ts send|send-expressions|drain|idle
 *
 * send: 1,000 Send Text items (fixed parameters); send-expressions: the same from item expressions;
 * drain: a 10,000-update backlog through the trigger receiving by reading (Process Backlog); idle: 30 continuous triggers (n8n-core's real
 * trigger context and HTTP client) reading a bot that gets no update, profiled over 30 s of idling only,
 * with the CPU per getUpdates printed. For n8n's own share, profile a real n8n: bench/profile-idle.mjs.
 */
import { Session } from 'node:inspector/promises';

import { DEMO_USERS } from '../sandbox';
import { runNode } from '../tooling/harness/n8n';
import { ReadingTriggerHarness } from '../tooling/harness/reading';
import { SandboxProcess } from './lib/sandboxProcess';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	hitCount?: number;
}

async function main(): Promise<void> {
	const target = process.argv[2] ?? 'send';
	const sandbox = await SandboxProcess.start();
	const chat = DEMO_USERS.sara.chat_id;
	const items = Array.from({ length: 1000 }, (_, index) => ({ json: { chat_id: chat, text: `Broadcast message number ${index + 1}` } }));
	const parameters =
		target === 'send-expressions'
			? { chatId: '={{ $json.chat_id }}', text: '={{ $json.text }}' }
			: { chatId: chat, text: 'Broadcast message number 1' };
	const send = async () => {
		await sandbox.call('reset');
		const result = await runNode({
			parameters: { resource: 'message', operation: 'sendMessage', ...parameters },
			credentials: sandbox.credentials,
			items,
		});
		if (result.error) throw result.error;
	};
	const drain = async () => {
		await sandbox.call('reset');
		await sandbox.call('appendSyntheticUpdates', { count: 10_000 });
		const harness = new ReadingTriggerHarness({ parameters: { firstActivation: 'processBacklog' }, credentials: sandbox.credentials });
		await harness.activate();
		// Every update starts an execution; their items are forgotten as n8n does once it has them.
		const deadline = Date.now() + 300_000;
		for (let started = 0; started < 10_000; ) {
			if (harness.failures.length > 0) throw harness.failures[0];
			if (Date.now() > deadline) throw new Error(`drain: ${started} of 10,000 updates after 5 minutes`);
			started += harness.started.length;
			harness.started.length = 0;
			harness.database.executions.length = 0;
			await new Promise((resolve) => setTimeout(resolve, 1));
		}
		await harness.stop();
	};
	const idleTriggers: ReadingTriggerHarness[] = [];
	const idle = async () => {
		const requests = async () => ((await sandbox.call('requestStats')) as Record<string, { total: number } | undefined>).getUpdates?.total ?? 0;
		const before = await requests();
		const cpuBefore = process.cpuUsage();
		const startedAt = Date.now();
		await new Promise((resolve) => setTimeout(resolve, 30_000));
		const cpu = process.cpuUsage(cpuBefore);
		const count = (await requests()) - before;
		const cpuMs = (cpu.user + cpu.system) / 1000;
		const seconds = (Date.now() - startedAt) / 1000;
		console.log(`${idleTriggers.length} idle triggers, ${seconds.toFixed(1)} s: ${count} getUpdates, ${cpuMs.toFixed(0)} ms CPU (this process) = ${(cpuMs / count).toFixed(2)} ms per request`);
	};
	if (target === 'idle') {
		for (let index = 0; index < 30; index++) {
			const trigger = new ReadingTriggerHarness({ parameters: { options: {} }, credentials: sandbox.credentials });
			await trigger.activate();
			idleTriggers.push(trigger);
		}
		await new Promise((resolve) => setTimeout(resolve, 3000));
		// The profiler's sampling thread costs CPU of its own: the figure that counts is the one without it.
		console.log('without the profiler:');
		await idle();
		console.log('with the profiler:');
	}
	const run = target === 'drain' ? drain : target === 'idle' ? idle : send;
	if (target !== 'idle') {
		await run();
		await run();
	}
	const session = new Session();
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.setSamplingInterval', { interval: 200 });
	await session.post('Profiler.start');
	for (let round = 0; round < (target === 'idle' ? 1 : 3); round++) await run();
	await ReadingTriggerHarness.stopAll();
	const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };
	session.disconnect();
	await sandbox.close();

	const total = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
	const byFunction = new Map<string, number>();
	const byPackage = new Map<string, number>();
	for (const node of profile.nodes) {
		const hits = node.hitCount ?? 0;
		if (!hits) continue;
		const url = node.callFrame.url.replace(/^file:\/\//, '');
		const where = url.replace(/.*node_modules\//, '').replace(process.cwd() + '/', '');
		const key = `${node.callFrame.functionName || '(anonymous)'}  ${where}:${node.callFrame.lineNumber + 1}`;
		byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
		const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (url.startsWith('node:') || url === '' ? `(${node.callFrame.functionName || 'native'})` : where.split('/').slice(0, 2).join('/'));
		byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
	}
	const show = (title: string, map: Map<string, number>, count: number) => {
		console.log(`\n${title}`);
		for (const [key, hits] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
			console.log(`${((100 * hits) / total).toFixed(1).padStart(5)}%  ${key}`);
		}
	};
	show('self time by package', byPackage, 25);
	show('self time by function', byFunction, 40);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

/**
 * Starts the sandbox in its own Node process through the project's one sandbox launcher
 * (tooling/sandbox-child.cjs, also used by `npm start` and the e2e scripts) and calls into it over IPC
 * (the calls are in sandboxOps.ts).
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type { SandboxOptions } from '../../sandbox';
import { REPO } from './proc';

const LAUNCHER = join(REPO, 'tooling', 'sandbox-child.cjs');

export class SandboxProcess {
	private nextId = 1;
	private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

	private constructor(
		private readonly child: ChildProcess,
		readonly baseUrl: string,
		readonly token: string,
	) {
		child.on('message', (raw) => {
			const reply = raw as { id?: number; result?: unknown; error?: string };
			if (reply.id === undefined) return;
			const waiter = this.pending.get(reply.id);
			if (!waiter) return;
			this.pending.delete(reply.id);
			if (reply.error !== undefined) waiter.reject(new Error(`sandbox: ${reply.error}`));
			else waiter.resolve(reply.result);
		});
		child.on('exit', (code) => {
			for (const waiter of this.pending.values()) waiter.reject(new Error(`sandbox process exited (${code})`));
			this.pending.clear();
		});
	}

	static async start({ host = '127.0.0.1', port = 0, ...options }: SandboxOptions = {}): Promise<SandboxProcess> {
		const args = ['--port', String(port), '--host', host, '--options', JSON.stringify(options), '--serve', 'bench/lib/sandboxOps.ts'];
		const child = fork(LAUNCHER, args, {
			// The launcher loads TypeScript through ts-node itself: no hook of this process's is passed on.
			execArgv: [],
			// stdin open for the child's life (it exits when it closes); stdout carries the launcher's READY line;
			// the sandbox's own output goes to stderr, as stdout of this process carries only the report.
			stdio: ['pipe', 'pipe', 2, 'ipc'],
		});
		const ready = await new Promise<{ url: string; info: { demo?: { token?: string } | null } }>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error('sandbox did not start within 60 s')), 60_000);
			let out = '';
			child.stdout?.on('data', (chunk: Buffer) => {
				out += chunk.toString('utf8');
				const line = /^RUBIKA_SANDBOX_READY (.*)\n/m.exec(out);
				if (!line) return;
				clearTimeout(timer);
				resolve(JSON.parse(line[1]));
			});
			child.once('exit', (code) => {
				clearTimeout(timer);
				reject(new Error(`sandbox process exited before it was ready (${code})`));
			});
		});
		return new SandboxProcess(child, ready.url, ready.info.demo?.token ?? '');
	}

	call<T = unknown>(op: string, args?: unknown): Promise<T> {
		const id = this.nextId++;
		return new Promise<T>((resolve, reject) => {
			this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
			this.child.send({ id, op, args });
		});
	}

	get credentials(): { accessToken: string; baseUrl: string } {
		return { accessToken: this.token, baseUrl: this.baseUrl };
	}

	async close(): Promise<void> {
		if (this.child.exitCode !== null) return;
		const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
		this.child.disconnect();
		const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
		await exited;
		clearTimeout(timer);
	}
}

/** Starts bench/lib/sandbox-child.ts in its own Node process and calls into it over IPC. */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type { SandboxOptions } from '../../sandbox';
import { tsNodeEnv, tsNodeExecArgv } from './proc';

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

	static async start(options: SandboxOptions = {}): Promise<SandboxProcess> {
		const child = fork(join(__dirname, 'sandbox-child.ts'), [JSON.stringify(options)], {
			execArgv: tsNodeExecArgv(),
			env: tsNodeEnv(),
			// Their output goes to stderr: stdout carries only the report.
			stdio: ['ignore', 2, 2, 'ipc'],
		});
		const ready = await new Promise<{ baseUrl: string; token: string }>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error('sandbox did not start within 60 s')), 60_000);
			child.once('message', (message) => {
				clearTimeout(timer);
				resolve(message as { baseUrl: string; token: string });
			});
			child.once('exit', (code) => {
				clearTimeout(timer);
				reject(new Error(`sandbox process exited before it was ready (${code})`));
			});
		});
		return new SandboxProcess(child, ready.baseUrl, ready.token);
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

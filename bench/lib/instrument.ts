/**
 * Counters the benchmarks read around a run: TCP connections opened by this process, and credential
 * resolutions by n8n's execution contexts (each one is a database read and a decryption in a real n8n,
 * though the harness answers it from memory, so its cost does not show in our timings).
 */
import net from 'node:net';
import { ExecuteContext } from 'n8n-core';

export const counters = { connections: 0, credentialResolutions: 0 };

let installed = false;

export function installCounters(): void {
	if (installed) return;
	installed = true;
	const connect = net.Socket.prototype.connect;
	net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
		counters.connections++;
		return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
	} as typeof connect;

	// _getCredentials sits on n8n-core's NodeExecutionContext, the common base of every context.
	let proto: object | null = ExecuteContext.prototype;
	while (proto && !Object.prototype.hasOwnProperty.call(proto, '_getCredentials')) proto = Object.getPrototypeOf(proto);
	if (!proto) return;
	const holder = proto as { _getCredentials: (...a: unknown[]) => Promise<unknown> };
	const original = holder._getCredentials;
	holder._getCredentials = function (this: unknown, ...args: unknown[]) {
		counters.credentialResolutions++;
		return original.apply(this, args);
	};
}

export function snapshotCounters(): typeof counters {
	return { ...counters };
}

export function countersSince(before: typeof counters): typeof counters {
	return {
		connections: counters.connections - before.connections,
		credentialResolutions: counters.credentialResolutions - before.credentialResolutions,
	};
}

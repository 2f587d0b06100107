/**
 * Identifier formats of the real service (facts §2): 32-character alphanumeric GUIDs with a two-character
 * type prefix (`u0` user, `b0` bot and private bot chat, `g0` group, `c0` channel), 19-digit numeric
 * message ids that only grow, and 64-character alphanumeric bot tokens. File ids and upload slots are
 * opaque, so they are random URL-safe strings that cannot be guessed.
 */
import { randomBytes } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomAlnum(length: number): string {
	let out = '';
	while (out.length < length) {
		for (const byte of randomBytes(length * 2)) {
			// Rejection sampling keeps every character equally likely (248 = 4 * 62).
			if (byte < 248) out += ALNUM[byte % 62];
			if (out.length === length) break;
		}
	}
	return out;
}

export type GuidPrefix = 'u0' | 'b0' | 'g0' | 'c0';

export function newGuid(prefix: GuidPrefix): string {
	return prefix + randomAlnum(30);
}

export function newToken(): string {
	return randomAlnum(64);
}

export function newOpaqueId(bytes = 18): string {
	return randomBytes(bytes).toString('base64url');
}

export const GUID_PATTERN = /^(u0|b0|g0|c0)[A-Za-z0-9]{30}$/;
export const TOKEN_PATTERN = /^[A-Za-z0-9]{64}$/;

/**
 * Message ids: 19 digits, increasing across the whole sandbox, with small random gaps like the real
 * ones (they are not contiguous). Starting from the clock in microseconds keeps them 19 digits long and
 * well above 2^53, so a client that turns them into numbers loses precision and a test can see it.
 */
export class MessageIdSequence {
	private last: bigint;

	constructor(start?: bigint) {
		this.last = start ?? BigInt(Date.now()) * 1_000_000n;
	}

	next(): string {
		this.last += 1n + BigInt(randomBytes(1)[0] % 16);
		return this.last.toString();
	}

	/** The newest id given out (or the starting point): a state file keeps it. */
	get lastIssued(): string {
		return this.last.toString();
	}

	/** Makes every later id larger than `id`, one given out before a restart (the clock may have gone back). */
	continueAfter(id: string): void {
		const issued = BigInt(id);
		if (issued > this.last) this.last = issued;
	}
}

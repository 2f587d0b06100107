/**
 * A map that keeps only its most recently used entries: what this package remembers in a process's memory
 * (per node, per bot, per sender) must stay bounded however long n8n runs.
 */
export class LruMap<K, V> {
	/** Map order is the order of use: least recently used first. */
	private readonly entries = new Map<K, V>();

	constructor(readonly capacity: number) {}

	get size(): number {
		return this.entries.size;
	}

	has(key: K): boolean {
		return this.entries.has(key);
	}

	/** The value, which counts as a use. */
	get(key: K): V | undefined {
		if (!this.entries.has(key)) return undefined;
		const value = this.entries.get(key) as V;
		this.entries.delete(key);
		this.entries.set(key, value);
		return value;
	}

	/** Stores the value as the most recently used; the least recently used go while there are too many. */
	set(key: K, value: V): void {
		this.entries.delete(key);
		this.entries.set(key, value);
		while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
	}

	delete(key: K): boolean {
		return this.entries.delete(key);
	}
}

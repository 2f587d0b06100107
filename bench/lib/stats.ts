/** Small numeric helpers shared by the cases and the report. */

export function median(values: number[]): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Nearest-rank percentile of values sorted in ascending order. */
export function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The median, 95th percentile and maximum of some durations. */
export interface Spread {
	p50: number;
	p95: number;
	max: number;
}

/** The spread of the finite values (NaN stands for a sample that did not happen). */
export function spread(values: number[]): Spread {
	const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
	return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.length ? sorted[sorted.length - 1] : NaN };
}

/** mulberry32: a seeded random number generator, so a case's gaps and choices are the same for the same seed. */
export function seededRandom(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export function elapsedMs(startNs: bigint): number {
	return Number(process.hrtime.bigint() - startNs) / 1e6;
}

export const MiB = 1024 * 1024;

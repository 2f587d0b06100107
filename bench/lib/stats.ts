/** Small numeric helpers shared by the cases and the report. */

export function median(values: number[]): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function elapsedMs(startNs: bigint): number {
	return Number(process.hrtime.bigint() - startNs) / 1e6;
}

export const MiB = 1024 * 1024;

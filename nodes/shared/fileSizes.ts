/** File sizes as people read them, one way for every message the nodes write about a file's size. */

/** A megabyte as Rubika's limits count it (facts §6: "50 MB") and as Max File Size is given: 1,048,576 bytes. */
export const MEGABYTE = 1024 * 1024;

/** `1.5 MB`, `300 KB`, `12 B`: two decimals at most, trailing zeros dropped. */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < MEGABYTE) return `${trimNumber(bytes / 1024)} KB`;
	return `${trimNumber(bytes / MEGABYTE)} MB`;
}

function trimNumber(value: number): string {
	return value.toFixed(2).replace(/\.?0+$/, '');
}

/** Formatting for the console and BENCHMARKS.md: plain Markdown tables, readable in both. */

export function table(headers: string[], rows: Array<Array<string | number>>): string {
	const cells = rows.map((row) => row.map(String));
	const widths = headers.map((header, column) => Math.max(header.length, ...cells.map((row) => (row[column] ?? '').length)));
	const line = (values: string[]) => `| ${values.map((value, column) => value.padEnd(widths[column])).join(' | ')} |`;
	return [line(headers), `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`, ...cells.map(line)].join('\n');
}

export function ms(value: number, digits = 0): string {
	return `${value.toFixed(digits)} ms`;
}

export function seconds(value: number): string {
	return `${value.toFixed(1)} s`;
}

export function ratio(value: number, baseline: number): string {
	if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return 'n/a';
	return `×${(value / baseline).toFixed(2)}`;
}

export function mib(bytes: number, digits = 1): string {
	return `${(bytes / (1024 * 1024)).toFixed(digits)} MiB`;
}

export function kib(bytes: number): string {
	return `${(bytes / 1024).toFixed(1)} KiB`;
}

export function count(value: number): string {
	return value.toLocaleString('en-US');
}

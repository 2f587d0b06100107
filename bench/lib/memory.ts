/**
 * Peak memory of one phase of a process. RSS peaks come from the kernel's high-water mark (VmHWM), reset at
 * the start of the phase through /proc/self/clear_refs, so a peak between two samples is not missed; heap and
 * external memory have no such mark and are sampled on a short timer (the phases measured here are I/O-bound,
 * so the event loop gets to the timer often).
 */
import { readFileSync, writeFileSync } from 'node:fs';

export interface MemoryFigures {
	rss: number;
	heapUsed: number;
	external: number;
	arrayBuffers: number;
}

export interface PhaseMemory {
	/** Right after a full GC at the start of the phase. */
	start: MemoryFigures;
	/** Highest value seen during the phase, per figure. */
	peak: MemoryFigures;
	/** peak - start, per figure. */
	growth: MemoryFigures;
	/** Whether `peak.rss` is the kernel's exact high-water mark (false: sampled). */
	exactRss: boolean;
	samples: number;
}

function now(): MemoryFigures {
	const usage = process.memoryUsage();
	return { rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external, arrayBuffers: usage.arrayBuffers };
}

function resetRssHighWaterMark(): boolean {
	try {
		// "5" resets the peak RSS of this process (Linux ≥ 4.0).
		writeFileSync('/proc/self/clear_refs', '5');
		return true;
	} catch {
		return false;
	}
}

function rssHighWaterMark(): number | undefined {
	try {
		const match = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync('/proc/self/status', 'utf8'));
		return match ? Number(match[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

export function collectGarbage(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (gc) {
		gc();
		gc();
	}
}

/**
 * `natural`: memory as the process really uses it, garbage not yet collected included (V8 lets tens of MB of
 * dead Buffers pile up before it collects them), which is what the OS and a container limit see.
 * `live`: a full GC before every sample, so only what is still referenced counts: this tells a retained
 * whole-file copy from churn. It slows the phase down, so its timings are not reported.
 */
export type SamplingKind = 'natural' | 'live';

export class PhaseSampler {
	private start!: MemoryFigures;
	private peak!: MemoryFigures;
	private timer: NodeJS.Timeout | undefined;
	private exact = false;
	private samples = 0;

	constructor(private readonly kind: SamplingKind = 'natural') {}

	begin(intervalMs = 2): void {
		collectGarbage();
		this.start = now();
		this.peak = { ...this.start };
		this.exact = this.kind === 'natural' && resetRssHighWaterMark();
		// A full GC costs tens of ms with ts-node's compiler loaded: live sampling uses a longer interval.
		this.timer = setInterval(() => this.sample(), this.kind === 'live' ? Math.max(intervalMs, 20) : intervalMs);
	}

	sample(): void {
		if (this.kind === 'live') (globalThis as { gc?: () => void }).gc?.();
		const current = now();
		this.samples++;
		for (const key of Object.keys(current) as Array<keyof MemoryFigures>) {
			if (current[key] > this.peak[key]) this.peak[key] = current[key];
		}
	}

	end(): PhaseMemory {
		this.sample();
		if (this.timer) clearInterval(this.timer);
		const hwm = this.exact ? rssHighWaterMark() : undefined;
		if (hwm !== undefined && hwm > this.peak.rss) this.peak.rss = hwm;
		const growth = {} as MemoryFigures;
		for (const key of Object.keys(this.start) as Array<keyof MemoryFigures>) growth[key] = this.peak[key] - this.start[key];
		return { start: this.start, peak: this.peak, growth, exactRss: hwm !== undefined, samples: this.samples };
	}
}

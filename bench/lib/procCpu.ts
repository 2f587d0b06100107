/**
 * CPU time of another process (and its children) from /proc, for measuring what a running n8n costs while
 * it waits. Linux only; clock ticks are read as 1/100 s (USER_HZ is 100 on every Linux Node supports).
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10;

interface Stat {
	pid: number;
	ppid: number;
	/** utime + stime of the process itself, ms. */
	ownMs: number;
	/** cutime + cstime: children it has waited for, ms. */
	reapedChildrenMs: number;
}

function readStat(pid: number): Stat | undefined {
	let text: string;
	try {
		text = readFileSync(`/proc/${pid}/stat`, 'utf8');
	} catch {
		return undefined;
	}
	// The command name (field 2) is in parentheses and may hold spaces: split after its closing one.
	const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
	// fields[0] is field 3 (state): field n is fields[n - 3].
	const num = (n: number) => Number(fields[n - 3]);
	return { pid, ppid: num(4), ownMs: (num(14) + num(15)) * TICK_MS, reapedChildrenMs: (num(16) + num(17)) * TICK_MS };
}

/** The process and every live descendant. */
function tree(rootPid: number): Stat[] {
	const all: Stat[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const stat = readStat(Number(entry));
		if (stat) all.push(stat);
	}
	const byParent = new Map<number, Stat[]>();
	for (const stat of all) byParent.set(stat.ppid, [...(byParent.get(stat.ppid) ?? []), stat]);
	const root = all.find((stat) => stat.pid === rootPid);
	if (!root) return [];
	const out: Stat[] = [];
	const walk = (stat: Stat) => {
		out.push(stat);
		for (const child of byParent.get(stat.pid) ?? []) walk(child);
	};
	walk(root);
	return out;
}

export interface CpuSample {
	/** CPU time of the process itself, ms. */
	mainMs: number;
	/** The process, its live descendants (n8n's task runner) and children it has reaped, ms. */
	treeMs: number;
	processes: number;
	/** When the sample was taken (ms since the epoch). */
	at: number;
}

export function sampleCpu(pid: number): CpuSample {
	const stats = tree(pid);
	if (stats.length === 0) throw new Error(`process ${pid} is gone`);
	const root = stats[0];
	return {
		mainMs: root.ownMs,
		treeMs: stats.reduce((sum, stat) => sum + stat.ownMs + stat.reapedChildrenMs, 0),
		processes: stats.length,
		at: Date.now(),
	};
}

export interface CpuWindow {
	seconds: number;
	mainMs: number;
	treeMs: number;
	/** Share of one core, in percent (tree). */
	percentOfCore: number;
	processes: number;
}

export function cpuBetween(before: CpuSample, after: CpuSample): CpuWindow {
	const seconds = (after.at - before.at) / 1000;
	const treeMs = after.treeMs - before.treeMs;
	return {
		seconds,
		mainMs: after.mainMs - before.mainMs,
		treeMs,
		percentOfCore: (treeMs / (seconds * 1000)) * 100,
		processes: after.processes,
	};
}

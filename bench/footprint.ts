/**
 * B5: what installing and loading the package costs. Sizes of the built `dist` and of the tarball npm would
 * publish, and the time a fresh Node process needs to require our node and credential modules, against the
 * time it needs for n8n-workflow alone (which every community node loads anyway).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { REPO } from './lib/proc';
import { median } from './lib/stats';

export interface B5Result {
	dist: { bytes: number; files: number; mapBytes: number; mapFiles: number };
	tarball: { packedBytes: number; unpackedBytes: number; entries: number };
	/**
	 * workflowOnly: a process that requires n8n-workflow and nothing else. In the processes that also load our
	 * modules, workflowFirst is their n8n-workflow part and nodesOnTop what our modules add after it.
	 */
	requireMs: { workflowOnly: number[]; workflowFirst: number[]; nodesOnTop: number[] };
	medians: { workflowOnly: number; workflowFirst: number; nodesOnTop: number; withNodes: number };
	modules: string[];
	/** package.json "dependencies": what installing the package pulls in besides itself. */
	runtimeDependencies: string[];
}

function walk(dir: string, visit: (path: string, bytes: number) => void): void {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) walk(path, visit);
		else visit(path, statSync(path).size);
	}
}

/** The modules n8n loads from package.json's "n8n" section. */
interface Manifest {
	n8n: { nodes: string[]; credentials: string[] };
	dependencies?: Record<string, string>;
}

function manifest(): Manifest {
	return JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Manifest;
}

function packageModules(): string[] {
	const { n8n } = manifest();
	return [...n8n.credentials, ...n8n.nodes];
}

/**
 * A child that times its own requires with hrtime, so process start-up is not counted; the OS file cache is
 * warm after the first round (all rounds alike), the module cache of course is not.
 */
function timeRequires(modules: string[]): { workflow: number; nodes: number } {
	const script = `
		const start = process.hrtime.bigint();
		require('n8n-workflow');
		const afterWorkflow = process.hrtime.bigint();
		for (const file of JSON.parse(process.argv[1])) {
			const exported = require(require('node:path').resolve(file));
			// n8n instantiates each class to read its description; count that too.
			for (const value of Object.values(exported)) if (typeof value === 'function' && /^[A-Z]/.test(value.name)) new value();
		}
		const end = process.hrtime.bigint();
		process.stdout.write(JSON.stringify({ workflow: Number(afterWorkflow - start) / 1e6, nodes: Number(end - afterWorkflow) / 1e6 }));
	`;
	const output = execFileSync(process.execPath, ['-e', script, JSON.stringify(modules)], { cwd: REPO, encoding: 'utf8' });
	return JSON.parse(output) as { workflow: number; nodes: number };
}

function timeWorkflowOnly(): number {
	const script = `
		const start = process.hrtime.bigint();
		require('n8n-workflow');
		process.stdout.write(String(Number(process.hrtime.bigint() - start) / 1e6));
	`;
	return Number(execFileSync(process.execPath, ['-e', script], { cwd: REPO, encoding: 'utf8' }));
}

export function measureFootprint(rounds: number): B5Result {
	// Built from the sources checked out now, so the figures describe this commit.
	const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
	if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);

	const dist = { bytes: 0, files: 0, mapBytes: 0, mapFiles: 0 };
	walk(join(REPO, 'dist'), (path, bytes) => {
		dist.bytes += bytes;
		dist.files++;
		if (path.endsWith('.map')) {
			dist.mapBytes += bytes;
			dist.mapFiles++;
		}
	});

	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
	) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
	const tarball = { packedBytes: packed[0].size, unpackedBytes: packed[0].unpackedSize, entries: packed[0].entryCount };

	const modules = packageModules();
	const requireMs = { workflowOnly: [] as number[], workflowFirst: [] as number[], nodesOnTop: [] as number[] };
	// One warm-up round of each fills the OS file cache; then they alternate.
	timeWorkflowOnly();
	timeRequires(modules);
	for (let round = 0; round < rounds; round++) {
		requireMs.workflowOnly.push(timeWorkflowOnly());
		const both = timeRequires(modules);
		requireMs.workflowFirst.push(both.workflow);
		requireMs.nodesOnTop.push(both.nodes);
	}
	return {
		dist,
		tarball,
		requireMs,
		medians: {
			workflowOnly: median(requireMs.workflowOnly),
			workflowFirst: median(requireMs.workflowFirst),
			nodesOnTop: median(requireMs.nodesOnTop),
			withNodes: median(requireMs.workflowFirst.map((workflow, round) => workflow + requireMs.nodesOnTop[round])),
		},
		modules,
		runtimeDependencies: Object.keys(manifest().dependencies ?? {}),
	};
}

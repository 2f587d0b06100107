/** Child processes for benchmark cases: each case gets a fresh Node, so JIT state and memory peaks never mix. */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const REPO = join(__dirname, '..', '..');

/** Node flags that let a child run TypeScript straight from the sources (no type check: it is not a build). */
function tsNodeExecArgv(extra: string[] = []): string[] {
	return ['-r', require.resolve('ts-node/register/transpile-only', { paths: [REPO] }), ...extra];
}

/**
 * Environment for such a child. `Rubika.node` must resolve to the .ts source, not to the codex file
 * `Rubika.node.json` beside it, which plain Node resolution would pick first.
 */
function tsNodeEnv(): NodeJS.ProcessEnv {
	return { ...process.env, TS_NODE_PROJECT: join(REPO, 'tsconfig.json'), TS_NODE_PREFER_TS_EXTS: 'true' };
}

/**
 * Runs `bench/cases/<name>.ts` in a fresh process with `--expose-gc`; the case sends one result over IPC.
 * A case that does not answer within `timeoutMs` is killed, so a hung run cannot keep `npm run bench` alive.
 */
export function runCase<T>(name: string, input: unknown, timeoutMs: number): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const child = fork(join(REPO, 'bench', 'cases', `${name}.ts`), [JSON.stringify(input ?? {})], {
			execArgv: tsNodeExecArgv(['--expose-gc']),
			// stdout goes to our stderr (stdout carries only the report); stderr is also kept, to explain a failure.
			stdio: ['ignore', 2, 'pipe', 'ipc'],
			env: tsNodeEnv(),
		});
		let stderrTail = '';
		child.stderr?.on('data', (chunk: Buffer) => {
			process.stderr.write(chunk);
			stderrTail = (stderrTail + chunk.toString('utf8')).slice(-4000);
		});
		let result: { ok: boolean; value?: T; error?: string } | undefined;
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`case ${name} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`));
		}, timeoutMs);
		child.on('message', (message) => {
			result = message as typeof result;
		});
		child.on('exit', (code) => {
			clearTimeout(timer);
			if (result?.ok) resolve(result.value as T);
			else reject(new Error(`case ${name} failed (exit ${code}): ${result?.error ?? (stderrTail.trim() || 'no result')}`));
		});
	});
}

/** The other end of runCase: runs the case body and reports its value or error, then exits. */
export function caseMain<I, T>(body: (input: I) => Promise<T>): void {
	const input = JSON.parse(process.argv[2] ?? '{}') as I;
	body(input).then(
		(value) => {
			process.send?.({ ok: true, value }, undefined, {}, () => process.exit(0));
		},
		(error: unknown) => {
			// n8n's execution errors are not always Error instances once recorded in the run data.
			const described = error as { stack?: unknown; message?: unknown } | null;
			const text =
				typeof described?.stack === 'string'
					? described.stack
					: typeof described?.message === 'string'
						? described.message
						: String(error);
			console.error(text);
			process.send?.({ ok: false, error: text }, undefined, {}, () => process.exit(1));
		},
	);
}

// ts-node compiles `import()` into `require()`, which cannot load ES modules; a function built at run time
// keeps the real dynamic import.
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;

/** A module of the tooling library (`tooling/<file>`, plain ES modules), for benchmarks that run a real n8n. */
export function importTooling(file: string): Promise<any> {
	return importEsm(pathToFileURL(join(REPO, 'tooling', file)).href);
}

/**
 * A benchmark in a real n8n failed: the last errors and warnings of n8n's log go into the error's message, the best
 * clue to what happened (the world's work folder, log included, goes away with the world).
 */
export function withN8nLogTail(error: unknown, world: { serverLog?: () => string } | undefined): unknown {
	const tail = String(world?.serverLog?.() ?? '')
		.split('\n')
		.filter((line) => /error|warn|rubika|fail/i.test(line))
		.slice(-15)
		.join('\n');
	if (tail && error instanceof Error) error.message += `\n--- n8n log (errors and warnings, last lines) ---\n${tail}`;
	return error;
}

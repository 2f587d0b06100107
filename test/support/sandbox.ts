/**
 * The one way a test file (or describe block) gets a sandbox: call `useSandbox()` at its top level. It
 * registers the hooks and returns a handle whose `.sandbox` is the started sandbox.
 *
 * - By default one sandbox serves the file or block: started in beforeAll, back to a fresh demo world
 *   before each test (`reset()`: state, request log, faults, deliveries, rate limiter; the config stays),
 *   closed in afterAll.
 * - With `perTest: true` every test gets a sandbox of its own, started in beforeEach and closed in afterEach.
 *
 * The other options are startSandbox's. A test's own `sandbox.configure(...)`, faults and the like work as
 * on any sandbox. Jest runs the after-hooks of one block in the order they were registered, so cleanup
 * that needs the sandbox still open (closing harnesses, waiting for deliveries) goes in an afterEach or
 * afterAll registered before this call.
 */
import type { RubikaSandbox, SandboxOptions } from '../../sandbox';
import { startSandbox } from '../../sandbox';

export interface SandboxFixtureOptions extends SandboxOptions {
	/** A new sandbox for every test instead of one for the file or block, reset before each test. */
	perTest?: boolean;
}

export interface SandboxFixture {
	/** The started sandbox; throws where none is running (outside tests and hooks). */
	readonly sandbox: RubikaSandbox;
}

export function useSandbox(options: SandboxFixtureOptions = {}): SandboxFixture {
	const { perTest = false, ...sandboxOptions } = options;
	let started: RubikaSandbox | undefined;
	const start = async () => {
		started = await startSandbox(sandboxOptions);
	};
	const close = async () => {
		const closing = started;
		started = undefined;
		await closing?.close();
	};
	if (perTest) {
		beforeEach(start);
		afterEach(close);
	} else {
		beforeAll(start);
		beforeEach(() => started?.reset());
		afterAll(close);
	}
	return {
		get sandbox(): RubikaSandbox {
			if (!started) throw new Error(`the sandbox runs from ${perTest ? 'beforeEach to afterEach' : 'beforeAll to afterAll'}; use it inside a test or hook`);
			return started;
		},
	};
}

/** A sandbox of a test's own, for `run` only: started with `options`, closed when `run` settles. */
export async function withSandbox<T>(options: SandboxOptions, run: (sandbox: RubikaSandbox) => Promise<T>): Promise<T> {
	const sandbox = await startSandbox(options);
	try {
		return await run(sandbox);
	} finally {
		await sandbox.close();
	}
}

const os = require('node:os');

/**
 * Jest runs the TypeScript sources directly; every test talks real HTTP to a sandbox on 127.0.0.1.
 *
 * As many workers as cores, at least four: most files spend much of their time waiting on real timers and
 * sockets (pacing, retries, backoff, the sandbox), and the workers' waits overlap. Measured on 2 cores with the
 * whole suite (2,262 tests): 274 s in band, 205 s with two workers, 132-160 s with four, 137 s with six (whose
 * files ran twice as long each, which timing checks feel first). `--maxWorkers` on the command line still wins.
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
	},
	setupFiles: ['<rootDir>/test/setup/env.js'],
	setupFilesAfterEnv: ['<rootDir>/test/setup/afterEachFile.ts'],
	maxWorkers: Math.max(4, os.availableParallelism?.() ?? os.cpus().length),
	testTimeout: 60000,
};

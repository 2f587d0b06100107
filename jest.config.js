const os = require('node:os');

/**
 * Jest runs the TypeScript sources directly; every test talks real HTTP to a sandbox on 127.0.0.1.
 *
 * Two workers at least, even on two cores: Jest's default (cores − 1) runs a 2-core machine in band, one file
 * after the other in one process, and most files spend much of their time waiting on real timers and sockets
 * (pacing, retries, the sandbox), which a second worker fills. Measured on 2 cores: 274 s in band, 169 s with two
 * workers (e2e/README.md, "Numbers"). `--maxWorkers` on the command line still wins.
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
	maxWorkers: Math.max(2, (os.availableParallelism?.() ?? os.cpus().length) - 1),
	testTimeout: 60000,
};

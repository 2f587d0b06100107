/** Jest runs the TypeScript sources directly; every test talks real HTTP to a sandbox on 127.0.0.1. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
	},
	setupFiles: ['<rootDir>/test/setup/env.js'],
	setupFilesAfterEnv: ['<rootDir>/test/setup/afterEachFile.ts'],
	testTimeout: 60000,
};

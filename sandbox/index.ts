/** Public surface of the Rubika sandbox; see README.md beside this file. */
export { RubikaSandbox, startSandbox } from './server';
export type { SandboxOptions } from './server';
export type { SandboxConfigPatch } from './config';
export type { FaultSpec } from './faults';
export { startProxy } from './proxy';
export type { TestProxy } from './proxy';
export {
	DEMO_BOT_TOKEN,
	DEMO_BOT_ID,
	DEMO_BOT_TITLE,
	DEMO_BOT_USERNAME,
	DEMO_USERS,
	DEMO_GROUP_ID,
	DEMO_QUIET_GROUP_ID,
	DEMO_CHANNEL_ID,
	DEMO_STICKERS,
} from './seed';

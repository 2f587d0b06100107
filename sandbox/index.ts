/** Public surface of the Rubika sandbox; see README.md beside this file. */
export { RubikaSandbox, startSandbox } from './server';
export type { SandboxOptions } from './server';
export type { LinkTapResult } from './world';
export type { SandboxConfig, SandboxConfigPatch, OneTimeKeyboardSpelling, LinkButtonsMode, PollExtrasMode, ErrorAnswer, RateLimitConfig, RecordedAnswer } from './config';
export type { FaultSpec, FaultKind, ActiveFault } from './faults';
export { FAULT_KINDS } from './faults';
export type { RequestLogEntry } from './requestLog';
export type { DeliveryRecord } from './webhooks';
export type { ChatSnapshot, ChatMemberSnapshot, SandboxMessage, BotSnapshot } from './snapshots';
export type { UserMessageInput, UserMessageRef, SyntheticUpdatesInput } from './actions';
export type { NewBot, NewUser, NewGroupOrChannel, UserRecord, EndpointRecord, FileRecord } from './state';
export type { StateFileStatus } from './stateFile';
export { SandboxState } from './state';
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
	seedDemo,
} from './seed';
export type { DemoInfo, DemoUser, DemoSticker, SeedName } from './seed';

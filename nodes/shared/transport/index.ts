/**
 * The one way this package talks to Rubika: Bot API calls (./call.ts) and file transfers (./files.ts), both
 * through one retry loop (./retry.ts) that reads Rubika's answers (./envelope.ts, ./failures.ts) and lets no
 * bot token out (./redact.ts).
 */
export { CREDENTIAL_TYPE, botFingerprint, resolveCredential } from './credential';
export type { ResolvedCredential } from './credential';
export { callAnyMethod, callRubika } from './call';
export type { CallOptions } from './retry';
export { executionCallOptions } from './retry';
export { streamFromRubika, uploadToRubika } from './files';

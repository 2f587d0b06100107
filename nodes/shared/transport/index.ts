/**
 * The one way this package talks to Rubika: Bot API calls (./call.ts) and file transfers (./files.ts), both
 * through one retry loop (./retry.ts) that reads Rubika's answers (./envelope.ts, ./failures.ts), retries as
 * one policy says (./retryPolicy.ts) and lets no bot token out (./redact.ts). The one request elsewhere, a
 * file at the user's address, is in ./files.ts too.
 */
export { CREDENTIAL_TYPE, resolveCredential } from './credential';
export type { ResolvedCredential } from './credential';
export { callAnyMethod, callRubika } from './call';
export type { CallOptions, ItemCall, SentParts } from './retry';
export { executionCallOptions } from './retry';
export { declaredLength, openFileUrl, streamFromRubika, uploadToRubika } from './files';
export type { DownloadStream } from './files';
export type { RawResponse } from './failures';
export { networkProblem } from './failures';

/** The reading loop's limits: when it slows down, how far it runs ahead, when it reports, when it looks at its bot. */
/**
 * How the wait between reads is chosen (./reader.ts `waitMs`): for `conversationMs` after an update, or after the
 * bot posted in a chat from this n8n (../../shared/conversations.ts), "Interval During a Conversation" replaces
 * the others (after the quiet time "Idle After", an option, "Idle Interval" replaces "Interval"). An object, so
 * that a test can shorten it.
 */
export const PACE = { conversationMs: 60_000 };
export const MAX_ERROR_BACKOFF_MS = 60_000;
/** Executions handed to n8n and not finished: reading waits while this many run. */
export const MAX_UNCONFIRMED = 200;
/** Failed reads in a row after which the outage is recorded as a failed execution (once per outage). */
export const REPORT_AFTER_FAILURES = 3;
/**
 * Tries at one update whose file fails to download for a reason that may pass (the file server down, a broken
 * connection), each with the transport's own retries, before it goes out with file_error. Not above
 * REPORT_AFTER_FAILURES: a file the update then goes out without raises no alarm of its own, the item says it.
 */
export const DOWNLOAD_TRIES = 3;
/**
 * When the loop resolves the credential anew (and, if it changed, asks Rubika which bot it reaches): it is not
 * resolved per request, because resolving costs n8n a database read, a decryption and an expression sandbox
 * (tens of milliseconds of CPU, BENCHMARKS.md B8).
 * - `intervalMs`: unprompted, while idle.
 * - `beforeHandingOverMs`: before updates are handed to n8n, when it was resolved longer ago than this: the
 *   executions they start use the credential as it is now, so a token just made wrong is noticed (one failed
 *   execution, the updates kept) before the workflow runs with it. At most one resolve per this interval while
 *   updates keep coming.
 * It is resolved too after a failed read, which is what a token revoked or corrected causes.
 * An object, so that a test can shorten the intervals.
 */
export const BOT_CHECK = { intervalMs: 60_000, beforeHandingOverMs: 5_000 };

/**
 * Telling "Rubika does not know this method" apart from other refusals.
 *
 * The node offers methods that only Rubika's client libraries use (UNDOCUMENTED_METHODS; docs/api-facts.md
 * §9), and Custom API Call takes any name, so a Rubika may answer that a method does not exist. How it says so
 * is not documented (facts §1); the plausible answers are an HTTP 404 on the method's address, or an error
 * envelope whose status or dev_message says the method is unknown. Those become one clear message. Any other
 * refusal of an undocumented method keeps its own message and gains a hint that the method may be missing.
 */
import { isUndocumentedMethod } from '../types';

export interface ErrorAnswer {
	httpCode: number;
	/** The envelope's status, when the answer was an envelope. */
	status?: string;
	devMessage?: string;
}

export interface UnknownMethodReport {
	message: string;
	description: string;
}

const METHOD_MISSING_STATUS = /^(METHOD_NOT_FOUND|UNKNOWN_METHOD|INVALID_METHOD|NO_SUCH_METHOD|METHOD_NOT_SUPPORTED)$/i;
/** "Unknown method", "method not found", "method foo does not exist"… but not "invalid input for method x". */
const SAYS_UNKNOWN =
	/\b(unknown|invalid|undefined|unsupported|unrecognized)\s+(api\s+)?method\b|\bno\s+such\s+method\b|\bmethod(\s+["'`]?\w+["'`]?)?\s+(is\s+)?(not\s*found|unknown|not\s+exists?|does\s*n[o']?t\s+exist|not\s+supported|not\s+implemented|undefined|not\s+available)\b/i;

/**
 * Whether the answer says the method does not exist. An HTTP 404 counts only for undocumented methods: for a
 * documented one it far more likely means the Base URL points somewhere else, which the caller reports.
 */
export function saysMethodIsUnknown(method: string, answer: ErrorAnswer): boolean {
	if (answer.httpCode === 404 && isUndocumentedMethod(method)) return true;
	if (answer.status !== undefined && METHOD_MISSING_STATUS.test(answer.status)) return true;
	return SAYS_UNKNOWN.test(`${answer.status ?? ''} ${answer.devMessage ?? ''}`);
}

/** The message and description for an answer that says `method` does not exist, or undefined. */
export function unknownMethodReport(method: string, answer: ErrorAnswer): UnknownMethodReport | undefined {
	if (!saysMethodIsUnknown(method, answer)) return undefined;
	const said = [answer.status, answer.devMessage].filter(Boolean).join(' – ') || `HTTP ${answer.httpCode}`;
	const why = isUndocumentedMethod(method)
		? `${method} is not in Rubika's official Bot API documentation; the node takes it from Rubika's client libraries, and the Rubika at the credential's Base URL answered as if it does not offer it`
		: `The Rubika at the credential's Base URL answered as if there were no method named ${method}; check its spelling (method names are case-sensitive, e.g. sendMessage)`;
	return { message: unknownMethodMessage(method), description: `${why} (${said}). Nothing was changed.` };
}

/** The message of the error a call gets when Rubika answers that `method` does not exist. */
export function unknownMethodMessage(method: string): string {
	return `Rubika does not know the method ${method}`;
}

/** Added to any other refusal of an undocumented method: it may be how a Rubika without it answers. */
export function undocumentedMethodHint(method: string): string {
	if (!isUndocumentedMethod(method)) return '';
	return ` Note: ${method} is not in Rubika's official documentation (the node takes it from Rubika's client libraries); if this Rubika does not offer it, this may be how it says so.`;
}

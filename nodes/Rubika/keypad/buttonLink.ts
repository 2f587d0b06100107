/**
 * The rules of a Link button's `button_link` (facts §2/§3, one source: rubpy's ButtonLink), in one place for
 * the node (which refuses bad input before sending, nodes/shared/keypad/validate.ts) and the sandbox (which answers
 * INVALID_INPUT as the service would, sandbox/validation.ts). Pure: it lists what is wrong, each caller words
 * it in its own way (the node names row and button, the sandbox the JSON path).
 *
 * - only a `Link` button carries a `button_link`, and a `Link` button needs one, an object;
 * - `{type: "url", link_url}`: an absolute http(s) address, nothing a browser would strip or misread, or an app
 *   link `rubika://<host>/…` (rubpy, rubka and a PHP library send those: see `appLinkOf`);
 * - `{type: "joinchannel", joinchannel_data: {username, ask_join?}}`: a channel username without "@",
 *   `ask_join` a boolean when given;
 * - `link_url` only for url, `joinchannel_data` only for joinchannel;
 * - `open_chat_data {object_guid, object_type}` may ride along on either, both non-empty texts.
 * Optional fields sent as JSON null count as absent, as several libraries send them that way.
 */
import { isPlainObject } from '../../shared/json';
import { BUTTON_LINK_TYPES } from '../../shared/types';

/** A channel username as a link button names it: a letter, then letters, digits or "_" (3–32), no "@". */
export const CHANNEL_USERNAME = /^[A-Za-z][A-Za-z0-9_]{2,31}$/;

/**
 * An absolute http(s) address or a Rubika app link (`rubika://`), with a host written right after `//`, and
 * nothing a browser or the app would strip or misread (spaces, control characters).
 */
function isButtonUrl(value: string): boolean {
	if (/[\s\u0000-\u001f\u007f]/.test(value) || !/^(https?|rubika):\/\/[^/]/i.test(value)) return false;
	let parsed: URL;
	try {
		parsed = new URL(value);
	} catch {
		return false;
	}
	return ['http:', 'https:', 'rubika:'].includes(parsed.protocol) && parsed.hostname !== '';
}

/**
 * The rubika.ir web addresses of an invitation to a group (`/joing/…`) or a channel (`/joinc/…`) and of a post
 * (`/post/…`), and the app link each stands for. rubpy, rubka and a PHP library turn the first into the second
 * in every link button they send (facts §2), so that a tap opens the app rather than the browser; the node does
 * the same. They match `https://rubika.ir/` only; `http://` and `www.` are taken too, as the same address.
 */
const WEB_ADDRESS_OF_APP_LINK = /^https?:\/\/(?:www\.)?rubika\.ir\/(joing|joinc|post)\/(?=\S)/i;
const APP_LINK_HOSTS: Record<string, string> = { joing: 'g.rubika.ir', joinc: 'c.rubika.ir', post: 'p.rubika.ir' };

/** `https://rubika.ir/joing/CODE` → `rubika://g.rubika.ir/CODE` (joinc → c., post → p.); any other address as it is. */
export function appLinkOf(url: string): string {
	return url.replace(WEB_ADDRESS_OF_APP_LINK, (_whole, kind: string) => `rubika://${APP_LINK_HOSTS[kind.toLowerCase()]}/`);
}

type ButtonLinkProblemCode =
	/** `button_link` on a button whose type is not Link. */
	| 'notLinkButton'
	/** A field that must be there is absent (or null): `button_link` on a Link button, `joinchannel_data`. */
	| 'required'
	/** An object was expected: `button_link`, `joinchannel_data`, `open_chat_data`. */
	| 'notObject'
	/** `button_link.type` is not one of BUTTON_LINK_TYPES. */
	| 'unknownLinkType'
	/** `link_url` of a url link is absent, not text, or empty. */
	| 'urlMissing'
	/** `link_url` is text but neither an absolute http(s) address nor a `rubika://` link. */
	| 'badUrl'
	/** A field of the other link type: `link_url` on joinchannel, `joinchannel_data` on url. */
	| 'otherLinkTypeField'
	/** `joinchannel_data.username` is not a channel username. */
	| 'badUsername'
	/** `joinchannel_data.ask_join` is not a boolean. */
	| 'notBoolean'
	/** `open_chat_data.object_guid` / `object_type` is not a non-empty text. */
	| 'emptyText';

export interface ButtonLinkProblem {
	code: ButtonLinkProblemCode;
	/** Where, from the button: `button_link`, `button_link.link_url`, `button_link.joinchannel_data.username`… */
	path: string;
	/** The value found there (undefined when absent). */
	value: unknown;
}


function given(value: unknown): boolean {
	return value !== undefined && value !== null;
}

/**
 * What is wrong with one button's `button_link`, most important first (a caller reporting one problem
 * reports the first); an empty list when nothing is. The button's other fields are not looked at.
 */
export function buttonLinkProblems(button: { type?: unknown; button_link?: unknown }): ButtonLinkProblem[] {
	const link = button.button_link;
	if (button.type !== 'Link') {
		return given(link) ? [{ code: 'notLinkButton', path: 'button_link', value: link }] : [];
	}
	if (!given(link)) return [{ code: 'required', path: 'button_link', value: link }];
	if (!isPlainObject(link)) return [{ code: 'notObject', path: 'button_link', value: link }];
	if (typeof link.type !== 'string' || !(BUTTON_LINK_TYPES as readonly string[]).includes(link.type)) {
		return [{ code: 'unknownLinkType', path: 'button_link.type', value: link.type }];
	}
	const problems: ButtonLinkProblem[] = [];
	if (link.type === 'url') {
		const url = link.link_url;
		if (typeof url !== 'string' || url.trim() === '') {
			problems.push({ code: 'urlMissing', path: 'button_link.link_url', value: url });
		} else if (!isButtonUrl(url)) {
			problems.push({ code: 'badUrl', path: 'button_link.link_url', value: url });
		}
		if (given(link.joinchannel_data)) {
			problems.push({ code: 'otherLinkTypeField', path: 'button_link.joinchannel_data', value: link.joinchannel_data });
		}
	} else {
		if (given(link.link_url)) problems.push({ code: 'otherLinkTypeField', path: 'button_link.link_url', value: link.link_url });
		const data = link.joinchannel_data;
		if (!given(data)) {
			problems.push({ code: 'required', path: 'button_link.joinchannel_data', value: data });
		} else if (!isPlainObject(data)) {
			problems.push({ code: 'notObject', path: 'button_link.joinchannel_data', value: data });
		} else {
			if (typeof data.username !== 'string' || !CHANNEL_USERNAME.test(data.username)) {
				problems.push({ code: 'badUsername', path: 'button_link.joinchannel_data.username', value: data.username });
			}
			if (given(data.ask_join) && typeof data.ask_join !== 'boolean') {
				problems.push({ code: 'notBoolean', path: 'button_link.joinchannel_data.ask_join', value: data.ask_join });
			}
		}
	}
	const openChat = link.open_chat_data;
	if (given(openChat)) {
		if (!isPlainObject(openChat)) {
			problems.push({ code: 'notObject', path: 'button_link.open_chat_data', value: openChat });
		} else {
			for (const field of ['object_guid', 'object_type']) {
				const value = openChat[field];
				if (typeof value !== 'string' || value.trim() === '') {
					problems.push({ code: 'emptyText', path: `button_link.open_chat_data.${field}`, value });
				}
			}
		}
	}
	return problems;
}

/**
 * What the Markdown and HTML readers share once each has cut its source into tokens: which openers and
 * closers pair (the nesting rules), and how the paired tokens become the text that is sent and its metadata
 * parts. Both dialects go through here, so the same formatting written either way gives the same parts.
 *
 * Offsets and lengths are UTF-16 code units of the output text, which is what JavaScript strings count, so
 * emoji (surrogate pairs, ZWJ sequences) and Persian text need no special care: a range only ever starts or
 * ends where a marker or tag was, never inside a character.
 */
import { isLinkUrl } from './metadata';
import { METADATA_TYPES } from '../../shared/types';
import type { MetadataPart, MetadataType } from '../../shared/types';

/** What a link makes: a Link with its address or a MentionText with its user. */
export type LinkPart = Pick<MetadataPart, 'type' | 'link_url' | 'mention_text_user_id'>;

export type FormatToken =
	| { kind: 'text'; text: string }
	/**
	 * Opens and/or closes a range of `type`; pairs only with a token of the same `key` (the marker or tag name).
	 * `raw` is what the source had, written out when the token stays unpaired. `role` is set once paired.
	 */
	| { kind: 'mark'; type: MetadataType; key: string; raw: string; canOpen: boolean; canClose: boolean; role?: 'open' | 'close' }
	/** Code whose content is final: nothing inside it is parsed. */
	| { kind: 'code'; type: 'Mono' | 'Pre'; text: string }
	/** The ends of a link. The target is on the end where the dialect writes it: HTML's opener, Markdown's closer. */
	| { kind: 'linkOpen'; raw: string; part?: LinkPart; matched?: boolean }
	| { kind: 'linkClose'; raw: string; part?: LinkPart; matched?: boolean }
	/** The ends of a Markdown quote, always emitted together by its tokenizer. */
	| { kind: 'quoteStart' }
	| { kind: 'quoteEnd' }
	/** Marks and links may not be paired across this point. */
	| { kind: 'blockBreak' };

export interface FormattedText {
	text: string;
	parts: MetadataPart[];
}

/**
 * A link target: a user id (`u0…`, no scheme) makes a mention, an address with a scheme (https://, tg://, …)
 * a link, anything else nothing (the caller then keeps the link's syntax as text).
 */
export function linkPart(target: string): LinkPart | undefined {
	if (target.startsWith('u0') && !target.includes(':')) return { type: 'MentionText', mention_text_user_id: target };
	if (isLinkUrl(target)) return { type: 'Link', link_url: target };
	return undefined;
}

/** Pairs the tokens and returns the text without the markup and its parts, sorted by from_index. */
export function formatTokens(tokens: FormatToken[]): FormattedText {
	pairLinks(tokens);
	pairMarks(tokens);
	return render(tokens);
}

/**
 * Pairs a link opener with the nearest closer after it. Links never nest: once one closes, older openers
 * stay text. An opener directly followed by its closer (empty link text) does not make a link.
 */
function pairLinks(tokens: FormatToken[]): void {
	let openers: number[] = [];
	tokens.forEach((token, index) => {
		if (token.kind === 'blockBreak') {
			openers = [];
		} else if (token.kind === 'linkOpen') {
			openers.push(index);
		} else if (token.kind === 'linkClose') {
			const opener = openers.pop();
			if (opener === undefined || opener === index - 1) return;
			(tokens[opener] as { matched?: boolean }).matched = true;
			token.matched = true;
			openers = [];
		}
	});
}

/**
 * Pairs marks with a stack. A closer takes the nearest open mark of its key; marks opened after that one
 * are dropped (they stay text), so when marks cross the outer close wins. Matched links act as walls: a mark
 * inside a link's text only pairs inside it.
 */
function pairMarks(tokens: FormatToken[]): void {
	const WALL = -1;
	let stack: number[] = [];
	tokens.forEach((token, index) => {
		if (token.kind === 'blockBreak') {
			stack = [];
		} else if (token.kind === 'linkOpen' && token.matched) {
			stack.push(WALL);
		} else if (token.kind === 'linkClose' && token.matched) {
			const wall = stack.lastIndexOf(WALL);
			stack = stack.slice(0, Math.max(wall, 0));
		} else if (token.kind === 'mark') {
			if (token.canClose) {
				for (let position = stack.length - 1; position >= 0 && stack[position] !== WALL; position--) {
					const opener = tokens[stack[position]];
					if (opener.kind === 'mark' && opener.key === token.key) {
						opener.role = 'open';
						token.role = 'close';
						stack = stack.slice(0, position);
						return;
					}
				}
			}
			if (token.canOpen) stack.push(index);
		}
	});
}

/** Writes the output text and turns paired tokens into parts, measured in the output's UTF-16 units. */
function render(tokens: FormatToken[]): FormattedText {
	let text = '';
	const parts: MetadataPart[] = [];
	const starts: number[] = [];
	let link: { from: number; part?: LinkPart } = { from: 0 };
	let quoteStart = 0;
	// Empty ranges are invalid for Rubika; they can only come from empty code, marks or link text: dropped.
	const addPart = (part: LinkPart, from: number) => {
		if (text.length <= from) return;
		const { type, ...target } = part;
		parts.push({ type, from_index: from, length: text.length - from, ...target });
	};
	for (const token of tokens) {
		switch (token.kind) {
			case 'text':
				text += token.text;
				break;
			case 'mark':
				if (token.role === 'open') starts.push(text.length);
				else if (token.role === 'close') addPart({ type: token.type }, starts.pop() ?? 0);
				else text += token.raw;
				break;
			case 'code': {
				const from = text.length;
				text += token.text;
				addPart({ type: token.type }, from);
				break;
			}
			case 'linkOpen':
				if (token.matched) link = { from: text.length, part: token.part };
				else text += token.raw;
				break;
			case 'linkClose': {
				const part = token.part ?? link.part;
				if (token.matched && part) addPart(part, link.from);
				else text += token.raw;
				break;
			}
			case 'quoteStart':
				quoteStart = text.length;
				break;
			case 'quoteEnd':
				addPart({ type: 'Quote' }, quoteStart);
				break;
			case 'blockBreak':
				break;
		}
	}
	const typeOrder = (type: MetadataType) => METADATA_TYPES.indexOf(type);
	parts.sort((a, b) => a.from_index - b.from_index || b.length - a.length || typeOrder(a.type) - typeOrder(b.type));
	return { text, parts };
}

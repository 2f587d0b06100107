/**
 * HTML, as AI models and many services write it, converted into plain text plus metadata parts: the parts
 * the Markdown reader makes, paired and measured by the same code (formattedText.ts).
 *
 *   <b> <strong> Bold   <i> <em> Italic   <u> <ins> Underline   <s> <strike> <del> Strike
 *   <tg-spoiler> <spoiler> <span class="tg-spoiler"> Spoiler   <blockquote> Quote   <br> a line break
 *   <code> Mono   <pre>, <pre><code class="language-…"> Pre   <a href="https://…"> Link   <a href="u0…"> MentionText
 *
 * Rules, chosen so that nothing written disappears unseen:
 * - Any other tag (<p>, <div>, <span> without the spoiler class, <b/>, </b x="1">) is kept as text, exactly
 *   as written, and so is an <a> whose href is not an address with a scheme or a user id (as a Markdown link
 *   with such a target is), and a `<` that starts no tag (`a < b`, `<3`).
 * - Tags pair as Markdown markers do: a tag without its partner stays text; when tags cross
 *   (`<b>a <i>b</b> c</i>`) the outer close wins and the inner opener stays text; a tag inside a link pairs
 *   only inside it; links do not nest; a link with no text stays text.
 * - Character references are decoded in text and attribute values: &lt; &gt; &amp; &quot; &apos; &nbsp; &#NNN;
 *   &#xHH;. An unknown or malformed one (&copy;, &#0;, &amp without `;`) stays as written.
 * - Spaces and line breaks are kept as written (as Telegram's HTML mode does; a browser would collapse them).
 * - Inside <code> and <pre> only references are decoded: tags there are text. The language of
 *   <code class="language-…"> is dropped: Rubika's bot API has no field for it.
 * - Tag and attribute names are case-insensitive.
 */
import { formatTokens, linkPart } from './formattedText';
import type { FormattedText, FormatToken } from './formattedText';
import { decodeReferences, findClosingTag, readReference, readTag } from './htmlSyntax';
import type { HtmlTag } from './htmlSyntax';
import type { MetadataType } from '../../shared/types';

/** Tags that format the range they enclose; their names are the pairing keys. */
const RANGE_TAGS = new Map<string, MetadataType>([
	['b', 'Bold'],
	['strong', 'Bold'],
	['i', 'Italic'],
	['em', 'Italic'],
	['u', 'Underline'],
	['ins', 'Underline'],
	['s', 'Strike'],
	['strike', 'Strike'],
	['del', 'Strike'],
	['tg-spoiler', 'Spoiler'],
	['spoiler', 'Spoiler'],
	['blockquote', 'Quote'],
]);

/** The spoiler as Telegram also writes it; a `<span>` without this class is no formatting. */
const SPOILER_CLASS = 'tg-spoiler';

/** Where a tag or a character reference may start. */
const SPECIAL = /[<&]/g;

/** Converts HTML into plain text and formatting parts sorted by from_index. */
export function htmlToRubika(html: string): FormattedText {
	const tokens: FormatToken[] = [];
	let text = '';
	let index = 0;
	while (index < html.length) {
		SPECIAL.lastIndex = index;
		const special = SPECIAL.exec(html)?.index ?? html.length;
		text += html.slice(index, special);
		index = special;
		if (index === html.length) break;
		if (html[index] === '&') {
			const reference = readReference(html, index);
			text += reference?.text ?? '&';
			index = reference?.end ?? index + 1;
			continue;
		}
		const tag = readTag(html, index);
		const read = tag === undefined ? undefined : tagToken(html, index, tag);
		if (read === undefined) {
			// Not a tag, or one Rubika has no formatting for: kept exactly as written.
			const end = tag?.end ?? index + 1;
			text += html.slice(index, end);
			index = end;
			continue;
		}
		if (text !== '') tokens.push({ kind: 'text', text });
		text = '';
		tokens.push(read.token);
		index = read.end;
	}
	if (text !== '') tokens.push({ kind: 'text', text });
	return formatTokens(tokens);
}

/** What the tag at `start` stands for and where its source ends, or undefined when it is kept as text. */
function tagToken(source: string, start: number, tag: HtmlTag): { token: FormatToken; end: number } | undefined {
	const raw = source.slice(start, tag.end);
	const found = (token: FormatToken) => ({ token, end: tag.end });
	if (tag.closing) {
		if (tag.attributes.size > 0 || tag.selfClosing) return undefined;
		if (tag.name === 'a') return found({ kind: 'linkClose', raw });
		const type = tag.name === 'span' ? 'Spoiler' : RANGE_TAGS.get(tag.name);
		return type && found({ kind: 'mark', type, key: tag.name, raw, canOpen: false, canClose: true });
	}
	if (tag.name === 'br') return found({ kind: 'text', text: '\n' });
	if (tag.selfClosing) return undefined;
	if (tag.name === 'code' || tag.name === 'pre') return codeToken(source, tag);
	if (tag.name === 'a') {
		const part = linkPart((tag.attributes.get('href') ?? '').trim());
		return part && found({ kind: 'linkOpen', raw, part });
	}
	const type =
		tag.name === 'span'
			? (tag.attributes.get('class') ?? '').split(/\s+/).includes(SPOILER_CLASS)
				? 'Spoiler'
				: undefined
			: RANGE_TAGS.get(tag.name);
	return type && found({ kind: 'mark', type, key: tag.name, raw, canOpen: true, canClose: false });
}

/** <code> or <pre> up to its closing tag, nothing inside parsed but references; unclosed, it is text. */
function codeToken(source: string, tag: HtmlTag): { token: FormatToken; end: number } | undefined {
	const close = findClosingTag(source, tag.name, tag.end);
	if (close === undefined) return undefined;
	const content = source.slice(tag.end, close.start);
	const token: FormatToken =
		tag.name === 'pre'
			? { kind: 'code', type: 'Pre', text: decodeReferences(withoutCodeWrapper(content)) }
			: { kind: 'code', type: 'Mono', text: decodeReferences(content) };
	return { token, end: close.end };
}

/**
 * The content of `<pre><code class="language-…">…</code></pre>`, the way Telegram and Markdown renderers
 * write a code block; any other content of a <pre> as it is.
 */
function withoutCodeWrapper(content: string): string {
	const open = content.startsWith('<') ? readTag(content, 0) : undefined;
	if (open === undefined || open.name !== 'code' || open.closing || open.selfClosing) return content;
	const close = findClosingTag(content, 'code', open.end);
	return close?.end === content.length ? content.slice(open.end, close.start) : content;
}

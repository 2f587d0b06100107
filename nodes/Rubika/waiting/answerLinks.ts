/**
 * Send and Wait → answering on a web page: the links the question carries, each opening the waiting
 * execution's signed resume address, and how they are shown (Link buttons under the message, or linked lines
 * at the end of its text when Rubika refuses the buttons).
 */
import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import { fallbackLinkProof } from '../../shared/chatAnswers';
import { InputError, isRefusal } from '../../shared/errors';
import { callRubika } from '../../shared/transport';
import type { Keypad, MetadataPart } from '../../shared/types';
import { MAX_METADATA_PARTS } from '../../shared/types';
import type { ItemCall } from '../../shared/transport';
import { labelOr } from './labels';
import type { Question } from './questions/types';
import { fallbackLinkKind } from './questions/types';

/** How the message carries its links: Link buttons are documented only by rubpy (facts §2), text links by all. */
export type LinksAs = 'buttonsOrText' | 'buttons' | 'text';

interface ResponseLink {
	id: string;
	label: string;
	url: string;
}

/** The question: its text, its formatting parts, and its field as the user sees it (errors name it). */
interface LinkedMessage {
	text: string;
	parts: MetadataPart[];
	field: string;
}

/**
 * Sends the question with its links as `linksAs` says: under `buttonsOrText`, a refusal of the Link buttons
 * (INVALID_INPUT) sends it again with the links in the text.
 */
export async function sendWithLinks(
	context: IExecuteFunctions,
	base: IDataObject,
	message: LinkedMessage,
	links: ResponseLink[],
	linksAs: LinksAs,
	call: ItemCall,
): Promise<{ sent: IDataObject; shownAs: 'buttons' | 'text' }> {
	const send = async (as: 'buttons' | 'text') =>
		await callRubika(context, 'sendMessage', { ...base, ...messageWithLinks(message, links, as) }, call);
	const shownAs = linksAs === 'text' ? 'text' : 'buttons';
	const first = await send(shownAs).then(
		(data) => ({ data }),
		(error: unknown) => ({ error }),
	);
	if ('data' in first) return { sent: first.data, shownAs };
	if (linksAs !== 'buttonsOrText' || !isRefusal(first.error, 'INVALID_INPUT')) throw first.error as NodeApiError;
	context.logger.info('Rubika: Link buttons were refused; sending the links in the message text instead');
	return { sent: await send('text'), shownAs: 'text' };
}

/**
 * Makes n8n refuse a resume link whose signature is missing or wrong. n8n 2.14 and later always check the
 * signature of a send-and-wait node's links and no longer have this call; older versions (2.8.4) check it
 * only when the waiting node asked for it during the execution, and otherwise resume on a forged, edited or
 * unsigned link.
 */
export function requireSignedAnswers(context: IExecuteFunctions): void {
	(context as IExecuteFunctions & { setSignatureValidationRequired?: () => void }).setSignatureValidationRequired?.();
}

/**
 * The links the message carries, each opening the waiting execution's signed resume address: Approve (and
 * Decline) for an approval, else one link to the form. When they stand in for answer buttons (`botToken`
 * given), each also carries a proof keyed with the bot token: the waiting node then accepts these links, which
 * it refuses otherwise (on n8n 2.8.4 nothing else would stop an unsigned one). `question` is undefined for a
 * Custom Form.
 */
export function responseLinks(
	context: IExecuteFunctions,
	question: Question | undefined,
	options: IDataObject,
	botToken: string | undefined,
): ResponseLink[] {
	const proof = (kind: string): Record<string, string> =>
		botToken !== undefined && question ? { proof: fallbackLinkProof(botToken, context.getExecutionId(), fallbackLinkKind(question, kind)) } : {};
	if (!question || !('links' in question.web)) {
		return [{ id: 'respond', label: labelOr(options.messageButtonLabel, 'Respond'), url: context.getSignedResumeUrl(proof('')) }];
	}
	return question.web.links.map((link) => ({ id: link.id, label: link.label, url: context.getSignedResumeUrl({ approved: link.approved, ...proof(link.approved) }) }));
}

/**
 * The message's fields with the links: Link buttons in an inline keypad, one row, or the labels as lines
 * after the text, each a Link part (offsets in UTF-16 units, after the user's own formatting parts).
 */
function messageWithLinks(message: LinkedMessage, links: ResponseLink[], as: 'buttons' | 'text'): IDataObject {
	const { text, parts } = message;
	if (as === 'buttons') {
		const keypad: Keypad = {
			rows: [
				{
					buttons: links.map((link) => ({
						id: link.id,
						type: 'Link',
						button_text: link.label,
						button_link: { type: 'url', link_url: link.url },
					})),
				},
			],
		};
		const fields: IDataObject = { text, inline_keypad: keypad as unknown as IDataObject };
		if (parts.length > 0) fields.metadata = { meta_data_parts: parts } as unknown as IDataObject;
		return fields;
	}
	let full = text;
	const linkParts: MetadataPart[] = [];
	for (const [index, link] of links.entries()) {
		full += index === 0 ? '\n\n' : '\n';
		linkParts.push({ type: 'Link', from_index: full.length, length: link.label.length, link_url: link.url });
		full += link.label;
	}
	const all = [...parts, ...linkParts];
	if (all.length > MAX_METADATA_PARTS) {
		throw new InputError(message.field, `has ${parts.length} formatting parts; with the answer links that is more than Rubika's 30`);
	}
	return { text: full, metadata: { meta_data_parts: all } as unknown as IDataObject };
}

/**
 * The text and formatting limits the interactive probe measures in the person's own chat (facts §7): the
 * longest text (and what Rubika counts: code points or UTF-16 units), the most formatting parts, and whether
 * a mention of the person is refused outside a group. Each try is a message deleted at once; a search tries
 * the believed limit and the one after it first, so when the facts are right it costs two or three messages.
 */
import { MAX_METADATA_PARTS, MAX_TEXT_LENGTH } from '../nodes/shared/types';
import type { Answer, InteractiveFindings, LimitFinding } from '../sandbox/probeReport';
import { isRateLimited } from '../sandbox/probeReport';
import type { ProbeChat } from './chat';
import { summaryOf } from './client';

const TEXT_LENGTHS: [number, number] = [1, 65_536];
const METADATA_PARTS: [number, number] = [1, 1_000];
/** Letters of one code point and one UTF-16 unit each (and two UTF-8 bytes). */
const PERSIAN = 'ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهی';
/** One code point, two UTF-16 units. */
const EMOJI = '👍';

/** `length` code points of Persian letters, or (`withEmoji`) of Persian letters and emoji in turn. */
function probeText(length: number, withEmoji: boolean): string {
	const letters = [...PERSIAN];
	return Array.from({ length }, (_, index) => (withEmoji && index % 2 === 1 ? EMOJI : letters[index % letters.length])).join('');
}

/** UTF-16 units of probeText(length, true). */
function emojiTextUnits(length: number): number {
	return length + Math.floor(length / 2);
}

type Try = (size: number) => Promise<Answer>;

/**
 * The largest size in `range` that `attempt` is accepted with. The guessed boundaries are tried first (each
 * guess and the size after it), then the range is galloped up from what was accepted, then halved.
 */
async function searchLimit(range: [number, number], guesses: number[], attempt: Try): Promise<LimitFinding> {
	const finding: LimitFinding = { searched: range, longestAccepted: null, shortestRefused: null };
	let [accepted, refused] = [range[0] - 1, range[1] + 1];
	const tried = new Map<number, boolean>();
	const accepts = async (size: number): Promise<boolean | undefined> => {
		if (tried.has(size)) return tried.get(size);
		const answer = await attempt(size);
		if (!answer.ok && (answer.status === undefined || isRateLimited(answer))) {
			finding.inconclusive = `no usable answer for ${size}`;
			return undefined;
		}
		if (!answer.ok) finding.refusal = summaryOf(answer);
		tried.set(size, answer.ok);
		if (answer.ok) accepted = Math.max(accepted, size);
		else refused = Math.min(refused, size);
		return answer.ok;
	};
	const candidates = [...guesses.flatMap((guess) => [guess, guess + 1]), range[0]];
	for (const size of candidates) {
		if (refused - accepted <= 1) break;
		if (size > accepted && size < refused && (await accepts(size)) === undefined) return finding;
	}
	while (refused > range[1] && accepted < range[1] && accepted >= range[0]) {
		if ((await accepts(Math.min(range[1], accepted * 2))) === undefined) return finding;
	}
	while (refused - accepted > 1 && accepted >= range[0]) {
		if ((await accepts(Math.floor((accepted + refused) / 2))) === undefined) return finding;
	}
	return {
		...finding,
		longestAccepted: accepted >= range[0] ? accepted : null,
		shortestRefused: refused <= range[1] ? refused : null,
	};
}

/** The longest text, with Persian letters and then with emoji, and which unit explains both. */
export async function measureTextLength(chat: ProbeChat): Promise<NonNullable<InteractiveFindings['textLength']>> {
	const tryText = (withEmoji: boolean): Try => (size) =>
		chat.send(
			'sendMessage',
			{ ...chat.chat, text: probeText(size, withEmoji) },
			{ step: `text of ${size} code points${withEmoji ? ' with emoji' : ''}`, kind: 'experiment', unpaired: true },
			true,
		);
	const persian = await searchLimit(TEXT_LENGTHS, [MAX_TEXT_LENGTH], tryText(false));
	const limit = persian.shortestRefused === null ? null : persian.longestAccepted;
	// If Rubika counts code points the emoji text stops where the Persian one did; if UTF-16 units, where its units do.
	const guesses = limit === null ? [MAX_TEXT_LENGTH] : [limit, largestWithin(limit)];
	const emoji = await searchLimit(TEXT_LENGTHS, guesses, tryText(true));
	const units = (size: number | null) => (size === null ? null : emojiTextUnits(size));
	const counts =
		limit === null || persian.inconclusive || emoji.inconclusive || emoji.longestAccepted === null || emoji.shortestRefused === null
			? 'unclear'
			: emoji.longestAccepted === limit
				? 'codePoints'
				: emojiTextUnits(emoji.longestAccepted) <= limit && emojiTextUnits(emoji.shortestRefused) > limit
					? 'utf16'
					: 'unclear';
	return {
		persian,
		withEmoji: { ...emoji, longestAcceptedUtf16: units(emoji.longestAccepted), shortestRefusedUtf16: units(emoji.shortestRefused) },
		counts,
		limit,
	};
}

/** The longest emoji text whose UTF-16 units fit in `units`. */
function largestWithin(units: number): number {
	let size = Math.floor((units * 2) / 3);
	while (emojiTextUnits(size + 1) <= units) size++;
	return size;
}

/** The most formatting parts a message is accepted with: one Bold part per letter of a spaced-out text. */
export function measureMetadataParts(chat: ProbeChat): Promise<LimitFinding> {
	return searchLimit(METADATA_PARTS, [MAX_METADATA_PARTS], (size) =>
		chat.send(
			'sendMessage',
			{
				...chat.chat,
				text: Array.from({ length: size }, () => 'ب').join(' '),
				metadata: { meta_data_parts: Array.from({ length: size }, (_, index) => ({ type: 'Bold', from_index: index * 2, length: 1 })) },
			},
			{ step: `text with ${size} formatting parts`, kind: 'experiment', unpaired: true },
			true,
		),
	);
}

/** A MentionText of the person in their own private chat (documented: only in groups). */
export async function tryMentionInPrivateChat(chat: ProbeChat, personId: string): Promise<NonNullable<InteractiveFindings['mentionInPrivateChat']>> {
	const text = 'n8n-nodes-rubika probe: a mention of you';
	const answer = await chat.send(
		'sendMessage',
		{ ...chat.chat, text, metadata: { meta_data_parts: [{ type: 'MentionText', from_index: text.indexOf('you'), length: 3, mention_text_user_id: personId }] } },
		{ step: 'a mention of the person in their private chat', kind: 'experiment' },
		true,
	);
	return { accepted: answer.ok, answer: summaryOf(answer) };
}

/**
 * What the probe does, in order, against one service (a real Rubika, or the sandbox to compare with). It calls
 * every method of the node as the node calls it, and tries the unknowns of docs/api-facts.md. It touches only
 * its own messages and undoes what it can: every message it sends is deleted at the end, a pin is unpinned, a
 * chat keypad removed. What cannot be undone, or reaches beyond the chat, runs only when asked for (settings).
 */
import { isPlainObject } from '../nodes/shared/json';
import type { RubikaMethod } from '../nodes/shared/types';
import { UNDOCUMENTED_METHODS } from '../nodes/shared/types';
import { saysMethodIsUnknown } from '../nodes/shared/transport/unknownMethod';
import type { Answer, Findings, ProbeSettings } from '../sandbox/probeReport';
import { UNKNOWN_METHOD, isRateLimited } from '../sandbox/probeReport';
import { ProbeChat, keypad, textOf } from './chat';
import type { ProbeClient, StepLabel } from './client';
import { summaryOf } from './client';

/** What differs between the run against Rubika and the run against the sandbox: the sandbox has its own chats. */
export interface ProbeInputs {
	chatId: string;
	stickerId?: string;
	banMemberId?: string;
}

export interface RunResult {
	findings: Omit<Findings, 'bareBigIntegers' | 'rateLimited' | 'absentMethods'>;
	/** Methods not called, and why. */
	skipped: Map<RubikaMethod, string>;
	chatType?: string;
	stopped?: string;
}

/** The button id lengths the search tries between (facts §7: keypad limits unknown). */
const BUTTON_ID_LENGTHS: [number, number] = [8, 256];

const TEXT = 'n8n-nodes-rubika probe: checking how Rubika answers. This message is deleted in a moment.';
const LINK_URL = 'https://github.com/n8n-nodes-rubika/n8n-nodes-rubika';
const MADE_UP_TOKEN = '0'.repeat(64);
const NO_SUCH_CHAT = `b0${'0'.repeat(30)}`;
const NO_SUCH_STICKER = 'n8nProbeNoSuchSticker';

/** What runs only when asked for, the flag that asks, and why it is not done by default. */
export const OPT_IN = {
	banMemberId: { flag: '--ban-member USER_ID', why: 'the user is banned and unbanned at once, which removes them from the group or channel' },
	unpinAll: { flag: '--unpin-all', why: 'unpinAllChatMessages unpins every pinned message of the chat, not only the probe\'s' },
	getUpdates: {
		flag: '--get-updates',
		why: 'whether reading updates moves anything for a bot that is running (a trigger polling, a registered webhook) is unknown',
	},
	setCommands: { flag: '--set-commands', why: 'setCommands replaces the bot\'s command list, and there is no method to read the old one back' },
	webhookUrl: {
		flag: '--webhook-url URL',
		why: 'updateBotEndpoints registers the URL as the bot\'s ReceiveQuery endpoint, and there is no method to unregister one',
	},
} as const;

function optInReason(option: keyof typeof OPT_IN): string {
	return `opt-in (${OPT_IN[option].flag}): ${OPT_IN[option].why}`;
}

export async function runSequence(client: ProbeClient, inputs: ProbeInputs, settings: ProbeSettings): Promise<RunResult> {
	const run = new ProbeRun(client, inputs, settings);
	await run.all();
	return run.result;
}

class ProbeRun {
	readonly result: RunResult = { findings: {}, skipped: new Map() };
	readonly #chat: ProbeChat;
	readonly #file = Buffer.from(`n8n-nodes-rubika probe file, ${new Date().toISOString()}\n`);
	readonly #started = Date.now();

	constructor(
		private readonly client: ProbeClient,
		private readonly inputs: ProbeInputs,
		private readonly settings: ProbeSettings,
	) {
		this.#chat = new ProbeChat(client, inputs.chatId);
	}

	private get chat(): { chat_id: string } {
		return this.#chat.chat;
	}

	async all(): Promise<void> {
		const me = await this.call('getMe', {});
		if (!me.ok) return this.stop('getMe was refused: check the token and the base URL');
		const chat = await this.call('getChat', this.chat);
		if (!chat.ok) return this.stop('getChat was refused: check the chat id; the bot must be in the chat');
		const found = isPlainObject(chat.data.chat) ? chat.data.chat : {};
		this.result.chatType = textOf(found.chat_type);
		await this.unknownAnswers();
		let downloadUrl: string | undefined;
		try {
			await this.messages();
			downloadUrl = await this.files();
			await this.keypads();
			await this.members(this.inputs.banMemberId ?? textOf(found.user_id) ?? textOf(isPlainObject(me.data.bot) ? me.data.bot.bot_id : undefined));
			await this.optIns();
			if (downloadUrl) await this.downloadAgain(downloadUrl);
		} finally {
			await this.deleteSent();
		}
	}

	private stop(reason: string): void {
		this.result.stopped = reason;
	}

	private skip(methods: RubikaMethod[], reason: string): void {
		for (const method of methods) this.result.skipped.set(method, reason);
	}

	private call(method: RubikaMethod, body: Record<string, unknown>, label: Partial<StepLabel> = {}): Promise<Answer> {
		return this.#chat.call(method, body, label);
	}

	private send(method: RubikaMethod, body: Record<string, unknown>, label: Partial<StepLabel> = {}, deleteNow = false): Promise<Answer> {
		return this.#chat.send(method, body, label, deleteNow);
	}

	private deleteSent(): Promise<void> {
		return this.#chat.deleteSent();
	}

	/** How Rubika answers a method it does not have, a wrong token and a chat that does not exist (facts §1). */
	private async unknownAnswers(): Promise<void> {
		const unknown = await this.client.call({ step: 'unknown method', kind: 'experiment' }, UNKNOWN_METHOD, {});
		this.result.findings.unknownMethod = {
			...summaryOf(unknown),
			packageSaysUnknownMethod: saysMethodIsUnknown(UNDOCUMENTED_METHODS[0], { httpCode: unknown.httpStatus ?? 0, ...unknown }),
		};
		const badToken = await this.client.call({ step: 'getMe with a made-up token', kind: 'experiment' }, 'getMe', {}, MADE_UP_TOKEN);
		this.result.findings.badToken = summaryOf(badToken);
		const noChat = await this.call('getChat', { chat_id: NO_SUCH_CHAT }, { step: 'getChat of a chat that does not exist', kind: 'experiment' });
		this.result.findings.invalidInput = summaryOf(noChat);
	}

	private async messages(): Promise<void> {
		const sent = await this.send('sendMessage', { ...this.chat, text: TEXT });
		const messageId = textOf(sent.data.message_id);
		if (messageId) {
			const message = { ...this.chat, message_id: messageId };
			await this.call('editMessageText', { ...message, text: `${TEXT} (edited)` });
			await this.call('editMessageKeypad', { ...message, inline_keypad: keypad('inline', [[{ id: 'probe', button_text: 'Probe' }]]) });
			await this.send('forwardMessage', { from_chat_id: this.inputs.chatId, message_id: messageId, to_chat_id: this.inputs.chatId });
			await this.call('pinChatMessage', { ...message, disable_notification: true });
			await this.call('unpinChatMessage', message);
			if (this.settings.unpinAll) {
				await this.call('pinChatMessage', { ...message, disable_notification: true }, { step: 'pinChatMessage (before unpinAllChatMessages)' });
				await this.call('unpinAllChatMessages', this.chat);
			} else this.skip(['unpinAllChatMessages'], optInReason('unpinAll'));
		} else {
			this.skip(['editMessageText', 'editMessageKeypad', 'forwardMessage', 'pinChatMessage', 'unpinChatMessage', 'unpinAllChatMessages'], 'sendMessage was refused');
		}
		await this.send('sendPoll', { ...this.chat, question: 'n8n-nodes-rubika probe', options: ['Yes', 'No'] });
		await this.send('sendLocation', { ...this.chat, latitude: '35.6892', longitude: '51.3890' });
		await this.send('sendContact', { ...this.chat, first_name: 'Probe', last_name: 'n8n-nodes-rubika', phone_number: '+989000000000' });
		if (this.inputs.stickerId) await this.send('sendSticker', { ...this.chat, sticker_id: this.inputs.stickerId });
		else {
			// A made-up sticker id still tells whether the method exists (facts §9).
			this.skip(['sendSticker'], 'no --sticker given; tried with a made-up sticker id instead (see experiments)');
			await this.send('sendSticker', { ...this.chat, sticker_id: NO_SUCH_STICKER }, { step: 'sendSticker with a made-up sticker id', kind: 'experiment' });
		}
	}

	/** Upload a tiny file, send it, download it back (facts §6); returns the download address. */
	private async files(): Promise<string | undefined> {
		const requested = await this.call('requestSendFile', { type: 'File' });
		const uploadUrl = textOf(requested.data.upload_url);
		if (!uploadUrl) {
			this.skip(['sendFile', 'getFile'], 'requestSendFile gave no upload_url');
			return undefined;
		}
		const uploaded = await this.client.upload({ step: 'upload', kind: 'method' }, uploadUrl, {
			name: 'rubika-probe.txt',
			type: 'text/plain',
			content: this.#file,
		});
		this.result.findings.upload = { ...this.where(uploadUrl), answer: summaryOf(uploaded) };
		const fileId = textOf(uploaded.data.file_id);
		if (!fileId) {
			this.skip(['sendFile', 'getFile'], 'the upload gave no file_id');
			return undefined;
		}
		await this.send('sendFile', { ...this.chat, file_id: fileId, text: 'n8n-nodes-rubika probe file' });
		const file = await this.call('getFile', { file_id: fileId });
		const downloadUrl = textOf(file.data.download_url);
		if (!downloadUrl) return undefined;
		const downloaded = await this.client.download({ step: 'download', kind: 'method' }, downloadUrl, this.#file);
		this.result.findings.download = { ...this.where(downloadUrl), ...downloaded };
		return downloadUrl;
	}

	/** Whether a download address still works at the end of the run: a lower bound on its lifetime (facts §6). */
	private async downloadAgain(url: string): Promise<void> {
		const download = this.result.findings.download;
		if (!download) return;
		const since = Date.now() - this.#started;
		const again = await this.client.download({ step: 'download again at the end', kind: 'experiment' }, url, this.#file);
		download.again = { afterSeconds: Math.round(since / 1000), httpStatus: again.httpStatus, bytesMatch: again.bytesMatch };
	}

	private where(url: string): { host: string; protocol: string; sameHostAsApi: boolean } {
		const { host, protocol } = new URL(url);
		return { host, protocol, sameHostAsApi: host === new URL(this.client.baseUrl).host };
	}

	private async keypads(): Promise<void> {
		const link = await this.send(
			'sendMessage',
			{
				...this.chat,
				text: TEXT,
				inline_keypad: keypad('inline', [
					[{ id: 'probe-link', type: 'Link', button_text: 'n8n-nodes-rubika', button_link: { type: 'url', link_url: LINK_URL } }],
				]),
			},
			{ step: 'sendMessage with a link button', kind: 'experiment' },
		);
		this.result.findings.linkButtons = { accepted: link.ok, answer: summaryOf(link) };
		this.result.findings.buttonIdLength = await this.buttonIdSearch();
		await this.call('editChatKeypad', { ...this.chat, chat_keypad_type: 'New', chat_keypad: keypad('chat', [[{ id: 'probe', button_text: 'Probe' }]]) });
		await this.call('editChatKeypad', { ...this.chat, chat_keypad_type: 'Remove' }, { step: 'editChatKeypad (remove)' });
	}

	/** Binary search for the longest button id an inline keypad is accepted with; each accepted message is deleted at once. */
	private async buttonIdSearch(): Promise<NonNullable<Findings['buttonIdLength']>> {
		const [shortest, longest] = BUTTON_ID_LENGTHS;
		const finding: NonNullable<Findings['buttonIdLength']> = { searched: [shortest, longest], longestAccepted: null, shortestRefused: null };
		const accepts = async (length: number): Promise<boolean | undefined> => {
			const id = Array.from({ length }, (_, index) => 'abcdefghijklmnopqrstuvwxyz0123456789'[index % 36]).join('');
			const label = { step: `button id of ${length} characters`, kind: 'experiment', unpaired: true } as const;
			const answer = await this.send('sendMessage', { ...this.chat, text: TEXT, inline_keypad: keypad('inline', [[{ id, button_text: 'Probe' }]]) }, label, true);
			if (answer.ok) return true;
			if (answer.status === undefined || isRateLimited(answer)) {
				finding.inconclusive = `no usable answer for ${length} characters`;
				return undefined;
			}
			finding.refusal = summaryOf(answer);
			return false;
		};
		let [low, high] = [shortest, longest];
		const first = await accepts(low);
		if (first !== true) return first === false ? { ...finding, shortestRefused: low } : finding;
		const last = await accepts(high);
		if (last !== false) return last ? { ...finding, longestAccepted: high } : { ...finding, longestAccepted: low };
		while (high - low > 1) {
			const middle = Math.floor((low + high) / 2);
			const accepted = await accepts(middle);
			if (accepted === undefined) break;
			if (accepted) low = middle;
			else high = middle;
		}
		return { ...finding, longestAccepted: low, shortestRefused: finding.inconclusive ? null : high };
	}

	private async members(userId: string | undefined): Promise<void> {
		await this.call('getChatAdministrators', this.chat);
		await this.call('getChatMemberCount', this.chat);
		if (userId) await this.call('getChatMember', { ...this.chat, user_id: userId });
		else this.skip(['getChatMember'], 'no user id to ask about: neither getChat gave a user_id nor getMe a bot_id');
		const member = this.inputs.banMemberId;
		if (member) {
			await this.call('banChatMember', { ...this.chat, user_id: member });
			await this.call('unbanChatMember', { ...this.chat, user_id: member });
		} else this.skip(['banChatMember', 'unbanChatMember'], optInReason('banMemberId'));
	}

	private async optIns(): Promise<void> {
		// limit 1 and no offset_id: what the trigger sends to find where the updates stand (nodes/RubikaTrigger/pages.ts).
		if (this.settings.getUpdates) await this.call('getUpdates', { limit: 1 });
		else this.skip(['getUpdates'], optInReason('getUpdates'));
		if (this.settings.setCommands) await this.call('setCommands', { bot_commands: [{ command: 'probe', description: 'n8n-nodes-rubika probe' }] });
		else this.skip(['setCommands'], optInReason('setCommands'));
		// ReceiveQuery: the package registers only ReceiveUpdate and ReceiveInlineMessage, so a bot it runs keeps its
		// endpoints; what Rubika would send to ReceiveQuery is unknown (facts §4).
		if (this.settings.webhookUrl) await this.call('updateBotEndpoints', { url: this.settings.webhookUrl, type: 'ReceiveQuery' });
		else this.skip(['updateBotEndpoints'], optInReason('webhookUrl'));
	}
}

/**
 * The interactive probe (`npm run probe -- --interactive`): what only a person with the app can show. In their
 * private chat with the bot it sends a keypad with one button of every special type and asks them to use the
 * input buttons, recording what arrives through getUpdates (facts §11); it measures the text and formatting
 * limits with messages deleted at once (limits.ts); and, when asked (`--endpoint-test`), registers a throwaway
 * ReceiveUpdate endpoint to see whether getUpdates stops, then tries to remove it (facts §4).
 *
 * Nothing is sent before the person agrees: at the terminal, or beforehand with --yes. Whatever happens, the
 * chat keypad is removed and the probe's messages deleted at the end.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { InputError } from '../nodes/shared/errors';
import { isPlainObject } from '../nodes/shared/json';
import { buttonSettings, buttonSettingsKey } from '../nodes/Rubika/keypad/settings';
import { BUTTON_TYPES } from '../nodes/shared/types';
import type { InputKind } from '../sandbox/inputAnswers';
import { INPUT_BUTTON_TYPES } from '../sandbox/inputAnswers';
import type { AnswerSummary, EndpointFinding, EndpointRemovalWay, InteractiveFindings, InteractiveStep } from '../sandbox/probeReport';
import { ProbeChat, keypad, textOf } from './chat';
import type { ProbeClient } from './client';
import { summaryOf } from './client';
import { measureMetadataParts, measureTextLength, tryMentionInPrivateChat } from './limits';
import { PRIVACY_NOTE, elementShape, masked, pathsHolding } from './mask';
import type { Terminal } from './terminal';
import type { ChatUpdate } from './watch';
import { UpdateWatch, messageOf } from './watch';

export interface InteractiveOptions {
	terminal: Terminal;
	/** The person agreed beforehand (--yes): nothing is asked before starting. */
	yes: boolean;
	/** How long each step waits for the person. */
	stepTimeoutMs: number;
	/** How often getUpdates is asked while waiting. */
	pollMs: number;
	/** Once the person says they have sent a message, how long the probe keeps looking for it. */
	graceMs: number;
	/** Register this as a throwaway ReceiveUpdate endpoint, then remove it (opt-in). */
	endpointTestUrl?: string;
}

export interface InteractiveResult {
	findings?: InteractiveFindings;
	chatType?: string;
	stopped?: string;
}

const LINK_URL = 'https://github.com/n8n-nodes-rubika/n8n-nodes-rubika';
/** The order in which the person is asked for the input buttons, with what to do. */
const INPUT_STEPS: Array<{ kind: InputKind; ask: (button: string) => string }> = [
	{ kind: 'text', ask: (button) => `Tap "${button}", type the word سلام and send it.` },
	{ kind: 'date', ask: (button) => `Tap "${button}", pick any date and confirm.` },
	{ kind: 'number', ask: (button) => `Tap "${button}", pick any number and confirm.` },
	{ kind: 'item', ask: (button) => `Tap "${button}", pick any item and confirm.` },
	{
		kind: 'phoneNumber',
		ask: (button) => `Tap "${button}" and agree to share your phone number (the report keeps its shape only: every digit becomes 0). Press Enter to skip this one.`,
	},
	{ kind: 'location', ask: (button) => `Tap "${button}" and share any location (the report keeps its shape only: every digit becomes 0).` },
];
/** The removals tried, in order, as the sandbox's `endpointRemoval` names them (facts §4: none is documented). */
const REMOVALS: Array<{ way: EndpointRemovalWay; url: '' | null }> = [
	{ way: 'emptyUrl', url: '' },
	{ way: 'nullUrl', url: null },
];

class Quit extends Error {}

export async function runInteractiveSequence(client: ProbeClient, chatId: string, options: InteractiveOptions): Promise<InteractiveResult> {
	const run = new InteractiveRun(new ProbeChat(client, chatId), options);
	await run.all();
	return run.result;
}

class InteractiveRun {
	readonly result: InteractiveResult = {};
	readonly #watch: UpdateWatch;
	#personId: string | undefined;
	#step = 0;
	#chatKeypadShown = false;

	constructor(
		private readonly chat: ProbeChat,
		private readonly options: InteractiveOptions,
	) {
		this.#watch = new UpdateWatch(chat);
	}

	private say(text: string): void {
		this.options.terminal.say(text);
	}

	async all(): Promise<void> {
		const me = await this.chat.call('getMe', {});
		if (!me.ok) return this.stop('getMe was refused: check the token and the base URL');
		const chat = await this.chat.call('getChat', this.chat.chat);
		if (!chat.ok) return this.stop('getChat was refused: check the chat id; it must be your private chat with the bot');
		const found = isPlainObject(chat.data.chat) ? chat.data.chat : {};
		this.result.chatType = textOf(found.chat_type);
		if (this.result.chatType !== 'User') {
			return this.stop(`--interactive needs your private chat with the bot (an id starting with b0), and ${this.chat.chatId} is a ${this.result.chatType ?? 'chat of unknown type'}`);
		}
		this.#personId = textOf(found.user_id);
		const bot = isPlainObject(me.data.bot) ? me.data.bot : {};
		const agreed = await this.agree(textOf(bot.username) ?? 'your bot');
		if (!agreed) return this.stop(agreed === false ? 'you did not agree, so nothing was sent' : 'no terminal to agree at: read what the run does and run it again with --yes');
		const findings: InteractiveFindings = { agreed: this.options.yes ? '--yes' : 'terminal', privacy: PRIVACY_NOTE, backlogSkipped: 0, updatesArrive: false, steps: [] };
		this.result.findings = findings;
		try {
			const backlog = await this.#watch.skipBacklog();
			findings.backlogSkipped = backlog.skipped;
			if (!backlog.complete) this.say(`(More than ${backlog.skipped} old updates are waiting; messages older than ten minutes are not taken for answers.)`);
			findings.updatesArrive = await this.hello(findings);
			if (findings.updatesArrive) await this.buttons(findings);
			this.say('\nMeasuring the text and formatting limits: a few test messages, each deleted at once. Nothing to do.');
			findings.textLength = await measureTextLength(this.chat);
			findings.metadataParts = await measureMetadataParts(this.chat);
			if (this.#personId) findings.mentionInPrivateChat = await tryMentionInPrivateChat(this.chat, this.#personId);
			if (this.options.endpointTestUrl && findings.updatesArrive) findings.endpoint = await this.endpointTest(this.options.endpointTestUrl, findings);
			else if (this.options.endpointTestUrl) this.say('The endpoint test needs your messages to arrive through getUpdates; skipped.');
		} catch (error) {
			if (!(error instanceof Quit)) throw error;
			this.stop('you typed quit');
		} finally {
			if (this.#chatKeypadShown) await this.chat.call('editChatKeypad', { ...this.chat.chat, chat_keypad_type: 'Remove' }, { step: 'editChatKeypad (remove)' });
			await this.chat.deleteSent();
		}
		this.summary(findings);
	}

	private stop(reason: string): void {
		this.result.stopped = reason;
		this.say(`Stopped: ${reason}.`);
	}

	/** Says what the run does; true once the person agrees, false if they decline, undefined if nobody can be asked. */
	private async agree(botName: string): Promise<boolean | undefined> {
		const { stepTimeoutMs, endpointTestUrl } = this.options;
		this.say(
			[
				'',
				'n8n-nodes-rubika interactive probe',
				'',
				`In your private chat with ${botName} (${this.chat.chatId}) this run:`,
				'  1. reads the bot\'s updates with getUpdates, to see what you send. Before you go on, stop every workflow',
				'     with a Rubika Trigger for this bot, and any other program reading its updates: whether reading them',
				'     moves anything for another reader is unknown (docs/api-facts.md §5). If a webhook is registered for',
				'     the bot, getUpdates may get nothing; the run then says so.',
				'  2. shows you a keypad with one button of every special kind and asks you to use six: type a text, pick a',
				'     date, a number and an item, share your phone number and a location. Phone numbers and places are',
				'     recorded as their shape only (every digit becomes 0); what you type or pick is recorded as it is.',
				'  3. sends test messages to measure the text and formatting limits, each deleted at once.',
				...(endpointTestUrl
					? [
							`  4. registers ${new URL(endpointTestUrl).host} as the bot's ReceiveUpdate endpoint, asks you for a message to see`,
							'     whether getUpdates still gets it, then tries to remove the endpoint. This replaces the address of',
							'     a Rubika Webhook Trigger or any other program receiving this bot\'s updates by webhook; afterwards',
							'     register that again (in n8n: deactivate and activate its workflow).',
						]
					: []),
				'',
				`Each step waits up to ${Math.round(stepTimeoutMs / 1000)} seconds. Press Enter to skip a step; type quit to stop (the keypad and`,
				'the probe\'s messages are removed either way).',
			].join('\n'),
		);
		if (this.options.yes) {
			this.say('You agreed with --yes.');
			return true;
		}
		if (!this.options.terminal.canAsk) return undefined;
		this.say('Type yes and Enter to start:');
		const answer = await this.options.terminal.nextLine(stepTimeoutMs);
		return /^\s*y(es)?\s*$/i.test(answer ?? '');
	}

	/** The first step: any message from the person shows that getUpdates brings what they send. */
	private async hello(findings: InteractiveFindings): Promise<boolean> {
		this.ask('hello', 'In Rubika, open your chat with the bot and send any message, e.g. hello.');
		const { outcome, updates } = await this.waitForPerson('answer');
		this.record(findings, { key: 'hello' }, outcome, updates);
		const first = updates.map(messageOf).find(Boolean);
		this.#personId ??= textOf(first?.sender_id);
		if (outcome !== 'arrived') {
			this.say(
				'Nothing arrived through getUpdates. If a webhook is registered for this bot (a Rubika Webhook Trigger or another program), getUpdates may get nothing while it is. The steps that need your answers are skipped.',
			);
		}
		return outcome === 'arrived';
	}

	/** Shows the keypad of every special button type, then asks for each input button in turn. */
	private async buttons(findings: InteractiveFindings): Promise<void> {
		const types = BUTTON_TYPES.filter((type) => type !== 'Simple');
		const shown = await this.showChatKeypad(types);
		let accepted: string[] = types;
		const refused: Array<{ type: string; answer: AnswerSummary }> = [];
		if (!shown.ok) {
			// One refused type refuses the whole keypad: find which, one button at a time (each deleted at once).
			accepted = [];
			for (const type of types) {
				const alone = await this.chat.send(
					'sendMessage',
					{ ...this.chat.chat, text: `n8n-nodes-rubika probe: a ${type} button`, inline_keypad: keypad('inline', [[probeButton(type, 'alone')]]) },
					{ step: `a keypad with a ${type} button`, kind: 'experiment' },
					true,
				);
				if (alone.ok) accepted.push(type);
				else refused.push({ type, answer: summaryOf(alone) });
			}
			if (accepted.length === 0 || !(await this.showChatKeypad(accepted)).ok) {
				findings.buttonTypes = { accepted, refused };
				this.say('Rubika refused the keypad; the button steps are skipped.');
				return;
			}
		}
		findings.buttonTypes = { accepted, refused };
		const inputs = INPUT_STEPS.map((step) => ({ ...step, type: INPUT_BUTTON_TYPES[step.kind].find((type) => accepted.includes(type)) }));
		const inlineTypes = inputs.flatMap((input) => (input.type ? [input.type] : []));
		await this.chat.send(
			'sendMessage',
			{
				...this.chat.chat,
				text: 'n8n-nodes-rubika probe: the input buttons again, under this message.',
				inline_keypad: keypad('inline', pairs(inlineTypes.map((type) => probeButton(type, 'inline')))),
			},
			{ step: 'sendMessage with an inline keypad of the input buttons', kind: 'experiment' },
		);
		for (const input of inputs) {
			if (!input.type) continue;
			this.ask(input.kind, `${input.ask(input.type)} It is on the keypad below the message box (open it with the keypad icon if it is hidden).`);
			const { outcome, updates } = await this.waitForPerson('answer');
			this.record(findings, { key: input.kind, buttonType: input.type, keypad: 'chat', buttonIds: [probeButtonId(input.type, 'chat')] }, outcome, updates);
		}
		this.ask(
			'inline',
			'Under the message "…the input buttons again, under this message", use "Textbox" (and any other you like), then press Enter here. Answers on an inline keypad may reach only a webhook (docs/api-facts.md §5); if nothing arrives, that is recorded too.',
		);
		const inline = await this.waitForPerson('collect');
		this.record(findings, { key: 'inline', keypad: 'inline', buttonIds: inlineTypes.map((type) => probeButtonId(type, 'inline')) }, inline.outcome, inline.updates);
		this.ask('others', 'Try any other button of the keypad below the message box (camera, gallery, file, barcode, selection, payment…), then press Enter here.');
		const others = await this.waitForPerson('collect');
		this.record(findings, { key: 'others', keypad: 'chat', buttonIds: accepted.map((type) => probeButtonId(type, 'chat')) }, others.outcome, others.updates);
	}

	private async showChatKeypad(types: readonly string[]): Promise<{ ok: boolean }> {
		const answer = await this.chat.send(
			'sendMessage',
			{
				...this.chat.chat,
				text: 'n8n-nodes-rubika probe: the keypad below the message box has one button of each kind.',
				chat_keypad_type: 'New',
				chat_keypad: { ...keypad('chat', pairs(types.map((type) => probeButton(type, 'chat')))), resize_keyboard: true },
			},
			{ step: `sendMessage with a chat keypad of ${types.length} button types`, kind: 'experiment' },
		);
		this.#chatKeypadShown ||= answer.ok;
		return answer;
	}

	/** The opt-in endpoint test: does a registered ReceiveUpdate endpoint stop getUpdates, and how is it removed? */
	private async endpointTest(url: string, findings: InteractiveFindings): Promise<EndpointFinding> {
		this.say(`\nEndpoint test: registering ${new URL(url).host} as the bot's ReceiveUpdate endpoint.`);
		const registered = await this.chat.call('updateBotEndpoints', { url, type: 'ReceiveUpdate' }, { step: 'updateBotEndpoints (the throwaway endpoint)', kind: 'experiment' });
		const endpoint: EndpointFinding = {
			host: new URL(url).host,
			registered: { ...summaryOf(registered), ...endpointStatus(registered.data) },
			stopsPolling: null,
			removals: [],
			pollingBack: null,
		};
		if (!registered.ok || endpoint.registered.endpointStatus !== 'Done') {
			this.say('Rubika did not register it, so nothing changed.');
			return endpoint;
		}
		this.ask('endpoint-registered', 'Send another message in the chat, e.g. endpoint 1, then press Enter here.');
		const whileRegistered = await this.waitForPerson('sent');
		this.record(findings, { key: 'endpoint-registered' }, whileRegistered.outcome, whileRegistered.updates);
		endpoint.stopsPolling = whileRegistered.outcome === 'arrived' ? false : whileRegistered.outcome === 'sent, nothing arrived' ? true : null;
		for (const removal of REMOVALS) {
			const answer = await this.chat.call(
				'updateBotEndpoints',
				{ url: removal.url, type: 'ReceiveUpdate' },
				{ step: `updateBotEndpoints with url ${JSON.stringify(removal.url)} (removing the endpoint?)`, kind: 'experiment' },
			);
			const tried: EndpointFinding['removals'][number] = { way: removal.way, answer: { ...summaryOf(answer), ...endpointStatus(answer.data) } };
			endpoint.removals.push(tried);
			if (endpoint.stopsPolling !== true || tried.answer.endpointStatus !== 'Done') continue;
			tried.pollingBack = await this.messageArrives(findings, `endpoint-removed-${removal.way}`);
			if (tried.pollingBack) {
				endpoint.removedBy = removal.way;
				break;
			}
		}
		endpoint.pollingBack = endpoint.stopsPolling === true ? endpoint.removedBy !== undefined : await this.messageArrives(findings, 'endpoint-after-removal');
		if (endpoint.pollingBack === false) {
			this.say(
				[
					`getUpdates still gets nothing: Rubika goes on sending this bot's updates to ${endpoint.host}, and none of the known ways removed it.`,
					'What you can do: if a Rubika Webhook Trigger receives this bot\'s updates, deactivate and activate its workflow (that',
					'registers n8n\'s address again). A polling Rubika Trigger gets nothing while an endpoint is registered; please attach',
					'this report to an issue so that we can find the way to undo it.',
				].join('\n'),
			);
		}
		this.say(
			`If a Rubika Webhook Trigger or another program received this bot's updates by webhook before, its address was replaced by ${endpoint.host}: register it again (in n8n: deactivate and activate that workflow).`,
		);
		return endpoint;
	}

	/** Asks for a message and says whether it arrived through getUpdates (null: the person did not say they sent it). */
	private async messageArrives(findings: InteractiveFindings, key: string): Promise<boolean | null> {
		this.ask(key, 'Send one more message in the chat, e.g. endpoint 2, then press Enter here.');
		const { outcome, updates } = await this.waitForPerson('sent');
		this.record(findings, { key }, outcome, updates);
		return outcome === 'arrived' ? true : outcome === 'sent, nothing arrived' ? false : null;
	}

	private ask(key: string, text: string): void {
		this.options.terminal.discardTyped();
		this.#step++;
		this.say(`\nStep ${this.#step} (${key}): ${text}`);
	}

	/**
	 * Reads getUpdates until the step is over. `answer`: a message from the person ends it (Enter skips);
	 * `collect`: everything until Enter; `sent`: a message from the person ends it, and once they press Enter
	 * (they have sent it) the probe looks for it for `graceMs` more. Typing quit stops the run.
	 */
	private async waitForPerson(mode: 'answer' | 'collect' | 'sent'): Promise<{ outcome: InteractiveStep['outcome']; updates: ChatUpdate[] }> {
		const { terminal, stepTimeoutMs, pollMs, graceMs } = this.options;
		const listening = new AbortController();
		const never = new Promise<undefined>(() => undefined);
		let typed: Promise<string | undefined> = terminal.canAsk ? terminal.nextLine(stepTimeoutMs, listening.signal) : never;
		let deadline = Date.now() + stepTimeoutMs;
		let sent = false;
		const updates: ChatUpdate[] = [];
		const fromPerson = () => updates.some((update) => messageOf(update)?.sender_type !== 'Bot' && messageOf(update) !== undefined);
		try {
			for (;;) {
				updates.push(...(await this.#watch.poll()));
				if (mode !== 'collect' && fromPerson()) {
					// Asked to press Enter once they had sent it, the person may do so after it arrived: take that Enter here.
					if (mode === 'sent' && !sent) await Promise.race([typed, sleep(graceMs)]);
					return { outcome: 'arrived', updates };
				}
				if (Date.now() >= deadline) return { outcome: sent ? 'sent, nothing arrived' : 'timeout', updates };
				const line = await Promise.race([typed, sleep(pollMs, null)]);
				if (line === null) continue;
				typed = never;
				if (line === undefined) continue;
				if (line.trim().toLowerCase() === 'quit') throw new Quit();
				if (mode === 'answer') return { outcome: 'skipped', updates };
				if (mode === 'collect') {
					// An answer given just before Enter may not have been read yet.
					updates.push(...(await this.#watch.poll()));
					return { outcome: 'done', updates };
				}
				sent = true;
				deadline = Math.min(deadline, Date.now() + graceMs);
			}
		} finally {
			listening.abort();
		}
	}

	/** Keeps what a step brought, masked (mask.ts), with its shape and where the probe's button id came back. */
	private record(
		findings: InteractiveFindings,
		step: Pick<InteractiveStep, 'key' | 'buttonType' | 'keypad'> & { buttonIds?: string[] },
		outcome: InteractiveStep['outcome'],
		updates: ChatUpdate[],
	): void {
		const { buttonIds = [], ...about } = step;
		const { value, paths } = masked(updates);
		const list = value as unknown[];
		const idPaths = updates.flatMap((update) => buttonIds.flatMap((id) => pathsHolding(update, id)));
		// Paths as within one update, like the shape's.
		const inOne = paths.map((path) => path.replace(/^\[\]\./, ''));
		this.say(`  → ${outcome}${updates.length > 0 ? ` (${updates.length} update${updates.length === 1 ? '' : 's'} recorded)` : ''}`);
		findings.steps.push({ ...about, outcome, updates: list, shape: elementShape(list), masked: [...new Set(inOne)], buttonIdAt: [...new Set(idPaths)] });
	}

	private summary(findings: InteractiveFindings): void {
		const lines = findings.steps.map((step) => `  ${step.key}: ${step.outcome}${step.updates.length > 0 ? ` (${step.updates.length} update${step.updates.length === 1 ? '' : 's'})` : ''}`);
		const text = findings.textLength;
		this.say(
			[
				'',
				'What the run recorded:',
				...lines,
				...(text ? [`  longest text: ${text.limit ?? `more than ${text.persian.longestAccepted}`} (${text.counts === 'unclear' ? 'unit unclear' : `counted in ${text.counts === 'utf16' ? 'UTF-16 units' : 'code points'}`})`] : []),
				...(findings.metadataParts ? [`  most formatting parts: ${findings.metadataParts.longestAccepted ?? 'none accepted'}`] : []),
				...(findings.mentionInPrivateChat ? [`  a mention in your private chat: ${findings.mentionInPrivateChat.accepted ? 'accepted' : 'refused'}`] : []),
				...(findings.endpoint ? [`  endpoint: stops getUpdates ${String(findings.endpoint.stopsPolling)}, removed by ${findings.endpoint.removedBy ?? 'no known way'}, getUpdates back ${String(findings.endpoint.pollingBack)}`] : []),
			].join('\n'),
		);
	}
}

/** `data.status` of an updateBotEndpoints answer (`Done`, `InvalidUrl`), when there is one. */
function endpointStatus(data: Record<string, unknown>): { endpointStatus?: string } {
	const status = textOf(data.status);
	return status === undefined ? {} : { endpointStatus: status };
}

function probeButtonId(type: string, where: 'chat' | 'inline' | 'alone'): string {
	return where === 'chat' ? `probe-${type}` : `probe-${where}-${type}`;
}

/** A button of `type` named after it, with its settings object built as the node's keypad builder builds it. */
function probeButton(type: string, where: 'chat' | 'inline' | 'alone'): Record<string, unknown> {
	const button: Record<string, unknown> = { id: probeButtonId(type, where), type, button_text: type };
	const fields = {
		Selection: { selectionSearch: 'None', selectionItems: 'یک\nدو\nسه', columns: 1, title: 'Selection' },
		Calendar: { calendarType: 'DatePersian', minYear: 1395, maxYear: 1415, title: 'Calendar' },
		NumberPicker: { minValue: 1, maxValue: 100, title: 'NumberPicker' },
		StringPicker: { choices: 'قرمز\nسبز\nآبی', title: 'StringPicker' },
		Textbox: { textboxLines: 'SingleLine', textboxKeypad: 'String', placeholderText: 'سلام', title: 'Textbox' },
		Location: { locationType: 'Picker', latitude: '35.6892', longitude: '51.3890', title: 'Location' },
	}[type];
	const key = buttonSettingsKey(type);
	if (fields && key) {
		button[key] = buttonSettings(type, fields, (message) => new InputError('probe keypad', message));
	}
	if (type === 'Link') button.button_link = { type: 'url', link_url: LINK_URL };
	return button;
}

/** Buttons two to a row. */
function pairs<T>(items: T[]): T[][] {
	return Array.from({ length: Math.ceil(items.length / 2) }, (_, index) => items.slice(index * 2, index * 2 + 2));
}

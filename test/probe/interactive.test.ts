/**
 * The interactive probe (probe/interactive.ts) against the sandbox, the person played by the test: it reads the
 * prompts from the probe's terminal output and does what they ask through the sandbox's actions (answering the
 * input buttons with answer-button), typing Enter or quit into its input. Each knob the run measures is played
 * both ways, and the sandbox loaded with an interactive report answers as it says.
 */
import { PassThrough } from 'node:stream';

import { streamTerminal } from '../../probe/terminal';
import { runInteractiveProbe } from '../../probe/run';
import type { RubikaSandbox, SandboxConfigPatch } from '../../sandbox';
import { DEMO_BOT_TOKEN, DEMO_GROUP_ID, DEMO_USERS } from '../../sandbox';
import type { InteractiveFindings, InteractiveStep, ProbeReport } from '../../sandbox/probeReport';
import { replayOptions } from '../../sandbox/replay';
import { useReceiver } from '../sandbox/helpers';
import { useSandbox, withSandbox } from '../support/sandbox';

const { sara } = DEMO_USERS;
const t = useSandbox();
const receiver = useReceiver();

/** Every knob the interactive run measures, as the sandbox has it by default. */
const DEFAULT_KNOBS: SandboxConfigPatch = {
	maxTextLength: 4096,
	textLengthUnit: 'codePoints',
	maxMetadataParts: 30,
	mentionsOutsideGroups: 'reject',
	inlineInputAnswers: 'inlineMessage',
	phoneAnswer: 'contactMessage',
	endpointStopsPolling: false,
	endpointRemoval: 'none',
};
/** Each of them the other way. */
const OTHER_KNOBS: SandboxConfigPatch = {
	maxTextLength: 1000,
	textLengthUnit: 'utf16',
	maxMetadataParts: 12,
	mentionsOutsideGroups: 'accept',
	inlineInputAnswers: 'newMessage',
	phoneAnswer: 'text',
	endpointStopsPolling: true,
	endpointRemoval: 'emptyUrl',
};

beforeEach(() => t.sandbox.configure(DEFAULT_KNOBS));

/** The person's own phone number and where they are: neither may reach the report. */
const PHONE = '+989127654321';
const PLACE = { latitude: '35.7219', longitude: '51.4215' };

type Reaction = (person: SimulatedPerson) => void;

/**
 * The person at the other end: agrees when asked (unless `agree` is false), then does each step the probe
 * names (`Step N (key): …`) as `reactions` say, by default what the prompt asks.
 */
class SimulatedPerson {
	readonly input = new PassThrough();
	readonly output = new PassThrough();
	transcript = '';
	readonly terminal;

	constructor(
		readonly sandbox: RubikaSandbox,
		private readonly reactions: Partial<Record<string, Reaction>> = {},
		options: { canAsk?: boolean; agree?: boolean } = {},
	) {
		this.terminal = streamTerminal(this.input, this.output, options.canAsk ?? true);
		this.output.on('data', (chunk: Buffer) => {
			const text = chunk.toString();
			this.transcript += text;
			if (text.includes('Type yes and Enter to start:')) this.type(options.agree === false ? 'no' : 'yes');
			for (const [, key] of text.matchAll(/^Step \d+ \(([\w-]+)\):/gm)) {
				// As a person would, after reading the prompt.
				setImmediate(() => (this.reactions[key] ?? DEFAULT_REACTIONS[key] ?? ((person) => person.type('')))(this));
			}
		});
	}

	type(line: string): void {
		this.input.write(`${line}\n`);
	}

	say(text: string): void {
		this.sandbox.userSendMessage({ userId: sara.user_id, text });
	}

	answer(buttonId: string, values: Record<string, unknown>, messageId?: string): void {
		this.sandbox.userAnswerButton({ userId: sara.user_id, buttonId, ...(messageId ? { messageId } : {}), ...values });
	}

	/** The probe's message with the inline keypad. */
	inlineMessageId(): string {
		return this.sandbox.messages(sara.chat_id).filter((message) => message.inline_keypad).at(-1)!.message_id;
	}
}

const DEFAULT_REACTIONS: Record<string, Reaction> = {
	hello: (person) => person.say('hello'),
	text: (person) => person.answer('probe-Textbox', { text: 'سلام' }),
	date: (person) => person.answer('probe-Calendar', { date: '1405-02-20' }),
	number: (person) => person.answer('probe-NumberPicker', { number: 42 }),
	item: (person) => person.answer('probe-StringPicker', { item: 'سبز' }),
	phoneNumber: (person) => person.answer('probe-AskMyPhoneNumber', { phoneNumber: PHONE }),
	location: (person) => person.answer('probe-AskMyLocation', { location: PLACE }),
	inline: (person) => {
		person.answer('probe-inline-Textbox', { text: 'زیر پیام' }, person.inlineMessageId());
		person.type('');
	},
	others: (person) => {
		person.sandbox.userTapChatKeypadButton({ userId: sara.user_id, buttonId: 'probe-Barcode' });
		person.type('');
	},
	'endpoint-registered': (person) => {
		person.say('endpoint 1');
		person.type('');
	},
};
for (const key of ['endpoint-removed-emptyUrl', 'endpoint-removed-nullUrl', 'endpoint-after-removal']) {
	DEFAULT_REACTIONS[key] = (person) => {
		person.say('endpoint 2');
		person.type('');
	};
}

/** Enter at every button step: for runs about something else. */
const SKIP_BUTTONS: Partial<Record<string, Reaction>> = Object.fromEntries(
	['text', 'date', 'number', 'item', 'phoneNumber', 'location', 'inline', 'others'].map((key) => [key, (person: SimulatedPerson) => person.type('')]),
);

async function probe(
	person: SimulatedPerson,
	options: { chatId?: string; yes?: boolean; endpointTestUrl?: string; stepTimeoutSeconds?: number } = {},
): Promise<ProbeReport> {
	const report = await runInteractiveProbe(
		{
			baseUrl: person.sandbox.baseUrl,
			chatId: options.chatId ?? sara.chat_id,
			unpinAll: false,
			getUpdates: false,
			setCommands: false,
			paceMs: 0,
			interactive: { stepTimeoutSeconds: options.stepTimeoutSeconds ?? 5, ...(options.endpointTestUrl ? { endpointTestUrl: options.endpointTestUrl } : {}) },
		},
		DEMO_BOT_TOKEN,
		{ terminal: person.terminal, yes: options.yes ?? false },
	);
	person.terminal.close();
	expect(JSON.stringify(report)).not.toContain(DEMO_BOT_TOKEN);
	return report;
}

function step(findings: InteractiveFindings | undefined, key: string): InteractiveStep {
	const found = findings?.steps.find((candidate) => candidate.key === key);
	if (!found) throw new Error(`no step ${key} in ${JSON.stringify(findings?.steps.map((candidate) => candidate.key))}`);
	return found;
}

/** What the probe leaves in the chat: no keypad, none of its messages; the person's own stay. */
function expectCleanedUp(sandbox: RubikaSandbox): void {
	expect(sandbox.chatKeypad(sara.chat_id)).toBeNull();
	expect(sandbox.messages(sara.chat_id).filter((message) => message.sender_type === 'Bot')).toEqual([]);
}

test('with the sandbox as it is by default, every input button is answered and recorded, masked, and the limits are the documented ones', async () => {
	const person = new SimulatedPerson(t.sandbox);
	const report = await probe(person);
	const found = report.interactive!;

	expect(report.stopped).toBeUndefined();
	expect(found).toMatchObject({ agreed: 'terminal', updatesArrive: true, buttonTypes: { refused: [] } });
	expect(found.steps.map((candidate) => [candidate.key, candidate.outcome])).toEqual([
		['hello', 'arrived'],
		['text', 'arrived'],
		['date', 'arrived'],
		['number', 'arrived'],
		['item', 'arrived'],
		['phoneNumber', 'arrived'],
		['location', 'arrived'],
		['inline', 'done'],
		['others', 'done'],
	]);
	expect(step(found, 'text')).toMatchObject({
		buttonType: 'Textbox',
		keypad: 'chat',
		buttonIdAt: ['new_message.aux_data.button_id'],
		updates: [{ type: 'NewMessage', new_message: { text: 'سلام', sender_id: sara.user_id, aux_data: { button_id: 'probe-Textbox' } } }],
	});
	expect(step(found, 'date').updates).toMatchObject([{ new_message: { text: '1405-02-20' } }]);
	expect(step(found, 'number').updates).toMatchObject([{ new_message: { text: '42' } }]);
	expect(step(found, 'item').updates).toMatchObject([{ new_message: { text: 'سبز' } }]);
	// The phone number and the place: their shape, never their digits.
	const phone = step(found, 'phoneNumber');
	expect(phone.updates).toMatchObject([{ new_message: { contact_message: { phone_number: '+000000000000', first_name: 'xxxx', last_name: 'xxxxxx' } } }]);
	expect(phone.shape).toMatchObject({ 'new_message.contact_message.phone_number': 'string', 'new_message.aux_data.button_id': 'string' });
	expect(phone.masked).toEqual(['new_message.contact_message.phone_number', 'new_message.contact_message.first_name', 'new_message.contact_message.last_name']);
	expect(step(found, 'location').updates).toMatchObject([{ new_message: { location: { latitude: '00.0000', longitude: '00.0000' } } }]);
	const text = JSON.stringify(report);
	for (const secret of [PHONE.slice(1), PHONE.slice(-7), PLACE.latitude, PLACE.longitude]) expect(text).not.toContain(secret);
	// An answer under the inline keypad goes to ReceiveInlineMessage only here: getUpdates saw nothing.
	expect(step(found, 'inline').updates).toEqual([]);
	expect(step(found, 'others').updates).toMatchObject([{ new_message: { text: 'Barcode', aux_data: { button_id: 'probe-Barcode' } } }]);

	expect(found.textLength).toMatchObject({ counts: 'codePoints', limit: 4096, persian: { longestAccepted: 4096, shortestRefused: 4097 } });
	expect(found.metadataParts).toMatchObject({ longestAccepted: 30, shortestRefused: 31 });
	expect(found.mentionInPrivateChat).toMatchObject({ accepted: false, answer: { status: 'INVALID_INPUT' } });
	// The believed limits were right, so each search took a couple of messages.
	expect(t.sandbox.requestsFor('sendMessage').length).toBeLessThan(15);
	expect(found.endpoint).toBeUndefined();
	expect(t.sandbox.requestsFor('updateBotEndpoints')).toHaveLength(0);
	expectCleanedUp(t.sandbox);
	expect(person.transcript).toContain('most formatting parts: 30');
});

test('with every knob the other way, the run finds each of them, and the sandbox loaded with its report answers so', async () => {
	t.sandbox.configure(OTHER_KNOBS);
	const report = await probe(new SimulatedPerson(t.sandbox), { endpointTestUrl: `${receiver.url}/throwaway`, stepTimeoutSeconds: 2 });
	const found = report.interactive!;

	expect(found.textLength).toMatchObject({ counts: 'utf16', limit: 1000, withEmoji: { longestAccepted: 667, longestAcceptedUtf16: 1000, shortestRefusedUtf16: 1002 } });
	expect(found.metadataParts).toMatchObject({ longestAccepted: 12, shortestRefused: 13 });
	expect(found.mentionInPrivateChat).toMatchObject({ accepted: true });
	expect(step(found, 'phoneNumber').updates).toMatchObject([{ new_message: { text: '+000000000000', aux_data: { button_id: 'probe-AskMyPhoneNumber' } } }]);
	expect(step(found, 'phoneNumber').masked).toEqual(['new_message.text']);
	expect(step(found, 'inline')).toMatchObject({
		outcome: 'done',
		updates: [{ new_message: { text: 'زیر پیام', aux_data: { button_id: 'probe-inline-Textbox' } } }],
		buttonIdAt: ['new_message.aux_data.button_id'],
	});
	expect(found.endpoint).toMatchObject({
		host: new URL(receiver.url).host,
		registered: { status: 'OK', endpointStatus: 'Done' },
		stopsPolling: true,
		removals: [{ way: 'emptyUrl', answer: { status: 'OK', endpointStatus: 'Done' }, pollingBack: true }],
		removedBy: 'emptyUrl',
		pollingBack: true,
	});
	expect(JSON.stringify(report)).not.toContain('/throwaway');
	expect(report.settings.interactive?.endpointTestUrl).toBe(`${receiver.url}/…`);
	expect(t.sandbox.endpoints()).toEqual([]);
	expectCleanedUp(t.sandbox);

	const replay = replayOptions(report);
	expect(replay.options).toMatchObject(OTHER_KNOBS);
	await withSandbox(replay.options, async (replaying) => {
		const again = await probe(new SimulatedPerson(replaying), { endpointTestUrl: `${receiver.url}/again`, stepTimeoutSeconds: 2 });
		expect(replayOptions(again).options).toMatchObject(OTHER_KNOBS);
	});
});

test('the report of a run on the sandbox as it is by default replays as that sandbox', async () => {
	const report = await probe(new SimulatedPerson(t.sandbox, SKIP_BUTTONS), { endpointTestUrl: `${receiver.url}/throwaway` });
	expect(report.interactive?.endpoint).toMatchObject({
		stopsPolling: false,
		removals: [
			{ way: 'emptyUrl', answer: { status: 'INVALID_INPUT' } },
			{ way: 'nullUrl', answer: { status: 'INVALID_INPUT' } },
		],
		pollingBack: true,
	});
	const { phoneAnswer, inlineInputAnswers, endpointRemoval, ...measured } = DEFAULT_KNOBS;
	const replay = replayOptions(report);
	expect(replay.options).toMatchObject(measured);
	// Skipped steps settle nothing: those knobs are left as they are.
	expect([replay.options.phoneAnswer, replay.options.inlineInputAnswers, replay.options.endpointRemoval]).toEqual([undefined, undefined, undefined]);
	expect([phoneAnswer, inlineInputAnswers, endpointRemoval]).toEqual(['contactMessage', 'inlineMessage', 'none']);
});

test('an endpoint that stops getUpdates and cannot be removed: the run tries each way, says what to do, and the report says so', async () => {
	t.sandbox.configure({ endpointStopsPolling: true, endpointRemoval: 'none' });
	const person = new SimulatedPerson(t.sandbox, SKIP_BUTTONS);
	const report = await probe(person, { endpointTestUrl: `${receiver.url}/throwaway`, stepTimeoutSeconds: 2 });
	expect(report.interactive?.endpoint).toMatchObject({
		stopsPolling: true,
		removals: [{ way: 'emptyUrl', answer: { status: 'INVALID_INPUT' } }, { way: 'nullUrl', answer: { status: 'INVALID_INPUT' } }],
		pollingBack: false,
	});
	expect(step(report.interactive, 'endpoint-registered').outcome).toBe('sent, nothing arrived');
	expect(person.transcript).toContain('getUpdates still gets nothing');
	expect(person.transcript).toContain('deactivate and activate');
	expect(replayOptions(report).options).toMatchObject({ endpointStopsPolling: true, endpointRemoval: 'none' });
});

test('nullUrl removes the endpoint after emptyUrl was refused', async () => {
	t.sandbox.configure({ endpointStopsPolling: true, endpointRemoval: 'nullUrl' });
	const report = await probe(new SimulatedPerson(t.sandbox, SKIP_BUTTONS), { endpointTestUrl: `${receiver.url}/throwaway`, stepTimeoutSeconds: 2 });
	expect(report.interactive?.endpoint).toMatchObject({
		stopsPolling: true,
		removals: [{ way: 'emptyUrl', answer: { status: 'INVALID_INPUT' } }, { way: 'nullUrl', answer: { endpointStatus: 'Done' }, pollingBack: true }],
		removedBy: 'nullUrl',
		pollingBack: true,
	});
	expect(replayOptions(report).options).toMatchObject({ endpointStopsPolling: true, endpointRemoval: 'nullUrl' });
});

test('nothing is read or sent until the person agrees: not without a terminal, not when they say no', async () => {
	for (const [person, reason] of [
		[new SimulatedPerson(t.sandbox, {}, { canAsk: false }), 'no terminal to agree at'],
		[new SimulatedPerson(t.sandbox, {}, { agree: false }), 'you did not agree'],
	] as const) {
		const report = await probe(person);
		expect(report.stopped).toContain(reason);
		expect(report.interactive).toBeUndefined();
		expect(person.transcript).toContain('stop every workflow');
		for (const method of ['getUpdates', 'sendMessage', 'editChatKeypad', 'updateBotEndpoints']) expect(t.sandbox.requestsFor(method)).toHaveLength(0);
	}
	// With --yes nothing is asked; without a terminal the steps still see the phone, and those that end with
	// Enter wait until their time is up.
	const report = await probe(new SimulatedPerson(t.sandbox, {}, { canAsk: false }), { yes: true, stepTimeoutSeconds: 1 });
	expect(report.interactive).toMatchObject({ agreed: '--yes', updatesArrive: true });
	expect([step(report.interactive, 'text').outcome, step(report.interactive, 'others').outcome]).toEqual(['arrived', 'timeout']);
});

test('not a private chat: the run stops before sending anything', async () => {
	const report = await probe(new SimulatedPerson(t.sandbox), { chatId: DEMO_GROUP_ID });
	expect(report.stopped).toContain('needs your private chat with the bot');
	expect(t.sandbox.requestsFor('sendMessage')).toHaveLength(0);
});

test('when getUpdates gets nothing (a registered endpoint stops it), the button steps are skipped and the limits still measured', async () => {
	t.sandbox.configure({ endpointStopsPolling: true });
	t.sandbox.state.requireBot(t.sandbox.bots()[0].bot_id).endpoints.set('ReceiveUpdate', { type: 'ReceiveUpdate', url: `${receiver.url}/real`, registeredAt: 0 });
	const person = new SimulatedPerson(t.sandbox);
	const report = await probe(person, { stepTimeoutSeconds: 1 });
	expect(report.interactive).toMatchObject({ updatesArrive: false, textLength: { limit: 4096 } });
	expect(report.interactive?.steps.map((candidate) => candidate.key)).toEqual(['hello']);
	expect(person.transcript).toContain('If a webhook is registered for this bot');
});

test('typing quit stops the run, and the keypad and the probe\'s messages are removed', async () => {
	const report = await probe(new SimulatedPerson(t.sandbox, { date: (person) => person.type('quit') }));
	expect(report.stopped).toBe('you typed quit');
	expect(report.interactive?.steps.map((candidate) => candidate.key)).toEqual(['hello', 'text']);
	expect(report.interactive?.textLength).toBeUndefined();
	expectCleanedUp(t.sandbox);
});

test('a message typed instead of an answer is recorded, and the replay does not take it for one', async () => {
	const report = await probe(
		new SimulatedPerson(t.sandbox, {
			phoneNumber: (person) => person.say('rather not'),
			inline: (person) => {
				person.say('where is it?');
				person.type('');
			},
		}),
	);
	expect(step(report.interactive, 'phoneNumber')).toMatchObject({ outcome: 'arrived', masked: [], buttonIdAt: [], updates: [{ new_message: { text: 'rather not' } }] });
	expect(step(report.interactive, 'inline')).toMatchObject({ buttonIdAt: [], updates: [{ new_message: { text: 'where is it?' } }] });
	const { options } = replayOptions(report);
	expect([options.phoneAnswer, options.inlineInputAnswers]).toEqual([undefined, undefined]);
});

/**
 * Each filter, on real updates from the sandbox, through n8n-core's poll context; and file downloads,
 * which must only ever happen for updates that passed the filters.
 */
import type { INodeParameters } from 'n8n-workflow';

import { DEMO_BOT_ID, DEMO_GROUP_ID } from '../../sandbox';
import { ali, copy, reza, sara, texts, useSandbox } from './helpers';
import type { Update } from '../../nodes/shared/types';
import { matchesFilters, parseUpdateFilters } from '../../nodes/shared/updates/filters';
import { updateToItem } from '../../nodes/shared/updates/item';

const t = useSandbox();

/** A harness that processes the backlog, so a test can act first and poll once. */
async function pollOnce(parameters: INodeParameters) {
	const harness = t.harness({ firstActivation: 'processBacklog', ...parameters });
	const result = await harness.tick();
	expect(result.error).toBeUndefined();
	return { harness, items: result.items };
}

describe('update types', () => {
	it('default: new messages only; edits, removals and start/stop are read past, not delivered', async () => {
		t.sandbox.userStartBot({ userId: sara.user_id, sendStartMessage: false });
		const message = t.sandbox.userSendMessage({ userId: sara.user_id, text: 'hello' });
		t.sandbox.userEditMessage({ userId: sara.user_id, chatId: sara.chat_id, messageId: message.message_id, text: 'hello!' });
		t.sandbox.userDeleteMessage({ userId: sara.user_id, chatId: sara.chat_id, messageId: message.message_id });
		t.sandbox.userStopBot({ userId: sara.user_id });
		const { harness, items } = await pollOnce({});
		expect(items.map((item) => [item.json.type, item.json.text])).toEqual([['NewMessage', 'hello']]);
		// The others were consumed: nothing comes back on the next poll.
		expect(await harness.tick()).toEqual({ items: [] });
	});

	it('edits and removals, shaped with the fields expressions need', async () => {
		const message = t.sandbox.userSendMessage({ userId: sara.user_id, text: 'draft' });
		t.sandbox.userEditMessage({ userId: sara.user_id, chatId: sara.chat_id, messageId: message.message_id, text: 'final' });
		t.sandbox.userDeleteMessage({ userId: sara.user_id, chatId: sara.chat_id, messageId: message.message_id });
		const { items } = await pollOnce({ updateTypes: ['UpdatedMessage', 'RemovedMessage'] });
		expect(items.map((item) => item.json)).toEqual([
			expect.objectContaining({ type: 'UpdatedMessage', chat_id: sara.chat_id, message_id: message.message_id, text: 'final', sender_id: sara.user_id }),
			expect.objectContaining({ type: 'RemovedMessage', chat_id: sara.chat_id, message_id: message.message_id, text: null }),
		]);
	});

	it('start → stop → start is three events; each is delivered once', async () => {
		const harness = t.harness({ firstActivation: 'processBacklog', updateTypes: ['StartedBot', 'StoppedBot'] });
		t.sandbox.userStartBot({ userId: reza.user_id, sendStartMessage: false });
		t.sandbox.userStopBot({ userId: reza.user_id });
		t.sandbox.userStartBot({ userId: reza.user_id, sendStartMessage: false });
		expect((await harness.tick()).items.map((item) => item.json.type)).toEqual(['StartedBot', 'StoppedBot', 'StartedBot']);
		t.sandbox.userStopBot({ userId: reza.user_id });
		expect((await harness.tick()).items.map((item) => item.json.type)).toEqual(['StoppedBot']);
	});

	it('an empty list means every type', async () => {
		t.sandbox.userStartBot({ userId: ali.user_id });
		const { items } = await pollOnce({ updateTypes: [] });
		expect(items.map((item) => item.json.type)).toEqual(['StartedBot', 'NewMessage']);
		expect(items[1].json).toMatchObject({ text: '/start', start_id: null });
	});
});

describe('filters', () => {
	it('chat IDs', async () => {
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'from sara' });
		t.sandbox.userSendMessage({ userId: reza.user_id, text: 'from reza' });
		t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'in the group' });
		const { items } = await pollOnce({ filters: { chatIds: `${reza.chat_id}, ${DEMO_GROUP_ID}` } });
		expect(texts(items)).toEqual(['from reza', 'in the group']);
	});

	it('sender IDs', async () => {
		t.sandbox.userSendMessage({ userId: sara.user_id, chatId: DEMO_GROUP_ID, text: 'sara in group' });
		t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'ali in group' });
		t.sandbox.userSendMessage({ userId: ali.user_id, text: 'ali private' });
		const { items } = await pollOnce({ filters: { senderIds: ali.user_id } });
		expect(texts(items)).toEqual(['ali in group', 'ali private']);
		expect(items.every((item) => item.json.sender_id === ali.user_id)).toBe(true);
	});

	it('only commands', async () => {
		for (const text of ['hello', '/help', ' /start now', 'not /a command', '/Settings@sandbox_demo_bot']) {
			t.sandbox.userSendMessage({ userId: sara.user_id, text });
		}
		const { items } = await pollOnce({ filters: { onlyCommands: true } });
		expect(texts(items)).toEqual(['/help', ' /start now', '/Settings@sandbox_demo_bot']);
	});

	it('a command list', async () => {
		for (const text of ['/start abc', '/HELP', '/other', 'start', '/starter']) {
			t.sandbox.userSendMessage({ userId: sara.user_id, text });
		}
		const { items } = await pollOnce({ filters: { commands: '/start, help' } });
		expect(texts(items)).toEqual(['/start abc', '/HELP']);
	});

	it('a text pattern, plain or /…/flags', async () => {
		for (const text of ['Order 12', 'order 7', 'my order 3', 'Order x']) {
			t.sandbox.userSendMessage({ userId: sara.user_id, text });
		}
		expect(texts((await pollOnce({ filters: { textPattern: '^Order \\d+$' } })).items)).toEqual(['Order 12']);
		t.sandbox.reset();
		for (const text of ['Order 12', 'order 7', 'my order 3', 'Order x']) {
			t.sandbox.userSendMessage({ userId: sara.user_id, text });
		}
		expect(texts((await pollOnce({ filters: { textPattern: '/^order \\d+$/i' } })).items)).toEqual(['Order 12', 'order 7']);
	});

	it('an invalid pattern fails the activation with a clear message, before any request', async () => {
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'hi' });
		const harness = t.harness({ filters: { textPattern: '(unclosed' } });
		const result = await harness.tick();
		// The same "<field>: <problem>" shape as every other node's input errors (one converter, shared/errors.ts).
		expect(result.error?.message).toMatch(/^Text Pattern: is not a valid regular expression/);
		expect((result.error as { description?: string } | undefined)?.description).toBe("Fix the filter in the trigger's Filters section.");
		expect(t.sandbox.requestsFor('getUpdates')).toHaveLength(0);
		expect(harness.nodeStaticData).toEqual({});
	});

	it('ignore messages from bots', async () => {
		const other = t.sandbox.addBot({ bot_title: 'Other bot' });
		t.sandbox.userSendMessage({ userId: sara.user_id, chatId: DEMO_GROUP_ID, text: 'a person' });
		// What the demo bot would receive if another bot posted in the group.
		t.sandbox.state.appendUpdate(t.sandbox.state.requireBot(DEMO_BOT_ID), {
			type: 'NewMessage',
			chat_id: DEMO_GROUP_ID,
			new_message: { message_id: '9000000000000000001', text: 'a bot', time: '1700000000', sender_type: 'Bot', sender_id: other.bot_id },
		});
		expect(texts((await pollOnce({ filters: { ignoreBots: true } })).items)).toEqual(['a person']);
		t.sandbox.reset();
		t.sandbox.state.appendUpdate(t.sandbox.state.requireBot(DEMO_BOT_ID), {
			type: 'NewMessage',
			chat_id: DEMO_GROUP_ID,
			new_message: { message_id: '9000000000000000001', text: 'a bot', time: '1700000000', sender_type: 'Bot', sender_id: other.bot_id },
		});
		expect(texts((await pollOnce({})).items)).toEqual(['a bot']);
	});

	it('filters combine: every filter set must pass', async () => {
		t.sandbox.userSendMessage({ userId: sara.user_id, chatId: DEMO_GROUP_ID, text: '/report 1' });
		t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: '/report 2' });
		t.sandbox.userSendMessage({ userId: ali.user_id, chatId: DEMO_GROUP_ID, text: 'report 3' });
		t.sandbox.userSendMessage({ userId: ali.user_id, text: '/report 4' });
		const { items } = await pollOnce({ filters: { chatIds: DEMO_GROUP_ID, senderIds: ali.user_id, commands: '/report' } });
		expect(texts(items)).toEqual(['/report 2']);
	});
});

describe('output item', () => {
	it('puts the fields at the top and keeps the raw update', async () => {
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'shape' });
		const raw = t.sandbox.updates().at(-1)!;
		const { items } = await pollOnce({});
		expect(items[0].json).toEqual({
			type: 'NewMessage',
			chat_id: sara.chat_id,
			message_id: raw.new_message!.message_id,
			text: 'shape',
			sender_id: sara.user_id,
			sender_type: 'User',
			button_id: null,
			start_id: null,
			file: null,
			time: raw.new_message!.time,
			time_iso: new Date(Number(raw.new_message!.time) * 1000).toISOString(),
			update_key: `NewMessage:${sara.chat_id}:${raw.new_message!.message_id}`,
			chat_type: 'private',
			content_kind: 'text',
			// What n8n's AI Agent and its chat memory read without mapping.
			chatInput: 'shape',
			sessionId: sara.chat_id,
			update: raw,
		});
	});
});

describe('download files', () => {
	it('downloads only for updates that passed the filters, into the chosen binary field', async () => {
		const wanted = t.sandbox.addFile({ bytes: Buffer.from('wanted bytes'), name: 'wanted.txt', mimeType: 'text/plain' });
		const other = t.sandbox.addFile({ bytes: Buffer.from('other bytes'), name: 'other.txt', mimeType: 'text/plain' });
		t.sandbox.userSendMessage({ userId: reza.user_id, fileId: other.file_id, text: 'not for us' });
		t.sandbox.userSendMessage({ userId: sara.user_id, fileId: wanted.file_id, text: 'for us' });
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'no file' });
		const { items } = await pollOnce({
			filters: { chatIds: sara.chat_id },
			options: { downloadFiles: true, binaryPropertyName: 'attachment' },
		});
		expect(texts(items)).toEqual(['for us', 'no file']);
		expect(items[0].binary?.attachment).toMatchObject({ fileName: 'wanted.txt', mimeType: 'text/plain' });
		expect(Buffer.from(items[0].binary!.attachment.data, 'base64').toString()).toBe('wanted bytes');
		expect(items[1].binary).toBeUndefined();
		// The filtered-out file was never asked for.
		expect(t.sandbox.requestsFor('getFile').map((entry) => (entry.body as { file_id: string }).file_id)).toEqual([wanted.file_id]);
		expect(t.sandbox.requestsFor('download')).toHaveLength(1);
	});

	it('without the option, nothing is downloaded and the file is described in `file`', async () => {
		const file = t.sandbox.addFile({ bytes: Buffer.from('x'), name: 'x.bin' });
		t.sandbox.userSendMessage({ userId: sara.user_id, fileId: file.file_id });
		const { items } = await pollOnce({});
		expect(items[0].json.file).toEqual({ file_id: file.file_id, file_name: 'x.bin', size: '1' });
		expect(items[0].binary).toBeUndefined();
		expect(t.sandbox.requestsFor('getFile')).toHaveLength(0);
	});

	it('a temporary download failure fails the poll without moving the cursor; the next poll delivers with the file', async () => {
		const file = t.sandbox.addFile({ bytes: Buffer.from('payload'), name: 'p.txt', mimeType: 'text/plain' });
		t.sandbox.userSendMessage({ userId: sara.user_id, text: 'before' });
		t.sandbox.userSendMessage({ userId: sara.user_id, fileId: file.file_id, text: 'with file' });
		const harness = t.harness({ firstActivation: 'processBacklog', options: { downloadFiles: true } });
		t.sandbox.injectFault({ kind: 'httpStatus', method: 'download', httpStatus: 503, times: -1 });
		const failed = await harness.tick();
		expect(failed.items).toEqual([]);
		expect(failed.error?.message).toMatch(/503/);
		expect(harness.nodeStaticData).toEqual({});

		t.sandbox.clearFaults();
		const retried = await harness.tick();
		expect(texts(retried.items)).toEqual(['before', 'with file']);
		expect(Buffer.from(retried.items[1].binary!.data.data, 'base64').toString()).toBe('payload');
	});

	it('a file Rubika no longer has does not hold up the trigger: the item says why', async () => {
		const file = t.sandbox.addFile({ bytes: Buffer.from('gone'), name: 'gone.txt' });
		t.sandbox.userSendMessage({ userId: sara.user_id, fileId: file.file_id, text: 'lost file' });
		t.sandbox.state.files.delete(file.file_id);
		const { harness, items } = await pollOnce({ options: { downloadFiles: true } });
		expect(items).toHaveLength(1);
		expect(items[0].binary).toBeUndefined();
		expect(items[0].json.file_error).toMatch(/INVALID_INPUT/);
		const saved = copy(harness.nodeStaticData);
		expect(await harness.tick()).toEqual({ items: [] });
		expect(harness.nodeStaticData.cursor).toEqual(saved.cursor);
	});
});

describe('button, chat type, content and age filters', () => {
	const item = (update: Record<string, unknown>) => updateToItem(update as unknown as Update);
	const message = (chat: string, fields: Record<string, unknown>) =>
		item({ type: 'NewMessage', chat_id: chat, new_message: { message_id: '1', time: String(Math.floor(Date.now() / 1000)), sender_type: 'User', sender_id: 'u0a', ...fields } });

	it('Button IDs keeps only taps on those buttons', () => {
		const filters = parseUpdateFilters([], { buttonIds: 'yes, no' });
		expect(matchesFilters(message('b0a', { text: 'Yes', aux_data: { button_id: 'yes' } }), filters)).toBe(true);
		expect(matchesFilters(message('b0a', { text: 'Maybe', aux_data: { button_id: 'maybe' } }), filters)).toBe(false);
		expect(matchesFilters(message('b0a', { text: 'typed' }), filters)).toBe(false);
	});

	it('Chat Types keeps private chats, groups or channels, told by the id\'s prefix', () => {
		const filters = parseUpdateFilters([], { chatTypes: ['group', 'channel'] });
		expect([message('g0x', { text: 'a' }), message('c0x', { text: 'b' }), message('b0x', { text: 'c' })].map((entry) => [entry.chat_type, matchesFilters(entry, filters)])).toEqual([
			['group', true],
			['channel', true],
			['private', false],
		]);
	});

	it('Content Types keeps messages with that content', () => {
		const filters = parseUpdateFilters([], { contentKinds: ['file', 'location'] });
		const kinds = [
			message('b0a', { text: 'hi' }),
			message('b0a', { file: { file_id: 'f', file_name: 'a.pdf' } }),
			message('b0a', { location: { latitude: '1', longitude: '2' } }),
			message('b0a', { contact_message: { phone_number: '1' } }),
			message('b0a', { poll: { question: 'q' } }),
			message('b0a', { sticker: { sticker_id: 's' } }),
		];
		expect(kinds.map((entry) => entry.content_kind)).toEqual(['text', 'file', 'location', 'contact', 'poll', 'sticker']);
		expect(kinds.map((entry) => matchesFilters(entry, filters))).toEqual([false, true, true, false, false, false]);
	});

	it('Ignore Updates Older Than drops what is older when read; what has no time passes', () => {
		const filters = parseUpdateFilters([], { maxAgeSeconds: 60 });
		const now = Date.now();
		const old = message('b0a', { text: 'old', time: String(Math.floor(now / 1000) - 3600) });
		expect(matchesFilters(old, filters, now)).toBe(false);
		expect(matchesFilters(message('b0a', { text: 'new' }), filters, now)).toBe(true);
		expect(matchesFilters(updateToItem({ chat_id: 'b0a', message_id: '1', sender_id: 'u0a', text: 'tap', aux_data: { button_id: 'x' } } as never), filters, now)).toBe(true);
	});

	it('refuses a chat type or content type it does not know, naming the field', () => {
		expect(() => parseUpdateFilters([], { chatTypes: ['supergroup'] })).toThrow(/"supergroup" is not one of private, group, channel/);
		expect(() => parseUpdateFilters([], { maxAgeSeconds: -1 })).toThrow(/must be 0 or more/);
	});
});

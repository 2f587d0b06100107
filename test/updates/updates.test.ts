/** The shared pure helpers both triggers use: item shape, identity, filters, the bounded key set. */
import type { IDataObject } from 'n8n-workflow';

import { InputError } from '../../nodes/shared/errors';
import type { InlineMessage, Update } from '../../nodes/shared/types';
import { matchesFilters, parseUpdateFilters } from '../../nodes/shared/updates/filters';
import { RecentKeys, hashKey, updateKey } from '../../nodes/shared/updates/identity';
import { updateToItem, webhookBodyToItem } from '../../nodes/shared/updates/item';

const message = (id: string, text: string, extra: IDataObject = {}) => ({
	message_id: id,
	text,
	time: '1643122902',
	sender_type: 'User' as const,
	sender_id: 'u0sender',
	...extra,
});

describe('updateToItem', () => {
	it('shapes an InlineMessage like an update, with type InlineMessage', () => {
		const inline: InlineMessage = {
			sender_id: 'u0a',
			text: 'Add Account',
			location: null,
			aux_data: { start_id: null, button_id: '100' },
			message_id: '555',
			chat_id: 'b0c',
		};
		expect(updateToItem(inline)).toEqual({
			type: 'InlineMessage',
			chat_id: 'b0c',
			message_id: '555',
			text: 'Add Account',
			sender_id: 'u0a',
			sender_type: null,
			button_id: '100',
			start_id: null,
			file: null,
			time_iso: null,
			time: null,
			update_key: expect.stringMatching(/^InlineMessage:b0c:555:u0a:100:/),
			chat_type: 'private',
			content_kind: 'text',
			chatInput: 'Add Account',
			sessionId: 'b0c',
			update: inline,
		});
		expect(webhookBodyToItem({ inline_message: inline })?.type).toBe('InlineMessage');
		expect(webhookBodyToItem({ update: { type: 'StartedBot', chat_id: 'b0c' } })?.type).toBe('StartedBot');
		expect(webhookBodyToItem({ something: 1 })).toBeUndefined();
	});

	it('keeps big numeric ids as strings and accepts numeric times', () => {
		const item = updateToItem({
			type: 'NewMessage',
			chat_id: 'b0c',
			new_message: message('204215121115944300', 'hi', { time: 1643122902 }),
		} as Update);
		expect(item.message_id).toBe('204215121115944300');
		expect(item.time).toBe(1643122902);
		expect(item.time_iso).toBe('2022-01-25T15:01:42.000Z');
	});

	it('never throws on sparse updates', () => {
		expect(updateToItem({ type: 'StartedBot', chat_id: 'b0c' } as Update)).toMatchObject({
			type: 'StartedBot',
			message_id: null,
			text: null,
			time: null,
			time_iso: null,
		});
		expect(updateToItem({ type: 'NewMessage', chat_id: 'b0c', new_message: null } as Update).text).toBeNull();
		expect(updateToItem({ type: 'NewMessage', chat_id: 'b0c', new_message: message('1', 'x', { time: 'soon' }) } as Update).time_iso).toBeNull();
	});
});

describe('updateKey', () => {
	it('is stable for a repeat and distinct between events', () => {
		const newMessage = { type: 'NewMessage', chat_id: 'b0c', new_message: message('1', 'a'), update_time: '10' } as Update;
		// The same message re-stamped is still the same event.
		expect(updateKey({ ...newMessage, update_time: '11' })).toBe(updateKey(newMessage));
		const edit1 = { type: 'UpdatedMessage', chat_id: 'b0c', updated_message: message('1', 'b') } as Update;
		const edit2 = { type: 'UpdatedMessage', chat_id: 'b0c', updated_message: message('1', 'c') } as Update;
		expect(updateKey(edit1)).not.toBe(updateKey(edit2));
		expect(updateKey(edit1)).toBe(updateKey(JSON.parse(JSON.stringify(edit1)) as Update));
		expect(updateKey({ type: 'RemovedMessage', chat_id: 'b0c', removed_message_id: '1' } as Update)).toBe('RemovedMessage:b0c:1');
		const paid = { type: 'UpdatedPayment', chat_id: 'b0c', updated_payment: { payment_id: 'p', status: 'Paid' } } as Update;
		const notPaid = { type: 'UpdatedPayment', chat_id: 'b0c', updated_payment: { payment_id: 'p', status: 'NotPaid' } } as Update;
		expect(updateKey(paid)).not.toBe(updateKey(notPaid));
		expect(updateKey({ type: 'StartedBot', chat_id: 'b0c', update_time: '5' } as Update)).toBe('StartedBot:b0c:t5');
	});
});

describe('RecentKeys', () => {
	it('is bounded, forgets the oldest first, and round-trips through static data', () => {
		const store: IDataObject = {};
		const recent = RecentKeys.load(store, 'keys', 3);
		for (const key of ['a', 'b', 'c', 'd']) recent.remember(key);
		expect(recent.has('a')).toBe(false);
		expect(['b', 'c', 'd'].every((key) => recent.has(key))).toBe(true);
		recent.save(store, 'keys');
		expect(store.keys).toEqual(['b', 'c', 'd'].map(hashKey));
		const again = RecentKeys.load(store, 'keys', 3);
		expect(again.has('d')).toBe(true);
		// A smaller capacity keeps the newest.
		expect(RecentKeys.load(store, 'keys', 1).toArray()).toEqual([hashKey('d')]);
		// Garbage in static data starts an empty set instead of failing the trigger.
		expect(RecentKeys.load({ keys: 'nope' }, 'keys').size).toBe(0);
	});

	it('a start forgets the stop of the same chat and time, and the other way round', () => {
		const recent = RecentKeys.load({}, 'k');
		recent.remember('StartedBot:b0c:t5');
		expect(recent.has('StartedBot:b0c:t5')).toBe(true);
		recent.remember('StoppedBot:b0c:t5');
		expect(recent.has('StartedBot:b0c:t5')).toBe(false);
		recent.observe('StartedBot:b0c:t5');
		expect(recent.has('StoppedBot:b0c:t5')).toBe(false);
	});

	it('stays small: 2,000 keys are well under 40 KB of JSON', () => {
		const recent = RecentKeys.load({}, 'k');
		for (let index = 0; index < 5000; index++) recent.remember(`NewMessage:b0${'x'.repeat(30)}:${1000000000000000000n + BigInt(index)}`);
		expect(recent.size).toBe(2000);
		expect(JSON.stringify(recent.toArray()).length).toBeLessThan(40_000);
	});

	it('hashes do not collide on near-identical keys', () => {
		const hashes = new Set<string>();
		for (let index = 0; index < 50_000; index++) hashes.add(hashKey(`NewMessage:b0chat:${index}`));
		expect(hashes.size).toBe(50_000);
	});
});

describe('filters', () => {
	const item = (text: string | null, extra: IDataObject = {}) =>
		updateToItem({ type: 'NewMessage', chat_id: 'b0c', new_message: message('1', text as string, extra) } as Update);

	it('parse lists from text or arrays', () => {
		const filters = parseUpdateFilters('NewMessage, StartedBot', { chatIds: 'b0a,\n b0b', senderIds: ['u0a', 'u0b'] as unknown as string });
		expect(filters).toMatchObject({ types: ['NewMessage', 'StartedBot'], chatIds: ['b0a', 'b0b'], senderIds: ['u0a', 'u0b'] });
	});

	it('reject a bad command or pattern with the field name', () => {
		expect(() => parseUpdateFilters([], { commands: '/ok, two words' })).not.toThrow();
		expect(() => parseUpdateFilters([], { commands: '/' })).toThrow(InputError);
		try {
			parseUpdateFilters([], { textPattern: '[' });
			throw new Error('no error');
		} catch (error) {
			expect(error).toBeInstanceOf(InputError);
			expect((error as InputError).field).toBe('Text Pattern');
		}
	});

	it('a /g pattern gives the same answer every time', () => {
		const filters = parseUpdateFilters([], { textPattern: '/a/g' });
		expect([1, 2, 3].map(() => matchesFilters(item('a'), filters))).toEqual([true, true, true]);
	});

	it('text filters never pass an update without text', () => {
		expect(matchesFilters(item(null), parseUpdateFilters([], { textPattern: '.*' }))).toBe(false);
		expect(matchesFilters(item(null), parseUpdateFilters([], { onlyCommands: true }))).toBe(false);
		expect(matchesFilters(item(null), parseUpdateFilters([], {}))).toBe(true);
	});

	it('a command is the first word after one slash, without @bot, in lower case', () => {
		const passes = (text: string, raw: Parameters<typeof parseUpdateFilters>[1]) => matchesFilters(item(text), parseUpdateFilters([], raw));
		expect(passes('/Start@my_bot deep', { commands: 'start' })).toBe(true);
		expect(passes('/help', { commands: 'help' })).toBe(true);
		expect(passes('/help', { commands: 'start' })).toBe(false);
		expect(['/', '//x', 'hi /x'].map((text) => passes(text, { onlyCommands: true }))).toEqual([false, false, false]);
	});
});

describe('button, chat type, content and age filters', () => {
	const itemOf = (update: Record<string, unknown>) => updateToItem(update as unknown as Update);
	const messageIn = (chat: string, fields: Record<string, unknown>) =>
		itemOf({ type: 'NewMessage', chat_id: chat, new_message: { message_id: '1', time: String(Math.floor(Date.now() / 1000)), sender_type: 'User', sender_id: 'u0a', ...fields } });

	it('Button IDs keeps only taps on those buttons', () => {
		const filters = parseUpdateFilters([], { buttonIds: 'yes, no' });
		expect(matchesFilters(messageIn('b0a', { text: 'Yes', aux_data: { button_id: 'yes' } }), filters)).toBe(true);
		expect(matchesFilters(messageIn('b0a', { text: 'Maybe', aux_data: { button_id: 'maybe' } }), filters)).toBe(false);
		expect(matchesFilters(messageIn('b0a', { text: 'typed' }), filters)).toBe(false);
	});

	it('Chat Types keeps private chats, groups or channels, told by the id\'s prefix', () => {
		const filters = parseUpdateFilters([], { chatTypes: ['group', 'channel'] });
		expect([messageIn('g0x', { text: 'a' }), messageIn('c0x', { text: 'b' }), messageIn('b0x', { text: 'c' })].map((entry) => [entry.chat_type, matchesFilters(entry, filters)])).toEqual([
			['group', true],
			['channel', true],
			['private', false],
		]);
	});

	it('Content Types keeps messages with that content', () => {
		const filters = parseUpdateFilters([], { contentKinds: ['file', 'location'] });
		const kinds = [
			messageIn('b0a', { text: 'hi' }),
			messageIn('b0a', { file: { file_id: 'f', file_name: 'a.pdf' } }),
			messageIn('b0a', { location: { latitude: '1', longitude: '2' } }),
			messageIn('b0a', { contact_message: { phone_number: '1' } }),
			messageIn('b0a', { poll: { question: 'q' } }),
			messageIn('b0a', { sticker: { sticker_id: 's' } }),
		];
		expect(kinds.map((entry) => entry.content_kind)).toEqual(['text', 'file', 'location', 'contact', 'poll', 'sticker']);
		expect(kinds.map((entry) => matchesFilters(entry, filters))).toEqual([false, true, true, false, false, false]);
	});

	it('Ignore Updates Older Than drops what is older when read; what has no time passes', () => {
		const filters = parseUpdateFilters([], { maxAgeSeconds: 60 });
		const now = Date.now();
		const old = messageIn('b0a', { text: 'old', time: String(Math.floor(now / 1000) - 3600) });
		expect(matchesFilters(old, filters, now)).toBe(false);
		expect(matchesFilters(messageIn('b0a', { text: 'new' }), filters, now)).toBe(true);
		expect(matchesFilters(updateToItem({ chat_id: 'b0a', message_id: '1', sender_id: 'u0a', text: 'tap', aux_data: { button_id: 'x' } } as never), filters, now)).toBe(true);
	});

	it('refuses a chat type or content type it does not know, naming the field', () => {
		expect(() => parseUpdateFilters([], { chatTypes: ['supergroup'] })).toThrow(/"supergroup" is not one of private, group, channel/);
		expect(() => parseUpdateFilters([], { maxAgeSeconds: -1 })).toThrow(/must be 0 or more/);
	});
});

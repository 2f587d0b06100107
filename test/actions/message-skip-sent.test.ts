/**
 * Send Options → Skip Chats Already Sent (Campaign ID), through n8n-core's engine against the sandbox, with
 * n8n's processed-items store played by tooling/harness/processedItems.ts (n8n's semantics, races included):
 * re-running a broadcast sends only what is missing, failed sends stay unrecorded, parallel requests and
 * concurrent executions lose no entry, and a store that fails stops the broadcast.
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { Rubika } from '../../nodes/Rubika/Rubika.node';
import { RESOURCES } from '../../nodes/Rubika/actions';
import { MAX_RECORDED_CHATS } from '../../nodes/Rubika/sentRecord';
import { DEMO_BOT_ID, DEMO_GROUP_ID, DEMO_STICKERS, DEMO_USERS } from '../../sandbox';
import { HARNESS_WORKFLOW_ID, NODE_UNDER_TEST_ID } from '../../tooling/harness/n8n';
import type { NodeRunResult } from '../../tooling/harness/n8n';
import { InMemoryProcessedItems, useProcessedItemsStore } from '../../tooling/harness/processedItems';
import { jsonOf, pairingOf, useActionSandbox } from './helpers';

const t = useActionSandbox('message');
const NODE_CONTEXT = `n:${NODE_UNDER_TEST_ID}`;
const FIELD = 'Skip Chats Already Sent (Campaign ID)';
let store: InMemoryProcessedItems;

beforeAll(async () => {
	store = await useProcessedItemsStore();
});
beforeEach(() => {
	store.clear();
});

/** `count` new users, each with a private chat with the demo bot. */
function recipients(count: number): string[] {
	return Array.from({ length: count }, (_, index) => {
		const user = t.sandbox.addUser({ first_name: `Recipient ${index + 1}` });
		return t.sandbox.privateChat(DEMO_BOT_ID, user.user_id).chat_id;
	});
}

/** Send Text to every chat (one item each) under `campaign`. */
async function broadcast(
	chatIds: string[],
	campaign: unknown,
	options: { concurrency?: number; continueOnFail?: boolean; parameters?: INodeParameters } = {},
): Promise<NodeRunResult> {
	return await t.run(
		{
			operation: 'sendMessage',
			chatId: '={{ $json.chat_id }}',
			text: 'News',
			sendOptions: { campaignId: campaign as string },
			requestOptions: { concurrency: options.concurrency ?? 1 },
			...options.parameters,
		},
		chatIds.map((chatId) => ({ json: { chat_id: chatId } })),
		{ continueOnFail: options.continueOnFail },
	);
}

/** How many messages each chat holds, in the order given. */
const messageCounts = (chatIds: string[]) => chatIds.map((chatId) => t.sandbox.messages(chatId).length);
const recorded = (campaign: string, chatId: string) => store.has(HARNESS_WORKFLOW_ID, NODE_CONTEXT, `${campaign}\u0000${chatId}`);
const recordedChats = (campaign: string, chatIds: string[]) => chatIds.filter((chatId) => recorded(campaign, chatId));
const sentTo = () => t.sandbox.requestsFor('sendMessage').map((entry) => (entry.body as IDataObject).chat_id);
const skippedItem = (chatId: string, campaign: string, index: number) => ({
	json: { chat_id: chatId, campaign, skipped: true, reason: `already sent in campaign ${campaign}` },
	pairedItem: { item: index },
});

describe('re-running a broadcast', () => {
	test('the first run sends to every chat and records each; a second run with the same campaign sends nothing', async () => {
		const chatIds = recipients(6);
		const first = await broadcast(chatIds, 'spring-sale');
		expect(first.error).toBeUndefined();
		expect(messageCounts(chatIds)).toEqual([1, 1, 1, 1, 1, 1]);
		expect(recordedChats('spring-sale', chatIds)).toEqual(chatIds);
		expect(store.entries(HARNESS_WORKFLOW_ID, NODE_CONTEXT)).toHaveLength(6);
		expect(jsonOf(first).map((json) => json.chat_id)).toEqual(chatIds);
		// The check (record, then remove what was new), then the recording, which keeps at most the limit.
		expect(store.calls.slice(0, 3).map(({ method, scope, options }) => [method, scope, options])).toEqual([
			['checkProcessedAndRecord', 'node', { mode: 'entries' }],
			['removeProcessed', 'node', { mode: 'entries' }],
			['checkProcessedAndRecord', 'node', { mode: 'entries', maxEntries: MAX_RECORDED_CHATS }],
		]);

		t.sandbox.clearRequests();
		const second = await broadcast(chatIds, 'spring-sale');
		expect(second.error).toBeUndefined();
		expect(t.sandbox.requests).toEqual([]);
		expect(messageCounts(chatIds)).toEqual([1, 1, 1, 1, 1, 1]);
		expect(second.items).toEqual(chatIds.map((chatId, index) => skippedItem(chatId, 'spring-sale', index)));
		// The check recorded nothing new for good: the row holds the same six entries.
		expect(store.entries(HARNESS_WORKFLOW_ID, NODE_CONTEXT)).toHaveLength(6);
	});

	test('sends that failed (Continue On Fail) are not recorded, and the re-run sends exactly those', async () => {
		const chatIds = recipients(6);
		t.sandbox.injectFault({ kind: 'status', method: 'sendMessage', status: 'INVALID_ACCESS', devMessage: 'blocked', skip: 2, times: 2 });
		const first = await broadcast(chatIds, 'launch', { continueOnFail: true });
		expect(first.error).toBeUndefined();
		expect(jsonOf(first).map((json) => (json.error ? 'failed' : 'sent'))).toEqual(['sent', 'sent', 'failed', 'failed', 'sent', 'sent']);
		expect(messageCounts(chatIds)).toEqual([1, 1, 0, 0, 1, 1]);
		expect(recordedChats('launch', chatIds)).toEqual([chatIds[0], chatIds[1], chatIds[4], chatIds[5]]);

		t.sandbox.clearRequests();
		const rerun = await broadcast(chatIds, 'launch');
		expect(rerun.error).toBeUndefined();
		expect(sentTo()).toEqual([chatIds[2], chatIds[3]]);
		expect(messageCounts(chatIds)).toEqual([1, 1, 1, 1, 1, 1]);
		expect(jsonOf(rerun).map((json) => json.skipped ?? false)).toEqual([true, true, false, false, true, true]);
		expect(pairingOf(rerun)).toEqual(chatIds.map((_, item) => ({ item })));
		expect(recordedChats('launch', chatIds)).toEqual(chatIds);
	});

	test('when a send stops the node, what was delivered before is recorded and the re-run sends the rest', async () => {
		const chatIds = recipients(6);
		t.sandbox.injectFault({ kind: 'status', method: 'sendMessage', status: 'INVALID_ACCESS', devMessage: 'blocked', skip: 3 });
		const first = await broadcast(chatIds, 'launch');
		expect(first.error?.message).toBe('Rubika sendMessage failed: INVALID_ACCESS – blocked');
		expect(messageCounts(chatIds)).toEqual([1, 1, 1, 0, 0, 0]);
		expect(recordedChats('launch', chatIds)).toEqual(chatIds.slice(0, 3));

		t.sandbox.clearRequests();
		const rerun = await broadcast(chatIds, 'launch');
		expect(rerun.error).toBeUndefined();
		expect(sentTo()).toEqual(chatIds.slice(3));
		expect(messageCounts(chatIds)).toEqual([1, 1, 1, 1, 1, 1]);
	});

	test('another campaign ID sends again; each campaign keeps its own record', async () => {
		const chatIds = recipients(3);
		await broadcast(chatIds, 'week-1');
		const next = await broadcast(chatIds, 'week-2');
		expect(next.error).toBeUndefined();
		expect(messageCounts(chatIds)).toEqual([2, 2, 2]);
		expect(jsonOf(next).every((json) => json.skipped === undefined)).toBe(true);
		expect(recordedChats('week-1', chatIds)).toEqual(chatIds);
		expect(recordedChats('week-2', chatIds)).toEqual(chatIds);
	});

	test('the campaign is read per item (expressions), trimmed, and a number counts as its text', async () => {
		const chatIds = recipients(2);
		await broadcast(chatIds, 42);
		expect(recordedChats('42', chatIds)).toEqual(chatIds);
		t.sandbox.clearRequests();
		const result = await t.run(
			{ operation: 'sendMessage', chatId: '={{ $json.chat_id }}', text: 'News', sendOptions: { campaignId: '={{ $json.campaign }}' } },
			[
				{ json: { chat_id: chatIds[0], campaign: ' 42 ' } },
				{ json: { chat_id: chatIds[1], campaign: 'other' } },
			],
		);
		expect(result.error).toBeUndefined();
		expect(sentTo()).toEqual([chatIds[1]]);
		expect(result.items[0]).toEqual(skippedItem(chatIds[0], '42', 0));
	});

	test('left empty (or only spaces), every item is sent and the store is never called', async () => {
		const chatIds = recipients(3);
		await broadcast(chatIds, '');
		await broadcast(chatIds, '   ');
		await t.run({ operation: 'sendMessage', chatId: '={{ $json.chat_id }}', text: 'No options' }, [{ json: { chat_id: chatIds[0] } }]);
		expect(messageCounts(chatIds)).toEqual([3, 2, 2]);
		expect(store.calls).toEqual([]);
	});

	test('the same chat twice in one run under one campaign gets one message; the repeat says which item sent it', async () => {
		const [first, second] = recipients(2);
		const result = await broadcast([first, second, first], 'once');
		expect(result.error).toBeUndefined();
		expect(messageCounts([first, second])).toEqual([1, 1]);
		expect(result.items[2]).toEqual({
			json: { chat_id: first, campaign: 'once', skipped: true, reason: 'same chat as item 0 in campaign once' },
			pairedItem: { item: 2 },
		});
		// The check asks about each chat once.
		expect(store.calls[0].items).toEqual([`once\u0000${first}`, `once\u0000${second}`]);
	});
});

describe('recording under concurrency', () => {
	test('Parallel Requests 5 over 50 chats: all 50 recorded, one store call at a time, and a re-run sends nothing', async () => {
		const chatIds = recipients(50);
		const result = await broadcast(chatIds, 'big', { concurrency: 5 });
		expect(result.error).toBeUndefined();
		expect(messageCounts(chatIds)).toEqual(chatIds.map(() => 1));
		expect(recordedChats('big', chatIds)).toEqual(chatIds);
		expect(store.maxInFlight).toBe(1);
		// Deliveries are recorded in batches while the broadcast goes on, not one call per message.
		const recordingCalls = store.calls.slice(2).filter((call) => call.method === 'checkProcessedAndRecord');
		expect(recordingCalls.length).toBeGreaterThan(1);
		expect(recordingCalls.length).toBeLessThanOrEqual(50);

		t.sandbox.clearRequests();
		const rerun = await broadcast(chatIds, 'big', { concurrency: 5 });
		expect(rerun.error).toBeUndefined();
		expect(t.sandbox.requests).toEqual([]);
	});

	test('two executions of the workflow at once, same campaign, disjoint halves: every chat recorded', async () => {
		const chatIds = recipients(40);
		const [left, right] = await Promise.all([
			broadcast(chatIds.slice(0, 20), 'halves', { concurrency: 5 }),
			broadcast(chatIds.slice(20), 'halves', { concurrency: 5 }),
		]);
		expect(left.error).toBeUndefined();
		expect(right.error).toBeUndefined();
		expect(messageCounts(chatIds)).toEqual(chatIds.map(() => 1));
		expect(recordedChats('halves', chatIds)).toEqual(chatIds);
		// Both executions run in this process: their calls on the shared row took turns.
		expect(store.maxInFlight).toBe(1);

		t.sandbox.clearRequests();
		expect((await broadcast(chatIds, 'halves', { concurrency: 5 })).error).toBeUndefined();
		expect(t.sandbox.requests).toEqual([]);
	});

	test('entries that another process overwrote during the broadcast are written again by the next recording', async () => {
		const chatIds = recipients(8);
		const foreign = InMemoryProcessedItems.hash(`other-worker\u0000b0Foreign`);
		let overwritten = false;
		store.afterWrite = async (call, index) => {
			// The first recording after the check (calls 0 and 1) holds on until five more messages went out,
			// then another worker that read the row before that recording writes back its own version.
			if (overwritten || index < 2 || call.method !== 'checkProcessedAndRecord') return;
			overwritten = true;
			await t.sandbox.waitForRequest('sendMessage', { count: 6 });
			expect(recorded('repair', chatIds[0])).toBe(true);
			store.setRow(HARNESS_WORKFLOW_ID, NODE_CONTEXT, [foreign]);
		};
		const result = await broadcast(chatIds, 'repair');
		expect(result.error).toBeUndefined();
		expect(overwritten).toBe(true);
		expect(recordedChats('repair', chatIds)).toEqual(chatIds);
		expect(store.entries(HARNESS_WORKFLOW_ID, NODE_CONTEXT)).toContain(foreign);
	});
});

describe('when the store fails', () => {
	test('before sending: nothing is sent, and the error says why', async () => {
		const chatIds = recipients(3);
		store.failWith = () => new Error('connection refused');
		const result = await broadcast(chatIds, 'down');
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(`${FIELD}: could not read the chats already sent from n8n's database: connection refused`);
		expect(t.sandbox.requests).toEqual([]);
	});

	test('during the broadcast: sending stops, the delivered chats are recorded at the end, the re-run sends the rest', async () => {
		const chatIds = recipients(6);
		// Calls 0 and 1 are the check; the first recording fails, the final one works again.
		store.failWith = (_call, index) => (index === 2 ? new Error('deadlock detected') : undefined);
		const result = await broadcast(chatIds, 'flaky');
		expect(result.error?.message).toBe(`${FIELD}: could not record deliveries in n8n's database, so sending stopped: deadlock detected`);
		expect((result.error as { description?: string }).description).toBe(
			'Every chat delivered before sending stopped is recorded: re-running the workflow sends only to the others.',
		);
		const delivered = chatIds.filter((chatId) => t.sandbox.messages(chatId).length === 1);
		expect(delivered.length).toBeGreaterThan(0);
		expect(delivered.length).toBeLessThan(6);
		expect(recordedChats('flaky', chatIds)).toEqual(delivered);

		t.sandbox.clearRequests();
		expect((await broadcast(chatIds, 'flaky')).error).toBeUndefined();
		expect(sentTo()).toEqual(chatIds.filter((chatId) => !delivered.includes(chatId)));
		expect(messageCounts(chatIds)).toEqual(chatIds.map(() => 1));
	});
});

describe('input', () => {
	test('a campaign that is not text fails naming the field and the item; nothing is sent for it', async () => {
		const chatIds = recipients(2);
		const parameters = { campaignId: '={{ $json.campaign }}' };
		const items = [{ json: { chat_id: chatIds[0], campaign: 'ok' } }, { json: { chat_id: chatIds[1], campaign: { id: 1 } } }];
		const run = (continueOnFail: boolean) =>
			t.run({ operation: 'sendMessage', chatId: '={{ $json.chat_id }}', text: 'News', sendOptions: parameters }, items, { continueOnFail });

		const failed = await run(false);
		expect(failed.error?.message).toBe(`${FIELD}: must be text, got object [item 1]`);
		expect(messageCounts(chatIds)).toEqual([1, 0]);

		const continued = await run(true);
		expect(jsonOf(continued)).toEqual([
			{ chat_id: chatIds[0], campaign: 'ok', skipped: true, reason: 'already sent in campaign ok' },
			{ error: `${FIELD}: must be text, got object [item 1]` },
		]);
		expect(messageCounts(chatIds)).toEqual([1, 0]);
	});

	test('a chat ID that cannot be read fails as without the option, and the other items are checked and sent', async () => {
		const chatIds = recipients(2);
		const result = await broadcast([chatIds[0], '', chatIds[1]], 'gaps', { continueOnFail: true });
		expect(jsonOf(result)[1]).toEqual({ error: 'Chat ID: is required [item 1]' });
		expect(recordedChats('gaps', chatIds)).toEqual(chatIds);
		expect(store.calls[0].items).toEqual([`gaps\u0000${chatIds[0]}`, `gaps\u0000${chatIds[1]}`]);
	});
});

describe('every send operation', () => {
	const chat = DEMO_USERS.sara.chat_id;
	const operations = RESOURCES.flatMap((resource) => resource.operations);
	const valuesOf = (list: typeof operations) => list.map((operation) => operation.value).sort();
	/** The send operations: those with Send Options, but for Send and Wait, which sends once per execution. */
	const sends = valuesOf(operations.filter((operation) => !operation.waitsForResponse && operation.properties.some((property) => property.name === 'sendOptions')));
	/**
	 * The smallest input of each send operation, the method it calls and the chat it delivers to. The input
	 * item carries the `message_id` of a message sent to Sara before, for Forward. Not derivable from the
	 * registry: a new send operation adds its line here, and the test below fails until it does.
	 */
	const SMALLEST_SENDS: Record<string, () => { method: string; parameters: INodeParameters; chatId: string }> = {
		sendMessage: () => ({ method: 'sendMessage', parameters: { chatId: chat, text: 'Hi' }, chatId: chat }),
		sendPoll: () => ({
			method: 'sendPoll',
			parameters: { chatId: chat, question: 'Lunch?', pollOptions: { option: [{ text: 'Pizza' }, { text: 'Salad' }] } },
			chatId: chat,
		}),
		sendLocation: () => ({ method: 'sendLocation', parameters: { chatId: chat, latitude: '35.6892', longitude: '51.3890' }, chatId: chat }),
		sendContact: () => ({ method: 'sendContact', parameters: { chatId: chat, firstName: 'Reza', phoneNumber: '+989121234567' }, chatId: chat }),
		sendSticker: () => ({ method: 'sendSticker', parameters: { chatId: chat, stickerId: DEMO_STICKERS.like.sticker_id }, chatId: chat }),
		// A file already in Rubika, so nothing is uploaded.
		sendFile: () => {
			const file = t.sandbox.addFile({ bytes: Buffer.from('%PDF menu'), name: 'menu.pdf', mimeType: 'application/pdf' });
			return { method: 'sendFile', parameters: { chatId: chat, fileSource: 'fileId', fileId: file.file_id }, chatId: chat };
		},
		forwardMessage: () => ({
			method: 'forwardMessage',
			parameters: { fromChatId: chat, messageId: '={{ $json.message_id }}', toChatId: DEMO_GROUP_ID },
			chatId: DEMO_GROUP_ID,
		}),
	};

	test.each(sends)('%s skips the chat it delivered to on a re-run', async (operation) => {
		expect({ operation, smallestInput: operation in SMALLEST_SENDS }).toEqual({ operation, smallestInput: true });
		const { method, parameters, chatId } = SMALLEST_SENDS[operation]();
		const original = await t.run({ operation: 'sendMessage', chatId: chat, text: 'to forward' });
		const item = { json: { message_id: original.items[0].json.message_id } };
		t.sandbox.clearRequests();
		const run = async () => await t.run({ operation, ...parameters, sendOptions: { campaignId: 'c1' } }, [item]);
		expect((await run()).error).toBeUndefined();
		const second = await run();
		expect(t.sandbox.requestsFor(method)).toHaveLength(1);
		expect(second.items).toEqual([skippedItem(chatId, 'c1', 0)]);
	});

	test('Send and Wait for Response neither offers nor uses it', async () => {
		const result = await t.run({ operation: 'sendAndWait', chatId: chat, message: 'Publish?', sendOptions: { campaignId: 'c1' } });
		expect(result.error).toBeUndefined();
		expect(t.sandbox.requestsFor('sendMessage')).toHaveLength(1);
		expect(store.calls).toEqual([]);
	});

	test('the option is offered exactly by the send operations, each with the chat it delivers to (recipient), never by Send and Wait', () => {
		const properties = new Rubika().description.properties;
		const offering = properties
			.filter((property) => property.name === 'sendOptions')
			.filter((property) => (property.options as INodeProperties[]).some((option) => option.name === 'campaignId'))
			.flatMap((property) => property.displayOptions?.show?.operation as string[])
			.sort();
		expect(offering).toEqual(sends);
		expect(valuesOf(operations.filter((operation) => operation.recipient))).toEqual(sends);
		expect(sends).toContain('sendMessage');
		// An operation that lost its recipient would otherwise drop out of the re-run test above unnoticed.
		expect(Object.keys(SMALLEST_SENDS).sort()).toEqual(sends);
		const sendOptionsOf = (operation: string) =>
			properties.find((property) => property.name === 'sendOptions' && property.displayOptions?.show?.operation?.includes(operation));
		expect((sendOptionsOf('sendAndWait')?.options as INodeProperties[]).map((option) => option.name)).toEqual([
			'disableNotification',
			'replyToMessageId',
		]);
	});
});

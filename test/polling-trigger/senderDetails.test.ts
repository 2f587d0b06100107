/**
 * Options → Add Sender Details on the polling trigger (Rubika Trigger v1), which shows the option list the
 * continuous trigger shows: the same fields, remembered across polls (in the process's memory, per bot).
 * Each test has users of its own, since what one test's polls remember stays for the next test of the file.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEMO_BOT_ID } from '../../sandbox';
import { useSandbox } from './helpers';

const t = useSandbox();

const withDetails = { updateTypes: ['NewMessage'], firstActivation: 'processBacklog', options: { addSenderDetails: true } };

const getChatAsked = () => t.sandbox.requestsFor('getChat').map((entry) => (entry.body as IDataObject).chat_id);

/** A new user with a private chat with the demo bot. */
function newUser(first_name: string, last_name?: string) {
	const user = t.sandbox.addUser({ first_name, last_name });
	const chat = t.sandbox.privateChat(DEMO_BOT_ID, user.user_id);
	return { ...user, chat_id: chat.chat_id };
}

test('fills the sender\'s names, asking once per sender across polls', async () => {
	const mina = newUser('Mina', 'Ahmadi');
	const omid = newUser('Omid');
	const harness = t.harness(withDetails);
	t.sandbox.userSendMessage({ userId: mina.user_id, text: 'a' });
	t.sandbox.userSendMessage({ userId: omid.user_id, text: 'b' });
	const first = await harness.drain();
	t.sandbox.userSendMessage({ userId: mina.user_id, text: 'c' });
	const second = await harness.drain();

	expect([...first, ...second].map((item) => [item.json.text, (item.json.sender as IDataObject).full_name])).toEqual([
		['a', 'Mina Ahmadi'],
		['b', 'Omid'],
		['c', 'Mina Ahmadi'],
	]);
	expect(getChatAsked()).toEqual([mina.chat_id, omid.chat_id]);
});

test('Fetch Test Event fills the sender too; a failed lookup leaves the item without details', async () => {
	const nika = newUser('Nika');
	t.sandbox.injectFault({ kind: 'status', method: 'getChat', status: 'INVALID_ACCESS' });
	t.sandbox.userSendMessage({ userId: nika.user_id, text: 'sample' });
	const result = await t.harness(withDetails).manual();
	expect(result?.[0][0].json).toMatchObject({ text: 'sample', sender: null, sender_details_error: expect.stringContaining('INVALID_ACCESS') });
	expect(getChatAsked()).toEqual([nika.chat_id]);
});

test('off (the default): no lookup, and the item has no sender field', async () => {
	const harness = t.harness({ updateTypes: ['NewMessage'], firstActivation: 'processBacklog' });
	t.sandbox.userSendMessage({ userId: newUser('Tara').user_id, text: 'plain' });
	const [item] = await harness.drain();
	expect(item.json).not.toHaveProperty('sender');
	expect(getChatAsked()).toEqual([]);
});

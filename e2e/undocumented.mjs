#!/usr/bin/env node
// The operations whose methods only Rubika's client libraries know, in a real n8n with `n8n execute`: one
// workflow sends a text to the group, pins it, reads a member, the administrators and the member count,
// unpins, sends a sticker and a quiz; the sandbox's state and the requests are checked. Then the sandbox
// plays a Rubika without pinChatMessage and the pin workflow must fail with "Rubika does not know the method".
//
//   node e2e/undocumented.mjs [--version 2.8.4] [--no-build] [--keep]
import { isMain, runStandalone } from './lib/reporter.mjs';
import { linearWorkflow, manualTrigger, rubika } from '../tooling/workflow-builder.mjs';

const CHAIN_ID = 'e2eUndocumented1';
const PIN_ID = 'e2ePinOnlyWorkf1';

export const test = {
	name: 'undocumented',
	workflows(demo) {
		const group = demo.groupId;
		const sticker = Object.values(demo.stickers ?? {})[0]?.sticker_id ?? 'missing-sticker';
		const chain = linearWorkflow(CHAIN_ID, 'E2E: methods beyond the official documentation', [
			manualTrigger('Start'),
			rubika('Announce', { resource: 'message', operation: 'sendMessage', chatId: group, text: 'House rules: be kind' }),
			rubika('Pin it', { resource: 'chat', operation: 'pinChatMessage', chatId: group, messageId: '={{ $json.message_id }}', disableNotification: true }),
			rubika('Is Sara a member', { resource: 'chat', operation: 'getChatMember', chatId: group, userId: demo.users.sara.user_id }),
			rubika('Admins', { resource: 'chat', operation: 'getChatAdministrators', chatId: group }, { executeOnce: true }),
			rubika('How many', { resource: 'chat', operation: 'getChatMemberCount', chatId: group }, { executeOnce: true }),
			rubika('Unpin it', { resource: 'chat', operation: 'unpinChatMessage', chatId: group, messageId: "={{ $('Announce').item.json.message_id }}" }),
			rubika('Sticker', { resource: 'message', operation: 'sendSticker', chatId: group, stickerId: sticker }),
			rubika('Quiz', {
				resource: 'message',
				operation: 'sendPoll',
				chatId: group,
				question: 'Which is the capital of Iran?',
				pollOptionsMode: 'json',
				pollOptionsJson: '["Isfahan", "Tehran", "Shiraz"]',
				pollType: 'quiz',
				correctAnswer: 2,
				explanation: 'Tehran has been the capital since 1786',
			}),
		]);
		const pin = linearWorkflow(PIN_ID, 'E2E: pin on a Rubika without pinChatMessage', [
			manualTrigger('Start'),
			rubika('Pin', { resource: 'chat', operation: 'pinChatMessage', chatId: group, messageId: '1' }),
		]);
		return [chain, pin];
	},

	async run(world, t) {
		const { admin, demo } = world;
		const group = demo.groupId;
		await admin.clearRequests();
		const r = await world.execute(CHAIN_ID);
		if (!t.check('the workflow runs with n8n execute and exits 0', r.ok && r.code === 0, r.ok ? `${(r.ms / 1000).toFixed(1)} s` : `exit ${r.code}\n${(r.stdout + r.stderr).slice(-3000)}`)) return;

		const [announced] = r.output('Announce');
		t.has('Pin Message outputs the chat, the message and pinned: true', r.output('Pin it')[0], { chat_id: group, message_id: announced?.message_id, pinned: true });
		t.has('Get Member outputs the member with is_member', r.output('Is Sara a member')[0], { chat_id: group, user_id: demo.users.sara.user_id, first_name: 'Sara', is_member: true });
		const chat = await admin.chat(group);
		const adminIds = chat.members.filter((m) => m.role === 'owner' || m.role === 'admin').map((m) => m.id).sort();
		t.eq('Get Administrators outputs one item per owner or admin', r.output('Admins').map((a) => a.user_id).sort(), adminIds);
		t.has('Get Member Count outputs member_count as a number', r.output('How many')[0], { chat_id: group, member_count: chat.members.length });
		t.has('Unpin Message outputs pinned: false', r.output('Unpin it')[0], { chat_id: group, message_id: announced?.message_id, pinned: false });
		const [stickerMessage] = r.output('Sticker');
		const [quiz] = r.output('Quiz');
		t.has('Send Quiz outputs what it sent, the correct answer counted from 0', quiz, { type: 'Quiz', correct_option_index: 1, options: ['Isfahan', 'Tehran', 'Shiraz'] });

		const calls = (await admin.requests()).map((q) => q.method);
		t.eq('the sandbox saw the calls in order', calls, ['sendMessage', 'pinChatMessage', 'getChatMember', 'getChatAdministrators', 'getChatMemberCount', 'unpinChatMessage', 'sendSticker', 'sendPoll']);
		const [pinRequest] = await admin.requests('pinChatMessage');
		t.eq('pinChatMessage carried the libraries\' fields', pinRequest?.body, { chat_id: group, message_id: announced?.message_id, disable_notification: true });
		t.eq('nothing stays pinned after the unpin', chat.pinned_message_ids, []);
		const messages = await admin.messages(group);
		t.check('the sticker is in the group', messages.some((m) => m.message_id === stickerMessage?.message_id && m.sticker?.sticker_id), stickerMessage);
		const quizMessage = messages.find((m) => m.message_id === quiz?.message_id);
		t.has('the quiz is in the group with its correct answer and explanation', quizMessage?.poll, { type: 'Quiz', correct_option_index: 1, explanation: 'Tehran has been the capital since 1786' });

		const before = await admin.config();
		await admin.config({ absentMethods: ['pinChatMessage'] });
		try {
			const f = await world.execute(PIN_ID);
			const printed = `${f.stdout}\n${f.stderr}`;
			t.check('on a Rubika without pinChatMessage the workflow fails', f.code !== 0 && f.code !== null, `exit ${f.code}`);
			t.check('… saying "Rubika does not know the method pinChatMessage"', printed.includes('Rubika does not know the method pinChatMessage'), printed.slice(-1200));
		} finally {
			await admin.config({ absentMethods: before.absentMethods ?? [] });
		}
	},
};

if (isMain(import.meta.url)) await runStandalone(test);

#!/usr/bin/env node
// `n8n execute --id` of imported workflows against the sandbox: one that chains the main operations (send
// with keypads, edit, upload, send the file, download it back, delete) and produces the expected items and
// sandbox state; one that fails and must exit non-zero with Rubika's error in what n8n prints; Send File from
// a URL served by a file server this test starts (the bytes arrive whole, a 404 stops the item before Rubika);
// long texts split into messages (with the sandbox counting code points, then UTF-16 units), Long Text "Refuse",
// a refused mention sent plain, a user id typed as the Chat ID, Link buttons with an invitation and ask_join.
//
//   node e2e/execute.mjs [--version 2.8.4] [--no-build] [--keep]
import http from 'node:http';

import { isMain, runStandalone } from './lib/reporter.mjs';
import { freePort } from '../tooling/n8n.mjs';
import { linearWorkflow, manualTrigger, node, rubika } from '../tooling/workflow-builder.mjs';
import { EXAMPLE_CREDENTIAL } from '../tooling/examples.mjs';
import { BAD_TOKEN_CREDENTIAL } from '../tooling/world.mjs';

const CHAIN_ID = 'e2eChainWorkflw1';
const FAILING_ID = 'e2eFailingWorkf1';
const BAD_TOKEN_ID = 'e2eBadTokenWork1';
const HTTP_REQUEST_ID = 'e2eHttpRequestW1';
const FROM_URL_ID = 'e2eSendFromUrlW1';
const LONG_TEXT_ID = 'e2eLongTextsWrk1';
/** The longest text one message carries (MAX_TEXT_LENGTH in nodes/shared/types.ts). */
const MAX_TEXT_LENGTH = 4096;
/**
 * An AI Agent's long answer as it would write it: Persian Markdown with emoji, headings as bold lines, a quote
 * and code, about 14,000 UTF-16 units and over 30 formatting parts in all.
 */
const LONG_ANSWER = Array.from(
	{ length: 12 },
	(_, n) =>
		`**بخش ${n + 1}** 📚\n\n> نکته‌ی __مهم__ شماره ${n + 1}\n\n${'این یک جمله‌ی طولانی با ایموجی 🎉 و کلمات فارسی است. '.repeat(20)}\n\n\`\`\`\nconst part = ${n + 1};\n\`\`\``,
).join('\n\n');
/** A group invitation as people paste it, and the app link the node sends for it. */
const GROUP_INVITATION = 'https://rubika.ir/joing/BHFBIFJE0HFRQUYDGNWNSAWFBMVBBPVW';
const GROUP_APP_LINK = 'rubika://g.rubika.ir/BHFBIFJE0HFRQUYDGNWNSAWFBMVBBPVW';
const REPORT = 'order,status\n42,ready\n43,packed ✅\n';
/** The file's caption, written in HTML (as an AI model would), and what Rubika should get for it. */
const CAPTION_HTML = 'Orders of <b>today</b> &amp; <a href="https://rubika.ir">more</a>';
const CAPTION = 'Orders of today & more';
const CAPTION_PARTS = [
	{ type: 'Bold', from_index: 10, length: 5 },
	{ type: 'Link', from_index: 18, length: 4, link_url: 'https://rubika.ir' },
];
/** The file the URL workflow sends: bytes that differ at every position, over several chunks. */
const MENU = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919 + (i >> 8)) & 0xff));
/** Where this test's file server listens; chosen now, because the workflows are written before the run. */
const FILE_PORT = await freePort();
const fileUrl = (path) => `http://127.0.0.1:${FILE_PORT}${path}`;

/** Send File from a URL: a file the server has, then one it does not (Continue On Fail keeps the run going). */
function fromUrlWorkflow(demo) {
	const chat = demo.users.sara.chat_id;
	return linearWorkflow(FROM_URL_ID, 'E2E: Send File from a URL', [
		manualTrigger('Start'),
		rubika('Send from a URL', { resource: 'message', operation: 'sendFile', chatId: chat, fileSource: 'url', fileUrl: fileUrl('/menus/menu.pdf'), caption: 'Menu from the web' }),
		rubika(
			'Send a missing file',
			{ resource: 'message', operation: 'sendFile', chatId: chat, fileSource: 'url', fileUrl: fileUrl('/menus/gone.pdf') },
			{ onError: 'continueRegularOutput' },
		),
	]);
}

/**
 * Texts and links (issue 32): a long AI answer split into messages (the keypad under the last), the same with
 * Long Text "Refuse", a mention in a private chat sent plain when refused, a user id typed as the Chat ID, and
 * Link buttons with a rubika.ir invitation and Ask Before Joining. Continue On Fail keeps the run going.
 */
function longTextWorkflow(demo) {
	const chat = demo.users.sara.chat_id;
	const goOn = { onError: 'continueRegularOutput' };
	return linearWorkflow(LONG_TEXT_ID, 'E2E: long texts, refused formatting, ids and links', [
		manualTrigger('Start'),
		node('Answer', 'n8n-nodes-base.set', { assignments: { assignments: [{ id: 'a1', name: 'answer', value: LONG_ANSWER, type: 'string' }] }, options: {} }, { typeVersion: 3.4 }),
		rubika('Send the long answer', {
			resource: 'message',
			operation: 'sendMessage',
			chatId: chat,
			text: '={{ $json.answer }}',
			formatting: 'markdown',
			inlineKeypadMode: 'builder',
			inlineKeypad: { rows: [{ buttons: { button: [{ text: '👍', id: 'up', type: 'Simple' }, { text: '👎', id: 'down', type: 'Simple' }] } }] },
			sendOptions: { disableNotification: true },
		}),
		rubika(
			'Refuse the long answer',
			{ resource: 'message', operation: 'sendMessage', chatId: chat, text: "={{ $('Answer').item.json.answer }}", formatting: 'markdown', textOptions: { longText: 'refuse' } },
			goOn,
		),
		rubika('Mention, plain if refused', {
			resource: 'message',
			operation: 'sendMessage',
			chatId: chat,
			text: `سلام [سارا](${demo.users.sara.user_id}) **خوش آمدی**`,
			formatting: 'markdown',
			textOptions: { plainTextIfRefused: true },
		}),
		rubika('Send to a user id', { resource: 'message', operation: 'sendMessage', chatId: demo.users.sara.user_id, text: 'hi' }, goOn),
		rubika('Join links', {
			resource: 'message',
			operation: 'sendMessage',
			chatId: chat,
			text: 'Join us',
			inlineKeypadMode: 'builder',
			inlineKeypad: {
				rows: [
					{
						buttons: {
							button: [
								{ text: 'Group', id: 'group', type: 'Link', linkType: 'url', url: GROUP_INVITATION },
								{ text: 'Channel', id: 'channel', type: 'Link', linkType: 'joinchannel', channelUsername: 'sandbox_channel', askJoin: true },
							],
						},
					},
				],
			},
		}),
	]);
}

/** Serves MENU at /menus/menu.pdf, 404 elsewhere; records every request's path and headers. */
async function startFileServer() {
	const requests = [];
	const server = http.createServer((req, res) => {
		requests.push({ path: req.url, headers: req.headers });
		if (req.url === '/menus/menu.pdf') res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': MENU.length }).end(MENU);
		else res.writeHead(404).end('not here');
	});
	await new Promise((resolve, reject) => server.once('error', reject).listen(FILE_PORT, '127.0.0.1', resolve));
	return { requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * "Custom API Call": n8n's HTTP Request node with the Rubika credential, addressing the Bot API by URL the
 * way a person would, with and without /v3, and a body in `sendMessage`'s shape.
 */
function httpRequestWorkflow(demo) {
	const request = (name, url, body) =>
		node(
			name,
			'n8n-nodes-base.httpRequest',
			{
				method: 'POST',
				url,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'rubikaApi',
				sendBody: true,
				specifyBody: 'json',
				jsonBody: JSON.stringify(body),
				options: {},
			},
			{ typeVersion: 4.2, credentials: { rubikaApi: { id: EXAMPLE_CREDENTIAL.id, name: EXAMPLE_CREDENTIAL.name } } },
		);
	return linearWorkflow(HTTP_REQUEST_ID, 'E2E: HTTP Request node with the Rubika credential', [
		manualTrigger('Start'),
		request('Get me', `${demo.sandboxUrl}/v3/getMe`, {}),
		request('Send by URL', `${demo.sandboxUrl}/sendMessage`, { chat_id: demo.users.reza.chat_id, text: 'Sent through the HTTP Request node' }),
	]);
}

export const test = {
	name: 'execute',
	workflows(demo) {
		const chat = demo.users.sara.chat_id;
		const chain = linearWorkflow(CHAIN_ID, 'E2E: chain of operations', [
			manualTrigger('Start'),
			rubika('Send with keypads', {
				resource: 'message',
				operation: 'sendMessage',
				chatId: chat,
				text: '**Order** #42 is __ready__',
				formatting: 'markdown',
				inlineKeypadMode: 'builder',
				inlineKeypad: {
					rows: [{ buttons: { button: [{ text: 'Picked up', id: 'picked', type: 'Simple' }, { text: 'Later', id: 'later', type: 'Simple' }] } }],
				},
				chatKeypadAction: 'set',
				chatKeypadMode: 'json',
				chatKeypadJson: '[[{"id": "menu", "text": "Menu"}], [{"id": "help", "text": "Help"}]]',
				resizeKeyboard: true,
			}),
			rubika('Edit the text', {
				resource: 'message',
				operation: 'editMessageText',
				chatId: '={{ $json.chat_id }}',
				messageId: '={{ $json.message_id }}',
				text: 'Order #42 was picked up',
			}),
			node('Report', 'n8n-nodes-base.set', { assignments: { assignments: [{ id: 'r1', name: 'report', value: REPORT, type: 'string' }] }, options: {} }, { typeVersion: 3.4 }),
			node('To file', 'n8n-nodes-base.convertToFile', { operation: 'toText', sourceProperty: 'report', options: { fileName: 'orders.csv' } }, { typeVersion: 1.1 }),
			rubika('Upload', { resource: 'file', operation: 'upload', binaryPropertyName: 'data', fileType: 'auto', fileOptions: {} }),
			rubika('Send the file', {
				resource: 'message',
				operation: 'sendFile',
				chatId: chat,
				fileSource: 'fileId',
				fileId: '={{ $json.file_id }}',
				caption: CAPTION_HTML,
				formatting: 'html',
			}),
			rubika('Download it back', { resource: 'file', operation: 'download', fileId: '={{ $json.file_id }}', binaryPropertyName: 'copy' }),
			node('Read the copy', 'n8n-nodes-base.extractFromFile', { operation: 'text', binaryPropertyName: 'copy', destinationKey: 'text', options: {} }, { typeVersion: 1.1 }),
			rubika('Delete the text', {
				resource: 'message',
				operation: 'deleteMessage',
				chatId: chat,
				messageId: "={{ $('Send with keypads').item.json.message_id }}",
			}),
		]);
		const failing = linearWorkflow(FAILING_ID, 'E2E: edit a message that does not exist', [
			manualTrigger('Start'),
			rubika('Edit a missing message', {
				resource: 'message',
				operation: 'editMessageText',
				chatId: chat,
				messageId: '1',
				text: 'nothing to edit',
			}),
		]);
		const badToken = linearWorkflow(BAD_TOKEN_ID, 'E2E: send with a bad token', [
			manualTrigger('Start'),
			node('Send with a bad token', 'n8n-nodes-rubika.rubika', { resource: 'message', operation: 'sendMessage', chatId: chat, text: 'hi' }, { credential: BAD_TOKEN_CREDENTIAL }),
		]);
		return [chain, failing, badToken, httpRequestWorkflow(demo), fromUrlWorkflow(demo), longTextWorkflow(demo)];
	},

	async run(world, t) {
		const { admin, demo } = world;
		const chat = demo.users.sara.chat_id;
		await t.step('the chain', async () => {
			await admin.clearRequests();
			await chainChecks(world, t, chat);
		});
		await t.step('failing workflows', async () => failureChecks(world, t));
		await t.step('the HTTP Request node with the Rubika credential', async () => httpRequestChecks(world, t));
		await t.step('Send File from a URL', async () => fromUrlChecks(world, t));
		// Both ways Rubika may count a text's length (sandbox textLengthUnit): the same split passes both.
		for (const textLengthUnit of ['codePoints', 'utf16']) {
			await t.step(`long texts, refused formatting, ids and links (sandbox counting ${textLengthUnit})`, async () => {
				await admin.config({ textLengthUnit });
				try {
					await longTextChecks(world, t);
				} finally {
					await admin.config({ textLengthUnit: 'codePoints' });
				}
			});
		}
	},
};

async function longTextChecks(world, t) {
	const { admin, demo } = world;
	const chat = demo.users.sara.chat_id;
	await admin.clearRequests();
	const before = (await admin.messages(chat)).length;
	const r = await world.execute(LONG_TEXT_ID);
	if (!t.check('the workflow runs and exits 0', r.ok && r.code === 0, r.ok ? `${(r.ms / 1000).toFixed(1)} s` : `exit ${r.code}\n${(r.stdout + r.stderr).slice(-3000)}`)) return;

	const sends = (await admin.requests('sendMessage')).map((q) => q.body);
	const answer = sends.filter((body) => body.disable_notification === true);
	const answerItems = r.output('Send the long answer');
	t.check(
		'the long answer went as several messages, each within the limit in UTF-16 units',
		answer.length >= 4 && answer.every((body) => body.text.length <= MAX_TEXT_LENGTH),
		answer.map((body) => body.text.length),
	);
	t.check(
		'… each with at most 30 formatting parts, all within its own text',
		answer.every((body) => (body.metadata?.meta_data_parts ?? []).length <= 30 && (body.metadata?.meta_data_parts ?? []).every((p) => p.from_index + p.length <= body.text.length)),
		answer.map((body) => body.metadata?.meta_data_parts?.length),
	);
	t.eq('… the keypad only under the last', answer.map((body) => body.inline_keypad?.rows?.[0]?.buttons?.map((b) => b.id) ?? null), [...answer.slice(1).map(() => null), ['up', 'down']]);
	const stored = (await admin.messages(chat)).slice(before);
	t.eq('… one output item holding every message id, in order', { items: answerItems.length, ids: answerItems[0]?.message_ids }, { items: 1, ids: stored.slice(0, answer.length).map((m) => m.message_id) });
	t.check('… and the text, whole, as it went out', answerItems[0]?.text?.length > 3 * MAX_TEXT_LENGTH && answerItems[0]?.message_id === answerItems[0]?.message_ids?.[0], answerItems[0]?.text?.length);

	t.check(
		'Long Text "Refuse": the item fails before sending, naming the field and the limit',
		/^Text: is \d+ characters long .*Rubika takes at most 4096 in one message/.test(r.output('Refuse the long answer')[0]?.error ?? ''),
		r.output('Refuse the long answer')[0],
	);
	const [mention] = r.output('Mention, plain if refused');
	const mentionSends = sends.filter((body) => body.text?.startsWith('سلام'));
	t.has('a mention Rubika refuses in a private chat goes again as plain text, and the output says so', mention, {
		formatting_dropped: true,
		formatting_dropped_parts: [1],
		text: 'سلام سارا خوش آمدی',
	});
	t.eq('… first with its formatting, then without', mentionSends.map((body) => body.metadata !== undefined), [true, false]);
	const [toUser] = r.output('Send to a user id');
	t.check(
		'a user id typed as the Chat ID: Rubika\'s refusal says it is a user id and where a chat id comes from',
		/Note: chat_id u0\w+ is a user ID \(u0…\), not a chat ID/.test(toUser?.description ?? ''),
		toUser,
	);
	const [links] = sends.filter((body) => body.text === 'Join us');
	t.eq('Link buttons: the rubika.ir invitation goes as the app link; Ask Before Joining as ask_join', links?.inline_keypad?.rows?.[0]?.buttons?.map((b) => b.button_link), [
		{ type: 'url', link_url: GROUP_APP_LINK },
		{ type: 'joinchannel', joinchannel_data: { username: 'sandbox_channel', ask_join: true } },
	]);
}

async function fromUrlChecks(world, t) {
	const { admin, demo } = world;
	const chat = demo.users.sara.chat_id;
	const files = await startFileServer();
	try {
		await admin.clearRequests();
		const r = await world.execute(FROM_URL_ID);
		if (!t.check('the workflow runs and exits 0', r.ok && r.code === 0, r.ok ? `${(r.ms / 1000).toFixed(1)} s` : `exit ${r.code}\n${(r.stdout + r.stderr).slice(-3000)}`)) return;
		const [sent] = r.output('Send from a URL');
		t.has('Send File from a URL returns the message, named and typed from the address and Content-Type', sent, {
			chat_id: chat,
			file_name: 'menu.pdf',
			mime_type: 'application/pdf',
			type: 'File',
			size: MENU.length,
			text: 'Menu from the web',
		});
		// Read before the check below fetches the stored file (a download the sandbox logs too).
		const calls = (await admin.requests()).map((q) => q.method);
		const stored = await fetch(`${world.sandbox.url}/files/${encodeURIComponent(sent?.file_id)}/menu.pdf`);
		const bytes = Buffer.from(await stored.arrayBuffer());
		t.check('the bytes Rubika stored are the served ones', stored.ok && bytes.equals(MENU), `HTTP ${stored.status}, ${bytes.length} bytes`);
		const [missing] = r.output('Send a missing file');
		t.eq('a 404 fails that item with the field, the host and the status', missing?.error, `File URL: the download from 127.0.0.1:${FILE_PORT} failed: HTTP 404 [item 0]`);
		t.eq('… and only the first file reached Rubika', calls, ['requestSendFile', 'upload', 'sendFile']);
		t.eq('the file server got one plain GET per node', files.requests.map((q) => q.path), ['/menus/menu.pdf', '/menus/gone.pdf']);
		t.check('… without the bot token anywhere', !JSON.stringify(files.requests).includes(demo.token), files.requests);
	} finally {
		await files.close();
	}
}

async function httpRequestChecks(world, t) {
	const { admin, demo } = world;
	const before = (await admin.requests('sendMessage')).length;
	const r = await world.execute(HTTP_REQUEST_ID);
	t.check('a workflow calling the Bot API through the HTTP Request node with the Rubika credential succeeds', r.ok, `exit ${r.code}: ${String(r.error?.message ?? r.stderr).slice(0, 400)}`);
	t.check('… {Base URL}/v3/getMe answers with the bot (the token went into the path)', r.output('Get me')[0]?.data?.bot?.bot_id === demo.botId, r.output('Get me'));
	const [sent] = (await admin.requests('sendMessage')).slice(before);
	t.check('… {Base URL}/sendMessage sends the message with the token', sent?.tokenValid === true && sent?.body?.text === 'Sent through the HTTP Request node', sent);
	t.check('… and the output holds the new message id', typeof r.output('Send by URL')[0]?.data?.message_id === 'string', r.output('Send by URL'));
}

async function chainChecks(world, t, chat) {
	const { admin } = world;
	const r = await world.execute(CHAIN_ID);
	if (!t.check('the chain runs with n8n execute and exits 0', r.ok && r.code === 0, r.ok ? `${(r.ms / 1000).toFixed(1)} s` : `exit ${r.code}\n${(r.stdout + r.stderr).slice(-3000)}`)) return;

	const [sent] = r.output('Send with keypads');
	t.check('Send Text returns the message id (a string) and the chat id', typeof sent?.message_id === 'string' && /^\d+$/.test(sent.message_id) && sent.chat_id === chat, sent);
	t.has('Edit Text returns the chat and message ids', r.output('Edit the text')[0], { chat_id: chat, message_id: sent?.message_id });
	const [uploaded] = r.output('Upload');
	t.has('Upload returns a file id, name, size, type and MIME type', uploaded, {
		file_name: 'orders.csv',
		size: Buffer.byteLength(REPORT),
		type: 'File',
	});
	const [fileMessage] = r.output('Send the file');
	t.has('Send File (by file id) returns the message and the file id', fileMessage, { chat_id: chat, file_id: uploaded?.file_id });
	const [download] = r.output('Download it back');
	t.check(
		'Download returns the file id, name and size',
		download?.file_id === uploaded?.file_id && download?.file_name === 'orders.csv' && Number(download?.size) === Buffer.byteLength(REPORT),
		download,
	);
	const binary = r.runData['Download it back']?.[0]?.data?.main?.[0]?.[0]?.binary?.copy;
	t.check('Download puts the file into the binary field asked for', binary?.fileName === 'orders.csv' && /text\/plain/.test(binary?.mimeType ?? ''), binary && { fileName: binary.fileName, mimeType: binary.mimeType });
	t.eq('the downloaded bytes are the uploaded ones', r.output('Read the copy')[0]?.text, REPORT);
	t.has('Delete returns deleted: true', r.output('Delete the text')[0], { chat_id: chat, message_id: sent?.message_id, deleted: true });

	// What the sandbox saw and holds now.
	const calls = (await admin.requests()).map((q) => q.method);
	t.eq('the sandbox saw the calls in order', calls, ['sendMessage', 'editMessageText', 'requestSendFile', 'upload', 'sendFile', 'getFile', 'download', 'deleteMessage']);
	const [sendReq] = await admin.requests('sendMessage');
	t.eq(
		'sendMessage carried the inline keypad and Markdown as metadata',
		{ keypad: sendReq?.body?.inline_keypad?.rows?.[0]?.buttons?.map((b) => b.id), text: sendReq?.body?.text, parts: sendReq?.body?.metadata?.meta_data_parts?.map((p) => p.type) },
		{ keypad: ['picked', 'later'], text: 'Order #42 is ready', parts: ['Bold', 'Italic'] },
	);
	const chatState = await admin.chat(chat);
	t.eq('the chat keypad is set on the chat', chatState.chat_keypad?.rows?.map((row) => row.buttons.map((b) => b.id)), [['menu'], ['help']]);
	const messages = await admin.messages(chat);
	t.check('the text message is gone (deleted)', !messages.some((m) => m.message_id === sent?.message_id));
	const fileMsg = messages.find((m) => m.message_id === fileMessage?.message_id);
	t.check('the file message is in the chat with its caption', fileMsg?.file?.file_id === uploaded?.file_id && fileMsg?.text === CAPTION, fileMsg);
	const [fileReq] = await admin.requests('sendFile');
	t.eq('the HTML caption went out and is stored as text and metadata', { sent: fileReq?.body?.metadata, stored: fileMsg?.metadata }, {
		sent: { meta_data_parts: CAPTION_PARTS },
		stored: { meta_data_parts: CAPTION_PARTS },
	});
}

async function failureChecks(world, t) {
	const { admin } = world;
	// A failing workflow: n8n execute must exit non-zero and show what Rubika said.
	const f = await world.execute(FAILING_ID);
	const printed = `${f.stdout}\n${f.stderr}`;
	const [failedReq] = (await admin.requests('editMessageText')).slice(-1);
	t.check('a failing workflow exits non-zero', f.code !== 0 && f.code !== null, `exit ${f.code}`);
	t.check('the failure names the failing node', f.lastNodeExecuted === 'Edit a missing message' || printed.includes('Edit a missing message'));
	t.check("n8n prints Rubika's status (INVALID_INPUT)", /INVALID_INPUT/.test(printed), printed.slice(-1500));
	t.check("n8n prints Rubika's dev_message", !!failedReq && failedReq.status === 'INVALID_INPUT' && /message/i.test(printed), failedReq);
	t.note(`error shown: ${String(f.error?.message ?? '').slice(0, 200)} | ${String(f.error?.description ?? '').slice(0, 200)}`);

	const b = await world.execute(BAD_TOKEN_ID);
	const printedB = `${b.stdout}\n${b.stderr}`;
	t.check('a workflow with a rejected token exits non-zero', b.code !== 0 && b.code !== null, `exit ${b.code}`);
	t.check('… and says the token was rejected, without printing it', /token/i.test(printedB) && !printedB.includes('B'.repeat(20)), printedB.slice(-800));
}

if (isMain(import.meta.url)) await runStandalone(test);

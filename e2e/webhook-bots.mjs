// Rubika Trigger by webhook for several bots in a real n8n, run by webhook.mjs in its world, around the n8n restart it
// does anyway (no restart of its own):
// - before the restart: three workflows for three bots, each with a trigger of default settings (the third with
//   Options → Add Sender Details on), are all active and each receives its own bot's updates only; the third's
//   items carry Sara's names, from one getChat for two messages; a second workflow for one of those bots is refused with an
//   error that names the bot's credential, the workflow holding it and what to do, and the bot stays with the
//   first. n8n 2.8.4 refuses the activation request itself; n8n 2.41 accepts it and records the trigger as
//   failed (its publication status) after retrying the activation for about 15 s;
// - after the restart: a new workflow for that bot is refused at once on both versions (n8n 2.8.4 activates every
//   workflow at start-up; n8n 2.41 starts every published trigger node again, which for this node runs its
//   webhook methods too); the first workflow still receives its bot. Everything is deactivated at the end.
import { eventually } from './lib/reporter.mjs';
import { nodeItems } from '../tooling/world.mjs';
import { linearWorkflow, webhookTrigger } from '../tooling/workflow-builder.mjs';

/** The trigger's name in the workflows workflowForBot makes. */
export const BOT_TRIGGER = 'Bot receives a message';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Creates a credential (as the editor does: n8n 2.8.4's public API wants fields of its own in the data) and,
 * through the public API, a workflow with a Rubika Trigger by webhook for `bot`, of default parameters unless given.
 */
export async function workflowForBot(world, bot, name, parameters = {}) {
	const s = await world.session();
	const credential = await s.post('/rest/credentials', {
		name: `${name} credential`,
		type: 'rubikaApi',
		data: { accessToken: bot.token, baseUrl: world.sandbox.url },
	});
	const trigger = webhookTrigger(BOT_TRIGGER, parameters, { credential });
	const { nodes, connections, settings } = linearWorkflow(undefined, name, [trigger]);
	const workflow = await world.publicApi('/workflows', { method: 'POST', body: { name, nodes, connections, settings } });
	return { id: workflow.id, name, credential: credential.name, credentialId: credential.id, webhookId: trigger.webhookId, bot };
}

/**
 * Activates a workflow that n8n should refuse. Returns what n8n said and how: the error of the activation
 * request (n8n 2.8), or the trigger's error in the workflow's publication status (n8n 2.41 activates after
 * answering the request).
 */
export async function refusedActivation(world, id) {
	const started = Date.now();
	const seconds = () => (Date.now() - started) / 1000;
	try {
		await world.activate(id);
	} catch (error) {
		// "POST /api/v1/workflows/<id>/activate -> 400: {"message": …}"
		let message = error.message;
		try {
			message = JSON.parse(error.message.slice(error.message.indexOf('{'))).message;
		} catch {
			// Not n8n's JSON answer: the whole error text is checked.
		}
		return { how: 'the activation request failed', message, seconds: seconds() };
	}
	const s = await world.session();
	const status = await eventually(
		async () => {
			const current = await s.get(`/rest/workflows/${id}/publication-status`);
			// A trigger whose activation failed makes the workflow "failed", or "partial" when n8n counts more of its
			// webhooks (the trigger's suffix routes, by webhook) as activated.
			return ['failed', 'partial', 'published'].includes(current?.status) ? current : undefined;
		},
		{ timeoutMs: 60_000, intervalMs: 500 },
	);
	return {
		how: `n8n accepted the request, then recorded the trigger as ${status?.status}`,
		message: status?.triggers?.map((trigger) => trigger.errorMessage).join('\n') ?? '',
		seconds: seconds(),
	};
}

/** Checks that `refusal` names the bot by `second`'s credential and `first` as the workflow holding it. */
function checkRefusal(t, label, refusal, first, second) {
	t.note(`${label}: ${refusal.how} (${refusal.seconds.toFixed(1)} s)`);
	t.check(
		`${label} is refused, naming the bot's credential and the workflow that has it`,
		refusal.message.includes(`Another active workflow already receives the bot of the credential "${second.credential}": "${first.name}" (ID ${first.id}, node "${BOT_TRIGGER}")`),
		refusal.message,
	);
	t.check('… and saying what to do', refusal.message.includes('Deactivate that workflow first, or choose another bot\'s credential here'), refusal.message);
}

/** Phase one, before webhook.mjs restarts n8n. Returns phase two (`afterRestart`). */
export async function startManyBots(world, t) {
	const { admin, demo, ctx } = world;
	const sara = demo.users.sara;
	const bots = [await admin.addBot({ bot_title: 'Shop Bot' }), await admin.addBot({ bot_title: 'News Bot' }), await admin.addBot({ bot_title: 'Quiz Bot' })];
	const chats = [];
	for (const bot of bots) chats.push((await admin.act('start-bot', { userId: sara.user_id, botId: bot.bot_id, sendStartMessage: false })).chat_id);
	const workflows = [];
	const withSenderDetails = { options: { addSenderDetails: true } };
	for (const [index, bot] of bots.entries()) workflows.push(await workflowForBot(world, bot, `Webhook bot ${index + 1}`, index === 2 ? withSenderDetails : {}));
	const refused = [];
	/** Sara writes to a bot; resolves with the texts of the items of a workflow's executions once there are `count`. */
	const deliverTo = async (index, text, count) => {
		await admin.act('send-message', { userId: sara.user_id, botId: bots[index].bot_id, text });
		const executions = await world.waitForExecutions(workflows[index].id, { count, timeoutMs: 30_000 }).catch(() => []);
		return executions.map((execution) => nodeItems(execution, BOT_TRIGGER)[0]);
	};

	for (const workflow of workflows) await world.activate(workflow.id);
	const endpoints = await eventually(async () => {
		const all = await Promise.all(bots.map(async (bot) => (await admin.bot(bot.bot_id)).endpoints));
		return all.every((list) => list.length === 2) ? all : undefined;
	});
	const urls = (endpoints ?? []).map((list) => list.map((endpoint) => endpoint.url));
	const expected = workflows.map(({ webhookId }) => new RegExp(`^${ctx.baseUrl}/webhook/${webhookId}/${webhookId}/webhook/[A-Za-z0-9_-]{32}$`));
	t.check(
		'three workflows for three bots, the trigger by webhook with default settings: each bot registered with its own workflow\'s address (<id>/<id>/webhook/<secret>)',
		urls.length === 3 && urls.every((list, index) => list.length === 2 && list[0] === list[1] && expected[index].test(list[0])),
		urls.map((list) => list.map((url) => url.slice(0, url.lastIndexOf('/') + 1) + '<secret>')),
	);
	for (const list of urls) await world.waitForWebhook(list[0].slice(`${ctx.baseUrl}/webhook/`.length));

	if (world.version !== '2.8.4') {
		const s = await world.session();
		const statuses = await Promise.all(workflows.map(async ({ id }) => (await s.get(`/rest/workflows/${id}/publication-status`))?.status));
		t.eq('n8n reports all three published', statuses, ['published', 'published', 'published']);
	}
	const active = await Promise.all(workflows.map(async ({ id }) => (await world.publicApi(`/workflows/${id}`)).active));
	t.eq('all three are active', active, [true, true, true]);

	const received = [];
	for (const index of bots.keys()) received.push(await deliverTo(index, `for bot ${index + 1}`, 1));
	await sleep(1000);
	const counts = await Promise.all(workflows.map(async ({ id }) => (await world.executions(id)).length));
	t.eq(
		'each workflow receives its own bot\'s message, and only that',
		received.map((items) => items.map((item) => [item?.text, item?.chat_id])),
		bots.map((_bot, index) => [[`for bot ${index + 1}`, chats[index]]]),
	);
	t.eq('… one execution each', counts, [1, 1, 1]);

	const withNames = await deliverTo(2, 'again for bot 3', 2);
	const saraDetails = { user_id: sara.user_id, first_name: sara.first_name, last_name: sara.last_name, full_name: `${sara.first_name} ${sara.last_name}`, username: sara.username };
	t.eq(
		'Add Sender Details (the third workflow): both of Sara\'s messages carry her names, from one getChat of her chat with that bot',
		{ senders: withNames.map((item) => item?.sender), asked: (await admin.requests('getChat')).filter((r) => r.body?.chat_id === chats[2]).length },
		{ senders: [saraDetails, saraDetails], asked: 1 },
	);
	t.check('… and the other workflows\' items have no sender field', received[0]?.[0] !== undefined && !('sender' in received[0][0]), received[0]?.[0]);

	const [first] = workflows;
	const firstUrl = urls[0]?.[0] ?? '';
	const post = (url, text) =>
		fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ update: { type: 'NewMessage', chat_id: chats[0], new_message: { message_id: '9', text, time: '1700000000', sender_type: 'User', sender_id: sara.user_id } } }),
		});
	let res = await post(`${firstUrl.slice(0, -1)}${firstUrl.endsWith('x') ? 'y' : 'x'}`, 'wrong secret');
	t.check('a wrong secret is refused with 403', res.status === 403, `HTTP ${res.status}`);
	res = await post(firstUrl.replace(`/${first.webhookId}/${first.webhookId}/`, `/${first.webhookId}/`), 'the id once');
	t.check('… and the address with the webhook id once (the removed webhook trigger\'s version 1 form) is not its route (404)', res.status === 404, `HTTP ${res.status}`);

	// --- a second workflow for the first bot --------------------------------------------------
	const second = await workflowForBot(world, first.bot, 'Webhook bot 1 again');
	refused.push(second);
	const registrations = (await admin.requests('updateBotEndpoints')).length;
	checkRefusal(t, 'a second workflow for the same bot', await refusedActivation(world, second.id), first, second);
	t.check('… without registering anything with Rubika', (await admin.requests('updateBotEndpoints')).length === registrations);
	// n8n 2.8 leaves a refused workflow inactive; n8n 2.41 keeps it published, its trigger marked failed.
	t.note(`the public API reports the refused workflow as active: ${(await world.publicApi(`/workflows/${second.id}`)).active}`);
	t.eq('the bot still delivers to the first workflow', (await admin.bot(first.bot.bot_id)).endpoints.map((endpoint) => endpoint.url), [firstUrl, firstUrl]);
	const later = await deliverTo(0, 'still for bot 1', 2);
	await sleep(1000);
	t.check(
		'… and the first workflow receives it, the refused one nothing',
		later[1]?.text === 'still for bot 1' && (await world.executions(second.id)).length === 0,
		later.map((item) => item?.text),
	);

	return {
		/** Phase two, after webhook.mjs restarted n8n. */
		async afterRestart() {
			await world.waitForWebhook(firstUrl.slice(`${ctx.baseUrl}/webhook/`.length));
			const third = await workflowForBot(world, first.bot, 'Webhook bot 1 after the restart');
			refused.push(third);
			const checkThirdRefused = async (label) => checkRefusal(t, label, await refusedActivation(world, third.id), first, third);
			// The first workflow's trigger holds its bot from n8n's start: n8n 2.8 activates it again, n8n 2.41 starts
			// its trigger node again, webhook methods included.
			await checkThirdRefused('right after the restart, a new workflow for that bot');
			const afterRestart = await deliverTo(0, 'after the restart', 3);
			t.check('after the n8n restart the first workflow still receives its bot', afterRestart[2]?.text === 'after the restart', afterRestart.map((item) => item?.text));
			t.eq('… and the bot still delivers to the first workflow', (await admin.bot(first.bot.bot_id)).endpoints.map((endpoint) => endpoint.url), [firstUrl, firstUrl]);
			for (const { id } of [...workflows, ...refused]) await world.deactivate(id).catch(() => {});
			// The tests after this one run in the same n8n: the editor's choice of a default credential for a new
			// node (browser.mjs) must not see these.
			const s = await world.session();
			for (const { credentialId } of [...workflows, ...refused]) await s.request('DELETE', `/rest/credentials/${credentialId}`).catch(() => {});
		},
	};
}

#!/usr/bin/env node
// Reaching Rubika from anywhere, and the webhook address check, in a real n8n (issue 32 items 2 and 7). The
// sandbox plays a Rubika that answers only one address (`answerOnlyFrom: ['127.0.0.2']`), as Rubika answers only
// addresses in Iran; a small proxy (sandbox/proxy.ts, in this process) connects from that address. Each check
// both ways:
// - the credential test (POST /rest/credentials/test) through the credential's Proxy: OK; without it no answer;
// - Get Bot Info run from the editor (POST /rest/workflows/:id/run) with that credential: the bot; without the
//   Proxy (Timeout 2 s): the execution fails with the message naming the timeout, the restriction and the Proxy;
// - `n8n execute` of that workflow without the Proxy field but with HTTP_PROXY in n8n's environment (the
//   instance-wide way; the sandbox is http, so HTTP_PROXY rather than HTTPS_PROXY): the bot, through the proxy;
// - a Rubika Trigger reading a bot of its own: the proxy added to its credential while it runs, then Rubika
//   answering only the proxy: every message once, none lost;
// - the webhook address: a credential whose Base URL is a public-looking name (only the proxy resolves it)
//   refuses to publish a trigger by webhook at n8n's local address, naming WEBHOOK_URL, before any registration.
// The `n8n execute` run and the refused publishing (n8n 2.41 retries it for about 15 s before it records the
// failure) run beside the other checks: both go through the proxy, whatever the sandbox answers directly.
//
//   node e2e/reach.mjs [--version 2.8.4] [--no-build] [--keep]
import { createRequire } from 'node:module';
import path from 'node:path';
import { eventually, isMain, runStandalone } from './lib/reporter.mjs';
import { refusedActivation } from './webhook-bots.mjs';
import { REPO_ROOT } from '../tooling/n8n.mjs';
import { nodeItems } from '../tooling/world.mjs';
import { linearWorkflow, manualTrigger, node, readingTrigger, webhookTrigger } from '../tooling/workflow-builder.mjs';

/** sandbox/proxy.ts, through ts-node: loaded when the test runs, not when run.mjs imports the file. */
function loadProxy() {
	const require = createRequire(import.meta.url);
	require(require.resolve('ts-node', { paths: [REPO_ROOT] })).register({ transpileOnly: true, project: path.join(REPO_ROOT, 'tsconfig.json') });
	return require(path.join(REPO_ROOT, 'sandbox', 'proxy.ts'));
}

const READER = 'Reach Bot receives';
const GET_ME = 'Get Bot Info';
const GEO = { answerOnlyFrom: ['127.0.0.2'] };
const OPEN = { answerOnlyFrom: null };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const test = {
	name: 'reach',
	async run(world, t) {
		const { admin, demo } = world;
		await world.server();
		const s = await world.session();
		const { startProxy } = loadProxy();
		const proxy = await startProxy({ hosts: { 'rubika.test:80': new URL(world.sandbox.url).host } });
		// The instance-wide proxy of the `n8n execute` run: a second one, so that what went through it is that run's.
		const instanceProxy = await startProxy();
		const through = (data) => ({ ...data, proxy: proxy.url });
		/** The credentials made here: deleted at the end (browser.mjs, later in a shared world, looks at the editor's default). */
		const made = [];
		const credential = async (name, data) => {
			const saved = await s.post('/rest/credentials', { name, type: 'rubikaApi', data });
			made.push(saved.id);
			return saved;
		};
		const workflow = async (name, nodes) => {
			const { connections, settings } = linearWorkflow(undefined, name, nodes);
			return (await world.publicApi('/workflows', { method: 'POST', body: { name, nodes, connections, settings } })).id;
		};
		const direct = { accessToken: demo.token, baseUrl: world.sandbox.url };
		const getMeWorkflow = async (name, cred) =>
			await workflow(name, [manualTrigger(), node(GET_ME, 'n8n-nodes-rubika.rubika', { resource: 'bot', operation: 'getMe', requestOptions: { timeoutSeconds: 2, retries: 0 } }, { credential: cred })]);
		/** "Execute workflow" in the editor; the finished execution. */
		const runFromEditor = async (id) => {
			const workflowData = await s.get(`/rest/workflows/${id}`);
			const started = await s.post(`/rest/workflows/${id}/run`, { workflowData, triggerToStartFrom: { name: 'Start' } });
			return await world.finished(started.executionId, { timeoutMs: 60_000 });
		};
		const botOf = (execution) => nodeItems(execution, GET_ME)[0]?.bot_id;
		/** What runs beside the rest: settled before the test ends, whatever happens (never a rejection left behind). */
		let viaEnvironment = Promise.resolve(undefined);
		let refused = Promise.resolve(undefined);
		try {
			const plain = await credential('Reach directly', direct);
			const viaProxy = await credential('Reach through the proxy', through(direct));
			const plainId = await getMeWorkflow('Reach: Get Bot Info directly', plain);
			/** The editor's Test of a saved credential (n8n 2.41 requires its id), with the data given. */
			const testCredential = async (saved, data) => await s.post('/rest/credentials/test', { credentials: { id: saved.id, name: saved.name, type: 'rubikaApi', data } });

			// --- beside the rest: n8n execute with HTTP_PROXY, and a trigger by webhook at a local address ------
			viaEnvironment = world
				.execute(plainId, { env: { HTTP_PROXY: instanceProxy.url, http_proxy: instanceProxy.url, NO_PROXY: '', no_proxy: '' } })
				.catch((error) => ({ ok: false, error: String(error), output: () => [] }));
			const publicBot = await admin.addBot({ bot_title: 'Public Rubika Bot' });
			const publicRubika = await credential('Rubika at a public address', { accessToken: publicBot.token, baseUrl: 'http://rubika.test', proxy: proxy.url });
			const localHookId = await workflow('Reach: webhook at a local address', [webhookTrigger('Public Rubika receives', {}, { credential: publicRubika })]);
			refused = refusedActivation(world, localHookId).catch((error) => ({ how: 'the check itself failed', message: String(error), seconds: 0 }));

			// --- the credential test ----------------------------------------------------------------------
			await admin.config(GEO);
			let before = proxy.requests.length;
			const tested = await testCredential(viaProxy, through(direct));
			t.check('Rubika answering only the proxy: the credential test with the Proxy passes, through the proxy', tested?.status === 'OK' && proxy.requests.slice(before).some((r) => r.path?.endsWith('/getMe')), tested);
			const unanswered = await Promise.race([
				testCredential(plain, direct).then((r) => r, (e) => ({ status: 'Error', message: e.message })),
				sleep(3000).then(() => 'no answer within 3 s'),
			]);
			t.check('… without the Proxy it does not pass', unanswered === 'no answer within 3 s' || unanswered?.status === 'Error', unanswered);

			// --- an execution -----------------------------------------------------------------------------
			before = proxy.requests.length;
			let run = await runFromEditor(await getMeWorkflow('Reach: Get Bot Info through the proxy', viaProxy));
			t.check('Get Bot Info with the Proxy: the bot, through the proxy', run?.status === 'success' && botOf(run) === demo.botId && proxy.requests.length > before, run?.status);
			run = await runFromEditor(plainId);
			const error = run?.data?.resultData?.error;
			const message = `${error?.message ?? ''} ${error?.description ?? ''}`;
			t.check('… without it: the execution fails, the message naming the timeout, the restriction and the Proxy', run?.status === 'error' && /timed out/.test(message) && /only addresses in Iran/.test(message) && /Proxy/.test(message), message.slice(0, 400));

			// --- the reading trigger: the proxy added while it runs ------------------------------------------
			await admin.config(OPEN);
			await t.step('the reading trigger keeps its position when the proxy is added', async () => {
				const bot = await admin.addBot({ bot_title: 'Reach Bot' });
				const sara = demo.users.sara;
				await admin.act('start-bot', { userId: sara.user_id, botId: bot.bot_id, sendStartMessage: false });
				const data = { accessToken: bot.token, baseUrl: world.sandbox.url };
				const cred = await credential('Reach Bot credential', data);
				const id = await workflow('Reach: reading', [readingTrigger(READER, { options: { interval: 0.5 } }, { credential: cred })]);
				await world.activateReading(id);
				const say = (text) => admin.act('send-message', { userId: sara.user_id, botId: bot.bot_id, text });
				const texts = async () => (await world.executions(id)).map((e) => nodeItems(e, READER)[0]?.text);
				await say('before the proxy');
				await eventually(async () => ((await texts()).length >= 1 ? true : undefined), { timeoutMs: 20_000 });
				// The editor's save of the credential: the same bot, now through the proxy. The trigger takes the changed
				// credential before it hands over the next update, when it last looked more than 5 s before.
				await sleep(5500);
				await s.request('PATCH', `/rest/credentials/${cred.id}`, { name: cred.name, type: 'rubikaApi', data: through(data) });
				await say('after the proxy was added');
				await eventually(async () => ((await texts()).length >= 2 && proxy.requests.some((r) => r.path?.endsWith('/getUpdates')) ? true : undefined), { timeoutMs: 30_000 });
				await admin.config(GEO);
				await say('while Rubika answers only the proxy');
				const sent = ['before the proxy', 'after the proxy was added', 'while Rubika answers only the proxy'];
				await eventually(async () => ((await texts()).filter((text) => sent.includes(text)).length >= 3 ? true : undefined), { timeoutMs: 60_000 });
				await sleep(1500);
				const all = await world.executions(id);
				t.eq('every message once, none lost across the change', (await texts()).filter((text) => text !== undefined).sort(), [...sent].sort());
				t.note(`executions without a message (a read failure reported): ${all.filter((e) => e.status !== 'success').length}`);
				t.check('… the reads now go through the proxy (Rubika answering only it at the end)', proxy.requests.some((r) => r.path?.endsWith('/getUpdates')));
				await world.deactivate(id);
			});

			// --- what ran beside ------------------------------------------------------------------------------
			run = await viaEnvironment;
			t.check('Get Bot Info without the Proxy but with HTTP_PROXY in n8n\'s environment (the instance-wide way): the bot, through the proxy', run.ok && run.output(GET_ME)?.[0]?.bot_id === demo.botId && instanceProxy.requests.some((r) => r.path?.endsWith('/getMe')), run.ok ? '' : run.error);
			const refusal = await refused;
			t.note(`the webhook address check: ${refusal.how} (${refusal.seconds.toFixed(1)} s)`);
			t.check(
				'a Base URL on a public name: publishing a trigger by webhook at n8n\'s local address is refused, naming the address and WEBHOOK_URL',
				/Rubika cannot deliver to this n8n's webhook URL http:\/\/127\.0\.0\.1:\d+\/webhook\/.*\*\*\*: it is an address of this machine/.test(refusal.message) && /WEBHOOK_URL/.test(refusal.message),
				refusal.message,
			);
			t.eq('… and nothing was registered for that bot', (await admin.requests('updateBotEndpoints')).filter((r) => r.botId === publicBot.bot_id).length, 0);
			await world.deactivate(localHookId).catch(() => {});
		} finally {
			await Promise.allSettled([viaEnvironment, refused]);
			for (const id of made) await s.request('DELETE', `/rest/credentials/${id}`).catch(() => {});
			await admin.config(OPEN);
			await proxy.close();
			await instanceProxy.close();
		}
	},
};

if (isMain(import.meta.url)) await runStandalone(test);

#!/usr/bin/env node
// Smoke test in a REAL n8n: the packed tarball, installed into a fresh n8n user folder the way n8n installs
// community packages, loads its two nodes (the action node, with the AI tool and Human review tool n8n derives
// from it, and the one Rubika Trigger) and the credential with no load errors; Rubika Trigger comes in one
// version, with Receive Updates By Reading (the default) or By Webhook; published, a trigger that reads gets no
// webhook in n8n's webhook table, one by webhook its path and five suffix routes, and both leave none when
// unpublished; the icons are served; every example workflow imports and uses only node types and versions this
// n8n has.
//
//   node e2e/smoke.mjs [--version 2.8.4] [--no-build] [--keep]
import fs from 'node:fs';
import path from 'node:path';
import { readExamples } from '../tooling/examples.mjs';
import { eventually, isMain, runStandalone } from './lib/reporter.mjs';
import { PACKAGE_NAME, REPO_ROOT, knownTypes, packageLoadProblems } from '../tooling/n8n.mjs';
import { linearWorkflow, noOp, readingTrigger, webhookTrigger } from '../tooling/workflow-builder.mjs';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
const OURS = {
	rubika: `${PACKAGE_NAME}.rubika`,
	trigger: `${PACKAGE_NAME}.rubikaTrigger`,
};
/** The suffixes the service may append to a webhook address (facts §4): the trigger's routes besides its own path. */
const SUFFIXES = ['/getSelectionItem', '/receiveInlineMessage', '/receiveQuery', '/receiveUpdate', '/searchSelectionItems'];

export const test = {
	name: 'smoke',
	async run(world, t) {
		const declared = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
		if (world.pack.files) {
			const missing = declared.filter((f) => !world.pack.files.includes(f));
			t.check('the tarball holds every file package.json lists under "n8n"', missing.length === 0, missing.length ? `missing ${missing.join(', ')}` : `${world.pack.files.length} files`);
		}
		const installed = world.installedDir;
		t.check(
			'the package is installed in <user>/.n8n/nodes/node_modules like a community package',
			installed === path.join(world.ctx.n8nFolder, 'nodes', 'node_modules', PACKAGE_NAME) && fs.existsSync(path.join(installed, 'package.json')),
			installed,
		);
		t.check('the installed copy has no dependencies of its own to resolve', !fs.existsSync(path.join(installed, 'node_modules')));

		const server = await world.server();
		const readiness = await fetch(`${server.baseUrl}/healthz/readiness`);
		t.check('n8n start becomes ready with the package installed', readiness.ok && server.exited() === null, `HTTP ${readiness.status}, ready in ${(server.readyMs / 1000).toFixed(1)} s`);

		const s = await world.session();
		const types = await knownTypes(world.ctx, s);
		const nodes = await s.get('/types/nodes.json');
		const versionsOf = (n) => (Array.isArray(n.version) ? n.version : [n.version]);
		const ours = [...new Set(nodes.map((n) => n.name).filter((name) => name.startsWith(`${PACKAGE_NAME}.`)))].sort();
		t.eq('package.json lists two node files for n8n, the action node and the trigger', pkg.n8n?.nodes, ['dist/nodes/Rubika/Rubika.node.js', 'dist/nodes/RubikaTrigger/RubikaTrigger.node.js']);
		t.eq(
			"n8n lists exactly the package's two node types (Rubika, Rubika Trigger) and the two it derives from the action node (AI tool, Human review tool)",
			ours,
			[OURS.rubika, `${OURS.rubika}HitlTool`, `${OURS.rubika}Tool`, OURS.trigger].sort(),
		);
		t.check('n8n knows the credential type rubikaApi', types.credentials.includes('rubikaApi'));

		// A versioned node is listed once per version: one entry, version 1, is one version.
		const triggers = nodes.filter((n) => n.name === OURS.trigger);
		const trigger = triggers[0];
		const actions = nodes.filter((n) => n.name === OURS.rubika);
		const action = actions[0];
		t.eq(
			'the trigger and the action node each come in exactly one version, 1',
			[triggers.map(versionsOf), actions.map(versionsOf), [trigger?.defaultVersion ?? 1, action?.defaultVersion ?? 1]],
			[[[1]], [[1]], [1, 1]],
		);
		t.check('Rubika Trigger is a trigger that runs (no Poll Times): n8n adds no polling to it', !!trigger && !trigger.polling && !trigger.properties?.some((p) => p.name === 'pollTimes'), trigger && { polling: trigger.polling });
		const receive = trigger?.properties?.find((p) => p.name === 'receiveUpdates');
		t.eq(
			'its first field is Receive Updates: By Reading (the default) or By Webhook',
			{ first: trigger?.properties?.[0]?.name, choices: receive?.options?.map((o) => [o.value, o.name]), default: receive?.default },
			{
				first: 'receiveUpdates',
				choices: [
					['reading', 'By Reading (No Public Address Needed)'],
					['webhook', 'By Webhook (Instant, Inline Keypad Taps)'],
				],
				default: 'reading',
			},
		);
		// Each path is an expression choosing between the secret-in-path form (the default) and the plain form.
		const routes = (webhooks) => (webhooks ?? []).map((w) => [...String(w.path).matchAll(/"([^"]+)"/g)].map((m) => m[1]).filter((p) => p.startsWith('webhook')).sort()).sort();
		t.eq(
			'the trigger declares its path and the five suffix routes, with the secret as a path segment or without',
			routes(trigger?.webhooks),
			['', ...SUFFIXES].map((suffix) => [`webhook${suffix}`, `webhook/:secret${suffix}`].sort()).sort(),
		);
		t.check(
			"… each starting with the node's webhook id (full paths), each with a method only when Receive Updates is By Webhook",
			trigger?.webhooks?.length === 6 &&
				trigger.webhooks.every((w) => String(w.path).split('$webhookId + "/" + ').length === 3 && w.isFullPath === true && /\$parameter\["receiveUpdates"\] === "webhook"/.test(String(w.httpMethod))),
			trigger?.webhooks?.map((w) => [w.path, w.httpMethod, w.isFullPath]),
		);
		t.eq('the action node and the trigger use the rubikaApi credential', [action, trigger].map((n) => n?.credentials?.map((c) => c.name)), [['rubikaApi'], ['rubikaApi']]);

		await t.step('published: what n8n registers for each way of receiving', async () => await publishedRoutes(world, t));

		// n8n serves a community node's icon from the package folder; a wrong path shows a broken image.
		for (const [label, n] of [['action node', action], ['credential', undefined]]) {
			const icon = n ? n.iconUrl : (await s.get('/types/credentials.json')).find((c) => c.name === 'rubikaApi')?.iconUrl;
			const url = typeof icon === 'object' ? icon?.light : icon;
			if (!url) {
				t.check(`the ${label} has an icon`, false, JSON.stringify(icon));
				continue;
			}
			const res = await fetch(`${world.ctx.baseUrl}/${url.replace(/^\//, '')}`, { headers: { cookie: s.cookie } });
			const body = await res.text();
			t.check(`n8n serves the ${label}'s icon (${url})`, res.ok && body.includes('<svg'), `HTTP ${res.status}`);
		}

		// The examples must only use node types and versions that exist in this n8n.
		const known = new Map();
		for (const n of nodes) known.set(n.name, new Set([...(known.get(n.name) ?? []), ...versionsOf(n)]));
		const list = await world.publicApi('/workflows?limit=250');
		for (const { file } of readExamples()) {
			const wf = world.example(file);
			const stored = list.data.find((w) => w.id === wf.id);
			const unknown = wf.nodes.filter((n) => !known.get(n.type)?.has(n.typeVersion)).map((n) => `${n.name} (${n.type} v${n.typeVersion})`);
			t.check(`examples/${file} is imported and every node type/version exists in n8n ${world.version}`, !!stored && unknown.length === 0, unknown.join(', ') || wf.name);
		}

		const creds = await world.publicApi('/credentials').catch(() => undefined);
		if (creds?.data) {
			t.check('the imported credential is listed by the public API', creds.data.some((c) => c.id === world.credential.id && c.type === 'rubikaApi'));
		}

		const problems = packageLoadProblems(server.log());
		t.check('the n8n log shows no load problems for the package', problems.length === 0, problems.slice(0, 10).join('\n'));
	},
};

if (isMain(import.meta.url)) await runStandalone(test);

/**
 * One workflow per way of receiving, each for a new sandbox bot of its own (nothing else in a shared world sees
 * them), published and unpublished: n8n's webhook table (its production routes, which a webhook process serves
 * too) holds nothing for the trigger that reads, which reads; the trigger by webhook gets its path and the five
 * suffix routes, registers its address with Rubika, and n8n answers there; unpublished, neither leaves a row. What
 * n8n 2.41 says in a workflow's publication status and what n8n logs while publishing are printed.
 */
async function publishedRoutes(world, t) {
	const { admin } = world;
	const s = await world.session();
	const made = { workflows: [], credentials: [] };
	const logBefore = world.serverLog().length;
	try {
		const workflowFor = async (title, trigger) => {
			const bot = await admin.addBot({ bot_title: title });
			const credential = await s.post('/rest/credentials', { name: `${title} credential`, type: 'rubikaApi', data: { accessToken: bot.token, baseUrl: world.sandbox.url } });
			made.credentials.push(credential.id);
			const node = trigger('Rubika Trigger', {}, { credential });
			const { nodes, connections, settings } = linearWorkflow(undefined, title, [node, noOp('Received')]);
			const workflow = await world.publicApi('/workflows', { method: 'POST', body: { name: title, nodes, connections, settings } });
			made.workflows.push(workflow.id);
			return { id: workflow.id, bot, webhookId: node.webhookId };
		};
		const reading = await workflowFor('Smoke Reading Bot', readingTrigger);
		const hook = await workflowFor('Smoke Webhook Bot', webhookTrigger);
		for (const { id } of [reading, hook]) await world.activate(id);
		const reads = await eventually(async () => (await admin.requests('getUpdates')).filter((r) => r.botId === reading.bot.bot_id).length >= 2, { timeoutMs: 30_000 });
		t.check('published, the trigger that reads (Receive Updates left at its default) reads getUpdates', reads);
		const endpoints = await eventually(async () => {
			const list = (await admin.bot(hook.bot.bot_id)).endpoints;
			return list.length === 2 ? list : undefined;
		}, { timeoutMs: 30_000 });
		const url = endpoints?.[0]?.url ?? '';
		const routePath = url.slice(`${world.ctx.baseUrl}/webhook/`.length);
		t.check(
			'the trigger by webhook registers its address with Rubika: <id>/<id>/webhook/<secret>',
			new RegExp(`^${world.ctx.baseUrl}/webhook/${hook.webhookId}/${hook.webhookId}/webhook/[A-Za-z0-9_-]{32}$`).test(url),
			url.replace(/[^/]+$/, '<secret>'),
		);
		if (routePath) await world.waitForWebhook(routePath);
		const readingRows = await world.webhookRows(reading.id);
		const hookRows = await world.webhookRows(hook.id);
		t.note(`n8n's webhook table: reading ${JSON.stringify(readingRows)}; by webhook ${JSON.stringify(hookRows.map((r) => [r.method, r.webhookPath, r.webhookId === hook.webhookId ? '<node webhook id>' : r.webhookId, r.pathLength]))}`);
		t.eq("n8n's webhook table holds no route for the trigger that reads", readingRows, []);
		t.eq(
			'… and for the trigger by webhook its path and the five suffix routes, POST, the secret a path parameter',
			hookRows.map((r) => [r.method, r.node, r.webhookPath.replace(hook.webhookId, '<id>')]).sort(),
			['', ...SUFFIXES].map((suffix) => ['POST', 'Rubika Trigger', `<id>/webhook/:secret${suffix}`]).sort(),
		);
		const suffixRoute = await fetch(`${url}/receiveUpdate`, { method: 'OPTIONS', headers: { origin: world.ctx.baseUrl, 'access-control-request-method': 'POST' } });
		t.eq('… and n8n answers the address with a suffix (CORS preflight 204)', suffixRoute.status, 204);
		if (world.version !== '2.8.4') {
			const statuses = {};
			for (const [name, { id }] of Object.entries({ reading, hook })) statuses[name] = await eventually(async () => (await s.get(`/rest/workflows/${id}/publication-status`))?.status, { timeoutMs: 20_000 });
			t.note(`n8n ${world.version}'s publication status: reading ${JSON.stringify(statuses.reading)}, by webhook ${JSON.stringify(statuses.hook)}`);
			t.eq('n8n reports both published', statuses, { reading: 'published', hook: 'published' });
		}
		const logged = world
			.serverLog()
			.slice(logBefore)
			.split('\n')
			.filter((line) => /webhook|Smoke (Reading|Webhook) Bot|Rubika/i.test(line) && !/Rubika: /.test(line));
		t.note(`n8n's log while publishing (lines naming webhooks or the workflows): ${logged.length ? `\n         ${logged.slice(0, 12).join('\n         ')}` : 'none'}`);

		for (const { id } of [reading, hook]) await world.deactivate(id);
		const rowsLeft = await eventually(async () => ((await world.webhookRows(hook.id)).length === 0 ? [] : undefined), { timeoutMs: 15_000 });
		t.eq('unpublished, neither leaves a row in the webhook table', rowsLeft, []);
	} finally {
		for (const id of made.workflows) await world.deactivate(id).catch(() => {});
		// The tests after this one share this n8n: the editor's default credential (browser.mjs) must not see these.
		for (const id of made.credentials) await s.request('DELETE', `/rest/credentials/${id}`).catch(() => {});
	}
}

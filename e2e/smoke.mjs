#!/usr/bin/env node
// Smoke test in a REAL n8n: the packed tarball, installed into a fresh n8n user folder the way n8n installs
// community packages, loads both triggers, the action node and the credential with no load errors; Rubika
// Trigger comes in version 1 (polling) and version 2 (continuous, the default); the icons are served;
// every example workflow imports and uses only node types and versions this n8n has.
//
//   node e2e/smoke.mjs [--version 2.8.4] [--no-build] [--keep]
import fs from 'node:fs';
import path from 'node:path';
import { readExamples } from '../tooling/examples.mjs';
import { isMain, runStandalone } from './lib/harness.mjs';
import { PACKAGE_NAME, REPO_ROOT, knownTypes, packageLoadProblems } from '../tooling/n8n.mjs';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
const OURS = {
	rubika: `${PACKAGE_NAME}.rubika`,
	trigger: `${PACKAGE_NAME}.rubikaTrigger`,
	webhook: `${PACKAGE_NAME}.rubikaWebhookTrigger`,
};

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
		const byName = new Map(nodes.map((n) => [n.name, n]));
		// A versioned node is listed once per version, each entry with that version's description.
		const versionOf = (n, v) => nodes.find((x) => x.name === n && (Array.isArray(x.version) ? x.version.includes(v) : x.version === v));
		t.check('n8n knows the action node', byName.has(OURS.rubika));
		t.check('n8n knows the Rubika Trigger', byName.has(OURS.trigger));
		t.check('n8n knows the webhook trigger', byName.has(OURS.webhook));
		t.check('n8n knows the credential type rubikaApi', types.credentials.includes('rubikaApi'));
		t.check('the action node is offered to AI agents as a tool', byName.has(`${OURS.rubika}Tool`));

		const triggerV1 = versionOf(OURS.trigger, 1);
		const triggerV2 = versionOf(OURS.trigger, 2);
		const webhook = versionOf(OURS.webhook, 1);
		const webhookV2 = versionOf(OURS.webhook, 2);
		const action = byName.get(OURS.rubika);
		t.check('Rubika Trigger version 1 is a polling node (n8n adds Poll Times)', triggerV1?.polling === true, triggerV1 ? { polling: triggerV1.polling } : 'version 1 not listed');
		t.check(
			'Rubika Trigger version 2 is not a polling node: no Poll Times, an Interval option instead',
			!!triggerV2 && !triggerV2.polling && !triggerV2.properties?.some((p) => p.name === 'pollTimes') && !!triggerV2.properties?.find((p) => p.name === 'options')?.options?.some((o) => o.name === 'interval'),
			triggerV2 ? { polling: triggerV2.polling, properties: triggerV2.properties?.map((p) => p.name) } : 'version 2 not listed',
		);
		const triggerV21 = versionOf(OURS.trigger, 2.1);
		t.check(
			'version 2.1 is the default for new Rubika Trigger nodes; it restarts from the oldest kept update when Rubika rejects the saved position, version 2 stops with an error',
			[triggerV1, triggerV2, triggerV21].every((x) => x?.defaultVersion === 2.1) &&
				rejectedPositionDefault(triggerV2) === 'error' &&
				rejectedPositionDefault(triggerV21) === 'restartFromOldest',
			{ defaultVersions: [triggerV1, triggerV2, triggerV21].map((x) => x?.defaultVersion), v2: rejectedPositionDefault(triggerV2), v21: rejectedPositionDefault(triggerV21) },
		);
		// Each path is an expression choosing between the secret-in-path form (the default) and the plain form.
		const suffixes = ['', '/getSelectionItem', '/receiveInlineMessage', '/receiveQuery', '/receiveUpdate', '/searchSelectionItems'];
		const routes = (version) =>
			(version?.webhooks ?? []).map((w) => [...String(w.path).matchAll(/"([^"]+)"/g)].map((m) => m[1]).filter((p) => p.startsWith('webhook')).sort()).sort();
		t.eq(
			'the webhook trigger (version 1) declares its path and the five suffix routes, with the secret as a path segment or without',
			routes(webhook),
			suffixes.map((suffix) => [`webhook${suffix}`, `webhook/:secret${suffix}`].sort()).sort(),
		);
		t.check(
			'version 2 of the webhook trigger is the default, with the same routes, each starting with the node\'s webhook id (full paths)',
			webhookV2?.defaultVersion === 2 &&
				JSON.stringify(routes(webhookV2)) === JSON.stringify(routes(webhook)) &&
				webhookV2.webhooks.every((w) => String(w.path).split('$webhookId + "/" + ').length === 3 && w.isFullPath === true),
			webhookV2 ? webhookV2.webhooks.map((w) => [w.path, w.isFullPath]) : 'version 2 not listed',
		);
		t.eq(
			'the action node and both versions of each trigger use the rubikaApi credential',
			[action, triggerV1, triggerV2, webhook, webhookV2].map((n) => n?.credentials?.map((c) => c.name)),
			[['rubikaApi'], ['rubikaApi'], ['rubikaApi'], ['rubikaApi'], ['rubikaApi']],
		);

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
		const versionsOf = (n) => (Array.isArray(n.version) ? n.version : [n.version]);
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

/** The default, in a version's description, of Options → If Rubika Rejects the Saved Position. */
function rejectedPositionDefault(description) {
	return description?.properties?.find((p) => p.name === 'options')?.options?.find((o) => o.name === 'onRejectedPosition')?.default;
}

#!/usr/bin/env node
// Smoke test against a REAL n8n: pack this package, install it into a fresh n8n user folder the way
// n8n installs community packages, start n8n, and check that our node and credential types load.
//
//   node e2e/smoke.mjs [--no-build] [--keep]
//   RUBIKA_N8N_VERSION=2.8.4 node e2e/smoke.mjs      # the Node 20 variant
//
// Needs the n8n install (scripts/install-n8n.mjs; done here when missing: minutes the first time).
// Exit 0 when every check passed. The work folder is removed unless --keep (or a check failed).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureN8n } from '../scripts/install-n8n.mjs';
import * as n8n from './lib/n8n.mjs';
import { startSandboxProcess } from './lib/sandbox.mjs';

const args = new Set(process.argv.slice(2));
const t0 = Date.now();
const say = (s) => process.stdout.write(`[smoke] ${s}\n`);
const secs = (t) => `${((Date.now() - t) / 1000).toFixed(1)} s`;

const results = [];
function check(name, ok, detail = '') {
	results.push({ name, ok });
	process.stdout.write(`${ok ? 'ok    ' : 'FAIL  '} ${name}${detail ? ` — ${detail}` : ''}\n`);
	return ok;
}

const pkg = JSON.parse(fs.readFileSync(path.join(n8n.REPO_ROOT, 'package.json'), 'utf8'));

async function main() {
	let t = Date.now();
	const paths = await ensureN8n({ log: (s) => say(`install: ${s}`) });
	say(`n8n ${paths.version} on ${paths.nodeBin} (${secs(t)})`);

	if (!args.has('--no-build')) {
		t = Date.now();
		const b = await n8n.buildPackage();
		if (!b.ok) say(`npm run build FAILED (continuing with dist/ as it is):\n${b.output.trim().split('\n').slice(-10).join('\n')}`);
		else say(`built (${secs(t)})`);
	}

	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rubika-smoke-'));
	const keep = () => args.has('--keep') || results.some((r) => !r.ok);
	let server;
	let sandbox;
	try {
		t = Date.now();
		const { tgz, files } = await n8n.packPackage({ destDir: path.join(work, 'pack') });
		const declared = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
		const missing = declared.filter((f) => !files.includes(f));
		check('tarball contains every file package.json lists under "n8n"', missing.length === 0, missing.length ? `missing ${missing.join(', ')}` : `${files.length} files`);

		const port = await n8n.freePort();
		let brokerPort = await n8n.freePort();
		while (brokerPort === port) brokerPort = await n8n.freePort();
		const ctx = n8n.createContext({ paths, userFolder: path.join(work, 'user'), port, brokerPort });
		const installed = await n8n.installPackageTarball(ctx, tgz);
		check('package installs into <user>/.n8n/nodes', fs.existsSync(path.join(installed, 'package.json')), secs(t));

		// The sandbox, when it starts, lets the credential test go all the way through n8n.
		try {
			sandbox = await startSandboxProcess({ port: await n8n.freePort() });
			say(`sandbox at ${sandbox.url}`);
		} catch (e) {
			say(`sandbox did not start (${String(e.message).split('\n')[0]}); the credential test is skipped`);
		}
		const credData = sandbox?.demo.token
			? { accessToken: sandbox.demo.token, baseUrl: sandbox.url }
			: { accessToken: 'x'.repeat(64), baseUrl: 'http://127.0.0.1:9' };
		t = Date.now();
		const imp = await n8n.runN8nCli(ctx, [
			'import:credentials',
			`--input=${writeJson(work, 'cred.json', [{ id: 'smokeRubikaCred', name: 'Rubika smoke', type: 'rubikaApi', data: credData }])}`,
		]);
		check('n8n import:credentials accepts a rubikaApi credential', imp.code === 0, `${secs(t)}${imp.code ? `\n${imp.stdout}${imp.stderr}` : ''}`);

		t = Date.now();
		const logFile = path.join(work, 'n8n.log');
		server = await n8n.startN8n(ctx, { logFile, timeoutMs: 180_000 });
		check('n8n start answers /healthz/readiness', true, `${(server.readyMs / 1000).toFixed(1)} s`);

		const s = await n8n.setupOwner(ctx);
		const types = await n8n.knownTypes(ctx, s);
		const ours = types.nodes.filter((x) => x.startsWith(`${n8n.PACKAGE_NAME}.`));
		say(`our node types: ${ours.join(', ') || '(none)'}`);
		check(`node type ${n8n.PACKAGE_NAME}.rubika is known`, ours.includes(`${n8n.PACKAGE_NAME}.rubika`));
		check('credential type rubikaApi is known', types.credentials.includes('rubikaApi'));
		check(
			'one node type per file listed in package.json (plus AI-tool variants)',
			ours.filter((x) => !x.endsWith('Tool')).length >= (pkg.n8n?.nodes ?? []).length,
			`${ours.length} types for ${(pkg.n8n?.nodes ?? []).length} files`,
		);

		const key = await n8n.createApiKey(ctx, s);
		const creds = await n8n.publicApi(ctx, key, '/credentials').catch(() => undefined);
		if (creds?.data) {
			check('imported credential is listed by the public API', creds.data.some((c) => c.id === 'smokeRubikaCred' && c.type === 'rubikaApi'));
		}

		if (sandbox?.demo.token && types.credentials.includes('rubikaApi')) {
			const r = await n8n.testCredential(ctx, s, { id: 'smokeRubikaCred', name: 'Rubika smoke', type: 'rubikaApi', data: credData });
			check("n8n's credential test (getMe) passes against the sandbox", r?.status === 'OK', `${r?.status}${r?.message ? `: ${r.message}` : ''}`);
		}

		const problems = n8n.packageLoadProblems(server.log());
		check('n8n log shows no load problems for our package', problems.length === 0, problems.slice(0, 10).join('\n'));
	} catch (e) {
		check('smoke run completed', false, String(e.stack || e));
	} finally {
		if (server) {
			t = Date.now();
			await server.stop();
			say(`n8n stopped (${secs(t)})`);
		}
		await sandbox?.stop();
		if (keep()) say(`work folder kept: ${work}`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
	const failed = results.filter((r) => !r.ok).length;
	say(`total ${secs(t0)}`);
	process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
	process.exit(failed ? 1 : 0);
}

function writeJson(dir, name, value) {
	const file = path.join(dir, name);
	fs.writeFileSync(file, JSON.stringify(value, null, 2));
	return file;
}

main().catch((e) => {
	process.stderr.write(`[smoke] ${e.stack || e}\n`);
	process.exit(1);
});

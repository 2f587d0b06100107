#!/usr/bin/env node
// The credential test through n8n's own endpoint (the editor's "Test" / save button,
// POST /rest/credentials/test): passes with a good token, fails with a clear message otherwise.
//
//   node e2e/credential.mjs [--version 2.8.4] [--no-build] [--keep]
import { isMain, runStandalone } from './lib/reporter.mjs';
import { testCredential } from '../tooling/n8n.mjs';

// What the editor sends for a secret field the user did not touch; n8n puts the stored value back.
const BLANK = '__n8n_BLANK_VALUE_e5362baf-c777-4d57-a609-6eaf1f9e87f6';

export const test = {
	name: 'credential',
	async run(world, t) {
		const s = await world.session();
		const good = world.credential;
		const asStored = (data) => ({ id: good.id, name: good.name, type: 'rubikaApi', data });
		const run = async (label, credential) => {
			const before = (await world.admin.requests('getMe')).length;
			const r = await testCredential(world.ctx, s, credential);
			const calls = (await world.admin.requests('getMe')).length - before;
			t.note(`${label}: ${r?.status} — ${r?.message}`);
			return { ...r, calls };
		};

		let r = await run('good token', asStored(good.data));
		t.check('a good token passes (n8n calls getMe once)', r.status === 'OK' && r.calls === 1, `${r.status}: ${r.message}; ${r.calls} getMe`);

		r = await run('stored token, as the editor sends it', asStored({ ...good.data, accessToken: BLANK }));
		t.check('testing a saved credential without retyping the token passes', r.status === 'OK', `${r.status}: ${r.message}`);

		const bad = world.badCredential;
		r = await run('bad token', { ...bad, data: { accessToken: 'B'.repeat(64), baseUrl: world.sandbox.url } });
		t.check(
			'a bad token fails and says the token was rejected',
			r.status === 'Error' && /rejected the bot token/i.test(r.message) && /BotFather/.test(r.message),
			r.message,
		);
		t.check('the token does not appear in the message', !String(r.message).includes('B'.repeat(20)));

		r = await run('rate limited', await (async () => {
			await world.admin.injectFault({ kind: 'status', status: 'TOO_REQUESTS', method: 'getMe', times: 1 });
			return asStored(good.data);
		})());
		t.check('a rate-limited bot fails with the rate-limit message', r.status === 'Error' && /TOO_REQUESTS/.test(r.message), r.message);
		await world.admin.clearFaults();

		// A server that answers, but is not the Bot API: n8n itself.
		r = await run('base URL of another server', asStored({ ...good.data, baseUrl: world.ctx.baseUrl }));
		t.check('a base URL that is not the Bot API fails', r.status === 'Error', r.message);

		r = await run('unreachable base URL', asStored({ ...good.data, baseUrl: 'http://127.0.0.1:9' }));
		t.check('an unreachable base URL fails', r.status === 'Error' && /ECONNREFUSED|connect/i.test(r.message), r.message);
	},
};

if (isMain(import.meta.url)) await runStandalone(test);

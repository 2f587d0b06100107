// scripts/scan-package.mjs must fail when the tarball breaks n8n's rules. It runs as its own Node process, as in
// `npm test`: n8n's scanner notes that its plugin's rules can silently do nothing inside a test runner.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repo = path.resolve(__dirname, '..', '..');

/** An unpacked package like `npm pack` makes, with the given files besides README.md and LICENSE. */
function unpackedPackage(files: Record<string, string>): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rubika-scan-fixture-'));
	const all = { 'README.md': '# fixture\n', LICENSE: 'MIT\n', ...files };
	for (const [file, text] of Object.entries(all)) {
		fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
		fs.writeFileSync(path.join(dir, file), text);
	}
	return dir;
}

test('the package scan reports forbidden imports, dev-only files and missing n8n entries, and only those', () => {
	const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
	manifest.n8n = {
		...manifest.n8n,
		credentials: [],
		nodes: ['dist/nodes/Bad/Bad.node.js', 'dist/nodes/Missing/Missing.node.js'],
	};
	const dir = unpackedPackage({
		'package.json': JSON.stringify(manifest, null, 2),
		'dist/nodes/Bad/Bad.node.js': [
			'"use strict";',
			'const child_process_1 = require("child_process");',
			'const axios_1 = require("axios");',
			'exports.run = () => [child_process_1.execFileSync, axios_1.default];',
		].join('\n'),
		'dist/nodes/Good/helper.js': '"use strict";\nconst n8n_workflow_1 = require("n8n-workflow");\nexports.parse = n8n_workflow_1.jsonParse;\n',
		'dist/test/transport.test.js': '"use strict";\n',
	});
	try {
		const run = spawnSync(process.execPath, [path.join(repo, 'scripts', 'scan-package.mjs'), '--dir', dir, '--source', 'none'], {
			cwd: repo,
			encoding: 'utf8',
			timeout: 60_000,
		});
		const output = `${run.stdout}${run.stderr}`;

		expect(output).toMatch(
			/tarball dist\/nodes\/Bad\/Bad\.node\.js:2:\d+ error Require of 'child_process' is not allowed.*\(@n8n\/community-nodes\/no-restricted-imports\)/,
		);
		// n8n's rule lets devDependencies through (it assumes a bundler); the scan's own check does not.
		expect(output).toContain('dist/nodes/Bad/Bad.node.js: requires axios, which is not there at run time');
		expect(output).toContain('dist/test/transport.test.js: test, sandbox or bench code must not be published');
		expect(output).toContain('n8n.nodes lists dist/nodes/Missing/Missing.node.js, which is not in the tarball');
		expect(output).not.toContain('helper.js');
		expect(run.status).toBe(1);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

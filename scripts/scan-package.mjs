#!/usr/bin/env node
// Checks the npm tarball the way n8n checks a community package before it verifies it, and checks that the
// tarball holds only what n8n loads. Run by `npm test` before the end-to-end suite, and by CI before publishing.
//
//   node scripts/scan-package.mjs                      build, `npm pack`, unpack into a temp folder, check
//   node scripts/scan-package.mjs --no-build           pack what is in dist/ now
//   node scripts/scan-package.mjs --tarball x.tgz      check that tarball (e.g. the one about to be published)
//   node scripts/scan-package.mjs --dir folder         check an unpacked package folder
//   options: --source <folder>|none                    the source checkout to lint (default: this repository)
//
// n8n's scanner (@n8n/scan-community-package, a pinned devDependency) downloads the published tarball and
// the source commit its npm provenance names, then lints both with one ESLint config: the source's
// package.json and nodes/credentials (.ts/.js/.json), and the tarball's .js files and package.json. Only
// its provenance and download steps need the registry; here the same rules run, through the scanner's own
// exported config, on the tarball `npm pack` makes and on this checkout. Warnings fail here too.
//
// Exit 0 when nothing was found, 1 with every finding listed otherwise, 2 on bad usage.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, buildPackage, packPackage } from '../tooling/n8n.mjs';

/** The files of the tarball that n8n's scanner lints (see analyzePackageByName in its scanner.mjs). */
const TARBALL_LINT_PATTERNS = ['**/*.js', 'package.json'];

/** What the tarball may hold, each with why n8n needs it. Anything else is a finding. */
const SHIPPED = [
	{ pattern: /^package\.json$/, why: 'the manifest with the "n8n" section' },
	{ pattern: /^README(\.[a-z]{2})?\.md$/, why: 'the package page and its translations (npm always packs README files)' },
	{ pattern: /^LICENSE$/, why: 'the licence' },
	{ pattern: /^dist\/(nodes|credentials)\/.+\.js$/, why: 'compiled nodes and credentials' },
	{ pattern: /^dist\/(nodes|credentials)\/.+\.js\.map$/, why: 'their source maps' },
	{ pattern: /^dist\/nodes\/.+\.node\.json$/, why: 'node codex files' },
	{ pattern: /^dist\/icons\/[^/]+\.svg$/, why: 'icons' },
];
const REQUIRED = ['package.json', 'README.md', 'LICENSE'];
const DEV_ONLY = /(^|\/)(test|tests|__tests__|sandbox|bench|e2e|fixtures|examples|scripts|tooling)\/|\.(test|spec)\.js$/;
/** Node built-ins n8n allows in community nodes (its no-restricted-imports rule); everything else must be a peer. */
const RUNTIME_BUILTINS = new Set(['crypto', 'node:crypto']);

function parseArgs(argv) {
	const opts = { build: true, tarball: null, dir: null, source: REPO_ROOT };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const value = () => {
			if (i + 1 >= argv.length) usage(`${arg} needs a value`);
			return argv[++i];
		};
		if (arg === '--no-build') opts.build = false;
		else if (arg === '--tarball') opts.tarball = path.resolve(value());
		else if (arg === '--dir') opts.dir = path.resolve(value());
		else if (arg === '--source') {
			const source = value();
			opts.source = source === 'none' ? null : path.resolve(source);
		} else usage(`unknown option ${arg}`);
	}
	return opts;
}

function usage(problem) {
	console.error(`scan-package: ${problem}\nusage: node scripts/scan-package.mjs [--no-build] [--tarball x.tgz | --dir folder] [--source folder|none]`);
	process.exit(2);
}

/** Unpacks like n8n's scanner: `tar -xzf` with the leading `package/` stripped. */
function unpack(tgz, dir) {
	fs.mkdirSync(dir, { recursive: true });
	const tar = spawnSync('tar', ['-xzf', tgz, '-C', dir, '--strip-components=1'], { encoding: 'utf8' });
	if (tar.status !== 0) throw new Error(`tar could not unpack ${tgz}: ${tar.stderr}`);
}

/** Every file under `dir`, as '/'-separated paths relative to it. */
function listFiles(dir, prefix = '') {
	return fs.readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
		const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
		return entry.isDirectory() ? listFiles(dir, rel) : [rel];
	});
}

function checkContents(files, manifest) {
	const findings = [];
	for (const file of files) {
		if (file === manifest.main) continue; // npm always packs the "main" file
		if (SHIPPED.some(({ pattern }) => pattern.test(file))) continue;
		findings.push(
			DEV_ONLY.test(file)
				? `${file}: test, sandbox or bench code must not be published`
				: `${file}: not something n8n loads (allowed: ${SHIPPED.map(({ why }) => why).join(', ')})`,
		);
	}
	for (const file of REQUIRED) if (!files.includes(file)) findings.push(`${file}: missing from the tarball`);
	return findings;
}

function checkN8nSection(files, manifest) {
	const findings = [];
	const n8n = manifest.n8n;
	if (!n8n || typeof n8n !== 'object') return ['package.json: no "n8n" section, so n8n finds no nodes'];
	if (!Number.isInteger(n8n.n8nNodesApiVersion) || n8n.n8nNodesApiVersion < 1) {
		findings.push('package.json: n8n.n8nNodesApiVersion must be a whole number, 1 or more');
	}
	if (!manifest.keywords?.includes('n8n-community-node-package')) {
		findings.push('package.json: keywords lack "n8n-community-node-package", which n8n searches for');
	}
	for (const [key, suffix] of [['nodes', '.node.js'], ['credentials', '.credentials.js']]) {
		const listed = n8n[key] ?? [];
		if (key === 'nodes' && listed.length === 0) findings.push('package.json: n8n.nodes lists no node');
		for (const entry of listed) {
			const file = path.posix.normalize(entry);
			if (!file.endsWith(suffix)) findings.push(`package.json: n8n.${key} entry ${entry} does not end in ${suffix}`);
			if (!files.includes(file)) findings.push(`package.json: n8n.${key} lists ${entry}, which is not in the tarball`);
		}
	}
	return findings;
}

/** A relative require/import in compiled code, resolved the way Node resolves it, against the tarball's files. */
function resolvesInTarball(files, fromFile, specifier) {
	const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
	return [base, `${base}.js`, `${base}.json`, `${base}/index.js`].some((candidate) => files.includes(candidate));
}

/**
 * What n8n's rules cannot see in compiled output: they allow imports of devDependencies (bundled at build,
 * they assume), but tsc does not bundle, so every require must be a shipped file, a peer or an allowed
 * built-in. Icons named with `file:` must be shipped too.
 */
function checkCompiledReferences(dir, files, manifest) {
	const findings = [];
	const peers = new Set(Object.keys(manifest.peerDependencies ?? {}));
	for (const file of files.filter((f) => f.endsWith('.js'))) {
		const code = fs.readFileSync(path.join(dir, file), 'utf8');
		for (const [, , specifier] of code.matchAll(/\b(?:require|import)\(\s*(['"])([^'"]+)\1\s*\)/g)) {
			if (specifier.startsWith('./') || specifier.startsWith('../')) {
				if (!resolvesInTarball(files, file, specifier)) findings.push(`${file}: requires ${specifier}, which is not in the tarball`);
				continue;
			}
			const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
			if (!peers.has(name) && !RUNTIME_BUILTINS.has(specifier)) {
				findings.push(`${file}: requires ${specifier}, which is not there at run time (only shipped files, peerDependencies and crypto; n8n installs no devDependencies)`);
			}
		}
		for (const [, icon] of code.matchAll(/['"]file:([^'"]+)['"]/g)) {
			const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), icon));
			if (!files.includes(target)) findings.push(`${file}: icon file:${icon} points to ${target}, which is not in the tarball`);
		}
	}
	return findings;
}

/** Compiled files whose source is gone: left in dist/ by an earlier build, and packed with it. */
function checkLeftovers(files, sourceDir) {
	const findings = [];
	for (const file of files.filter((f) => f.startsWith('dist/'))) {
		const inSource = file
			.slice('dist/'.length)
			.replace(/\.js(\.map)?$/, '.ts');
		if (!fs.existsSync(path.join(sourceDir, inSource))) {
			findings.push(`${file}: no ${inSource} in the source; left from an earlier build? (npm run clean && npm run build)`);
		}
	}
	return findings;
}

/** n8n's scanner, loaded from the pinned devDependency, with ESLint and fast-glob as it resolves them. */
async function loadScanner() {
	const scannerUrl = import.meta.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
	const requireFromScanner = createRequire(scannerUrl);
	// The scanner makes a temp folder when it is imported; have it removed when this process exits.
	requireFromScanner('tmp').setGracefulCleanup();
	const scanner = await import(scannerUrl);
	return { scanner, ESLint: requireFromScanner('eslint').ESLint, glob: requireFromScanner('fast-glob') };
}

/** ESLint with the scanner's config and options (its analyzePackage), reporting warnings as well as errors. */
async function lint({ scanner, ESLint, glob }, dir, patterns, label) {
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await scanner.buildScanConfig(),
	});
	const targets = glob.sync(patterns, { cwd: dir, absolute: true, ignore: ['node_modules/**', '**/package-lock.json'] });
	if (targets.length === 0) return { count: 0, findings: [`${label}: no files to lint (${patterns.join(', ')})`] };
	const findings = [];
	for (const result of await eslint.lintFiles(targets)) {
		const file = path.relative(dir, result.filePath).split(path.sep).join('/');
		for (const m of result.messages) {
			const level = m.severity === 2 ? 'error' : 'warning';
			findings.push(`${label} ${file}:${m.line ?? 0}:${m.column ?? 0} ${level} ${m.message} (${m.ruleId ?? 'parse'})`);
		}
	}
	return { count: targets.length, findings };
}

async function main() {
	const opts = parseArgs(process.argv.slice(2));
	if (opts.tarball && opts.dir) usage('give --tarball or --dir, not both');
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rubika-scan-'));
	try {
		let dir = opts.dir;
		if (!dir) {
			let tgz = opts.tarball;
			if (!tgz) {
				if (opts.build) {
					const built = await buildPackage();
					if (!built.ok) throw new Error(`npm run build failed:\n${built.output.trim().split('\n').slice(-30).join('\n')}`);
				}
				tgz = (await packPackage({ destDir: work })).tgz;
			}
			dir = path.join(work, 'package');
			unpack(tgz, dir);
			console.log(`[scan] ${path.basename(tgz)} unpacked into ${dir}`);
		}

		const files = listFiles(dir).sort();
		const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
		const findings = [
			...checkContents(files, manifest),
			...checkN8nSection(files, manifest),
			...checkCompiledReferences(dir, files, manifest),
			...(opts.source ? checkLeftovers(files, opts.source) : []),
		];
		console.log(`[scan] contents: ${files.length} files, ${findings.length} findings`);

		const tools = await loadScanner();
		const tarballLint = await lint(tools, dir, TARBALL_LINT_PATTERNS, 'tarball');
		findings.push(...tarballLint.findings);
		console.log(`[scan] n8n scanner rules on the tarball: ${tarballLint.count} files linted`);
		if (opts.source) {
			const sourceLint = await lint(tools, opts.source, tools.scanner.SOURCE_FILE_PATTERNS, 'source');
			findings.push(...sourceLint.findings);
			console.log(`[scan] n8n scanner rules on the source: ${sourceLint.count} files linted`);
		}

		if (findings.length > 0) {
			console.log(`[scan] ${findings.length} findings:\n${findings.map((f) => `  - ${f}`).join('\n')}`);
			process.exitCode = 1;
		} else {
			console.log(`[scan] ${manifest.name}@${manifest.version}: nothing found`);
		}
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(`[scan] ${error.stack ?? error}`);
	process.exit(1);
});

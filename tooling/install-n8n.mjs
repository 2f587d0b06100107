// Installs a pinned, real n8n (and the Node.js it needs) OUTSIDE the repository, so that the
// package can be tried and tested the way a user runs it. `ensureN8n()` for the e2e worlds, `npm start` and
// the benchmarks; `main()` is the command line (`node scripts/install-n8n.mjs`, whose header lists its options).
//
// Environment:
//   RUBIKA_N8N_HOME     where everything goes (default ~/.cache/n8n-nodes-rubika)
//   RUBIKA_N8N_VERSION  default variant when none is given (2.41.1 or 2.8.4)
//
// Layout under RUBIKA_N8N_HOME:
//   node-24.21.0/            `npm install node@24.21.0` (the npm package that carries the binary)
//   n8n-2.41.1/              `npm install --omit=dev --ignore-scripts` from tooling/n8n-lock/2.41.1
//   n8n-2.41.1/.rubika-install.json   marker written last; a second run only checks it (well under a second)
//
// The install is idempotent and resumable: it works in `n8n-<v>.partial/` and renames it into place
// only after n8n's sqlite3 has been built and loads, so an interrupted run never leaves a broken install.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const LOCK_DIR = path.join(here, 'n8n-lock');

/** The n8n versions we know how to install, and the Node.js each one runs on. */
export const VARIANTS = {
	'2.41.1': {
		node: '24.21.0',
		// Modules that 2.8.4 does not have; turning them off stops calls to outside services.
		disabledModules: 'mcp-registry',
	},
	'2.8.4': {
		node: 'system', // the Node 20 that runs this script
		disabledModules: '',
	},
};
const DEFAULT_VERSION = '2.41.1';

const MARKER = '.rubika-install.json';

function cacheHome() {
	return path.resolve(
		process.env.RUBIKA_N8N_HOME || path.join(os.homedir(), '.cache', 'n8n-nodes-rubika'),
	);
}

export function resolveVersion(version) {
	const v = version || process.env.RUBIKA_N8N_VERSION || DEFAULT_VERSION;
	if (!VARIANTS[v]) {
		throw new Error(`Unknown n8n variant "${v}". Known: ${Object.keys(VARIANTS).join(', ')}`);
	}
	return v;
}

function hashFiles(dir, names) {
	const h = createHash('sha256');
	for (const n of names) h.update(n).update('\0').update(fs.readFileSync(path.join(dir, n)));
	return h.digest('hex').slice(0, 16);
}

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

/** Paths of one variant, whether or not it is installed. */
function n8nPaths(version) {
	const v = resolveVersion(version);
	const home = cacheHome();
	const variant = VARIANTS[v];
	let nodeDir;
	let nodeBin;
	let nodeHeaders;
	if (variant.node === 'system') {
		nodeDir = undefined;
		nodeBin = systemNode();
		nodeHeaders = undefined; // the machine's npmrc already points at the system headers
	} else {
		nodeDir = path.join(home, `node-${variant.node}`);
		const platformPkg = path.join(nodeDir, 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`);
		nodeBin = path.join(platformPkg, 'bin', 'node');
		nodeHeaders = platformPkg;
	}
	const dir = path.join(home, `n8n-${v}`);
	return {
		version: v,
		home,
		nodeVersion: variant.node,
		nodeDir,
		nodeBin,
		nodeHeaders,
		dir,
		n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		disabledModules: variant.disabledModules,
		marker: path.join(dir, MARKER),
	};
}

function systemNode() {
	const [maj, min] = process.versions.node.split('.').map(Number);
	if (maj > 20 || (maj === 20 && min >= 19)) return process.execPath;
	return '/usr/bin/node';
}

/** True when the variant is installed from the lockfile that is in the repository now. */
function isInstalled(version) {
	const p = n8nPaths(version);
	const m = readJson(p.marker);
	if (!m) return false;
	const lockHash = hashFiles(path.join(LOCK_DIR, p.version), ['package.json', 'package-lock.json']);
	return m.lockHash === lockHash && fs.existsSync(p.n8nBin) && fs.existsSync(p.nodeBin);
}

function run(cmd, args, opts, log) {
	return new Promise((resolve, reject) => {
		log(`$ ${[cmd, ...args].join(' ')}   (in ${opts.cwd})`);
		const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
		let tail = '';
		const keep = (chunk) => {
			tail = (tail + chunk.toString()).slice(-8000);
			if (opts.verbose) process.stderr.write(chunk);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		child.on('error', reject);
		child.on('close', (code) => {
			if (code === 0) resolve(tail);
			else reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}\n${tail}`));
		});
	});
}

/** Environment for npm runs that should build for / run under the given node. */
function npmEnv(p) {
	const env = { ...process.env };
	delete env.npm_config_ignore_scripts;
	// Any npm_* set by an outer `npm run` (prefix, local paths) must not leak into a foreign project.
	for (const k of Object.keys(env)) if (/^npm_(package|lifecycle|config_(prefix|global|local))/i.test(k)) delete env[k];
	env.PATH = `${path.dirname(p.nodeBin)}${path.delimiter}${env.PATH || ''}`;
	if (p.nodeHeaders) env.npm_config_nodedir = p.nodeHeaders;
	env.npm_config_update_notifier = 'false';
	env.npm_config_fund = 'false';
	env.npm_config_audit = 'false';
	return env;
}

async function withLock(name, log, fn) {
	const home = cacheHome();
	fs.mkdirSync(home, { recursive: true });
	const lock = path.join(home, `.lock-${name}`);
	const started = Date.now();
	for (;;) {
		try {
			fs.mkdirSync(lock);
			fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
			break;
		} catch (e) {
			if (e.code !== 'EEXIST') throw e;
			const pid = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8').trim() || 0) || 0;
			let alive = false;
			if (pid) {
				try {
					process.kill(pid, 0);
					alive = true;
				} catch {
					alive = false;
				}
			}
			if (!alive) {
				fs.rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (Date.now() - started > 30 * 60_000) throw new Error(`Timed out waiting for ${lock} (held by pid ${pid})`);
			if ((Date.now() - started) % 30_000 < 1000) log(`waiting: another install (pid ${pid}) holds ${lock}`);
			await new Promise((r) => setTimeout(r, 1000));
		}
	}
	try {
		return await fn();
	} finally {
		fs.rmSync(lock, { recursive: true, force: true });
	}
}

async function ensureNode(p, { log, force, verbose }) {
	if (p.nodeVersion === 'system') return;
	const lockSrc = path.join(LOCK_DIR, `node-${p.nodeVersion}`);
	const check = () => {
		if (!fs.existsSync(p.nodeBin)) return false;
		const r = spawnSync(p.nodeBin, ['-v'], { encoding: 'utf8' });
		return r.status === 0 && r.stdout.trim() === `v${p.nodeVersion}`;
	};
	if (!force && check()) return;
	await withLock(`node-${p.nodeVersion}`, log, async () => {
		if (!force && check()) return;
		const t = Date.now();
		log(`installing Node ${p.nodeVersion} (npm package "node") into ${p.nodeDir}`);
		fs.mkdirSync(p.nodeDir, { recursive: true });
		for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(lockSrc, f), path.join(p.nodeDir, f));
		const env = { ...process.env };
		delete env.npm_config_ignore_scripts;
		// The "node" package fetches its platform binary package in a preinstall script.
		await run('npm', ['install', '--ignore-scripts=false', '--no-audit', '--no-fund'], { cwd: p.nodeDir, env, verbose }, log);
		if (!check()) throw new Error(`Node ${p.nodeVersion} did not install: ${p.nodeBin} is missing or reports another version`);
		log(`Node ${p.nodeVersion} ready in ${((Date.now() - t) / 1000).toFixed(1)} s`);
	});
}

/**
 * Installs the variant when needed and returns its paths. Safe to call from several processes.
 * @param {{version?: string, force?: boolean, log?: (s: string) => void, verbose?: boolean}} [opts]
 */
export async function ensureN8n(opts = {}) {
	const log = opts.log || ((s) => process.stderr.write(`[install-n8n] ${s}\n`));
	const p = n8nPaths(opts.version);
	if (!opts.force && isInstalled(p.version)) return p;
	await ensureNode(p, { log, force: opts.force, verbose: opts.verbose });
	await withLock(`n8n-${p.version}`, log, async () => {
		if (!opts.force && isInstalled(p.version)) return;
		const t0 = Date.now();
		const lockSrc = path.join(LOCK_DIR, p.version);
		const lockHash = hashFiles(lockSrc, ['package.json', 'package-lock.json']);
		const partial = `${p.dir}.partial`;
		// Resume a partial install, or update an outdated one in place (npm only changes what differs).
		if (!fs.existsSync(partial) && fs.existsSync(p.dir)) fs.renameSync(p.dir, partial);
		fs.mkdirSync(partial, { recursive: true });
		fs.rmSync(path.join(partial, MARKER), { force: true });
		for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(lockSrc, f), path.join(partial, f));
		const env = npmEnv(p);
		log(`installing n8n ${p.version} on Node ${p.nodeVersion} into ${p.dir} (cold: a few minutes, ~3 GB)`);
		// `npm ci` rejects this lockfile (platform-specific optional packages are missing from it);
		// `npm install` follows it. Scripts stay off: only sqlite3 needs a native build (below);
		// isolated-vm ships prebuilt binaries for Node 24.
		await run(
			'npm',
			['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--no-save', '--loglevel=error'],
			{ cwd: partial, env, verbose: opts.verbose },
			log,
		);
		const t1 = Date.now();
		log(`npm install done in ${((t1 - t0) / 1000).toFixed(0)} s; building sqlite3 from source`);
		// sqlite3's own script would first try to download a prebuilt binary (unreachable here).
		await run(
			'npm',
			['rebuild', 'sqlite3', '--ignore-scripts=false', '--loglevel=error'],
			{ cwd: partial, env: { ...env, npm_config_build_from_source: 'true' }, verbose: opts.verbose },
			log,
		);
		const t2 = Date.now();
		log(`sqlite3 built in ${((t2 - t1) / 1000).toFixed(0)} s; checking that it loads`);
		const probe = spawnSync(
			p.nodeBin,
			['-e', "const s=require('sqlite3'); new s.Database(':memory:').close(); console.log('ok')"],
			{ cwd: partial, encoding: 'utf8', env },
		);
		if (probe.status !== 0) throw new Error(`sqlite3 does not load under ${p.nodeBin}:\n${probe.stderr}`);
		fs.writeFileSync(
			path.join(partial, MARKER),
			JSON.stringify(
				{
					n8n: p.version,
					node: p.nodeVersion,
					nodeBin: p.nodeBin,
					lockHash,
					installedAt: new Date().toISOString(),
					seconds: { npmInstall: (t1 - t0) / 1000, sqlite3: (t2 - t1) / 1000 },
				},
				null,
				2,
			),
		);
		fs.renameSync(partial, p.dir);
		log(`n8n ${p.version} installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
	});
	return p;
}

/** `node scripts/install-n8n.mjs [version] [--all] [--force] [--print] [--verbose]`. */
export async function main(argv) {
	const args = argv.slice(2);
	const force = args.includes('--force');
	const print = args.includes('--print');
	const verbose = args.includes('--verbose');
	const versions = args.includes('--all') ? Object.keys(VARIANTS) : [args.find((a) => !a.startsWith('--'))];
	for (const version of versions) {
		const t = Date.now();
		const already = !force && isInstalled(version);
		const p = await ensureN8n({ version, force, verbose });
		if (print) {
			process.stdout.write(`${JSON.stringify(p, null, 2)}\n`);
		} else {
			const secs = ((Date.now() - t) / 1000).toFixed(1);
			process.stdout.write(
				`n8n ${p.version} on Node ${p.nodeVersion === 'system' ? process.versions.node : p.nodeVersion}: ${already ? 'already installed' : 'installed'} (${secs} s)\n` +
					`  n8n:  ${p.nodeBin} ${p.n8nBin}\n`,
			);
		}
	}
}

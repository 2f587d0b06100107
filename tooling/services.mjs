// The servers n8n's queue mode needs, as users run them: Redis (the queue) and PostgreSQL (the database),
// from Debian's packages. Installed with apt-get when missing, then started by the test itself on loopback
// ports inside a temporary folder: no system service is used or left running, and stop() removes the data.
//
//   const redis = await startRedis({ dir });          // { host, port, stop() }
//   const pg = await startPostgres({ dir });          // { host, port, user, password, database, rows(sql), stop() }
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from './n8n.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Where Debian puts PostgreSQL's server programs (initdb, pg_ctl, postgres are not on PATH). */
function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl'))) : [];
	versions.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(root, versions[0], 'bin') : undefined;
}

function hasRedis() {
	return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Installs redis-server and postgresql from Debian's packages when they are missing (needs root, as on CI and
 * these machines). Throws with the command to run when it cannot.
 */
export function ensureServerPackages({ log = () => {} } = {}) {
	const missing = [];
	if (!hasRedis()) missing.push('redis-server');
	if (!postgresBinDir()) missing.push('postgresql');
	if (!missing.length) return;
	if (process.getuid?.() !== 0) throw new Error(`queue mode needs ${missing.join(' and ')}: run  sudo apt-get install -y ${missing.join(' ')}`);
	log(`installing ${missing.join(', ')} with apt-get`);
	const install = () =>
		spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
	let r = install();
	if (r.status !== 0) {
		// A fresh machine may have no package lists yet.
		spawnSync('apt-get', ['update'], { stdio: 'ignore' });
		r = install();
	}
	if (r.status !== 0) throw new Error(`apt-get install ${missing.join(' ')} failed:\n${(r.stderr || r.stdout).slice(-2000)}`);
	// Debian starts the packaged services after installing them; this suite runs its own, so stop those.
	for (const service of ['redis-server', 'postgresql']) spawnSync('service', [service, 'stop'], { stdio: 'ignore' });
}

/** Redis on a free loopback port, data in `dir`, no persistence. */
export async function startRedis({ dir, port } = {}) {
	port = port ?? (await freePort());
	fs.mkdirSync(dir, { recursive: true });
	const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], {
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let log = '';
	child.stdout.on('data', (d) => (log += d));
	child.stderr.on('data', (d) => (log += d));
	await waitFor(() => /Ready to accept connections/.test(log), () => child.exitCode !== null, `redis-server on ${port}`, () => log);
	return {
		host: '127.0.0.1',
		port,
		async stop() {
			if (child.exitCode !== null) return;
			child.kill('SIGTERM');
			await new Promise((r) => child.once('exit', r));
		},
	};
}

/**
 * PostgreSQL on a free loopback port with a fresh cluster in `dir` (initdb), one database for n8n.
 * As root, the cluster belongs to Debian's `postgres` user (PostgreSQL refuses to run as root).
 */
export async function startPostgres({ dir, port } = {}) {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL server programs not found under /usr/lib/postgresql');
	port = port ?? (await freePort());
	const data = path.join(dir, 'data');
	fs.mkdirSync(dir, { recursive: true });
	const asRoot = process.getuid?.() === 0;
	const run = (program, args) => {
		const argv = asRoot ? ['runuser', '-u', 'postgres', '--', path.join(bin, program), ...args] : [path.join(bin, program), ...args];
		return spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', cwd: dir });
	};
	if (asRoot) {
		spawnSync('chown', ['-R', 'postgres:postgres', dir]);
		// mkdtemp makes folders only their owner may enter: let the postgres user through to its own.
		for (let d = path.dirname(dir); d !== path.dirname(d); d = path.dirname(d)) {
			if ((fs.statSync(d).mode & 0o001) === 0) fs.chmodSync(d, fs.statSync(d).mode | 0o011);
		}
	}
	const password = 'n8n-queue-e2e';
	const pwFile = path.join(dir, 'pw');
	fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
	if (asRoot) spawnSync('chown', ['postgres:postgres', pwFile]);
	let r = run('initdb', ['-D', data, '-U', 'n8n', '--auth=scram-sha-256', `--pwfile=${pwFile}`, '-E', 'UTF8', '--no-sync']);
	if (r.status !== 0) throw new Error(`initdb failed:\n${r.stdout}${r.stderr}`);
	// Sockets in the folder (not /var/run/postgresql, which needs the system service's directory).
	const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=200`;
	r = run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'postgres.log'), '-w', '-t', '60', 'start']);
	if (r.status !== 0) throw new Error(`pg_ctl start failed:\n${r.stdout}${r.stderr}\n${readTail(path.join(dir, 'postgres.log'))}`);
	const database = 'n8n';
	r = spawnSync(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', database], {
		encoding: 'utf8',
		env: { ...process.env, PGPASSWORD: password },
	});
	if (r.status !== 0) throw new Error(`createdb failed:\n${r.stdout}${r.stderr}`);
	return {
		host: '127.0.0.1',
		port,
		user: 'n8n',
		password,
		database,
		/** The rows a query returns, as JSON (psql of the same PostgreSQL, the query wrapped in json_agg). */
		async rows(sql) {
			const result = spawnSync(path.join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', '-d', database, '-At', '-c', `SELECT coalesce(json_agg(q), '[]') FROM (${sql}) q`], {
				encoding: 'utf8',
				env: { ...process.env, PGPASSWORD: password },
			});
			if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
			return JSON.parse(result.stdout);
		},
		async stop() {
			run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
		},
	};
}

function readTail(file) {
	try {
		return fs.readFileSync(file, 'utf8').slice(-2000);
	} catch {
		return '';
	}
}

async function waitFor(ready, failed, what, log, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (ready()) return;
		if (failed()) throw new Error(`${what} exited:\n${log().slice(-2000)}`);
		await sleep(50);
	}
	throw new Error(`${what} not ready after ${timeoutMs} ms:\n${log().slice(-2000)}`);
}

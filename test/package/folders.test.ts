// Imports between the repository's top-level folders go one way (issue 25): no two folders import each other,
// and tooling/, the library scripts/, e2e/, bench/ and test/ share, imports none of them. An "import" is a
// relative specifier (import, export … from, import(), require, require.resolve) or a path built from the
// repository's root (`join(REPO_ROOT, 'tooling', …)`: how plain-JavaScript scripts reach TypeScript and
// how child processes are launched).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';

const REPO = resolve(__dirname, '..', '..');
const SOURCE = /\.(ts|mjs|cjs|js)$/;
const NOT_SOURCE_FOLDERS = new Set(['node_modules', 'dist', 'coverage', 'results']);
const RELATIVE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire(?:\.resolve)?\s*\(\s*)['"](\.{1,2}\/[^'"]*)['"]/g;
const FROM_ROOT = /\b(?:join|resolve)\(\s*(?:REPO_ROOT|REPO|ROOT|repo|root)\s*,\s*['"]([\w.-]+)['"]/g;
/** What tooling/ serves; importing any of them would make it depend on its users. */
const TOOLING_USERS = ['bench', 'e2e', 'scripts', 'test'];

function topLevelFolders(root: string): string[] {
	return readdirSync(root, { withFileTypes: true })
		.filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !NOT_SOURCE_FOLDERS.has(entry.name))
		.map((entry) => entry.name);
}

function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return NOT_SOURCE_FOLDERS.has(entry.name) ? [] : sourceFiles(path);
		return SOURCE.test(entry.name) ? [path] : [];
	});
}

/** The code of a file without its comment lines, which name other folders' files freely. */
function code(file: string): string {
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
		.join('\n');
}

/** Every "from → to" pair of top-level folders, with the files that make it. */
function folderImports(root: string): Map<string, string[]> {
	const folders = topLevelFolders(root);
	const edges = new Map<string, string[]>();
	for (const from of folders) {
		for (const file of sourceFiles(join(root, from))) {
			const text = code(file);
			const targets = [
				...[...text.matchAll(RELATIVE)].map((match) => resolve(dirname(file), match[1])),
				...[...text.matchAll(FROM_ROOT)].map((match) => join(root, match[1])),
			];
			for (const target of targets) {
				const to = relative(root, target).split(sep)[0];
				if (to === from || !folders.includes(to)) continue;
				const key = `${from} → ${to}`;
				edges.set(key, [...new Set([...(edges.get(key) ?? []), relative(root, file)])]);
			}
		}
	}
	return edges;
}

/** Pairs of folders that import each other, each as `a ⇄ b` with the files on both sides. */
function backAndForth(edges: Map<string, string[]>): string[] {
	return [...edges.keys()]
		.map((key) => key.split(' → '))
		.filter(([from, to]) => from < to && edges.has(`${to} → ${from}`))
		.map(([a, b]) => `${a} ⇄ ${b}: ${edges.get(`${a} → ${b}`)!.join(', ')} | ${edges.get(`${b} → ${a}`)!.join(', ')}`);
}

function toolingImports(edges: Map<string, string[]>): string[] {
	return TOOLING_USERS.filter((user) => edges.has(`tooling → ${user}`)).map((user) => `tooling → ${user}: ${edges.get(`tooling → ${user}`)!.join(', ')}`);
}

describe('the repository', () => {
	const edges = folderImports(REPO);

	test('scripts, e2e, bench and test use the tooling library; the probe runs against the sandbox', () => {
		for (const key of ['scripts → tooling', 'e2e → tooling', 'bench → tooling', 'test → tooling', 'probe → sandbox']) {
			expect({ key, found: edges.has(key) }).toEqual({ key, found: true });
		}
	});

	test('no two top-level folders import each other', () => {
		expect(backAndForth(edges)).toEqual([]);
	});

	test('tooling/ imports none of the folders that use it', () => {
		expect(toolingImports(edges)).toEqual([]);
	});
});

test('the scan finds a folder pair that imports both ways, and tooling importing its users', () => {
	const root = mkdtempSync(join(tmpdir(), 'rubika-folders-'));
	const files: Record<string, string> = {
		'probe/run.ts': "import { startSandbox } from '../sandbox';\n",
		'sandbox/index.ts': "// import { ignored } from '../probe/run';\nexport { answerOf } from '../probe/client';\n",
		'probe/client.ts': 'export const answerOf = 1;\n',
		'tooling/world.mjs': "const CHILD = path.join(REPO_ROOT, 'scripts', 'child.cjs');\n",
		'scripts/child.cjs': "require('../sandbox/index.ts');\n",
		'e2e/run.mjs': "const { createWorld } = await import('../tooling/world.mjs');\n",
	};
	try {
		for (const [file, text] of Object.entries(files)) {
			mkdirSync(dirname(join(root, file)), { recursive: true });
			writeFileSync(join(root, file), text);
		}
		const found = folderImports(root);
		expect([...found.keys()].sort()).toEqual(['e2e → tooling', 'probe → sandbox', 'sandbox → probe', 'scripts → sandbox', 'tooling → scripts']);
		expect(backAndForth(found)).toEqual(['probe ⇄ sandbox: probe/run.ts | sandbox/index.ts']);
		expect(toolingImports(found)).toEqual(['tooling → scripts: tooling/world.mjs']);
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
});

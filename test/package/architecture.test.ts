/**
 * A newcomer's walk through docs/ARCHITECTURE.md: every file and folder its tables and checklists name exists.
 * A name is a backticked path: one with a slash or a file extension. It starts at the repository's root
 * when its first part is there (`nodes/shared/`); a shorter one (`call.ts`, `web/`) is in the folder of the
 * first path of its row or item. `<resource>` and `*` stand for any one part, `**` for
 * any depth, and at least one file must fit.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { ROOT, readDocument, withoutFences } from './markdown';

const ARCHITECTURE = 'docs/ARCHITECTURE.md';
const FILE_EXTENSION = /\.(ts|js|mjs|cjs|json|md|html|css|svg|yml)$/;

/** The paths a row or item names, each resolved from the root; code, names and addresses are left out. */
function pathsOf(row: string): string[] {
	const resolved: string[] = [];
	let base: string | undefined;
	for (const [, name] of row.matchAll(/`([^`]+)`/g)) {
		if (!/^[\w.\-/<>*]+$/.test(name) || !(name.includes('/') || FILE_EXTENSION.test(name))) continue;
		if (base === undefined) base = name.endsWith('/') ? name : `${dirname(name)}/`;
		resolved.push(existsSync(join(ROOT, name.split('/')[0])) ? name : join(base, name));
	}
	return resolved;
}

/** Whether a file or folder fits `path`, its wildcards included. */
function exists(path: string, folder = ROOT): boolean {
	const [part, ...rest] = path.replace(/\/$/, '').split('/');
	if (part === undefined || part === '') return true;
	if (part === '**') return exists(rest.join('/'), folder) || subfolders(folder).some((sub) => exists(path, join(folder, sub)));
	if (!/[<*]/.test(part)) return existsSync(join(folder, part)) && (rest.length === 0 || exists(rest.join('/'), join(folder, part)));
	const pattern = new RegExp(`^${part.replace(/\./g, '\\.').replace(/<[^>]+>|\*/g, '[^/]+')}$`);
	const names = existsSync(folder) && statSync(folder).isDirectory() ? readdirSync(folder) : [];
	return names.filter((name) => pattern.test(name)).some((name) => rest.length === 0 || exists(rest.join('/'), join(folder, name)));
}

const subfolders = (folder: string) => readdirSync(folder).filter((name) => statSync(join(folder, name)).isDirectory());

/** The table rows (header and rule left out) and list items of the page, each with the heading above it. */
function rows(markdown: string): Array<{ section: string; row: string }> {
	let section = '';
	const found: Array<{ section: string; row: string }> = [];
	for (const line of withoutFences(markdown).split('\n')) {
		if (line.startsWith('#')) section = line.replace(/^#+\s*/, '');
		else if (/^\|\s*-/.test(line)) found.pop(); // the line above was the header
		else if (line.startsWith('|') || /^\s*(-|\d+\.)\s/.test(line)) found.push({ section, row: line });
		else if (/^\s+\S/.test(line) && found.at(-1)?.row.startsWith('|') === false) found[found.length - 1].row += ` ${line.trim()}`; // an item's next line
	}
	return found;
}

describe('the names a row gives', () => {
	test('are paths from the root, or in the folder of the first path of the row', () => {
		const row = '| x | `nodes/Rubika/helpers/keypadFields.ts`, `keypadRows.ts`, `nodes/shared/html.ts`, `web/` (`web/app.js`) |';
		expect(pathsOf(row)).toEqual([
			'nodes/Rubika/helpers/keypadFields.ts',
			'nodes/Rubika/helpers/keypadRows.ts',
			'nodes/shared/html.ts',
			'nodes/Rubika/helpers/web/',
			'nodes/Rubika/helpers/web/app.js',
		]);
		expect(pathsOf('| `tooling/` | `scripts/` share `install-n8n.mjs` |')).toEqual(['tooling/', 'scripts/', 'tooling/install-n8n.mjs']);
	});

	test('leave out code, identifiers, commands and addresses', () => {
		expect(pathsOf('| `{base}/v3/{token}/{method}`, `RubikaMethod`, `npm run probe`, `<field>: <problem> [item N]`, `startSandbox({ stateFile })` |')).toEqual([]);
	});

	test('fit with their wildcards, and a moved file does not', () => {
		expect(exists('nodes/Rubika/actions/<resource>/<operation>.operation.ts')).toBe(true);
		expect(exists('test/**/architecture.test.ts')).toBe(true);
		expect(exists('nodes/Rubika/actions/<resource>/architecture.test.ts')).toBe(false);
		expect(exists('nodes/shared/transport/callRubika.ts')).toBe(false);
	});
});

describe(ARCHITECTURE, () => {
	const found = rows(readDocument(ARCHITECTURE));

	test('has tables and checklists whose rows name files', () => {
		const sections = new Set(found.filter(({ row }) => pathsOf(row).length > 0).map(({ section }) => section));
		expect([...sections]).toEqual(expect.arrayContaining(['Where does it happen?', 'Layout', 'The sandbox', 'Add an operation', 'Support a new n8n version']));
	});

	test.each(found.filter(({ row }) => pathsOf(row).length > 0))('$section: $row', ({ row }) => {
		const missing = pathsOf(row).filter((path) => !exists(path));
		expect(missing).toEqual([]);
	});
});

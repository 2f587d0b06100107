/**
 * Every documentation link the package shows in n8n (the nodes' codex files, the credential) and every
 * link between the repository's own documents leads somewhere: the file exists, and an #anchor names a
 * heading of that file, slugged the way GitHub slugs headings. The links n8n's editor opens still lead there
 * once n8n has added its tracking query to them, and the pages they open cover their node.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

import type { INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { RubikaApi } from '../../credentials/RubikaApi.credentials';
import { RESOURCES } from '../../nodes/Rubika/actions';
import { Rubika } from '../../nodes/Rubika/Rubika.node';
import { RubikaTrigger } from '../../nodes/RubikaTrigger/RubikaTrigger.node';
import { ROOT, readDocument, withoutFences } from './markdown';

const REPOSITORY = 'https://github.com/n8n-nodes-rubika/n8n-nodes-rubika';

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	let inFence = false;
	for (const line of markdown.split('\n')) {
		if (/^\s*```/.test(line)) inFence = !inFence;
		const heading = !inFence && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const text = heading[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
		const slug = text
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return anchors;
}

/** Where a link leads: a repository file (relative to the root) and an anchor, or undefined for other sites. */
function target(link: string, fromFile: string): { file: string; anchor?: string } | undefined {
	let path = link;
	if (link.startsWith(REPOSITORY)) {
		path = link.slice(REPOSITORY.length).replace(/^\/blob\/main\//, '').replace(/^\//, '') || 'README.md';
		if (path.startsWith('#')) path = `README.md${path}`;
		return split(path, '');
	}
	if (/^[a-z]+:/i.test(link)) return undefined;
	return split(path, dirname(fromFile));
}

function split(path: string, base: string): { file: string; anchor?: string } {
	const [file, anchor] = path.split('#');
	return { file: file === '' ? '' : normalize(join(base, decodeURIComponent(file))), anchor };
}

function expectResolves(link: string, fromFile: string): void {
	const where = target(link, fromFile);
	if (!where) return;
	const file = where.file === '' ? fromFile : where.file;
	expect({ link, from: fromFile, exists: existsSync(join(ROOT, file)) }).toEqual({ link, from: fromFile, exists: true });
	if (where.anchor && file.endsWith('.md')) {
		const anchors = anchorsOf(readDocument(file));
		expect({ link, from: fromFile, anchorFound: anchors.has(where.anchor) }).toEqual({ link, from: fromFile, anchorFound: true });
	}
}

function markdownFiles(): string[] {
	const files = ['README.md', 'README.fa.md', 'CHANGELOG.md', 'BENCHMARKS.md'];
	for (const folder of ['docs', 'e2e', 'examples', 'sandbox', 'bench']) {
		if (!existsSync(join(ROOT, folder))) continue;
		for (const name of readdirSync(join(ROOT, folder))) if (name.endsWith('.md')) files.push(join(folder, name));
	}
	return files.filter((file) => existsSync(join(ROOT, file)));
}

test('the GitHub slugs of headings are computed as GitHub does', () => {
	expect([...anchorsOf('## Rubika Trigger\n### Send and Wait for Response\n## Triggers\n## Triggers')]).toEqual([
		'rubika-trigger',
		'send-and-wait-for-response',
		'triggers',
		'triggers-1',
	]);
});

test('every documentation link of the nodes and the credential leads to a file and a heading that exist', () => {
	const links: Array<[string, string]> = [[new RubikaApi().documentationUrl, 'credentials/RubikaApi.credentials.ts']];
	for (const folder of readdirSync(join(ROOT, 'nodes'))) {
		for (const name of readdirSync(join(ROOT, 'nodes', folder))) {
			if (!name.endsWith('.node.json')) continue;
			const codex = JSON.parse(readFileSync(join(ROOT, 'nodes', folder, name), 'utf8')) as {
				resources: Record<string, Array<{ url: string }>>;
			};
			for (const list of Object.values(codex.resources)) for (const { url } of list) links.push([url, `nodes/${folder}/${name}`]);
		}
	}
	// The credential's, and each node's page and its credential page (two nodes).
	expect(links.length).toBe(5);
	for (const [link, from] of links) {
		expect(link.startsWith(REPOSITORY)).toBe(true);
		expectResolves(link, from);
	}
});

test('every link between the repository\'s documents leads to a file and a heading that exist', () => {
	let checked = 0;
	for (const file of markdownFiles()) {
		// Code (fenced and inline) shows Markdown syntax, not links.
		const text = withoutFences(readDocument(file)).replace(/`[^`\n]*`/g, '');
		for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
			expectResolves(match[1], relative(ROOT, join(ROOT, file)));
			checked++;
		}
	}
	expect(checked).toBeGreaterThan(20);
});

// --- The links as n8n's editor opens them --------------------------------------------------------------

interface Codex {
	resources?: { primaryDocumentation?: Array<{ url: string }>; credentialDocumentation?: Array<{ url: string }> };
}

/**
 * The address the node panel's "Docs" link opens, built as n8n's editor builds it (useNodeDocsUrl in
 * n8n-editor-ui, the same in 2.8.4 and 2.41.1): a description's documentationUrl starting with "http" as it
 * is; else the codex's first primaryDocumentation URL with "?" and tracking parameters appended as text, so
 * that after a #fragment they become part of the fragment; else the package's npm page.
 */
function nodeDocsUrlAsN8nBuildsIt(type: { name: string; documentationUrl?: string; codex?: Codex }): string {
	if (type.documentationUrl?.startsWith('http')) return type.documentationUrl;
	const utm = new URLSearchParams({ utm_source: 'n8n_app', utm_medium: 'node_settings_modal-credential_link', utm_campaign: type.name });
	const primary = type.codex?.resources?.primaryDocumentation?.[0]?.url;
	if (primary) return `${primary}?${utm.toString()}`;
	return `https://www.npmjs.com/package/${type.name.split('.')[0]}`;
}

/** The credential dialog's documentation link (n8n-editor-ui, 2.8.4 and 2.41.1): outside docs.n8n.io, as it is. */
function credentialDocsUrlAsN8nBuildsIt(documentationUrl: string): string {
	const url = new URL(documentationUrl);
	if (url.hostname !== 'docs.n8n.io') return documentationUrl;
	url.searchParams.set('utm_source', 'n8n_app');
	return url.href;
}

/** The repository file a GitHub address of this repository shows (README.md for the repository itself). */
function repositoryFile(address: URL): string {
	const path = address.pathname.replace(/^\/n8n-nodes-rubika\/n8n-nodes-rubika\/?/, '').replace(/^blob\/main\//, '');
	return path === '' ? 'README.md' : decodeURIComponent(path);
}

/** Each node type as n8n loads it: its description, named with the package, with its codex. */
function nodeTypes(): Array<{ node: string; type: INodeTypeDescription & { codex: Codex } }> {
	const codexOf = (folder: string, file: string) => JSON.parse(readFileSync(join(ROOT, 'nodes', folder, file), 'utf8')) as Codex;
	const found: Array<{ node: string; type: INodeTypeDescription & { codex: Codex } }> = [];
	const add = (node: string, folder: string, description: INodeTypeDescription) =>
		found.push({ node, type: { ...description, name: `n8n-nodes-rubika.${description.name}`, codex: codexOf(folder, `${folder}.node.json`) } });
	add('Rubika', 'Rubika', new Rubika().description);
	add('Rubika Trigger', 'RubikaTrigger', new RubikaTrigger().description);
	return found;
}

test('n8n appends its tracking query after a #fragment, where the browser reads it as part of the fragment', () => {
	const built = nodeDocsUrlAsN8nBuildsIt({ name: 'n8n-nodes-rubika.rubikaTrigger', codex: { resources: { primaryDocumentation: [{ url: `${REPOSITORY}#rubika-trigger` }] } } });
	const url = new URL(built);
	expect(url.hash).toBe('#rubika-trigger?utm_source=n8n_app&utm_medium=node_settings_modal-credential_link&utm_campaign=n8n-nodes-rubika.rubikaTrigger');
	expect(url.search).toBe('');
});

test.each(nodeTypes())('$node: the Docs link n8n opens has no fragment and leads to a page of the repository', ({ type }) => {
	const built = nodeDocsUrlAsN8nBuildsIt(type);
	const url = new URL(built);
	expect({ built, hash: url.hash }).toEqual({ built, hash: '' });
	expect(url.searchParams.get('utm_source')).toBe('n8n_app');
	expect(`${url.origin}${url.pathname}`.startsWith(REPOSITORY)).toBe(true);
	const file = repositoryFile(url);
	expect({ built, file, exists: existsSync(join(ROOT, file)) }).toEqual({ built, file, exists: true });
});

test('the credential\'s link and every link of the codex files have no fragment either', () => {
	const credential = credentialDocsUrlAsN8nBuildsIt(new RubikaApi().documentationUrl);
	const links = [credential, ...nodeTypes().flatMap(({ type }) => Object.values(type.codex.resources ?? {}).flatMap((list) => list.map(({ url }) => url)))];
	for (const link of links) {
		const url = new URL(link);
		expect({ link, hash: url.hash }).toEqual({ link, hash: '' });
		expect({ link, exists: existsSync(join(ROOT, repositoryFile(url))) }).toEqual({ link, exists: true });
	}
	expect(repositoryFile(new URL(credential))).toBe('docs/credentials.md');
});

/**
 * The first column of the first table under the heading of `resource` (English `### Message`, Persian
 * `### پیام (Message)`), footnote marks dropped.
 */
function operationTable(markdown: string, resource: string): string[] {
	const lines = markdown.split('\n');
	const heading = lines.findIndex((line) => line === `### ${resource}` || (line.startsWith('### ') && line.endsWith(`(${resource})`)));
	if (heading < 0) return [];
	const start = lines.findIndex((line, index) => index > heading && line.startsWith('|'));
	const table = lines.slice(start + 2);
	const end = table.findIndex((line) => !line.startsWith('|'));
	return table.slice(0, end < 0 ? undefined : end).map((line) => line.split('|')[1].replace(/[¹²³]/g, '').trim());
}

test.each(['README.md', 'README.fa.md'])("%s: each resource's table names every operation of the resource", (file) => {
	const markdown = readDocument(file);
	for (const resource of RESOURCES) {
		const expected = resource.operations.map((operation) => operation.name).sort();
		expect({ resource: resource.name, listed: operationTable(markdown, resource.name).sort() }).toEqual({ resource: resource.name, listed: expected });
	}
});

describe("the action node's page", () => {
	const page = readDocument('docs/rubika-node.md');
	const rowOf = (first: string) => page.split('\n').find((line) => line.startsWith(`| ${first} |`)) ?? '';

	test('names every operation in the row of its resource', () => {
		for (const resource of RESOURCES) {
			const listed = rowOf(resource.name).split('|')[2]?.split(',').map((name) => name.trim()) ?? [];
			expect({ resource: resource.name, listed: [...listed].sort() }).toEqual({ resource: resource.name, listed: resource.operations.map((operation) => operation.name).sort() });
		}
	});

	test("lists every button type as the node names it, with Rubika's name", () => {
		const keypad = new Rubika().description.properties.find((property) => property.name === 'inlineKeypad');
		const rows = (keypad?.options?.[0] as { values: Array<{ name: string; options?: Array<{ values?: Array<{ name: string; options?: unknown }> }> }> }).values;
		const button = rows.find((entry) => entry.name === 'buttons')?.options?.[0]?.values ?? [];
		const types = (button.find((field) => field.name === 'type')?.options ?? []) as INodePropertyOptions[];
		expect(types.length).toBeGreaterThan(20);
		for (const { name, value } of types) expect({ name, row: rowOf(name).startsWith(`| ${name} | \`${value}\` |`) }).toEqual({ name, row: true });
	});
});

/**
 * Every documentation link the package shows in n8n (the nodes' codex files, the credential) and every
 * link between the repository's own documents leads somewhere: the file exists, and an #anchor names a
 * heading of that file, slugged the way GitHub slugs headings.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

import { RubikaApi } from '../../credentials/RubikaApi.credentials';

const ROOT = join(__dirname, '..', '..');
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
		const anchors = anchorsOf(readFileSync(join(ROOT, file), 'utf8'));
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
	expect(links.length).toBeGreaterThanOrEqual(7);
	for (const [link, from] of links) {
		expect(link.startsWith(REPOSITORY)).toBe(true);
		expectResolves(link, from);
	}
});

test('every link between the repository\'s documents leads to a file and a heading that exist', () => {
	let checked = 0;
	for (const file of markdownFiles()) {
		// Code (fenced and inline) shows Markdown syntax, not links.
		const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
		for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
			expectResolves(match[1], relative(ROOT, join(ROOT, file)));
			checked++;
		}
	}
	expect(checked).toBeGreaterThan(20);
});

// The example workflows in examples/: reading them, pointing their Rubika nodes at a credential, and the
// few test-only changes the e2e suite makes. Shared by `npm start` (which imports them) and the e2e tests
// (which import and run them), so both see the same workflows.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_NAME, REPO_ROOT } from './n8n.mjs';

const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

/** The credential the example files name; `npm start` and the e2e suite import one with this id and name. */
export const EXAMPLE_CREDENTIAL = Object.freeze({ id: 'rubikaStartCred1', name: 'Rubika (npm start)' });

/** A stable id for a workflow file without one, so that a re-import updates instead of duplicating. */
function fallbackId(file) {
	return `rbx${createHash('sha256').update(file).update('\0').digest('hex').slice(0, 13)}`;
}

/**
 * The OpenAI credential examples/ai-assistant.json names. The e2e suite imports one with this id pointing at
 * its fake model server (lib/fake-model.mjs); `npm start` has no model to offer, so there the user picks one.
 */
export const OPENAI_EXAMPLE_CREDENTIAL = Object.freeze({ id: 'openAiExample001', name: 'OpenAI (example)' });

/**
 * The n8n API credential examples/retry-crashed-executions.json names. It holds an API key of the n8n it
 * runs in, which exists only once that n8n has an owner: the e2e world imports it when a test asks for it
 * (world.n8nApiCredential()); `npm start` leaves it to the user.
 */
export const N8N_API_EXAMPLE_CREDENTIAL = Object.freeze({ id: 'n8nApiExample001', name: 'n8n API (example)' });

/**
 * A copy of the workflow whose Set-node field `apiUrl` (where an example calls n8n's own public API, as in
 * the retry recipe's Settings) is `apiUrl`.
 */
export function withApiUrl(workflow, apiUrl) {
	const copy = structuredClone(workflow);
	for (const node of copy.nodes) {
		for (const field of node.parameters?.assignments?.assignments ?? []) if (field.name === 'apiUrl') field.value = apiUrl;
	}
	return copy;
}

/** Whether a node belongs to this package (its credential is the one to rewrite). */
function isRubikaNode(node) {
	return String(node.type).startsWith(`${PACKAGE_NAME}.`) || !!node.credentials?.rubikaApi;
}

/** A copy of the workflow whose Rubika nodes use `credential` ({ id, name }). */
function withCredential(workflow, credential = EXAMPLE_CREDENTIAL) {
	const copy = structuredClone(workflow);
	for (const node of copy.nodes ?? []) {
		if (isRubikaNode(node)) node.credentials = { ...(node.credentials ?? {}), rubikaApi: { id: credential.id, name: credential.name } };
	}
	return copy;
}

/**
 * Reads every `*.json` of `dir` that is a workflow. Returns [{ file, workflow, error? }] sorted by file
 * name; a file that is not valid JSON comes back with `error` (callers decide whether that is fatal).
 */
export function readExamples({ dir = EXAMPLES_DIR, credential = EXAMPLE_CREDENTIAL } = {}) {
	if (!fs.existsSync(dir)) return [];
	const out = [];
	for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
		let workflow;
		try {
			workflow = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
		} catch (e) {
			out.push({ file, error: `not valid JSON: ${e.message}` });
			continue;
		}
		if (!workflow || !Array.isArray(workflow.nodes)) {
			out.push({ file, error: 'not a workflow (no "nodes" array)' });
			continue;
		}
		workflow = withCredential(workflow, credential);
		workflow.id = workflow.id || fallbackId(file);
		// Imports are always inactive in n8n 2.x; say so instead of relying on it.
		workflow.active = false;
		out.push({ file, workflow });
	}
	return out;
}

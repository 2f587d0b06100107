/**
 * The shape of an answer, to hold a real Rubika's answers against the sandbox's: every path in the JSON with
 * the kinds of value found there. Ids, times and texts differ between any two services and are not compared;
 * a key named `status` is compared by its value, since Rubika's statuses ("OK", "INVALID_INPUT", "Done") are
 * part of what a client relies on.
 */

/** Path (`data.chat.chat_id`, `data.updates[].type`; '' for the whole body) → kinds of value seen there. */
export type Shape = Map<string, Set<string>>;

export interface ShapeDifference {
	/** Where, e.g. `data.chat.last_name`; `(body)` for the whole answer. */
	path: string;
	real: string;
	sandbox: string;
}

export function shapeOf(value: unknown): Shape {
	const shape: Shape = new Map();
	const visit = (item: unknown, path: string, key: string): void => {
		const kinds = shape.get(path) ?? new Set<string>();
		shape.set(path, kinds);
		if (key === 'status' && typeof item === 'string') kinds.add(JSON.stringify(item));
		else if (item === null) kinds.add('null');
		else if (Array.isArray(item)) {
			kinds.add('list');
			for (const element of item) visit(element, `${path}[]`, '');
		} else if (typeof item === 'object') {
			kinds.add('object');
			for (const [name, child] of Object.entries(item)) visit(child, path === '' ? name : `${path}.${name}`, name);
		} else kinds.add(typeof item);
	};
	visit(value, '', '');
	return shape;
}

/**
 * Where two shapes differ, outermost first: below a path that differs nothing more is reported (a `null` that
 * is an object elsewhere is one difference, not one per field). The elements of a list that is empty on one
 * side cannot be compared and are passed over.
 */
export function shapeDifferences(real: Shape, sandbox: Shape): ShapeDifference[] {
	const paths = [...new Set([...real.keys(), ...sandbox.keys()])].sort((a, b) => a.length - b.length);
	const differing = new Set<string>();
	const differences: ShapeDifference[] = [];
	for (const path of paths) {
		if (path !== '' && differing.has(parentOf(path))) {
			differing.add(path);
			continue;
		}
		if (inEmptyList(path, real) || inEmptyList(path, sandbox)) continue;
		const [seenReal, seenSandbox] = [describe(real.get(path)), describe(sandbox.get(path))];
		if (seenReal === seenSandbox) continue;
		differing.add(path);
		differences.push({ path: path === '' ? '(body)' : path, real: seenReal, sandbox: seenSandbox });
	}
	return differences;
}

function parentOf(path: string): string {
	if (path.endsWith('[]')) return path.slice(0, -2);
	const dot = path.lastIndexOf('.');
	return dot < 0 ? '' : path.slice(0, dot);
}

/** Whether `path` lies inside a list that `shape` has, but empty. */
function inEmptyList(path: string, shape: Shape): boolean {
	for (let at = path.indexOf('[]'); at >= 0; at = path.indexOf('[]', at + 2)) {
		const list = path.slice(0, at);
		if (shape.has(list) && !shape.has(`${list}[]`)) return true;
	}
	return false;
}

function describe(kinds: Set<string> | undefined): string {
	return kinds ? [...kinds].sort().join(' or ') : '(absent)';
}

/** The page's only ways to the sandbox: the admin API (`/_sandbox/…`), its user actions and file uploads. */

export async function admin(method, path, body) {
	const response = await fetch('/_sandbox' + path, {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const data = await response.json().catch(() => ({}));
	if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
	return data;
}

export const action = (name, body) => admin('POST', '/actions/' + name, body);

/** Stores a file the person picked (`type` is its Rubika file type); the answer holds its `file_id`. */
export async function uploadFile(file, type) {
	const response = await fetch('/_sandbox/files', {
		method: 'POST',
		headers: { 'Content-Type': file.type || 'application/octet-stream', 'X-File-Name': encodeURIComponent(file.name), 'X-File-Type': type },
		body: file,
	});
	const stored = await response.json();
	if (!response.ok) throw new Error(stored.error || `HTTP ${response.status}`);
	return stored;
}

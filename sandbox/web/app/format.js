/**
 * Turning data into text: message formatting and previews from render.js (a classic script loaded before
 * the modules, because jest require()s the same file), plus times, file sizes and message-id order.
 */

export const { renderText, previewText, isSafeUrl } = window.RubikaRender;

export function formatTime(seconds) {
	const date = new Date(Number(seconds) * 1000);
	return {
		short: date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }),
		full: date.toLocaleString(),
		iso: date.toISOString(),
	};
}

export function formatSize(bytes) {
	const size = Number(bytes);
	if (!Number.isFinite(size)) return '';
	if (size < 1024) return `${size} B`;
	if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
	return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

export function compareIds(a, b) {
	// Message ids are decimal strings longer than a double holds: compare as text, length first.
	return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

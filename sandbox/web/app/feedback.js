/** What the page tells the person: the toast, the error line under the composer, and `act`, a user action whose failure lands there. */

import { action } from './api.js';
import { el } from './dom.js';

let toastTimer;

export function toast(message, kind) {
	el.toast.textContent = message;
	el.toast.dataset.kind = kind || 'info';
	el.toast.hidden = false;
	clearTimeout(toastTimer);
	toastTimer = setTimeout(() => {
		el.toast.hidden = true;
	}, 6000);
}

export function showError(message) {
	el.error.textContent = message;
	el.error.hidden = !message;
}

export function reportFailure(error) {
	showError(error instanceof Error ? error.message : String(error));
}

export async function act(name, body) {
	showError('');
	try {
		return await action(name, body);
	} catch (error) {
		reportFailure(error);
		return null;
	}
}

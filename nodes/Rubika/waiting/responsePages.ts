/**
 * The pages a person sees after tapping a link of Send and Wait for Response: the form (Free Text, Custom
 * Form) and the confirmation that the answer was received. Self-contained HTML (no script, no outside
 * resource), every text escaped, `dir="auto"` so that Persian reads right to left, and `lang` taken from the
 * texts themselves (Persian where they use its letters, English otherwise) so that screen readers and fonts
 * pick the right language.
 */
import type { FormField } from './responseForm';
import { inputName } from './responseForm';

export interface PageTexts {
	title: string;
	description?: string;
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Tahoma,"Vazirmatn",sans-serif;
background:#f3f5f8;color:#1d2433;display:flex;justify-content:center;padding:32px 16px}
main{background:#fff;border-radius:14px;box-shadow:0 2px 14px rgba(20,30,60,.08);padding:28px;max-width:520px;width:100%}
h1{font-size:1.35rem;margin:0 0 8px}p{line-height:1.6;margin:0 0 16px;white-space:pre-wrap}
label{display:block;font-weight:600;margin:18px 0 6px}.required:after{content:" *";color:#c0392b}
input[type=text],input[type=email],input[type=number],input[type=date],select,textarea{width:100%;padding:10px 12px;
border:1px solid #cfd6e2;border-radius:8px;font:inherit}textarea{min-height:140px}
.check{display:flex;gap:8px;align-items:center;margin-top:18px}.check label{margin:0}
button{margin-top:24px;width:100%;padding:12px;border:0;border-radius:8px;background:#1565c0;color:#fff;font:inherit;
font-weight:600;cursor:pointer}.problems{background:#fdecea;color:#8a1c12;border-radius:8px;padding:10px 14px}
.mark{font-size:2.4rem;margin-bottom:8px}`;

function escapeHtml(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
}

/** Letters of the Arabic script, which Persian is written in. */
const PERSIAN_LETTERS = /[\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF]/;

/** The page's language: Persian when any of its texts is written in Persian letters, English otherwise. */
function pageLanguage(texts: string[]): 'fa' | 'en' {
	return texts.some((text) => PERSIAN_LETTERS.test(text)) ? 'fa' : 'en';
}

function page(title: string, body: string, texts: string[]): string {
	return `<!doctype html><html lang="${pageLanguage([title, ...texts])}" dir="auto"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main dir="auto">${body}</main></body></html>`;
}

/** "Your answer was received": shown once the execution has its answer. */
export function answerRecordedPage(texts: PageTexts, mark = '✓'): string {
	const description = texts.description ? `<p>${escapeHtml(texts.description)}</p>` : '';
	return page(
		texts.title,
		`<div class="mark" aria-hidden="true">${escapeHtml(mark)}</div><h1>${escapeHtml(texts.title)}</h1>${description}`,
		[texts.description ?? ''],
	);
}

/**
 * One button that posts the answer the opened link stands for, back to the address the page was opened at:
 * shown to a request that does not look like a person's browser, so that only a tap decides.
 */
export function confirmAnswerPage(texts: PageTexts, buttonLabel: string): string {
	return page(
		texts.title,
		`<h1>${escapeHtml(texts.title)}</h1><form method="post" enctype="multipart/form-data"><button type="submit">${escapeHtml(buttonLabel)}</button></form>`,
		[buttonLabel],
	);
}

/**
 * The form, posting back to the address it was opened at; `problems` are shown above it after a bad submit.
 * Sent as multipart/form-data: n8n 2.41 accepts nothing else for a send-and-wait form (HTTP 415).
 */
export function formPage(texts: PageTexts & { buttonLabel: string }, fields: FormField[], problems: string[] = [], values: Record<string, string> = {}): string {
	const intro = texts.description ? `<p>${escapeHtml(texts.description)}</p>` : '';
	const problemList = problems.length
		? `<div class="problems" role="alert">${problems.map((problem) => escapeHtml(problem)).join('<br>')}</div>`
		: '';
	const inputs = fields.map((field, index) => fieldHtml(field, index, values[inputName(index)] ?? '')).join('');
	return page(
		texts.title,
		`<h1>${escapeHtml(texts.title)}</h1>${intro}${problemList}<form method="post" enctype="multipart/form-data" accept-charset="utf-8">${inputs}<button type="submit">${escapeHtml(texts.buttonLabel)}</button></form>`,
		[texts.description ?? '', texts.buttonLabel, ...fields.map((field) => field.label)],
	);
}

function fieldHtml(field: FormField, index: number, value: string): string {
	const name = inputName(index);
	const required = field.required ? ' required' : '';
	const labelClass = field.required ? ' class="required"' : '';
	const label = `<label for="${name}"${labelClass}>${escapeHtml(field.label)}</label>`;
	const placeholder = field.placeholder ? ` placeholder="${escapeHtml(field.placeholder)}"` : '';
	switch (field.type) {
		case 'textarea':
			return `${label}<textarea id="${name}" name="${name}" dir="auto"${placeholder}${required}>${escapeHtml(value)}</textarea>`;
		case 'dropdown':
			return `${label}<select id="${name}" name="${name}"${required}><option value=""></option>${field.options
				.map((option) => `<option${option === value ? ' selected' : ''}>${escapeHtml(option)}</option>`)
				.join('')}</select>`;
		case 'checkbox':
			return `<div class="check"><input type="checkbox" id="${name}" name="${name}" value="true"${value === 'true' ? ' checked' : ''}${required}>${label}</div>`;
		default: {
			const bounds = [field.min === undefined ? '' : ` min="${escapeHtml(field.min)}"`, field.max === undefined ? '' : ` max="${escapeHtml(field.max)}"`].join('');
			const step = field.type === 'number' ? ' step="any"' : '';
			return `${label}<input type="${field.type}" id="${name}" name="${name}" dir="auto" value="${escapeHtml(value)}"${placeholder}${bounds}${step}${required}>`;
		}
	}
}

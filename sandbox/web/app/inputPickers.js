/**
 * What an input button opens, besides the date picker (datePicker.js): a text box, a number picker, a list of
 * items, "share my phone number" and a place picker, each built from the button's settings object
 * (docs/api-facts.md §11). Each returns `{node, note, value(), focusTarget()}` (and `submitLabel`, or `readOnly`
 * when there is nothing to send): `value()` is the answer's one field for the answer-button action. They stop
 * only what a phone's picker cannot do (a number outside the range, an item not in the list); what a person
 * could still type wrong is left for the sandbox to refuse, and its words show in the sheet and the error line.
 */

import { avatar, h } from './dom.js';

const latinDigits = window.RubikaJalali.latinDigits;
/** The sheet's heading names the answer's field (see index.html). */
const LABELLED_BY_TITLE = { 'aria-labelledby': 'input-sheet-title' };

/** Textbox (`button_textbox {type_line, type_keypad, place_holder, default_value}`): one line or several, a Number keypad. */
export function textbox(settings) {
	const multiLine = settings.type_line === 'MultiLine';
	const numbers = settings.type_keypad === 'Number';
	const field = h(multiLine ? 'textarea' : 'input', {
		...LABELLED_BY_TITLE,
		class: 'sheet-field',
		type: multiLine ? undefined : 'text',
		rows: multiLine ? '4' : undefined,
		dir: numbers ? 'ltr' : 'auto',
		placeholder: settings.place_holder === undefined ? undefined : String(settings.place_holder),
		inputmode: numbers ? 'decimal' : undefined,
		enterkeyhint: multiLine ? 'enter' : 'send',
		// One line: Enter sends (the form's own submit). Several lines: Enter is a new line, Ctrl+Enter sends.
		onkeydown: (event) => {
			if (multiLine && event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
				event.preventDefault();
				field.form.requestSubmit();
			}
		},
	});
	field.value = settings.default_value === undefined ? '' : String(settings.default_value);
	const type = (key) => {
		field.value = key === '⌫' ? field.value.slice(0, -1) : field.value + key;
		field.focus();
	};
	// Phones show a digit keypad for a Number Textbox; a desktop browser shows none, so the sheet draws one.
	const keypad = numbers
		? h(
				'div',
				{ class: 'digit-keypad', role: 'group', 'aria-label': 'Number keypad', dir: 'ltr' },
				['1', '2', '3', '4', '5', '6', '7', '8', '9', '-', '0', '.', '⌫'].map((key) =>
					h('button', { type: 'button', class: 'digit-key', 'aria-label': key === '⌫' ? 'Delete' : undefined, onclick: () => type(key) }, key),
				),
			)
		: null;
	const lines = multiLine ? 'several lines (Ctrl+Enter sends)' : 'one line';
	return {
		node: h('div', { class: 'textbox-answer' }, field, keypad),
		note: `Textbox: ${lines}${numbers ? ', a number' : ''}`,
		value: () => ({ text: field.value }),
		focusTarget: () => field,
	};
}

/** A number setting (strings in the API, Persian digits allowed), or undefined. */
function numberSetting(value) {
	const text = latinDigits(String(value ?? '')).trim();
	return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
}

function decimalPlaces(value) {
	const match = /\.(\d+)$/.exec(latinDigits(String(value ?? '')).trim());
	return match ? match[1].length : 0;
}

/**
 * NumberPicker (`button_number_picker {min_value, max_value, default_value}`): a wheel of the numbers in range,
 * the one before and after shown beside the picked one, − and +, the arrow keys, a slider. Steps of 1, or of the
 * smallest decimal the settings use (0.5 … 2.5 moves by 0.1).
 */
export function numberPicker(settings) {
	const decimals = Math.max(...[settings.min_value, settings.max_value, settings.default_value].map(decimalPlaces));
	const step = 10 ** -decimals;
	const min = numberSetting(settings.min_value) ?? 0;
	const max = Math.max(min, numberSetting(settings.max_value) ?? min + 100);
	const snap = (number) => Number(Math.min(max, Math.max(min, min + Math.round((number - min) / step) * step)).toFixed(decimals));
	const show = (number) => number.toFixed(decimals);
	let picked = snap(numberSetting(settings.default_value) ?? min);

	const range = { min: show(min), max: show(max), step: String(step) };
	// Typing shows the neighbours of what is typed so far; leaving the field (or a spin) snaps it into the range.
	const field = h('input', {
		...LABELLED_BY_TITLE,
		...range,
		type: 'number',
		class: 'number-value',
		inputmode: 'decimal',
		oninput: () => {
			const typed = Number(field.value);
			if (field.value !== '' && typed >= min && typed <= max) set(typed, false);
		},
		onchange: () => set(field.value === '' ? NaN : Number(field.value)),
	});
	const slider = h('input', { ...range, type: 'range', class: 'number-slider', 'aria-label': 'Slide to a number', oninput: () => set(Number(slider.value)) });
	const before = h('button', { type: 'button', class: 'number-neighbour', tabindex: '-1', 'aria-hidden': 'true', onclick: () => set(picked - step) });
	const after = h('button', { type: 'button', class: 'number-neighbour', tabindex: '-1', 'aria-hidden': 'true', onclick: () => set(picked + step) });
	const less = h('button', { type: 'button', class: 'icon-button number-step', 'aria-label': 'Decrease', onclick: () => set(picked - step) }, '−');
	const more = h('button', { type: 'button', class: 'icon-button number-step', 'aria-label': 'Increase', onclick: () => set(picked + step) }, '+');

	function set(number, rewrite = true) {
		picked = Number.isFinite(number) ? snap(number) : picked;
		slider.value = show(picked);
		if (rewrite) field.value = show(picked);
		before.textContent = show(snap(picked - step));
		after.textContent = show(snap(picked + step));
		// Past either end the wheel shows nothing there, but keeps its place so the picked number does not move.
		before.classList.toggle('past-end', picked <= min);
		after.classList.toggle('past-end', picked >= max);
		less.disabled = picked <= min;
		more.disabled = picked >= max;
	}
	set(picked);
	return {
		node: h(
			'div',
			{ class: 'number-picker', dir: 'ltr' },
			h('div', { class: 'number-row' }, less, h('div', { class: 'number-wheel' }, before, field, after), more),
			slider,
			h('p', { class: 'muted number-range', text: `From ${show(min)} to ${show(max)}` }),
		),
		note: `Number picker: ${show(min)} to ${show(max)}`,
		value: () => ({ number: show(picked) }),
		focusTarget: () => field,
	};
}

let pickerCount = 0;

/** Whether a text's first letter is of a right-to-left script (Persian, Arabic, Hebrew), as dir="auto" decides. */
function startsRightToLeft(text) {
	const letter = /[A-Za-z\u00C0-\u024F\u0370-\u04FF]|[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/.exec(text);
	return Boolean(letter) && !/[A-Za-z\u00C0-\u024F\u0370-\u04FF]/.test(letter[0]);
}

/** StringPicker (`button_string_picker {items, default_value}`): its items, one to pick. */
export function stringPicker(settings) {
	const items = Array.isArray(settings.items) ? settings.items.map(String) : [];
	const initial = items.includes(String(settings.default_value)) ? String(settings.default_value) : items[0];
	const name = `string-picker-${(pickerCount += 1)}`;
	// A list of Persian items reads from the right, its radio buttons on the right, as on a phone.
	const list = h(
		'div',
		{ ...LABELLED_BY_TITLE, class: 'choice-list', role: 'radiogroup', dir: items.length > 0 && startsRightToLeft(items[0]) ? 'rtl' : 'ltr' },
		items.length === 0
			? h('p', { class: 'muted', text: 'This picker has no items.' })
			: items.map((item) => h('label', { class: 'choice' }, h('input', { type: 'radio', name, value: item, checked: item === initial }), h('span', { dir: 'auto', text: item }))),
	);
	return {
		node: list,
		note: `Pick one of ${items.length}`,
		value: () => ({ item: (list.querySelector('input:checked') || { value: '' }).value }),
		focusTarget: () => list.querySelector('input:checked') || list.querySelector('input'),
	};
}

/**
 * The sandbox keeps no phone numbers, so each user gets a made-up Iranian mobile number of their own, the same
 * on every load: +98 912 and seven digits from their id.
 */
function demoPhoneNumber(userId) {
	let digits = 0;
	for (const char of String(userId)) digits = (digits * 31 + char.charCodeAt(0)) % 10_000_000;
	return '+98912' + String(digits).padStart(7, '0');
}

/** AskMyPhoneNumber, MyPhoneNumber: "share my phone number?", with the person's (made-up) number. */
export function phoneShare(user, botName) {
	const number = demoPhoneNumber(user.user_id);
	const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
	const shown = `${number.slice(0, 3)} ${number.slice(3, 6)} ${number.slice(6, 9)} ${number.slice(9)}`;
	return {
		node: h(
			'div',
			{ class: 'share-card' },
			avatar(user.user_id, name),
			h('span', {}, h('strong', { dir: 'auto', text: name }), h('span', { class: 'share-number', dir: 'ltr', text: shown })),
			h('p', { class: 'muted', text: `${botName} will see this number. It is made up for the demo: the sandbox keeps no phone numbers.` }),
		),
		note: `${botName} asks for your phone number`,
		submitLabel: 'Share my number',
		value: () => ({ phoneNumber: number }),
		focusTarget: () => null,
	};
}

/** Places to pick without a map (the sandbox runs offline): five Iranian landmarks. */
const PLACES = [
	{ name: 'Azadi Tower, Tehran', local: 'برج آزادی، تهران', latitude: '35.6997', longitude: '51.3380' },
	{ name: 'Naqsh-e Jahan Square, Isfahan', local: 'میدان نقش جهان، اصفهان', latitude: '32.6575', longitude: '51.6776' },
	{ name: 'Tomb of Hafez, Shiraz', local: 'آرامگاه حافظ، شیراز', latitude: '29.6257', longitude: '52.5584' },
	{ name: 'Imam Reza Shrine, Mashhad', local: 'حرم امام رضا، مشهد', latitude: '36.2880', longitude: '59.6157' },
	{ name: 'Grand Bazaar, Tabriz', local: 'بازار بزرگ تبریز', latitude: '38.0806', longitude: '46.2925' },
];

function settingPoint(point) {
	if (!point || typeof point !== 'object') return null;
	const [latitude, longitude] = [point.latitude, point.longitude].map((value) => latinDigits(String(value ?? '')).trim());
	return /^-?\d+(\.\d+)?$/.test(latitude) && /^-?\d+(\.\d+)?$/.test(longitude) ? { latitude, longitude } : null;
}

/**
 * Location, AskLocation (pick a place) and MyLocation, AskMyLocation (share where you are): no map, but the
 * button's own point (`button_location.default_pointer_location`), five landmarks, and latitude and longitude
 * to type. A `View` location button only shows its place.
 */
export function placePicker(settings, mine) {
	const suggested = settingPoint(settings.default_pointer_location) || settingPoint(settings.default_map_location);
	if (settings.type === 'View') {
		const where = suggested ? `${suggested.latitude}, ${suggested.longitude}` : 'no place given';
		return {
			node: h('p', { class: 'place-view' }, h('strong', { dir: 'auto', text: settings.title ? String(settings.title) : 'A place' }), h('span', { class: 'muted', dir: 'ltr', text: where })),
			note: 'This button only shows a place: there is nothing to send',
			readOnly: true,
			value: () => ({}),
			focusTarget: () => null,
		};
	}
	const places = [suggested && { name: "The bot's place", local: '', ...suggested }, ...PLACES].filter(Boolean);
	const name = `place-picker-${(pickerCount += 1)}`;
	const coordinate = (value) => h('input', { class: 'sheet-field', type: 'text', inputmode: 'decimal', dir: 'ltr', value, oninput: matchPlace });
	const latitude = coordinate(places[0].latitude);
	const longitude = coordinate(places[0].longitude);
	const choices = places.map((place, index) =>
		h(
			'label',
			{ class: 'choice' },
			h('input', {
				type: 'radio',
				name,
				checked: index === 0,
				onchange: () => {
					latitude.value = place.latitude;
					longitude.value = place.longitude;
				},
			}),
			h('span', { class: 'choice-text' }, h('span', { text: place.name }), place.local ? h('span', { class: 'muted', lang: 'fa', dir: 'rtl', text: place.local }) : null),
			h('span', { class: 'muted choice-extra', dir: 'ltr', text: `${place.latitude}, ${place.longitude}` }),
		),
	);
	// Typing coordinates picks whichever place has exactly them, or none.
	function matchPlace() {
		choices.forEach((choice, index) => {
			choice.querySelector('input').checked = places[index].latitude === latitude.value.trim() && places[index].longitude === longitude.value.trim();
		});
	}
	return {
		node: h(
			'div',
			{ class: 'place-picker' },
			h('div', { class: 'choice-list', role: 'radiogroup', 'aria-label': 'Places' }, choices),
			h('div', { class: 'coordinates' }, h('label', {}, 'Latitude', latitude), h('label', {}, 'Longitude', longitude)),
		),
		note: mine ? 'Share your location (no map here: pick a place or type one)' : 'Pick a place (no map here: pick one or type it)',
		submitLabel: mine ? 'Share my location' : 'Send this place',
		value: () => ({ location: { latitude: latitude.value.trim(), longitude: longitude.value.trim() } }),
		focusTarget: () => choices[0].querySelector('input'),
	};
}

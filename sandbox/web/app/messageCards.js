/** Message content other than text: file (with image preview), poll or quiz, location and contact cards. */

import { avatar, h, icon } from './dom.js';
import { formatSize } from './format.js';

export function fileCard(file) {
	const name = file.file_name || 'file';
	const href = `/files/${encodeURIComponent(file.file_id)}/${encodeURIComponent(name)}`;
	const isImage = /\.(png|jpe?g|gif|webp|svg)$/i.test(name);
	return h(
		'div',
		{ class: 'file-card' },
		isImage ? h('img', { src: href, alt: name, loading: 'lazy', class: 'file-preview' }) : null,
		h(
			'a',
			{ class: 'file-link', href, download: name },
			h('span', { class: 'file-icon' }, icon('file')),
			h('span', { class: 'file-text' }, h('span', { class: 'file-name', dir: 'auto', text: name }), h('span', { class: 'muted', text: `${formatSize(file.size)} · Download` })),
		),
	);
}

/**
 * A poll, with what the client libraries add (undocumented): a quiz marks its correct answer and shows
 * the explanation; "Multiple answers" and Anonymous/Public when the bot said so.
 */
export function pollCard(poll) {
	const status = poll.poll_status || {};
	const percents = status.percent_vote_options || [];
	const quiz = poll.type === 'Quiz';
	const kind = `${status.state === 'Closed' ? 'Closed ' : ''}${quiz ? 'quiz' : 'poll'}`;
	const facts = [
		kind.charAt(0).toUpperCase() + kind.slice(1),
		poll.is_anonymous === true ? 'Anonymous' : poll.is_anonymous === false ? 'Public' : null,
		poll.allows_multiple_answers === true ? 'Multiple answers' : null,
		`${status.total_vote || 0} votes`,
	];
	return h(
		'figure',
		{ class: quiz ? 'poll quiz' : 'poll' },
		h('figcaption', {}, icon('poll'), quiz ? h('span', { class: 'poll-kind', text: 'Quiz' }) : null, h('span', { dir: 'auto', text: poll.question })),
		h(
			'ol',
			{ class: 'poll-options' },
			poll.options.map((option, index) => {
				const percent = Number(percents[index] || 0);
				const correct = quiz && poll.correct_option_index === index;
				const bar = h('span', { class: 'poll-bar', 'aria-hidden': 'true' });
				bar.style.setProperty('--percent', `${Math.max(0, Math.min(100, percent))}%`);
				const classes = [status.selection_index === index ? 'chosen' : '', correct ? 'correct' : ''].filter(Boolean).join(' ');
				return h(
					'li',
					{ class: classes },
					bar,
					h('span', { class: 'poll-option', dir: 'auto', text: option }),
					correct ? h('span', { class: 'poll-correct', title: 'Correct answer', text: '✓ Correct' }) : null,
					h('span', { class: 'poll-percent', text: `${percent}%` }),
				);
			}),
		),
		quiz && poll.explanation ? h('p', { class: 'poll-explanation', dir: 'auto' }, h('span', { 'aria-hidden': 'true', text: '💡 ' }), poll.explanation) : null,
		h('p', { class: 'muted poll-status', text: facts.filter(Boolean).join(' · ') }),
	);
}

export function locationCard(place) {
	const lat = Number(place.latitude);
	const lon = Number(place.longitude);
	const href = `https://www.openstreetmap.org/?mlat=${encodeURIComponent(lat)}&mlon=${encodeURIComponent(lon)}#map=16/${lat}/${lon}`;
	return h(
		'a',
		{ class: 'location-card', href, target: '_blank', rel: 'noopener noreferrer' },
		h('span', { class: 'pin' }, icon('pin')),
		h('span', {}, h('strong', { text: 'Location' }), h('span', { class: 'muted', text: `${place.latitude}, ${place.longitude}` })),
	);
}

export function contactCard(contact) {
	const name = [contact.first_name, contact.last_name].filter(Boolean).join(' ');
	return h(
		'div',
		{ class: 'contact-card' },
		avatar(contact.phone_number, name, 'small'),
		h('span', {}, h('strong', { dir: 'auto', text: name }), h('a', { href: `tel:${contact.phone_number.replace(/[^+0-9]/g, '')}`, text: contact.phone_number })),
	);
}

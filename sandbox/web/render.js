/**
 * Rubika message formatting → HTML, for the sandbox chat page and its jest tests (one file, loaded by a
 * <script> tag in the browser and by require() in Node, hence the wrapper at the bottom).
 *
 * A message is plain text plus `metadata.meta_data_parts`: `{type, from_index, length}` ranges counted in
 * UTF-16 code units (the unit of a JavaScript string's length, so `text.slice` is exact; an emoji outside
 * the Basic Multilingual Plane counts 2). Ranges may nest or overlap. HTML elements can only nest, so the
 * text is cut at every range boundary and, where two ranges overlap without nesting, the inner element is
 * closed and opened again around the boundary. Everything the text holds is escaped; only the tags below
 * are ever produced, and a link is only clickable for http(s) and rubika:// addresses.
 */
(function (root, factory) {
	'use strict';
	if (typeof module === 'object' && module.exports) module.exports = factory();
	else root.RubikaRender = factory();
})(typeof self !== 'undefined' ? self : this, function () {
	'use strict';

	/**
	 * Formatting types in the order they nest when two ranges cover exactly the same text: blocks
	 * outermost, then links, then inline styles.
	 */
	var TYPES = ['Quote', 'Pre', 'Link', 'MentionText', 'Spoiler', 'Bold', 'Italic', 'Underline', 'Strike', 'Mono'];
	var RANK = {};
	TYPES.forEach(function (type, index) {
		RANK[type] = index;
	});

	var SIMPLE_TAGS = { Bold: 'strong', Italic: 'em', Underline: 'u', Strike: 's', Mono: 'code', Pre: 'pre', Quote: 'blockquote' };

	var ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

	function escapeHtml(value) {
		return String(value).replace(/[&<>"']/g, function (char) {
			return ESCAPES[char];
		});
	}

	/** Addresses a click may open: web pages and Rubika's own app links. Never javascript:, data: and the like. */
	function isSafeUrl(url) {
		return typeof url === 'string' && /^(https?|rubika):\/\/[^\s\u0000-\u001f\u007f]+$/i.test(url);
	}

	function isHigh(code) {
		return code >= 0xd800 && code <= 0xdbff;
	}

	function isLow(code) {
		return code >= 0xdc00 && code <= 0xdfff;
	}

	/** True when `index` sits between the two halves of one character (a surrogate pair). */
	function insidePair(text, index) {
		return index > 0 && index < text.length && isHigh(text.charCodeAt(index - 1)) && isLow(text.charCodeAt(index));
	}

	/**
	 * Parts the renderer can use, with start/end clamped to the text. A range that would cut a character
	 * in half grows to hold the whole character, so no half of an emoji is ever written out on its own.
	 */
	function normalizeParts(text, parts) {
		var out = [];
		(Array.isArray(parts) ? parts : []).forEach(function (part, order) {
			if (!part || !Object.prototype.hasOwnProperty.call(RANK, part.type)) return;
			var from = Number(part.from_index);
			var length = Number(part.length);
			if (!Number.isInteger(from) || !Number.isInteger(length) || from < 0 || length <= 0) return;
			var start = Math.min(from, text.length);
			var end = Math.min(from + length, text.length);
			if (insidePair(text, start)) start -= 1;
			if (insidePair(text, end)) end += 1;
			if (start >= end) return;
			out.push({ part: part, type: part.type, start: start, end: end, order: order });
		});
		return out;
	}

	/** Outer elements first: the one that ends later, then by type, then as given. */
	function outerFirst(a, b) {
		return b.end - a.end || RANK[a.type] - RANK[b.type] || a.order - b.order;
	}

	function openTag(range) {
		var part = range.part;
		if (range.type === 'Link') {
			var url = part.link_url;
			if (isSafeUrl(url)) return '<a href="' + escapeHtml(url) + '" target="_blank" rel="noopener noreferrer">';
			return '<span class="link-unsafe" title="' + escapeHtml(url == null ? '' : url) + '">';
		}
		if (range.type === 'MentionText') {
			return '<span class="mention" data-user-id="' + escapeHtml(part.mention_text_user_id == null ? '' : part.mention_text_user_id) + '">';
		}
		if (range.type === 'Spoiler') return '<span class="spoiler" tabindex="0" title="Spoiler: click to reveal">';
		return '<' + SIMPLE_TAGS[range.type] + '>';
	}

	function closeTag(range) {
		if (range.type === 'Link') return isSafeUrl(range.part.link_url) ? '</a>' : '</span>';
		if (range.type === 'MentionText' || range.type === 'Spoiler') return '</span>';
		return '</' + SIMPLE_TAGS[range.type] + '>';
	}

	/**
	 * HTML for `text` formatted by `parts` (the `meta_data_parts` array; missing or empty is plain text).
	 * Newlines stay newlines: the page shows message text with `white-space: pre-wrap`.
	 */
	function renderText(text, parts) {
		text = text == null ? '' : String(text);
		var ranges = normalizeParts(text, parts);
		if (ranges.length === 0) return escapeHtml(text);

		var cuts = [0, text.length];
		ranges.forEach(function (range) {
			cuts.push(range.start, range.end);
		});
		cuts = cuts
			.filter(function (cut, index, all) {
				return all.indexOf(cut) === index;
			})
			.sort(function (a, b) {
				return a - b;
			});

		var html = '';
		var stack = [];
		for (var i = 0; i < cuts.length - 1; i++) {
			var at = cuts[i];
			var active = ranges.filter(function (range) {
				return range.start <= at && range.end > at;
			});
			// Close from the innermost open element down to the deepest one that has ended…
			var keep = 0;
			while (keep < stack.length && active.indexOf(stack[keep]) >= 0) keep++;
			var reopen = stack.slice(keep);
			for (var j = stack.length - 1; j >= keep; j--) html += closeTag(stack[j]);
			stack.length = keep;
			// …then open again what still applies and what starts here, outermost first.
			var toOpen = reopen
				.filter(function (range) {
					return active.indexOf(range) >= 0;
				})
				.concat(
					active.filter(function (range) {
						return stack.indexOf(range) < 0 && reopen.indexOf(range) < 0;
					}),
				)
				.sort(outerFirst);
			toOpen.forEach(function (range) {
				html += openTag(range);
				stack.push(range);
			});
			html += escapeHtml(text.slice(at, cuts[i + 1]));
		}
		for (var k = stack.length - 1; k >= 0; k--) html += closeTag(stack[k]);
		return html;
	}

	/** Plain text of a message for one-line previews (reply quotes, notifications). */
	function previewText(message) {
		if (!message) return '';
		if (message.text) return String(message.text);
		if (message.poll) return (message.poll.type === 'Quiz' ? '📊 Quiz: ' : '📊 ') + message.poll.question;
		if (message.file) return '📎 ' + (message.file.file_name || 'file');
		if (message.location) return '📍 Location';
		if (message.contact_message) return '👤 ' + message.contact_message.first_name;
		if (message.sticker) return (message.sticker.emoji_character ? message.sticker.emoji_character + ' ' : '') + 'Sticker';
		return '';
	}

	return { renderText: renderText, escapeHtml: escapeHtml, isSafeUrl: isSafeUrl, previewText: previewText, TYPES: TYPES };
});

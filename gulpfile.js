// Copies what tsc does not: the SVG icons and the nodes' codex (.node.json) files, next to the compiled nodes.
const { src, dest, parallel } = require('gulp');

function copyIcons() {
	return src('icons/**/*.svg').pipe(dest('dist/icons'));
}

function copyCodex() {
	return src('nodes/**/*.json', { base: '.' }).pipe(dest('dist'));
}

exports['build:assets'] = parallel(copyIcons, copyCodex);

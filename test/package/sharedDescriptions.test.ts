/** The description pieces every Rubika node shares (nodes/shared/descriptions.ts). */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { RUBIKA_ICON, optionsCollection } from '../../nodes/shared/descriptions';

describe('shared description pieces', () => {
	it('optionsCollection is the Options collection (Add option) holding the given fields', () => {
		const field = { displayName: 'Page Size', name: 'pageSize', type: 'number' as const, default: 100 };
		expect(optionsCollection([field])).toEqual({
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add option',
			default: {},
			options: [field],
		});
	});

	it.each(['Rubika', 'RubikaTrigger', 'RubikaWebhookTrigger'])(
		'the icon resolves to an SVG from the %s node folder, as n8n resolves it',
		(node) => {
			const folder = path.join(__dirname, '../../nodes', node);
			const icon = RUBIKA_ICON as { light: string; dark: string };
			for (const file of [icon.light, icon.dark]) {
				expect(file).toMatch(/^file:.*\.svg$/);
				expect(existsSync(path.resolve(folder, file.slice('file:'.length)))).toBe(true);
			}
		},
	);
});

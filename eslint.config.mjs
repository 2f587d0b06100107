// n8n's community-node lint: the rules n8n's verification and @n8n/scan-community-package apply,
// plus eslint-plugin-n8n-nodes-base's sets for package.json, credentials and nodes.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const tsFiles = { languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } } };
const nodesBase = (set) => ({ plugins: { 'n8n-nodes-base': n8nNodesBase }, rules: n8nNodesBase.configs[set].rules });

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'sandbox/**', 'bench/**', 'scripts/**', 'e2e/**'] },
	{ files: ['**/*.ts'], ...tsFiles },
	{ files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'], ...n8nCommunityNodesPlugin.configs.recommended },
	{
		files: ['package.json'],
		languageOptions: { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } },
		...nodesBase('community'),
	},
	{
		files: ['credentials/**/*.ts'],
		...nodesBase('credentials'),
		rules: {
			...nodesBase('credentials').rules,
			// Predates community packages: wants a slug of n8n's own docs, while the community rule
			// (credential-documentation-url) requires a full URL to ours.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		...nodesBase('nodes'),
		rules: {
			...nodesBase('nodes').rules,
			// These two want the string 'main'; the community rule node-connection-type-literal requires
			// NodeConnectionTypes.Main, which is what current n8n expects.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
];

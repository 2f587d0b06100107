import type { NodeApiError } from 'n8n-workflow';

import { DEMO_BOT_ID, DEMO_BOT_TITLE, DEMO_BOT_USERNAME } from '../../sandbox';
import { UPDATE_ENDPOINT_TYPES } from '../../nodes/shared/types';
import { useActionSandbox } from './helpers';
import type { RefusalCase } from './helpers';

const actions = useActionSandbox('bot');
const { run, bodies, expectRefused, refusesEach } = actions;

beforeEach(() => {
	// Endpoints on plain http are accepted unless a test asks for Rubika's HTTPS rule.
	actions.sandbox.configure({ requireHttpsEndpoints: false });
});

describe('Bot → Get Info', () => {
	test('returns the bot record', async () => {
		const result = await run({ operation: 'getMe' });
		expect(result.error).toBeUndefined();
		// getMe takes nothing; whether an empty body goes out as {} or not at all is the transport's business.
		expect(bodies('getMe')).toHaveLength(1);
		expect([null, {}]).toContainEqual(bodies('getMe')[0]);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			bot_id: DEMO_BOT_ID,
			bot_title: DEMO_BOT_TITLE,
			username: DEMO_BOT_USERNAME,
		});
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('Bot → Set Commands', () => {
	test('builder: strips a leading "/" and trims, sends bot_commands, stores them', async () => {
		const result = await run({
			operation: 'setCommands',
			commandsInput: 'builder',
			commands: {
				command: [
					{ command: '/start', description: 'Start the bot' },
					{ command: ' get_help2 ', description: ' Show help ' },
				],
			},
		});
		expect(result.error).toBeUndefined();
		const expected = [
			{ command: 'start', description: 'Start the bot' },
			{ command: 'get_help2', description: 'Show help' },
		];
		expect(bodies('setCommands')).toEqual([{ bot_commands: expected }]);
		expect(actions.sandbox.commands()).toEqual(expected);
		expect(result.items.map((item) => item.json)).toEqual([{ bot_commands: expected }]);
	});

	test('JSON: a list as text, or a copied request body from an expression', async () => {
		const asText = await run({
			operation: 'setCommands',
			commandsInput: 'json',
			commandsJson: '[{"command": "/menu", "description": "Open the menu"}]',
		});
		expect(asText.error).toBeUndefined();
		expect(actions.sandbox.commands()).toEqual([{ command: 'menu', description: 'Open the menu' }]);

		const fromExpression = await run(
			{ operation: 'setCommands', commandsInput: 'json', commandsJson: '={{ $json.body }}' },
			[{ json: { body: { bot_commands: [{ command: 'stop', description: 'Stop' }, { command: 'Go_1', description: 'Go' }] } } }],
		);
		expect(fromExpression.error).toBeUndefined();
		expect(bodies('setCommands')[1]).toEqual({
			bot_commands: [
				{ command: 'stop', description: 'Stop' },
				{ command: 'Go_1', description: 'Go' },
			],
		});
		expect(actions.sandbox.commands()).toEqual([
			{ command: 'stop', description: 'Stop' },
			{ command: 'Go_1', description: 'Go' },
		]);
	});

	test('an empty list clears the commands', async () => {
		await run({ operation: 'setCommands', commandsInput: 'json', commandsJson: '[{"command": "a", "description": "A"}]' });
		expect(actions.sandbox.commands()).toHaveLength(1);
		const cleared = await run({ operation: 'setCommands', commandsInput: 'builder', commands: {} });
		expect(cleared.error).toBeUndefined();
		expect(bodies('setCommands')[1]).toEqual({ bot_commands: [] });
		expect(actions.sandbox.commands()).toEqual([]);
		expect(cleared.items[0].json).toEqual({ bot_commands: [] });
	});

	const refusals: RefusalCase[] = [
		[
			'a space in the name',
			{ commandsInput: 'builder', commands: { command: [{ command: 'bad name', description: 'x' }] } },
			'Commands: command 1 ("bad name"): a command name may only hold letters, digits and underscores, e.g. start or get_help [item 0]',
		],
		[
			'a hyphen in the name',
			{
				commandsInput: 'builder',
				commands: { command: [{ command: 'ok', description: 'fine' }, { command: '/say-hi', description: 'x' }] },
			},
			'Commands: command 2 ("/say-hi"): a command name may only hold letters, digits and underscores, e.g. start or get_help [item 0]',
		],
		[
			'an empty name',
			{ commandsInput: 'builder', commands: { command: [{ command: '/', description: 'x' }] } },
			'Commands: command 1 ("/"): a command name may only hold letters, digits and underscores, e.g. start or get_help [item 0]',
		],
		[
			'an empty description',
			{ commandsInput: 'builder', commands: { command: [{ command: 'start', description: '  ' }] } },
			'Commands: command 1 ("start"): the description is empty; users see it in the command list [item 0]',
		],
		[
			'the same command twice',
			{
				commandsInput: 'json',
				commandsJson: '[{"command": "start", "description": "a"}, {"command": "/Start", "description": "b"}]',
			},
			'Commands (JSON): command 2: "Start" is already command 1; each command may appear once [item 0]',
		],
		[
			'JSON that does not parse',
			{ commandsInput: 'json', commandsJson: '[{"command": "start",' },
			/^Commands \(JSON\): is not valid JSON: .+ \[item 0\]$/,
		],
		[
			'JSON that is not a list',
			{ commandsInput: 'json', commandsJson: '{"command": "start", "description": "a"}' },
			'Commands (JSON): must be a list such as [{"command": "start", "description": "Start the bot"}] or {"bot_commands": [...]} [item 0]',
		],
	];
	refusesEach({ operation: 'setCommands' }, refusals, () => expect(actions.sandbox.commands()).toEqual([]));

	test('names the item that is wrong; earlier items went out', async () => {
		const result = await run({ operation: 'setCommands', commandsInput: 'json', commandsJson: '={{ $json.list }}' }, [
			{ json: { list: [{ command: 'start', description: 'Start' }] } },
			{ json: { list: [{ command: 'no good', description: 'x' }] } },
		]);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(/^Commands \(JSON\): command 1 \("no good"\).* \[item 1\]$/);
		expect(bodies('setCommands')).toEqual([{ bot_commands: [{ command: 'start', description: 'Start' }] }]);
	});
});

describe('Bot → Set Endpoint', () => {
	test.each(UPDATE_ENDPOINT_TYPES.map((type) => [type]))('registers a %s endpoint', async (type) => {
		const url = `https://bot.example.com/rubika/${type}`;
		const result = await run({ operation: 'updateBotEndpoints', url, endpointType: type });
		expect(result.error).toBeUndefined();
		expect(bodies('updateBotEndpoints')).toEqual([{ url, type }]);
		expect(actions.sandbox.endpoints()).toEqual([expect.objectContaining({ type, url })]);
		expect(result.items.map((item) => item.json)).toEqual([{ status: 'Done', url, type }]);
	});

	test('the default type is ReceiveUpdate', async () => {
		const result = await run({ operation: 'updateBotEndpoints', url: 'https://bot.example.com/hook' });
		expect(result.error).toBeUndefined();
		expect(bodies('updateBotEndpoints')).toEqual([{ url: 'https://bot.example.com/hook', type: 'ReceiveUpdate' }]);
	});

	test('InvalidUrl becomes an error that says the URL was refused and what Rubika needs', async () => {
		actions.sandbox.configure({ requireHttpsEndpoints: true });
		const result = await run({
			operation: 'updateBotEndpoints',
			url: 'http://192.168.1.20:5678/webhook',
			endpointType: 'ReceiveInlineMessage',
		});
		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe('Rubika refused the URL http://192.168.1.20:5678/webhook (InvalidUrl)');
		expect(error.description).toMatch(/public HTTPS URL/);
		expect(error.context.itemIndex).toBe(0);
		expect(bodies('updateBotEndpoints')).toEqual([{ url: 'http://192.168.1.20:5678/webhook', type: 'ReceiveInlineMessage' }]);
		expect(actions.sandbox.endpoints()).toEqual([]);
		expect(result.items).toEqual([]);
	});

	test.each([
		// An expression gets past n8n's own "required" check, so the node has to catch it.
		['={{ "  " }}', 'URL: is required [item 0]'],
		['example.com/hook', 'URL: "example.com/hook" is not a web address; enter a full URL such as https://example.com/rubika [item 0]'],
		['ftp://example.com/hook', 'URL: "ftp://example.com/hook" is not a web address; enter a full URL such as https://example.com/rubika [item 0]'],
	])('refuses the URL %j before sending', async (url, message) => {
		expectRefused(await run({ operation: 'updateBotEndpoints', url, endpointType: 'ReceiveUpdate' }), message);
	});
});

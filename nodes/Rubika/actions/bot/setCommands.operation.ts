import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { InputError } from '../../../shared/errors';
import { isPlainObject } from '../../../shared/json';
import { callRubika } from '../../../shared/transport';
import type { BotCommand } from '../../../shared/types';
import { inputModeProperties } from '../../helpers/inputMode';
import { readJson } from '../../helpers/params';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';

const BUILDER_FIELD = 'Commands';
const JSON_FIELD = 'Commands (JSON)';

/** What Rubika's clients show after "/": we hold names to the characters every bot platform accepts. */
const COMMAND_NAME = /^[A-Za-z0-9_]+$/;

interface RawCommand {
	command?: unknown;
	description?: unknown;
}

/**
 * Checks and cleans one list of commands, whichever input it came from: a leading "/" is dropped (people
 * write commands the way users type them), names must be letters, digits and underscores, descriptions
 * must not be empty, and a name may appear once. An empty list is allowed: it clears the commands.
 */
function normalizeCommands(raw: RawCommand[], field: string): BotCommand[] {
	const seen = new Map<string, number>();
	return raw.map((entry, index) => {
		const where = `command ${index + 1}`;
		if (!isPlainObject(entry)) {
			throw new InputError(field, `${where} must be an object such as {"command": "start", "description": "Start the bot"}`);
		}
		const rawName = typeof entry.command === 'number' ? String(entry.command) : entry.command;
		if (typeof rawName !== 'string' || rawName.trim() === '') {
			throw new InputError(field, `${where}: the command name is empty`);
		}
		const command = rawName.trim().replace(/^\//, '');
		if (!COMMAND_NAME.test(command)) {
			throw new InputError(
				field,
				`${where} ("${rawName.trim()}"): a command name may only hold letters, digits and underscores, e.g. start or get_help`,
			);
		}
		const key = command.toLowerCase();
		const first = seen.get(key);
		if (first !== undefined) {
			throw new InputError(field, `${where}: "${command}" is already command ${first}; each command may appear once`);
		}
		seen.set(key, index + 1);
		const description = typeof entry.description === 'string' ? entry.description.trim() : '';
		if (description === '') {
			throw new InputError(field, `${where} ("${command}"): the description is empty; users see it in the command list`);
		}
		return { command, description };
	});
}

/** The JSON field takes a list of commands, or a copied request body `{"bot_commands": [...]}`. */
function commandsFromJson(value: unknown): RawCommand[] {
	if (value === undefined) return [];
	const list = isPlainObject(value) && 'bot_commands' in value ? value.bot_commands : value;
	if (!Array.isArray(list)) {
		throw new InputError(
			JSON_FIELD,
			'must be a list such as [{"command": "start", "description": "Start the bot"}] or {"bot_commands": [...]}',
		);
	}
	return list as RawCommand[];
}

export const setCommands: RubikaOperation = {
	value: 'setCommands',
	name: 'Set Commands',
	action: 'Set the bot commands',
	description: 'Replace the list of commands users see in the bot; an empty list removes them (setCommands)',
	properties: inputModeProperties(
		{
			displayName: 'Input',
			name: 'commandsInput',
			default: 'builder',
			description: 'How the commands are given: one by one, or as JSON',
		},
		[
			{
				name: 'Builder',
				value: 'builder',
				description: 'Add commands one by one',
				fields: [
					{
						displayName: 'Commands',
						name: 'commands',
						type: 'fixedCollection',
						typeOptions: { multipleValues: true, sortable: true },
						placeholder: 'Add Command',
						default: {},
						description: 'The full list: commands left out are removed from the bot',
						options: [
							{
								displayName: 'Command',
								name: 'command',
								values: [
									{
										displayName: 'Command',
										name: 'command',
										type: 'string',
										default: '',
										placeholder: 'start',
										description: 'Name users type after "/": letters, digits and underscores. A leading "/" is removed.',
									},
									{
										displayName: 'Description',
										name: 'description',
										type: 'string',
										default: '',
										placeholder: 'Start the bot',
										description: 'What the command does, shown next to it',
									},
								],
							},
						],
					},
				],
			},
			{
				name: 'JSON',
				value: 'json',
				description: 'Give the commands as JSON or from an expression',
				fields: [
					{
						displayName: 'Commands (JSON)',
						name: 'commandsJson',
						type: 'json',
						default: '[]',
						placeholder: '[{"command": "start", "description": "Start the bot"}]',
						description:
							'A list of {"command", "description"} objects, or {"bot_commands": [...]}. The full list: commands left out are removed.',
					},
				],
			},
		],
	),
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const mode = this.getNodeParameter('commandsInput', itemIndex, 'builder') as string;
		let commands: BotCommand[];
		if (mode === 'json') {
			commands = normalizeCommands(commandsFromJson(readJson(this, 'commandsJson', itemIndex, JSON_FIELD)), JSON_FIELD);
		} else {
			const value = this.getNodeParameter('commands', itemIndex, {}) as { command?: RawCommand[] };
			commands = normalizeCommands(value.command ?? [], BUILDER_FIELD);
		}
		await callRubika(this, 'setCommands', { bot_commands: commands as unknown as IDataObject[] }, call);
		return { bot_commands: commands as unknown as IDataObject[] };
	},
};

// The dropdowns the nodes build from a list in code (the Operation dropdowns, button types, formatting types,
// endpoint types, update types, filter kinds) show their choices alphabetically, as n8n's lint rule asks of
// the lists it can see. The lint reads only literal lists; this walks the descriptions n8n loads. The action
// node's Operation dropdowns hold what the registry (nodes/Rubika/actions) lists, and keep every value
// workflows have saved.
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { RESOURCES } from '../../nodes/Rubika/actions';
import { Rubika } from '../../nodes/Rubika/Rubika.node';
import { RubikaTrigger } from '../../nodes/RubikaTrigger/RubikaTrigger.node';

type Choice = INodePropertyOptions | INodeProperties | INodePropertyCollection;

/** Every options and multiOptions parameter, nested ones included, with the path that leads to it. */
function dropdowns(properties: readonly INodeProperties[], path: string[] = []): Array<{ path: string; names: string[] }> {
	const found: Array<{ path: string; names: string[] }> = [];
	for (const property of properties) {
		const here = [...path, property.name];
		const choices = (property.options ?? []) as Choice[];
		if (property.type === 'options' || property.type === 'multiOptions') {
			found.push({ path: here.join('.'), names: choices.map((choice) => String(choice.name)) });
		}
		for (const choice of choices) {
			if ('values' in choice) found.push(...dropdowns(choice.values, [...here, choice.name]));
			else if ('type' in choice) found.push(...dropdowns([choice], here));
		}
	}
	return found;
}

const descriptions: Record<string, INodeTypeDescription> = {
	Rubika: new Rubika().description,
	'Rubika Trigger': new RubikaTrigger().description,
};

/**
 * The dropdowns built from a list in code, by the last part of their path. The other dropdowns are literal
 * lists ordered by hand, most with the usual choice first (Web Address, None, Start From Now).
 */
const BUILT_IN_CODE = ['operation', 'type', 'endpointType', 'endpoints', 'updateTypes', 'chatTypes', 'contentKinds'];

const sorted = (names: string[]) => [...names].sort((a, b) => a.localeCompare(b));
const lastPart = (path: string) => path.split('.').at(-1) ?? '';

test.each(Object.entries(descriptions))('%s: the dropdowns built in code list their choices alphabetically', (_node, description) => {
	const lists = dropdowns(description.properties).filter((list) => BUILT_IN_CODE.includes(lastPart(list.path)));
	expect(lists.length).toBeGreaterThan(0);
	for (const list of lists) expect({ path: list.path, names: list.names }).toEqual({ path: list.path, names: sorted(list.names) });
});

test('each kind of list built in code is among those checked', () => {
	const checked = Object.values(descriptions).flatMap((description) => dropdowns(description.properties));
	for (const name of BUILT_IN_CODE) expect({ name, found: checked.some((list) => lastPart(list.path) === name) }).toEqual({ name, found: true });
	// One Operation dropdown per resource of the registry, holding exactly its operations.
	const operationLists = checked.filter((list) => list.path === 'operation').map((list) => sorted(list.names));
	expect(operationLists.sort()).toEqual(RESOURCES.map((resource) => sorted(resource.operations.map((operation) => operation.name))).sort());
	const buttonTypes = checked.find((list) => list.names.includes('Ask for Phone Number'));
	expect(buttonTypes?.names.slice(0, 3)).toEqual(['Ask for a Location', 'Ask for Own Location', 'Ask for Phone Number']);
});

/**
 * The Operation values saved workflows hold, per resource. A new operation needs no line here; renaming or
 * removing one of these would break the workflows that use it (that takes a new node version instead).
 */
const SAVED_OPERATIONS: Record<string, string[]> = {
	bot: ['getMe', 'setCommands', 'updateBotEndpoints'],
	chat: [
		'banChatMember',
		'getChat',
		'getChatAdministrators',
		'getChatMember',
		'getChatMemberCount',
		'pinChatMessage',
		'removeChatKeypad',
		'setChatKeypad',
		'unbanChatMember',
		'unpinAllChatMessages',
		'unpinChatMessage',
	],
	message: [
		'deleteMessage',
		'editMessageKeypad',
		'editMessageText',
		'forwardMessage',
		'sendAndWait',
		'sendContact',
		'sendFile',
		'sendLocation',
		'sendMessage',
		'sendPoll',
		'sendSticker',
	],
	file: ['download', 'getDownloadUrl', 'upload'],
	update: ['getUpdates'],
	custom: ['callMethod'],
};

test('every Operation value saved workflows hold is still offered by its resource', () => {
	const offered = Object.fromEntries(
		descriptions.Rubika.properties
			.filter((property) => property.name === 'operation')
			.map((property) => [property.displayOptions?.show?.resource?.[0], ((property.options ?? []) as INodePropertyOptions[]).map((option) => option.value)]),
	);
	for (const [resource, values] of Object.entries(SAVED_OPERATIONS)) {
		const missing = values.filter((value) => !offered[resource]?.includes(value));
		expect({ resource, missing }).toEqual({ resource, missing: [] });
	}
});

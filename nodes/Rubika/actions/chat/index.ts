import type { RubikaOperation, RubikaResource } from '../types';
import { banChatMember } from './banChatMember.operation';
import { getChat } from './getChat.operation';
import { removeChatKeypad } from './removeChatKeypad.operation';
import { setChatKeypad } from './setChatKeypad.operation';
import { unbanChatMember } from './unbanChatMember.operation';

const operations: RubikaOperation[] = [getChat, banChatMember, unbanChatMember, setChatKeypad, removeChatKeypad];

export const chatResource: RubikaResource = {
	value: 'chat',
	name: 'Chat',
	description: 'Chat details, members and the chat keypad',
	defaultOperation: getChat.value,
	// Alphabetical in the Operation dropdown, as everywhere in the node.
	operations: operations.sort((a, b) => a.name.localeCompare(b.name)),
};

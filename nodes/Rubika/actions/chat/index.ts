import { sortedByName } from '../../../shared/descriptions';
import type { RubikaOperation, RubikaResource } from '../types';
import { banChatMember } from './banChatMember.operation';
import { getChat } from './getChat.operation';
import { getChatAdministrators } from './getChatAdministrators.operation';
import { getChatMember } from './getChatMember.operation';
import { getChatMemberCount } from './getChatMemberCount.operation';
import { pinChatMessage } from './pinChatMessage.operation';
import { removeChatKeypad } from './removeChatKeypad.operation';
import { setChatKeypad } from './setChatKeypad.operation';
import { unbanChatMember } from './unbanChatMember.operation';
import { unpinAllChatMessages } from './unpinAllChatMessages.operation';
import { unpinChatMessage } from './unpinChatMessage.operation';

const operations: RubikaOperation[] = [
	getChat,
	getChatMember,
	getChatAdministrators,
	getChatMemberCount,
	banChatMember,
	unbanChatMember,
	pinChatMessage,
	unpinChatMessage,
	unpinAllChatMessages,
	setChatKeypad,
	removeChatKeypad,
];

export const chatResource: RubikaResource = {
	value: 'chat',
	name: 'Chat',
	description: 'Chat details, members, pinned messages and the chat keypad',
	defaultOperation: getChat.value,
	operations: sortedByName(operations),
};

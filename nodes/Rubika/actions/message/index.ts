import { sortedByName } from '../../../shared/descriptions';
import type { RubikaOperation, RubikaResource } from '../types';
import { deleteMessage } from './deleteMessage.operation';
import { editMessageKeypad } from './editMessageKeypad.operation';
import { editMessageText } from './editMessageText.operation';
import { forwardMessage } from './forwardMessage.operation';
import { sendAndWait } from './sendAndWait.operation';
import { sendContact } from './sendContact.operation';
import { sendFile } from './sendFile.operation';
import { sendLocation } from './sendLocation.operation';
import { sendMessage } from './sendMessage.operation';
import { sendPoll } from './sendPoll.operation';
import { sendSticker } from './sendSticker.operation';

const operations: RubikaOperation[] = [
	sendMessage,
	sendAndWait,
	sendPoll,
	sendLocation,
	sendContact,
	sendFile,
	sendSticker,
	forwardMessage,
	editMessageText,
	editMessageKeypad,
	deleteMessage,
];

export const messageResource: RubikaResource = {
	value: 'message',
	name: 'Message',
	description: 'Send, forward, edit and delete messages',
	defaultOperation: sendMessage.value,
	operations: sortedByName(operations),
};

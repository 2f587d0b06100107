import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { callRubika } from '../../../shared/transport';
import { idProperty, requireId } from '../../helpers/params';
import type { ItemCall } from '../../../shared/transport';
import type { RubikaOperation } from '../types';
import { undocumentedDescription, undocumentedNotice } from '../undocumented';
import { SEND_TO_CHAT_DESCRIPTION, chatIdProperty, readChatId, readSendExtras, sendExtrasProperties } from './common';

const STICKER_ID_FIELD = 'Sticker ID';

export const sendSticker: RubikaOperation = {
	value: 'sendSticker',
	name: 'Send Sticker',
	action: 'Send a sticker',
	description: undocumentedDescription('Send a sticker by its ID', 'sendSticker'),
	properties: [
		undocumentedNotice('sendSticker'),
		chatIdProperty(SEND_TO_CHAT_DESCRIPTION),
		idProperty(
			STICKER_ID_FIELD,
			'stickerId',
			'e.g. the sticker_id of a sticker sent to the bot',
			'The sticker to send: the sticker_id of a sticker someone sent the bot (new_message.sticker.sticker_id in the trigger\'s output)',
		),
		...sendExtrasProperties(),
	],
	recipient: readChatId,
	async execute(this: IExecuteFunctions, itemIndex: number, call: ItemCall) {
		const chatId = readChatId(this, itemIndex);
		const stickerId = requireId(this, 'stickerId', itemIndex, STICKER_ID_FIELD);
		const body: IDataObject = { chat_id: chatId, sticker_id: stickerId, ...readSendExtras(this, itemIndex) };
		const data = await callRubika(this, 'sendSticker', body, call);
		return { ...data, chat_id: chatId, sticker_id: stickerId };
	},
};

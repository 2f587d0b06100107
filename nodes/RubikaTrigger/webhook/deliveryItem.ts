/** A delivery's body, read from the request and shaped into the item both triggers output. */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { isPlainObject, parseJsonKeepingBigIntegers } from '../../shared/json';
import type { UpdateItem } from '../../shared/updates/item';
import { derived, webhookBodyToItem } from '../../shared/updates/item';

/** The `type` of a delivery that is neither `{update}` nor `{inline_message}`; its format is undocumented. */
export const OTHER_DELIVERY_TYPE = 'Other';

/**
 * The delivery as JSON. The raw bytes are preferred: n8n parses JSON bodies with plain JSON.parse, which
 * rounds a bare numeric message id above 2^53 (facts §2), and parses nothing when the content type is not
 * exactly application/json.
 */
export function readDeliveryBody(context: IWebhookFunctions): unknown {
	const raw = (context.getRequestObject() as unknown as { rawBody?: unknown }).rawBody;
	const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : typeof raw === 'string' ? raw : undefined;
	if (text !== undefined && text.trim() !== '') {
		const parsed = parseOrUndefined(text);
		if (parsed !== undefined) return parsed;
	}
	const body = context.getBodyData() as unknown;
	return typeof body === 'string' ? parseOrUndefined(body) : body;
}

function parseOrUndefined(text: string): unknown {
	try {
		return parseJsonKeepingBigIntegers(text);
	} catch {
		// Not JSON: the caller treats it as an unusable delivery.
		return undefined;
	}
}

/** `{update}` and `{inline_message}` become the shared item shape; any other object becomes type Other. */
export function deliveryToItem(body: unknown): UpdateItem | undefined {
	if (!isPlainObject(body)) return undefined;
	const item = webhookBodyToItem(body);
	if (item !== undefined) return item;
	return derived({
		type: OTHER_DELIVERY_TYPE,
		chat_id: null,
		message_id: null,
		text: null,
		sender_id: null,
		sender_type: null,
		button_id: null,
		start_id: null,
		file: null,
		time_iso: null,
		time: null,
		update_key: '',
		update: body as IDataObject,
	}, null);
}

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { NodeOperationError } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { toNodeError } from '../shared/errors';
import type { CallOptions } from '../shared/transport';
import type { RubikaOperation } from './actions/types';
import { SentRecord } from './sentRecord';

export interface RunSettings {
	/** How many items are in flight at once. */
	concurrency: number;
	/** The execution's call options (Request Options and the bot's rate-limit gate); each item gets them with its index. */
	calls: CallOptions;
}

/**
 * Runs one operation over all input items: optionally concurrent (for broadcasts), output in input order,
 * every output item paired with its input item, and "Continue On Fail" handled per item.
 * Send operations skip the chats already sent under the item's campaign (Skip Chats Already Sent) and
 * record each delivery as it happens; the record is complete before this returns or throws.
 *
 * Max Requests per Second is not enforced here but by the bot's rate-limit gate
 * (../shared/transport/rateLimit.ts, in `settings.calls`), per request: parallel items, retries and items with
 * several requests share one schedule there with every other execution for the bot, and items that send
 * nothing take no place in it.
 */
export async function runForEachItem(
	context: IExecuteFunctions,
	operation: RubikaOperation,
	itemCount: number,
	settings: RunSettings,
): Promise<INodeExecutionData[]> {
	const results: INodeExecutionData[][] = new Array(itemCount);
	// Decided before anything is sent; throws when the store cannot be read, so nothing is sent then.
	const record = await SentRecord.open(context, operation, itemCount);
	let nextIndex = 0;
	let firstError: Error | undefined;

	const worker = async () => {
		while (firstError === undefined && nextIndex < itemCount) {
			const stopReason = record?.stopReason();
			if (stopReason) {
				firstError = stopReason;
				break;
			}
			const itemIndex = nextIndex++;
			const skipped = record?.skippedItem(itemIndex);
			if (skipped) {
				results[itemIndex] = [{ json: skipped, pairedItem: { item: itemIndex } }];
				continue;
			}
			try {
				record?.checkItem(itemIndex);
				const sentParts = record?.partsOf(itemIndex);
				const output = await operation.execute.call(context, itemIndex, { ...settings.calls, itemIndex, ...(sentParts ? { sentParts } : {}) });
				record?.delivered(itemIndex);
				results[itemIndex] = toOutputItems(output, itemIndex);
			} catch (caught) {
				const error = toNodeError(context.getNode(), caught, itemIndex);
				if (context.continueOnFail()) {
					results[itemIndex] = [{ json: errorJson(error), pairedItem: { item: itemIndex } }];
				} else {
					firstError ??= error;
				}
			}
		}
	};
	const workers = Math.max(1, Math.min(settings.concurrency, itemCount));
	let recordError: Error | undefined;
	try {
		await Promise.all(Array.from({ length: workers }, worker));
	} finally {
		// Also when a send failed: what was delivered before it must be recorded, or a re-run repeats it.
		recordError = await record?.finish();
	}
	if (firstError) throw firstError;
	if (recordError) throw recordError;
	return results.flat();
}

function toOutputItems(
	output: IDataObject | IDataObject[] | INodeExecutionData[],
	itemIndex: number,
): INodeExecutionData[] {
	const list = Array.isArray(output) ? output : [output];
	return list.map((entry) => {
		const isExecutionItem =
			typeof entry.json === 'object' && entry.json !== null && Object.keys(entry).every((key) => EXECUTION_ITEM_KEYS.has(key));
		const item = (isExecutionItem ? entry : { json: entry }) as INodeExecutionData;
		return { ...item, pairedItem: { item: itemIndex } };
	});
}

const EXECUTION_ITEM_KEYS = new Set(['json', 'binary', 'pairedItem']);

/** What "Continue On Fail" puts into the item: enough to tell which chat failed and why. */
function errorJson(error: NodeApiError | NodeOperationError): IDataObject {
	const json: IDataObject = { error: error.message };
	if (error instanceof NodeApiError) {
		if (error.description) json.description = error.description;
		const response = (error as unknown as { errorResponse?: IDataObject }).errorResponse;
		if (response?.status) json.status = response.status;
		if (response?.dev_message) json.dev_message = response.dev_message;
		if (error.httpCode) json.httpCode = error.httpCode;
	}
	// An item that sends several messages (a long text) and failed after some of them went (sendPieces.ts).
	if (Array.isArray(error.context?.sent_message_ids)) json.sent_message_ids = error.context.sent_message_ids;
	return json;
}

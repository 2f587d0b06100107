/**
 * n8n's processed-items store (what `this.helpers.checkProcessedAndRecord` and friends reach), in memory,
 * behaving like n8n's database-backed DeduplicationHelper (packages/cli/src/deduplication): one row per
 * workflow and context ('' for scope 'workflow', `n:<node id>` for scope 'node'); in mode 'entries' the row
 * holds md5 base64 hashes, new ones appended and the oldest dropped past `maxEntries`; every call reads the
 * row, waits (as for a database round trip) and writes the whole row back, so two calls at once overwrite
 * each other's additions exactly as they can in n8n. Only the entries mode is modelled.
 *
 * n8n-core's DataDeduplicationService accepts one deduplicator per process and refuses a second `init`:
 * `useProcessedItemsStore` installs this one once and hands it to tests to read, clear or tamper with.
 */
import { createHash } from 'node:crypto';
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

export interface StoreCall {
	method: 'checkProcessedAndRecord' | 'removeProcessed' | 'clearAllProcessedItems' | 'getProcessedDataCount';
	items: string[];
	scope: DeduplicationScope;
	options: ICheckProcessedOptions;
}

interface Row {
	mode: string;
	data: string[];
}

export class InMemoryProcessedItems implements IDataDeduplicator {
	/** Every call, in the order they started. */
	readonly calls: StoreCall[] = [];
	/** The most calls that were ever in flight at the same time (read done, write not yet). */
	maxInFlight = 0;
	/**
	 * Runs after a call wrote its row and before the call returns: lets a test act as another process
	 * writing the same row in between (see `setRow`), or hold the call back.
	 */
	afterWrite: ((call: StoreCall, index: number) => Promise<void> | void) | undefined;
	/** Makes a call fail before it reads anything, as when the database is unreachable. */
	failWith: ((call: StoreCall, index: number) => Error | undefined) | undefined;
	private readonly rows = new Map<string, Row>();
	private inFlight = 0;

	/** The value n8n stores for a recorded item. */
	static hash(value: DeduplicationItemTypes): string {
		return createHash('md5').update(value.toString()).digest('base64');
	}

	/** Forgets every row, call and hook (between tests). */
	clear(): void {
		this.rows.clear();
		this.calls.length = 0;
		this.maxInFlight = 0;
		this.afterWrite = undefined;
		this.failWith = undefined;
	}

	/** The hashes stored for a workflow and context (`n:<node id>` for scope 'node'), oldest first. */
	entries(workflowId: string, context: string): string[] {
		return [...(this.rows.get(rowKey(workflowId, context))?.data ?? [])];
	}

	/** Whether a value is recorded in that row. */
	has(workflowId: string, context: string, value: string): boolean {
		return this.entries(workflowId, context).includes(InMemoryProcessedItems.hash(value));
	}

	/** Replaces a row's hashes, as a write from elsewhere would. */
	setRow(workflowId: string, context: string, hashes: string[]): void {
		this.rows.set(rowKey(workflowId, context), { mode: 'entries', data: [...hashes] });
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		return await this.readModifyWrite('checkProcessedAndRecord', items, scope, contextData, options, (row) => {
			const result: IDeduplicationOutput = { new: [], processed: [] };
			const hashes = items.map((item) => InMemoryProcessedItems.hash(item));
			if (!row) {
				// As n8n: a first call records everything it is given, duplicates included.
				if (options.maxEntries) hashes.splice(0, hashes.length - options.maxEntries);
				return { row: { mode: options.mode, data: hashes }, result: { new: items, processed: [] } };
			}
			const known = new Set(row.data);
			hashes.forEach((hash, index) => {
				if (known.has(hash)) {
					result.processed.push(items[index]);
				} else {
					result.new.push(items[index]);
					row.data.push(hash);
				}
			});
			if (options.maxEntries) row.data.splice(0, row.data.length - options.maxEntries);
			return { row, result };
		});
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		await this.readModifyWrite('removeProcessed', items, scope, contextData, options, (row) => {
			if (!row) return { result: undefined };
			for (const hash of items.map((item) => InMemoryProcessedItems.hash(item))) {
				const index = row.data.indexOf(hash);
				if (index !== -1) row.data.splice(index, 1);
			}
			return { row, result: undefined };
		});
	}

	async clearAllProcessedItems(scope: DeduplicationScope, contextData: ICheckProcessedContextData, options: ICheckProcessedOptions): Promise<void> {
		this.calls.push({ method: 'clearAllProcessedItems', items: [], scope, options });
		this.rows.delete(rowKey(contextData.workflow.id, contextOf(scope, contextData)));
	}

	async getProcessedDataCount(scope: DeduplicationScope, contextData: ICheckProcessedContextData, options: ICheckProcessedOptions): Promise<number> {
		this.calls.push({ method: 'getProcessedDataCount', items: [], scope, options });
		return this.rows.get(rowKey(contextData.workflow.id, contextOf(scope, contextData)))?.data.length ?? 0;
	}

	/** Reads a copy of the row, yields to everything else waiting (the database round trip), then writes. */
	private async readModifyWrite<T>(
		method: StoreCall['method'],
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
		change: (row: Row | undefined) => { row?: Row; result: T },
	): Promise<T> {
		if (options.mode !== 'entries') throw new Error(`the test store models mode 'entries' only, got '${options.mode}'`);
		if (!contextData.workflow.id) throw new Error('The expression "contextData.workflow.id" is falsy');
		const call: StoreCall = { method, items: items.map(String), scope, options };
		const index = this.calls.push(call) - 1;
		const failure = this.failWith?.(call, index);
		if (failure) throw failure;
		const key = rowKey(contextData.workflow.id, contextOf(scope, contextData));
		const stored = this.rows.get(key);
		if (stored && stored.mode !== options.mode) throw new Error('Deduplication data was originally saved with an incompatible setting');
		const read = stored ? { mode: stored.mode, data: [...stored.data] } : undefined;
		this.inFlight++;
		this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
		try {
			await new Promise((resolve) => setImmediate(resolve));
			const { row, result } = change(read);
			if (row) this.rows.set(key, row);
			await this.afterWrite?.(call, index);
			return result;
		} finally {
			this.inFlight--;
		}
	}
}

function contextOf(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
	if (scope !== 'node') return '';
	if (!contextData.node) throw new Error("No node information has been provided and so cannot use scope 'node'");
	return `n:${contextData.node.id}`;
}

function rowKey(workflowId: string, context: string): string {
	return `${workflowId}\u0000${context}`;
}

let installed: InMemoryProcessedItems | undefined;

/** The store every node run in this test file uses, installed in n8n-core on first use. */
export async function useProcessedItemsStore(): Promise<InMemoryProcessedItems> {
	if (!installed) {
		const store = new InMemoryProcessedItems();
		// n8n-core throws on a second init; a module registry (one per jest test file) inits once.
		await DataDeduplicationService.init(store);
		installed = store;
	}
	return installed;
}

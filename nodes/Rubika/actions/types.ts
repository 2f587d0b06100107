import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { ItemCall } from '../../shared/transport';

/**
 * One operation of the Rubika node: its place in the Resource/Operation dropdowns, its fields and what it
 * does, side by side in one file. The node adds `displayOptions` for the resource and operation itself,
 * so `properties` only list the fields.
 */
export interface RubikaOperation {
	/** The `operation` parameter's value, camelCase. */
	value: string;
	/** Shown in the Operation dropdown, Title Case. */
	name: string;
	/** Shown in the node picker and to AI agents, sentence case: "Send a text message". */
	action: string;
	description: string;
	properties: INodeProperties[];
	/**
	 * Sends once and puts the execution to wait for a person's answer (Send and Wait for Response): the node
	 * runs it for the first item only, as n8n's own send-and-wait operations do.
	 */
	waitsForResponse?: boolean;
	/**
	 * The chat one item's send delivers to (Forward: the destination chat). Operations that have it send
	 * something that must not arrive twice, so the runner applies Skip Chats Already Sent (Send Options →
	 * `campaignId`) to them; they must offer that option. Throws like `execute` would on a bad chat ID.
	 */
	recipient?(context: IExecuteFunctions, itemIndex: number): string;
	/**
	 * Runs the operation for one input item. Plain objects become output items (paired with the input
	 * item by the node); full execution items are returned as they are, e.g. to carry binary data. `call` goes
	 * to every transport call the item makes (see ItemCall).
	 */
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		call: ItemCall,
	): Promise<IDataObject | IDataObject[] | INodeExecutionData[]>;
}

export interface RubikaResource {
	value: string;
	name: string;
	description: string;
	operations: RubikaOperation[];
	/**
	 * The operation a new node (or a switch to this resource) starts with: a harmless, common one, never one
	 * that deletes or bans. Without it, the first operation in the (alphabetical) dropdown.
	 */
	defaultOperation?: string;
}

/**
 * A minimal node that calls the transport directly: the transport's behaviour is tested through n8n's real
 * engine and HTTP client without depending on any operation's fields.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { callAnyMethod } from '../../nodes/shared/transport';

export class TransportProbe implements INodeType {
	description = {
		displayName: 'Transport Probe',
		name: 'transportProbe',
		group: ['output'],
		version: 1,
		description: 'Calls one Rubika method per item',
		defaults: { name: 'Transport Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'rubikaApi', required: true }],
		// n8n only resolves declared parameters.
		properties: [
			{ displayName: 'Method', name: 'method', type: 'string', default: '' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '{}' },
			{ displayName: 'Retries', name: 'retries', type: 'number', default: 3 },
			{ displayName: 'Timeout', name: 'timeoutMs', type: 'number', default: 60000 },
		],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const method = this.getNodeParameter('method', 0) as string;
		const retries = this.getNodeParameter('retries', 0, 3) as number;
		const timeoutMs = this.getNodeParameter('timeoutMs', 0, 60_000) as number;
		const retry = { maxAttempts: retries + 1, baseDelayMs: 20, maxDelayMs: 100 };
		const out: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
			const raw = this.getNodeParameter('body', itemIndex, {}) as IDataObject | string;
			const body = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject;
			try {
				const data = await callAnyMethod(this, method, body, { itemIndex, retry, timeoutMs });
				out.push({ json: data as IDataObject, pairedItem: { item: itemIndex } });
			} catch (error) {
				if (!this.continueOnFail()) throw error;
				out.push({ json: { error: (error as Error).message }, pairedItem: { item: itemIndex } });
			}
		}
		return [out];
	}
}

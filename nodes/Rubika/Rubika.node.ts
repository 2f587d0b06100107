import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { RUBIKA_ICON } from '../shared/descriptions';
import { executionCallOptions } from '../shared/transport';
import { RESOURCES, findOperation } from './actions';
import { runForEachItem } from './runner';
import { WAITING_WEBHOOKS, respondToWaitingPerson } from './waiting/webhook';

/** Resource and Operation dropdowns plus every operation's fields, generated from the registry. */
function buildProperties(): INodeProperties[] {
	const properties: INodeProperties[] = [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: RESOURCES.map(({ name, value, description }) => ({ name, value, description })),
			default: 'message',
		},
	];
	for (const resource of RESOURCES) {
		const defaultOperation = resource.defaultOperation ?? resource.operations[0].value;
		properties.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.value] } },
			options: resource.operations.map(({ name, value, action, description }) => ({
				name,
				value,
				action,
				description,
			})),
			default: defaultOperation,
		});
		for (const operation of resource.operations) {
			for (const property of operation.properties) {
				const show = property.displayOptions?.show ?? {};
				properties.push({
					...property,
					displayOptions: {
						...property.displayOptions,
						show: { ...show, resource: [resource.value], operation: [operation.value] },
					},
				});
			}
		}
	}
	properties.push({
		displayName: 'Request Options',
		name: 'requestOptions',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		description: 'How items are sent: pacing for broadcasts, parallel requests and retries',
		options: [
			{
				displayName: 'Max Requests per Second',
				name: 'maxPerSecond',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 2 },
				default: 0,
				description:
					'Send at most this many requests per second to Rubika (uploading a file takes two). It holds for all workflows sending for this bot in this n8n process together: give them the same value. 0: none, and the node finds Rubika\'s limit by itself.',
			},
			{
				displayName: 'Parallel Requests',
				name: 'concurrency',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 20 },
				default: 1,
				description: 'How many items are sent at the same time. Output order always follows input order.',
			},
			{
				displayName: 'Rate Limit Wait (Seconds)',
				name: 'rateLimitWaitSeconds',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 120,
				description:
					'When Rubika rate-limits the bot (TOO_REQUESTS, HTTP 429), all requests for this bot pause (honouring Retry-After) and continue at the pace the node learned. A request refused for longer than this fails. 0 fails it at once.',
			},
			{
				displayName: 'Retries',
				name: 'retries',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 10 },
				default: 3,
				description:
					'How often a request is retried after a server error, a timeout or a dropped connection, with growing pauses. Rate limits do not use these up: see Rate Limit Wait.',
			},
			{
				displayName: 'Timeout (Seconds)',
				name: 'timeoutSeconds',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 60,
				description: 'How long to wait for one answer from Rubika before trying again',
			},
		],
	});
	return properties;
}

export class Rubika implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Rubika',
		name: 'rubika',
		icon: RUBIKA_ICON,
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Send messages, keypads, polls and files with a Rubika bot, and manage its chats',
		defaults: { name: 'Rubika' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'rubikaApi', required: true }],
		// Only Send and Wait for Response uses them: the person's answer arrives at the waiting execution.
		webhooks: WAITING_WEBHOOKS,
		properties: buildProperties(),
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await respondToWaitingPerson.call(this);
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const resource = this.getNodeParameter('resource', 0) as string;
		const operationName = this.getNodeParameter('operation', 0) as string;
		const operation = findOperation(resource, operationName);
		if (!operation) {
			throw new NodeOperationError(this.getNode(), `Unknown operation "${operationName}" for resource "${resource}"`);
		}
		const options = this.getNodeParameter('requestOptions', 0, {}) as {
			maxPerSecond?: number;
			concurrency?: number;
			retries?: number;
			timeoutSeconds?: number;
			rateLimitWaitSeconds?: number;
		};
		// Created once for the execution and handed to every item: the bot's rate-limit gate, shared with every
		// other execution for the bot in this process, paces every request.
		const calls = await executionCallOptions(this, {
			retry: { maxAttempts: (options.retries ?? 3) + 1 },
			timeoutMs: (options.timeoutSeconds ?? 60) * 1000,
			rateLimit: {
				maxPerSecond: options.maxPerSecond ?? 0,
				maxWaitMs: (options.rateLimitWaitSeconds ?? 120) * 1000,
			},
		});
		// A send-and-wait pauses the whole execution once: it runs for the first item only.
		const itemCount = operation.waitsForResponse ? Math.min(items.length, 1) : items.length;
		const output = await runForEachItem(this, operation, itemCount, { concurrency: options.concurrency ?? 1, calls });
		return [output];
	}
}

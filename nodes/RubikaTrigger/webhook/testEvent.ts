/**
 * "Listen for test event" by webhook: the event the test URL received, handed from `webhook()` to the
 * `trigger()` n8n runs in the manual execution that follows.
 *
 * Why a hand-over: in a manual execution n8n runs the `trigger()` of every node type that has one, even when a
 * test webhook started the execution (n8n-core's WorkflowExecute.executeTriggerNode on 2.8 and 2.41), and the
 * node's output is what that `trigger()` emits; the webhook's own items are not passed through as they are
 * for a node without `trigger()`. The Rubika Trigger has both (reading needs `trigger()`), so by webhook its
 * manual `trigger()` emits the items `webhook()` just produced for the same workflow and node. Both run in
 * the process that serves test webhooks (n8n's main process), unless manual executions are offloaded to
 * queue-mode workers (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS): then the test event is not visible there, and
 * the manual execution fails saying so, instead of waiting forever.
 */
import type { INodeExecutionData, ITriggerFunctions, ITriggerResponse, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LruMap } from '../../shared/lru';

/** Test events waiting for their manual execution, one per workflow and node (a test webhook fires once). */
const waiting = new LruMap<string, INodeExecutionData[][]>(100);

function scopeOf(context: IWebhookFunctions | ITriggerFunctions): string {
	return `${context.getWorkflow().id ?? ''}\u0000${context.getNode().name}`;
}

/** Called by `webhook()` in manual mode with the items that start the test execution. */
export function handOverTestEvent(context: IWebhookFunctions, workflowData: INodeExecutionData[][]): void {
	waiting.set(scopeOf(context), workflowData);
}

/** The manual `trigger()` by webhook: emits the test event handed over, or fails naming why there is none. */
export function emitTestEvent(context: ITriggerFunctions): ITriggerResponse {
	return {
		manualTriggerFunction: async () => {
			const scope = scopeOf(context);
			const workflowData = waiting.get(scope);
			if (workflowData === undefined) {
				throw new NodeOperationError(
					context.getNode(),
					'The test event reached n8n, but not the process running this test execution',
					{
						description:
							'By webhook, the test event is received by n8n\'s main process. With manual executions offloaded to queue-mode workers (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS), it cannot be handed to the worker: publish the workflow and send a message, or test By Reading.',
					},
				);
			}
			waiting.delete(scope);
			context.emit(workflowData);
		},
	};
}

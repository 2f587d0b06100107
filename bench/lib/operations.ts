/**
 * Send File is written alongside the other message operations but may not be listed in the Message
 * resource yet; the benchmark needs it reachable through the node, exactly as the jest tests make it.
 * Once the resource lists it, this does nothing.
 */
import { messageResource } from '../../nodes/Rubika/actions/message';
import { sendFile } from '../../nodes/Rubika/actions/message/sendFile.operation';

export function ensureSendFile(): void {
	if (!messageResource.operations.some((operation) => operation.value === 'sendFile')) {
		messageResource.operations.push(sendFile);
	}
}

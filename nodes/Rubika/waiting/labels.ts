/** The labels of the answer links and buttons of Send and Wait, as the message shows them. */
import type { IDataObject } from 'n8n-workflow';

/** A label the user set, trimmed, or the default when it is empty. */
export function labelOr(value: unknown, fallback: string): string {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

/** The labels of the approve and decline links, as the message shows them (Approval Options). */
export function approvalLabels(approval: IDataObject): { approve: string; decline: string } {
	return { approve: labelOr(approval.approveLabel, 'Approve'), decline: labelOr(approval.disapproveLabel, 'Decline') };
}

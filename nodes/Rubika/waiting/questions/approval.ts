/** Approval: Approve (and Decline) — buttons in the chat, links on the web page. Output `{ approved }`. */
import type { IDataObject } from 'n8n-workflow';

import { approvalLabels } from '../labels';
import type { QuestionButton, QuestionKind } from './types';

export const approval: QuestionKind = {
	value: 'approval',
	name: 'Approval',
	description: 'The person taps Approve (or Decline)',
	fields: [
		{
			displayName: 'Approval Options',
			name: 'approvalOptions',
			type: 'fixedCollection',
			placeholder: 'Add option',
			default: {},
			options: [
				{
					displayName: 'Values',
					name: 'values',
					values: [
						{
							displayName: 'Type of Approval',
							name: 'approvalType',
							type: 'options',
							default: 'single',
							options: [
								{ name: 'Approve Only', value: 'single' },
								{ name: 'Approve and Decline', value: 'double' },
							],
							description: 'Whether the person can also decline',
						},
						{
							displayName: 'Approve Button Label',
							name: 'approveLabel',
							type: 'string',
							default: 'Approve',
							description: 'Text of the approve button or link',
						},
						{
							displayName: 'Decline Button Label',
							name: 'disapproveLabel',
							type: 'string',
							default: 'Decline',
							displayOptions: { show: { approvalType: ['double'] } },
							description: 'Text of the decline button or link',
						},
					],
				},
			],
		},
	],
	question(parameters) {
		const values = parameters('approvalOptions.values', {}) as IDataObject;
		const labels = approvalLabels(values);
		const double = values.approvalType === 'double';
		const buttons: QuestionButton[] = [{ decision: 'approve', type: 'Simple', text: labels.approve }];
		if (double) buttons.push({ decision: 'decline', type: 'Simple', text: labels.decline });
		return {
			rows: [buttons],
			web: {
				links: [
					{ id: 'approve', label: labels.approve, approved: 'true' },
					...(double ? [{ id: 'decline', label: labels.decline, approved: 'false' as const }] : []),
				],
			},
			read({ decision }) {
				if (decision === 'approve') return { ok: true, data: { approved: true }, shown: labels.approve };
				if (decision === 'decline' && double) return { ok: true, data: { approved: false }, shown: labels.decline };
				return { ok: false, problem: `the question offered no ${decision}` };
			},
		};
	},
};

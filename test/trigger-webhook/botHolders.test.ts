/** The record of which trigger holds which bot (botHolders.ts), on its own: the cases a real n8n cannot time. */
import { hold, holdOnDelivery, letGoAt, otherHolder } from '../../nodes/RubikaTrigger/webhook/botHolders';

const PRODUCTION = 'https://n8n.example.com/webhook/hook-a/hook-a/webhook/:secret';
const TEST = 'https://n8n.example.com/webhook-test/hook-a/hook-a/webhook/:secret';
const holderA = { workflowId: 'wf-a', workflowName: 'A', nodeName: 'Trigger', webhookUrl: PRODUCTION };

// Module memory is shared by the tests of this file: each uses its own bot and trigger names.
test('a delivery that was on its way when the workflow was deactivated does not take the bot back', () => {
	hold('bot-1', 'wf-a/hook-a', holderA);
	letGoAt('wf-a/hook-a', PRODUCTION);
	holdOnDelivery('bot-1', 'wf-a/hook-a', holderA);
	expect(otherHolder('bot-1', 'wf-b/hook-b')).toBeUndefined();
	// Activated again, it holds the bot, and later deliveries keep it.
	hold('bot-1', 'wf-a/hook-a', holderA);
	expect(otherHolder('bot-1', 'wf-b/hook-b')).toEqual(holderA);
});

test('a test listener that stops lets go of nothing the production trigger holds', () => {
	hold('bot-2', 'wf-a/hook-a', holderA);
	letGoAt('wf-a/hook-a', TEST);
	expect(otherHolder('bot-2', 'wf-b/hook-b')).toEqual(holderA);
	holdOnDelivery('bot-2', 'wf-a/hook-a', holderA);
	expect(otherHolder('bot-2', 'wf-b/hook-b')).toEqual(holderA);
});

test('a trigger whose credential moved to another bot holds only the new one', () => {
	hold('bot-3', 'wf-c/hook-c', { ...holderA, workflowId: 'wf-c' });
	hold('bot-4', 'wf-c/hook-c', { ...holderA, workflowId: 'wf-c' });
	expect(otherHolder('bot-3', 'wf-b/hook-b')).toBeUndefined();
	expect(otherHolder('bot-4', 'wf-b/hook-b')?.workflowId).toBe('wf-c');
	expect(otherHolder('bot-4', 'wf-c/hook-c')).toBeUndefined();
});

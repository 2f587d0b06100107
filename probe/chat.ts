/**
 * The probe's hand in the chat it tests in, shared by the method run (sequence.ts) and the interactive run
 * (interactive.ts): calls labelled as steps, and messages sent that are deleted again, at once or at the end.
 */
import { parseKeypad } from '../nodes/Rubika/keypad';
import type { Keypad, RubikaMethod } from '../nodes/shared/types';
import type { Answer } from '../sandbox/probeReport';
import type { ProbeClient, StepLabel } from './client';

export class ProbeChat {
	/** Messages to delete at the end, with the step that sent them. */
	readonly #sent: Array<{ id: string; step: string }> = [];

	constructor(
		readonly client: ProbeClient,
		readonly chatId: string,
	) {}

	get chat(): { chat_id: string } {
		return { chat_id: this.chatId };
	}

	call(method: RubikaMethod, body: Record<string, unknown>, label: Partial<StepLabel> = {}): Promise<Answer> {
		return this.client.call({ step: method, kind: 'method', ...label }, method, body);
	}

	/** Sends a message; one that arrives is deleted at the end (or at once with `deleteNow`). */
	async send(method: RubikaMethod, body: Record<string, unknown>, label: Partial<StepLabel> = {}, deleteNow = false): Promise<Answer> {
		const step = label.step ?? method;
		const answer = await this.call(method, body, { ...label, step });
		const id = textOf(answer.data.message_id ?? answer.data.new_message_id);
		if (id && deleteNow) await this.delete({ id, step }, label.unpaired);
		else if (id) this.#sent.push({ id, step });
		return answer;
	}

	async deleteSent(): Promise<void> {
		for (const message of this.#sent.splice(0).reverse()) await this.delete(message);
	}

	private async delete(message: { id: string; step: string }, unpaired?: true): Promise<void> {
		await this.call('deleteMessage', { ...this.chat, message_id: message.id }, { step: `deleteMessage (${message.step})`, unpaired });
	}
}

/** A keypad as the node sends it (its one JSON reader: types filled in, the one-time flag in both spellings). */
export function keypad(kind: 'inline' | 'chat', rows: Array<Array<Record<string, unknown>>>): Keypad {
	return parseKeypad({ rows: rows.map((buttons) => ({ buttons })) }, 'probe keypad', kind);
}

/** An id or address as text (ids may come as numbers). */
export function textOf(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

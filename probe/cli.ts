/**
 * `npm run probe -- --chat <chat id> [--token <bot token>] [--base-url URL] [--out FILE] [opt-ins]`: checks the
 * real Rubika against what the package assumes (docs/api-facts.md) and writes a report without the token.
 * The token may come from RUBIKA_BOT_TOKEN instead (as for `npm start`), which keeps it out of shell history.
 * With `--interactive` it asks the person at the terminal to answer in their private chat (interactive.ts).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { RUBIKA_DEFAULT_BASE_URL } from '../credentials/RubikaApi.credentials';
import { redactToken } from '../nodes/shared/transport/redact';
import type { ProbeReport, ProbeSettings } from '../sandbox/probeReport';
import { DEFAULT_STEP_TIMEOUT_SECONDS, runInteractiveProbe, runProbe } from './run';
import { OPT_IN } from './sequence';
import { streamTerminal } from './terminal';

const USAGE = `Usage: npm run probe -- --chat <chat id> [options]

Checks how the Rubika Bot API really answers every method the n8n nodes use, with your bot in a chat you
own, and writes a report without the token. Every message it sends is deleted again, a pin is unpinned and
a chat keypad removed. Use a test bot and a test chat if you can.

  --chat ID           the chat to test in (the bot must be able to post there)   (required)
  --token TOKEN       the bot token; better: set RUBIKA_BOT_TOKEN, which keeps it out of shell history
  --base-url URL      default: RUBIKA_BASE_URL or ${RUBIKA_DEFAULT_BASE_URL}
  --out FILE          where to write the report (default: rubika-probe-report.json)
  --sticker ID        a sticker id for sendSticker (without it, a made-up id shows whether the method exists)
  --pace-ms N         pause between requests (default 500)

Opt-ins (each does something that cannot be undone or reaches beyond the chat):
${Object.values(OPT_IN)
	.map((option) => `  ${option.flag.padEnd(22)} ${option.why}`)
	.join('\n')}

With a person: npm run probe -- --interactive --chat <your private chat with the bot, b0…> [options]
It asks you, step by step here, to use a keypad of every special button type on your phone, and records what
arrives (phone numbers and places masked); measures the text and formatting limits with test messages deleted
at once. It reads the bot's updates with getUpdates: stop every trigger of this bot first. Writes
rubika-probe-interactive.json unless --out says otherwise. The method opt-ins above do not apply.

  --interactive       run with a person (their private chat with the bot)
  --yes               agree beforehand to what the run does (needed without a terminal to answer at)
  --step-timeout S    how long each step waits for you, in seconds (default ${DEFAULT_STEP_TIMEOUT_SECONDS})
  --endpoint-test URL opt-in: register URL (a throwaway HTTPS address) as the bot's ReceiveUpdate endpoint, see
                      whether getUpdates stops, then try to remove it. It replaces the address of any webhook
                      trigger of this bot, which must then be registered again
`;

/** The method run's opt-ins, which an interactive run does not take. */
const METHOD_ONLY = ['sticker', 'ban-member', 'unpin-all', 'get-updates', 'set-commands', 'webhook-url'] as const;
const INTERACTIVE_ONLY = ['yes', 'step-timeout', 'endpoint-test'] as const;

async function main(): Promise<number> {
	const { values, positionals } = parseArgs({
		allowPositionals: true,
		options: {
			chat: { type: 'string' },
			token: { type: 'string' },
			'base-url': { type: 'string' },
			out: { type: 'string' },
			sticker: { type: 'string' },
			'pace-ms': { type: 'string' },
			'ban-member': { type: 'string' },
			'unpin-all': { type: 'boolean' },
			'get-updates': { type: 'boolean' },
			'set-commands': { type: 'boolean' },
			'webhook-url': { type: 'string' },
			interactive: { type: 'boolean' },
			yes: { type: 'boolean' },
			'step-timeout': { type: 'string' },
			'endpoint-test': { type: 'string' },
			help: { type: 'boolean' },
		},
	});
	if (values.help) {
		console.log(USAGE);
		return 0;
	}
	const token = (values.token ?? process.env.RUBIKA_BOT_TOKEN ?? '').trim();
	const paceMs = Number(values['pace-ms'] ?? 500);
	const interactive = values.interactive === true;
	const stepTimeoutSeconds = Number(values['step-timeout'] ?? DEFAULT_STEP_TIMEOUT_SECONDS);
	const endpointTestUrl = values['endpoint-test']?.trim();
	const misplaced = (interactive ? METHOD_ONLY : INTERACTIVE_ONLY).filter((name) => values[name] !== undefined);
	const problem = positionals.length > 0
		? `${positionals.length} argument(s) without an option name (not shown: one may be the token)`
		: !values.chat
		? '--chat is required'
		: token === ''
			? 'the bot token is missing: set RUBIKA_BOT_TOKEN or give --token'
			: !Number.isInteger(paceMs) || paceMs < 0
				? '--pace-ms must be a whole number of milliseconds'
				: misplaced.length > 0
					? `${misplaced.map((name) => `--${name}`).join(', ')} ${interactive ? 'belong to the method run, not to --interactive' : 'only go with --interactive'}`
					: !Number.isInteger(stepTimeoutSeconds) || stepTimeoutSeconds < 1
						? '--step-timeout must be a whole number of seconds'
						: endpointTestUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(endpointTestUrl)
							? '--endpoint-test must be an http(s) address'
							: undefined;
	if (problem) {
		console.error(`${problem}\n\n${USAGE}`);
		return 2;
	}
	const settings: ProbeSettings = {
		baseUrl: (values['base-url'] ?? process.env.RUBIKA_BASE_URL ?? RUBIKA_DEFAULT_BASE_URL).trim(),
		chatId: values.chat!.trim(),
		...(values.sticker ? { stickerId: values.sticker } : {}),
		...(values['ban-member'] ? { banMemberId: values['ban-member'] } : {}),
		...(values['webhook-url'] ? { webhookUrl: values['webhook-url'] } : {}),
		unpinAll: values['unpin-all'] === true,
		getUpdates: values['get-updates'] === true,
		setCommands: values['set-commands'] === true,
		paceMs,
		...(interactive ? { interactive: { stepTimeoutSeconds, ...(endpointTestUrl ? { endpointTestUrl } : {}) } } : {}),
	};
	const out = resolve(values.out ?? (interactive ? 'rubika-probe-interactive.json' : 'rubika-probe-report.json'));
	const log = (line: string) => console.error(`  ${redactToken(line, token)}`);
	try {
		let report: ProbeReport;
		if (interactive) {
			const terminal = streamTerminal(process.stdin, process.stdout, process.stdin.isTTY === true);
			try {
				report = await runInteractiveProbe(settings, token, { terminal, yes: values.yes === true }, log);
			} finally {
				terminal.close();
			}
		} else report = await runProbe(settings, token, log);
		writeFileSync(out, `${JSON.stringify(report, null, '\t')}\n`);
		const probed = Object.values(report.methods).filter((method) => method.answers.length > 0).length;
		console.log(
			[
				`Report: ${out}`,
				report.interactive
					? `${report.interactive.steps.length} steps with you, ${report.exchanges.length} requests recorded (phone numbers and places masked).`
					: `${probed} of ${Object.keys(report.methods).length} methods called as the node calls them, ${report.exchanges.length} requests, ${report.differences.length} differences from the sandbox${report.notCompared ? ` (not compared: ${report.notCompared})` : ''}.`,
				...(report.stopped ? [`Stopped early: ${report.stopped}`] : []),
				'Before sharing it, read it: it holds your bot\'s and chat\'s ids and names (the token is removed).',
				'To contribute it, see docs/api-facts.md, "Checking the real Rubika".',
			].join('\n'),
		);
		return report.stopped ? 1 : 0;
	} catch (error) {
		console.error(`The probe failed: ${redactToken(error instanceof Error ? error.message : String(error), token)}`);
		return 1;
	}
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		// Only argument parsing can get here (unknown option): no token to hide in its message.
		console.error(error instanceof Error ? error.message : error);
		process.exit(2);
	},
);

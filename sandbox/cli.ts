/**
 * `npm run sandbox`: the sandbox with the demo seed on RUBIKA_SANDBOX_PORT (default 8765), for manual
 * trials, demos and out-of-process tests. Prints what you need to point a Rubika credential at it.
 * `npm run sandbox -- --state FILE` keeps the state in FILE between runs; `--replay REPORT` answers as the
 * real Rubika did in a probe report (replay.ts).
 */
import { readFileSync } from 'node:fs';

import type { Replay } from './replay';
import { replayOptions } from './replay';
import { DEMO_BOT_TOKEN, DEMO_BOT_USERNAME, DEMO_CHANNEL_ID, DEMO_GROUP_ID, DEMO_QUIET_GROUP_ID, DEMO_STICKERS, DEMO_USERS } from './seed';
import { startSandbox } from './server';

async function main(): Promise<void> {
	const port = Number(process.env.RUBIKA_SANDBOX_PORT ?? 8765);
	if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`RUBIKA_SANDBOX_PORT is not a port: ${process.env.RUBIKA_SANDBOX_PORT}`);
	const stateIndex = process.argv.indexOf('--state');
	const stateFile = stateIndex > 0 ? process.argv[stateIndex + 1] : undefined;
	if (stateIndex > 0 && !stateFile) throw new Error('--state needs a file name');
	const replayIndex = process.argv.indexOf('--replay');
	const reportFile = replayIndex > 0 ? process.argv[replayIndex + 1] : undefined;
	if (replayIndex > 0 && !reportFile) throw new Error('--replay needs a probe report (npm run probe writes one)');
	const replay = reportFile ? replayOptions(JSON.parse(readFileSync(reportFile, 'utf8'))) : undefined;
	const sandbox = await startSandbox({ ...replay?.options, port, host: process.env.RUBIKA_SANDBOX_HOST ?? '127.0.0.1', stateFile });
	const users = Object.values(DEMO_USERS)
		.map((user) => `  ${user.first_name.padEnd(5)} user_id ${user.user_id}   private chat ${user.chat_id}`)
		.join('\n');
	console.log(
		[
			'Rubika sandbox is running.',
			`Base URL (credential "Base URL"): ${sandbox.baseUrl}`,
			`Demo bot token: ${DEMO_BOT_TOKEN}   (@${DEMO_BOT_USERNAME})`,
			users,
			`  Group   ${DEMO_GROUP_ID} (bot is admin)`,
			`  Group   ${DEMO_QUIET_GROUP_ID} (bot is a member)`,
			`  Channel ${DEMO_CHANNEL_ID} (bot is admin)`,
			`  Stickers ${Object.values(DEMO_STICKERS).map((sticker) => `${sticker.emoji_character} ${sticker.sticker_id}`).join('   ')}`,
			`Admin API: ${sandbox.baseUrl}/_sandbox/state  (see sandbox/README.md)`,
			...(sandbox.stateFile ? [`State: ${sandbox.stateFile.restored ? 'restored from' : 'a new state, kept in'} ${sandbox.stateFile.file}`] : []),
			...(replay ? describeReplay(reportFile!, replay) : []),
			`Try: curl -X POST ${sandbox.baseUrl}/v3/${DEMO_BOT_TOKEN}/getMe`,
			'Ctrl+C to stop.',
		].join('\n'),
	);
	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		void sandbox.close().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

function describeReplay(file: string, { options, notes }: Replay): string[] {
	const { recordedAnswers = {}, ...knobs } = options;
	const methods = Object.keys(recordedAnswers);
	return [
		`Replaying ${file}: ${JSON.stringify(knobs)}`,
		`  recorded answers of ${methods.length > 0 ? methods.join(', ') : 'no method (none differed from the sandbox)'}`,
		...notes.map((note) => `  note: ${note}`),
	];
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});

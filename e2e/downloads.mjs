// Download Files that cannot stall the Rubika Trigger (docs/rubika-trigger.md, Filters and options), in a real n8n,
// run by continuous.mjs in its world while it goes on with its burst of messages (no test of its own, no restart).
// Options → Max File Size 0.5 MB; while the sandbox's file server answers every download with 503:
// - By Reading (the demo bot): a message with a 600 KB file, one with a file that cannot be downloaded, then a plain
//   message. Each starts one execution, once: the first at once, without the file and with file_error giving the
//   size and the limit (the file never asked for); the second after three tries (getFile three times), with
//   file_error ending "(tried 3 times)"; the plain one after it, not before. No failed execution: the items say it.
// - By Webhook (a bot of its own): the same three messages. The oversize file and the failing one go out with
//   file_error after one try, and the plain message behind them starts its execution without waiting for the
//   failing download.
import { linearWorkflow, readingTrigger } from '../tooling/workflow-builder.mjs';
import { nodeFullItems } from '../tooling/world.mjs';
import { BOT_TRIGGER, workflowForBot } from './webhook-bots.mjs';
import { eventually } from './lib/reporter.mjs';

const READING_ID = 'e2eContDownload1';
const READING_TRIGGER = 'Rubika Trigger';
const LIMITS = { downloadFiles: true, maxFileSize: 0.5 };
/** Generous: what has not arrived by then is held back for good. Not a performance bound. */
const DEADLINE_MS = 60_000;
const TEXTS = ['e2e-dl too big', 'e2e-dl failing', 'e2e-dl after'];
const TOO_BIG = 'The file is 600 KB (614400 bytes), more than Max File Size (512 KB): not downloaded';

/** The reading workflow, imported with the world's others. Nothing older matches its pattern: Process Backlog is safe. */
export const downloadsWorkflow = () =>
	linearWorkflow(READING_ID, 'E2E: downloads that cannot stall, by reading', [
		readingTrigger(READING_TRIGGER, { firstActivation: 'processBacklog', filters: { textPattern: '^e2e-dl ' }, options: LIMITS }),
	]);

/**
 * Publishes both workflows, makes every download fail and sends the messages; returns `finish()`, which waits for
 * the executions (the reading one takes three tries: about 11 s on n8n 2.41.1), checks them and cleans up.
 */
export async function startDownloads(world, t) {
	const { admin, demo } = world;
	const { sara } = demo.users;
	const bot = await admin.addBot({ bot_title: 'Downloads Bot' });
	await admin.act('start-bot', { userId: sara.user_id, botId: bot.bot_id, sendStartMessage: false });
	const byWebhook = await workflowForBot(world, bot, 'Downloads by webhook', { options: LIMITS });
	const cleanUp = async () => {
		await admin.clearFaults();
		for (const id of [READING_ID, byWebhook.id]) await world.deactivate(id).catch(() => {});
		// browser.mjs, later in the same n8n, looks at the editor's default credential for a new node.
		await (await world.session()).request('DELETE', `/rest/credentials/${byWebhook.credentialId}`).catch(() => {});
	};
	const began = Date.now();
	try {
		await world.activate(byWebhook.id);
		const url = await eventually(async () => (await admin.bot(bot.bot_id)).endpoints[0]?.url);
		await world.waitForWebhook(url.slice(`${world.ctx.baseUrl}/webhook/`.length));
		await world.activate(READING_ID);

		const big = await admin.addFile(Buffer.alloc(600 * 1024, 7), { name: 'big.bin' });
		const failing = await admin.addFile('cannot be downloaded', { name: 'failing.txt', mimeType: 'text/plain' });
		await admin.injectFault({ kind: 'httpStatus', method: 'download', httpStatus: 503, times: -1 });
		const files = [big.file_id, failing.file_id, undefined];
		const sentAt = Date.now();
		for (const to of [{ chatId: sara.chat_id }, { botId: bot.bot_id }]) {
			for (const [i, text] of TEXTS.entries()) await admin.act('send-message', { userId: sara.user_id, ...to, text, ...(files[i] ? { fileId: files[i] } : {}) });
		}
		t.note(`downloads: publishing and sending took ${((Date.now() - began) / 1000).toFixed(1)} s`);
		const finish = async () => {
			const waited = Date.now();
			await check(world, t, { bot, byWebhook, big, failing, sentAt }).finally(cleanUp);
			t.note(`downloads: the checks and the clean-up, after the burst, took ${((Date.now() - waited) / 1000).toFixed(1)} s`);
		};
		return { finish };
	} catch (error) {
		await cleanUp();
		throw error;
	}
}

async function check(world, t, { bot, byWebhook, big, failing, sentAt }) {
	const { admin, demo } = world;
	const arrived = async (id, trigger) => {
		const executions = await world.waitForExecutions(id, { count: TEXTS.length, timeoutMs: DEADLINE_MS }).catch((error) => {
			t.check(`${TEXTS.length} executions of ${id}`, false, error.message);
			return [];
		});
		const items = executions.map((execution) => ({ execution, item: nodeFullItems(execution, trigger)[0] }));
		const byText = Object.fromEntries(items.map((x) => [x.item?.json?.text, x]));
		return { items, byText, started: (text) => Date.parse(byText[text]?.execution.startedAt) };
	};
	/** getFile requests for a file by a bot: one per try. */
	const tries = (getFiles, botId, fileId) => getFiles.filter((r) => r.botId === botId && r.body?.file_id === fileId);
	/** What a user checks on an item: its text, whether binary data came, file_error. */
	const shown = ({ item }) => ({ text: item?.json?.text, binary: item?.binary !== undefined, file_error: item?.json?.file_error });

	const reading = await arrived(READING_ID, READING_TRIGGER);
	const webhook = await arrived(byWebhook.id, BOT_TRIGGER);
	const getFiles = await admin.requests('getFile');
	const failed = (x) => /HTTP 503/.test(x?.item?.json?.file_error ?? '');

	// --- by reading ------------------------------------------------------------------------------
	t.eq(
		'By Reading, Max File Size 0.5 MB, every download failing: the three messages start one execution each, once',
		reading.items.map((x) => x.item?.json?.text).sort(),
		[...TEXTS].sort(),
	);
	t.eq("… the 600 KB file's: no binary data, file_error with the size and the limit", shown(reading.byText[TEXTS[0]] ?? {}), { text: TEXTS[0], binary: false, file_error: TOO_BIG });
	t.eq('… that file never asked for (no getFile)', tries(getFiles, demo.botId, big.file_id).length, 0);
	const readingFailing = reading.byText[TEXTS[1]];
	t.check(
		"… the failing download's: no binary data, file_error with the file server's answer after three tries (getFile three times), the file's id kept",
		failed(readingFailing) && /\(tried 3 times\)$/.test(readingFailing.item.json.file_error) && !readingFailing.item.binary && readingFailing.item.json.file?.file_id === failing.file_id && tries(getFiles, demo.botId, failing.file_id).length === 3,
		{ ...shown(readingFailing ?? {}), getFile: tries(getFiles, demo.botId, failing.file_id).length },
	);
	const lastTry = tries(getFiles, demo.botId, failing.file_id).at(-1)?.at;
	t.check(
		'… the plain message behind it comes after it, in order: its execution starts after the last try',
		reading.started(TEXTS[2]) >= lastTry && reading.started(TEXTS[2]) >= reading.started(TEXTS[0]),
		`started ${reading.started(TEXTS[2]) - lastTry} ms after the last try`,
	);
	const heldBack = reading.started(TEXTS[2]) - sentAt;
	t.check('… held back seconds, not minutes: under 30 s with the default Interval (what the docs say)', heldBack < 30_000, `${(heldBack / 1000).toFixed(1)} s`);
	t.eq('… and every execution succeeded: no failed execution, no alarm', reading.items.map((x) => x.execution.status), ['success', 'success', 'success']);

	// --- by webhook ------------------------------------------------------------------------------
	t.eq('By Webhook, the same limits and messages: one execution each, once', webhook.items.map((x) => x.item?.json?.text).sort(), [...TEXTS].sort());
	t.eq("… the 600 KB file's: file_error with the size and the limit, never asked for", { ...shown(webhook.byText[TEXTS[0]] ?? {}), getFile: tries(getFiles, bot.bot_id, big.file_id).length }, { text: TEXTS[0], binary: false, file_error: TOO_BIG, getFile: 0 });
	const webhookFailing = webhook.byText[TEXTS[1]];
	t.check(
		"… the failing download's: file_error with the file server's answer, one try (Rubika has had its answer; the delivery cannot be read again)",
		failed(webhookFailing) && !/tried/.test(webhookFailing.item.json.file_error) && !webhookFailing.item.binary && tries(getFiles, bot.bot_id, failing.file_id).length === 1,
		shown(webhookFailing ?? {}),
	);
	t.check(
		'… the plain message behind it does not wait for that download: its execution starts first',
		webhook.started(TEXTS[2]) < webhook.started(TEXTS[1]),
		`${webhook.started(TEXTS[1]) - webhook.started(TEXTS[2])} ms before`,
	);
	t.eq('… every execution succeeded', webhook.items.map((x) => x.execution.status), ['success', 'success', 'success']);
}

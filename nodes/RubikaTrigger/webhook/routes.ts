/**
 * The trigger's webhooks: the routes n8n serves for it and how n8n answers them. They exist only while the
 * trigger receives by webhook: n8n adds a webhook whose method evaluates to nothing to no route, on 2.8 and
 * 2.41 (WebhookService.getNodeWebhooks), so a trigger that reads getUpdates registers no address, and
 * "Listen for test event" runs its reading instead of waiting for a call. The paths are part of registered
 * addresses: never change them.
 */
import type { IWebhookDescription } from 'n8n-workflow';

import type { SecretLocation } from './secret';
import { ENDPOINT_SUFFIXES, webhookPathFor } from './secret';

/**
 * How n8n answers every delivery: at once (`onReceived`: before the workflow runs), with n8n's default
 * status, 200.
 *
 * `responseData` must be there and empty. When a delivery starts an execution, n8n answers with the
 * description's `responseData` if it has a value, and only falls back to the node's `webhookResponse`
 * (OK_ANSWER) when it is empty; left out, it defaults to the text "firstEntryJson", which n8n then sends as
 * the body. Deliveries that start nothing get `webhookResponse` either way. A delivery whose file is to be
 * downloaded is answered by the node itself, before the download (see `webhook()`).
 */
const ANSWER_AT_ONCE = { responseMode: 'onReceived', responseData: '' } as const;

const WEBHOOK_PATH = 'webhook';

/**
 * The path for the chosen Secret, as an expression n8n evaluates when it registers the routes.
 *
 * Every path starts with the node's webhook id (`$webhookId` in n8n's expressions, on 2.8 and 2.41), so that
 * no two nodes share one and any number of bots can each have a published workflow. n8n finds a path with a
 * route parameter (`:secret`) by the node's webhook id in the request's first segment and the number of
 * segments after it, counted on the path as registered: so that path is given without n8n's own prefix
 * ("full path"). The URL n8n builds and routes is then `<webhook id>/<webhook id>/webhook/<secret>`, and
 * `<webhook id>/webhook` without the secret in the path.
 */
function pathExpression(suffix: string | undefined, secretParameter: string): string {
	const secretNotInPath = `["query", "off"].includes($parameter["${secretParameter}"])`;
	const byLocation = (location: SecretLocation) => `$webhookId + "/" + ${JSON.stringify(webhookPathFor(location, WEBHOOK_PATH, suffix))}`;
	return `={{ ${secretNotInPath} ? ${byLocation('query')} : ${byLocation('path')} }}`;
}

/**
 * The webhook's own path, plus the same path with each suffix the service may append (facts §4). Only the
 * first is named `default`: n8n runs checkExists/create/delete per webhook name, and the bot must be
 * registered once, not six times. The suffix routes carry no lifecycle methods of their own. Each route
 * exists only when `receiveParameter` is "webhook" (its method is empty otherwise), and the editor shows the
 * address only then.
 */
export function webhookRoutes(receiveParameter: string, secretParameter: string): IWebhookDescription[] {
	const onlyByWebhook = `$parameter["${receiveParameter}"] === "webhook"`;
	const route = { httpMethod: `={{ ${onlyByWebhook} ? "POST" : "" }}`, isFullPath: true, ...ANSWER_AT_ONCE };
	return [
		{ name: 'default', path: pathExpression(undefined, secretParameter), ndvHideUrl: `={{ !(${onlyByWebhook}) }}` as unknown as boolean, ...route },
		...ENDPOINT_SUFFIXES.map(
			(suffix): IWebhookDescription => ({ name: 'setup', path: pathExpression(suffix, secretParameter), ndvHideUrl: true, ...route }),
		),
	];
}

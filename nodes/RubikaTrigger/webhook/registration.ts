/**
 * What this node told Rubika, kept in the node's static data.
 *
 * Rubika has no call that lists or removes endpoints, so the only way to know whether the bot still points
 * here is to remember what was registered. The record holds a fingerprint of the exact URL (which embeds
 * the secret, itself derived from the bot token), the endpoint types and the bot (getMe's bot id,
 * ../shared/updates/botIdentity.ts): a new n8n address, a new token or another choice of endpoints no longer
 * matches, and the activation registers again. Until then Rubika keeps posting to the registered URL, so a
 * delivery presenting that URL's secret is Rubika's even after the token changed (registeredSecret).
 */
import type { IDataObject } from 'n8n-workflow';

import type { UpdateEndpointType } from '../../shared/types';
import { UPDATE_ENDPOINT_TYPES } from '../../shared/types';
import { fingerprint } from './secret';

const FIELD = 'registration';

export interface RegistrationRecord {
	/** Fingerprint of the URL given to updateBotEndpoints. */
	url: string;
	/** Endpoint types registered with that URL, in the order of UPDATE_ENDPOINT_TYPES. */
	types: UpdateEndpointType[];
	/** When, as ISO 8601: for a person reading the static data. */
	at: string;
	/** The bot registered (getMe's bot id); absent in records written before bot ids were kept. */
	bot?: string;
}

export function readRegistration(staticData: IDataObject): RegistrationRecord | undefined {
	const raw = staticData[FIELD];
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
	const record = raw as Partial<RegistrationRecord>;
	if (typeof record.url !== 'string' || !Array.isArray(record.types)) return undefined;
	return {
		url: record.url,
		types: normaliseTypes(record.types),
		at: String(record.at ?? ''),
		...(typeof record.bot === 'string' ? { bot: record.bot } : {}),
	};
}

/** The record of registering `url` (the whole URL, secret included) for `types` and `bot`, as of now. */
export function registrationRecordOf(url: string, types: readonly string[], bot: string): RegistrationRecord {
	return { url: fingerprint(url), types: normaliseTypes(types), at: new Date().toISOString(), bot };
}

export function saveRegistration(staticData: IDataObject, url: string, types: readonly string[], bot: string): void {
	// Assigned as a whole new object: n8n notices changes to static data through its setters only.
	staticData[FIELD] = registrationRecordOf(url, types, bot);
}

export function forgetRegistration(staticData: IDataObject): void {
	delete staticData[FIELD];
}

/** Whether the record describes exactly this URL and these types. */
export function registrationMatches(
	record: RegistrationRecord | undefined,
	url: string,
	types: readonly string[],
): boolean {
	if (!record) return false;
	const wanted = normaliseTypes(types);
	return (
		record.url === fingerprint(url) &&
		record.types.length === wanted.length &&
		record.types.every((type, index) => type === wanted[index])
	);
}

/** Whether `url` (the URL with the secret a delivery presents) is the one registered, whatever the token is now. */
export function isRegisteredUrl(record: RegistrationRecord | undefined, url: string): boolean {
	return record !== undefined && record.url === fingerprint(url);
}

/** Known types only, each once, in a fixed order, so that comparisons ignore how the user ordered them. */
export function normaliseTypes(types: readonly unknown[]): UpdateEndpointType[] {
	return UPDATE_ENDPOINT_TYPES.filter((type) => types.includes(type));
}

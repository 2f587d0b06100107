/**
 * Location: in the chat a button that shares where the person is (AskMyLocation) or lets them pick a place on
 * a map (Location, Picker); on the web page a latitude and a longitude. Output `{ latitude, longitude }` as
 * numbers. A place sent as text ("35.7, 51.4") is read too (facts §11: where Rubika puts it is not documented).
 */
import { InputError } from '../../../shared/errors';
import { plainDigits, readAnsweredCoordinate } from './normalise';
import type { QuestionKind } from './types';
import { answerText, inputButton } from './types';

const BUTTONS: Record<string, { type: string; label: string }> = {
	current: { type: 'AskMyLocation', label: '📍 Share my location' },
	picked: { type: 'Location', label: '📍 Pick a place' },
};

export const location: QuestionKind = {
	value: 'location',
	name: 'Location',
	description: 'The person shares where they are, or picks a place on a map',
	fields: [
		{
			displayName: 'Place (Chat)',
			name: 'locationKind',
			type: 'options',
			default: 'current',
			options: [
				{ name: 'Where They Are', value: 'current', description: 'A button that shares the phone\'s location (AskMyLocation)' },
				{ name: 'A Place They Pick on a Map', value: 'picked', description: 'A button that opens a map to pick a point on (Location, Picker)' },
			],
			displayOptions: { show: { answerIn: ['inlineButtons', 'chatKeypad'] } },
			description: 'Which place the chat\'s button asks for',
		},
	],
	question(parameters) {
		const kind = String(parameters('locationKind', 'current'));
		const button = BUTTONS[kind];
		if (!button) throw new InputError('Place (Chat)', `must be "current" or "picked", got "${kind}"`);
		return {
			rows: inputButton(parameters, button.type, button.label, kind === 'picked' ? { fields: { locationType: 'Picker' }, field: 'Place (Chat)' } : undefined),
			web: {
				form: [
					{ label: 'Latitude', type: 'number', required: true, options: [], min: '-90', max: '90', placeholder: '35.6892' },
					{ label: 'Longitude', type: 'number', required: true, options: [], min: '-180', max: '180', placeholder: '51.3890' },
				],
				given: ([latitude, longitude]) => ({ decision: 'input', content: { location: { latitude, longitude } } }),
			},
			read(answer) {
				const [textLatitude, textLongitude] = plainDigits(answerText(answer)).split(/\s*[,،]\s*|\s+/);
				const place = answer.content?.location ?? { latitude: textLatitude, longitude: textLongitude };
				const latitude = answer.decision === 'input' ? readAnsweredCoordinate(place.latitude, 90) : undefined;
				const longitude = answer.decision === 'input' ? readAnsweredCoordinate(place.longitude, 180) : undefined;
				if (latitude === undefined || longitude === undefined) return { ok: false, problem: 'that is not a place' };
				return { ok: true, data: { latitude, longitude }, shown: `${latitude}, ${longitude}` };
			},
		};
	},
};

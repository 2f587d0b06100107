/** The keypad builder: each button type that has settings gets fields for them, read into the settings object. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { BUTTON_SETTINGS_FIELDS } from '../../nodes/Rubika/helpers/buttonSettingsFields';
import { useActionSandbox } from './helpers';

const actions = useActionSandbox('message');
const { run, bodies } = actions;

describe('each button type that has settings gets fields for them', () => {
	const CHAT = 'b0fmK4lPjBjf3YEfErJNQK7siVKEBjED';
	const sendWith = (rows: INodeParameters[][]): INodeParameters => ({
		operation: 'sendMessage',
		chatId: CHAT,
		text: 'Choose',
		inlineKeypadMode: 'builder',
		inlineKeypad: { rows: rows.map((buttons) => ({ buttons: { button: buttons } })) },
	});
	const sentButtons = () => (bodies('sendMessage')[0] as { inline_keypad: { rows: Array<{ buttons: IDataObject[] }> } }).inline_keypad.rows.map((row) => row.buttons);

	test('the fields become the settings objects Rubika documents, numbers as strings, empty fields left out', async () => {
		const result = await run(
			sendWith([
				[
					{ text: 'Yes', type: 'Simple', id: 'yes' },
					{ text: 'When?', type: 'Calendar', id: 'date', calendarType: 'DateGregorian', minYear: '2024', maxYear: '2026', title: 'Pick a day' },
				],
				[
					{ text: 'How many?', type: 'NumberPicker', minValue: 1, maxValue: 5, defaultValue: '2' },
					{ text: 'Size', type: 'StringPicker', choices: 'Small\n Medium \n\nLarge' },
				],
				[
					{ text: 'Note', type: 'Textbox', textboxLines: 'MultiLine', placeholderText: 'Write here' },
					{ text: 'Where', type: 'Location', locationType: 'View', latitude: '35.6892', longitude: '51.3890' },
				],
				[{ text: 'City', type: 'Selection', selectionId: 'cities', selectionItems: 'Tehran\nShiraz', multiSelection: true, columns: 2, title: 'Cities' }],
			]),
		);
		expect(result.error).toBeUndefined();
		const tehran = { latitude: '35.6892', longitude: '51.3890' };
		expect(sentButtons()).toStrictEqual([
			[
				{ id: 'yes', type: 'Simple', button_text: 'Yes' },
				{ id: 'date', type: 'Calendar', button_text: 'When?', button_calendar: { type: 'DateGregorian', min_year: '2024', max_year: '2026', title: 'Pick a day' } },
			],
			[
				{ id: 'r2b1', type: 'NumberPicker', button_text: 'How many?', button_number_picker: { min_value: '1', max_value: '5', default_value: '2' } },
				{ id: 'r2b2', type: 'StringPicker', button_text: 'Size', button_string_picker: { items: ['Small', 'Medium', 'Large'] } },
			],
			[
				{ id: 'r3b1', type: 'Textbox', button_text: 'Note', button_textbox: { type_line: 'MultiLine', type_keypad: 'String', place_holder: 'Write here' } },
				{ id: 'r3b2', type: 'Location', button_text: 'Where', button_location: { type: 'View', default_pointer_location: tehran, default_map_location: tehran } },
			],
			[
				{
					id: 'r4b1',
					type: 'Selection',
					button_text: 'City',
					button_selection: {
						selection_id: 'cities',
						search_type: 'None',
						get_type: 'Local',
						items: [
							{ text: 'Tehran', type: 'TextOnly' },
							{ text: 'Shiraz', type: 'TextOnly' },
						],
						is_multi_selection: true,
						columns_count: '2',
						title: 'Cities',
					},
				},
			],
		]);
	});

	test('a new Pick a Date button with nothing filled in sends the defaults: the Persian calendar', async () => {
		await run(sendWith([[{ text: 'When?', type: 'Calendar' }]]));
		expect(sentButtons()).toStrictEqual([[{ id: 'r1b1', type: 'Calendar', button_text: 'When?', button_calendar: { type: 'DatePersian' } }]]);
	});

	test('a list always carries its own items: the builder offers no list or search that Rubika would ask the bot for (GetSelectionItem, SearchSelectionItems)', async () => {
		// Which fields the editor shows (Items From only for a list saved with The Bot): test/actions/panel.test.ts.
		const fields = BUTTON_SETTINGS_FIELDS.filter((field) => field.displayOptions?.show?.type?.includes('Selection'));
		const search = fields.find((field) => field.name === 'selectionSearch');
		expect(search?.options?.map((option) => (option as { value: string }).value)).toEqual(['None', 'Local']);

		// A list saved with The Bot, then set to Listed Here (the field shown for it) and given its items, is sent.
		await run(sendWith([[{ text: 'City', type: 'Selection', selectionItems: 'Tehran', selectionSearch: 'Local', selectionGet: 'Local' }]]));
		expect(sentButtons()[0][0].button_selection).toMatchObject({ get_type: 'Local', search_type: 'Local', items: [{ text: 'Tehran', type: 'TextOnly' }] });
	});

	test('a settings object in Extra Fields replaces the one the fields make', async () => {
		const extra = JSON.stringify({ button_calendar: { type: 'DatePersian', default_value: '1403/01/01' }, note: 'kept' });
		await run(sendWith([[{ text: 'Own', type: 'Calendar', id: 'own', minYear: '1400', options: { extra } }]]));
		expect(sentButtons()).toStrictEqual([
			[{ button_calendar: { type: 'DatePersian', default_value: '1403/01/01' }, note: 'kept', id: 'own', type: 'Calendar', button_text: 'Own' }],
		]);
	});

	test.each<[string, INodeParameters, string]>([
		['a text picker without choices', { text: 'Size', type: 'StringPicker', choices: ' \n ' }, 'row 1, button 1: a text picker needs at least one choice (Choices, one per line)'],
		['a number picker upside down', { text: 'N', type: 'NumberPicker', minValue: 9, maxValue: 2 }, 'row 1, button 1: Smallest Number 9 is above Largest Number 2'],
		['years upside down', { text: 'D', type: 'Calendar', minYear: '1410', maxYear: '1400' }, 'row 1, button 1: From Year 1410 is after To Year 1400'],
		['a year that is not a number', { text: 'D', type: 'Calendar', minYear: '14o0' }, 'row 1, button 1: From Year must be a whole number, got "14o0"'],
		['a latitude without a longitude', { text: 'L', type: 'Location', latitude: '35.7' }, 'row 1, button 1: give both Latitude and Longitude, or neither'],
		['a latitude out of range', { text: 'L', type: 'Location', latitude: '95', longitude: '51' }, 'row 1, button 1: Latitude must be between -90 and 90, got 95'],
		['a list with no items', { text: 'S', type: 'Selection', selectionSearch: 'Local' }, 'row 1, button 1: a list needs at least one item (Items, one per line)'],
		['a calendar of unknown kind (from an expression)', { text: 'D', type: 'Calendar', calendarType: 'Lunar' }, 'row 1, button 1: Calendar must be one of DatePersian, DateGregorian, got "Lunar"'],
		[
			'a list saved with Items From: The Bot',
			{ text: 'S', type: 'Selection', selectionGet: 'Api' },
			'row 1, button 1: Items From "The Bot" (get_type Api) is no longer offered: Rubika would ask the bot for the list\'s items and nothing here answers it with them; choose Items From: Listed Here and write the items in Items, one per line',
		],
		[
			'a list saved with Search: Ask the Bot',
			{ text: 'S', type: 'Selection', selectionItems: 'a', selectionSearch: 'Api' },
			'row 1, button 1: Search "Ask the Bot" (search_type Api) is no longer offered: Rubika would ask the bot for the list\'s items and nothing here answers it with them; choose No Search or Search the Items',
		],
	])('refuses %s before sending, naming the field and the item', async (_case, button, message) => {
		actions.expectRefused(await run(sendWith([[button]])), `Inline Keypad: ${message} [item 0]`);
	});
});

/**
 * One value given one of several ways: an options field choosing the way (Builder or JSON, List or JSON…),
 * then the fields of each way, each shown only while its way is chosen. Used by every such choice, so they
 * all look and behave alike.
 */
import type { INodeProperties } from 'n8n-workflow';

/** One choice of the options field, and the fields shown while it is chosen (none for e.g. "None"). */
export interface InputWay {
	name: string;
	value: string;
	description: string;
	fields?: INodeProperties[];
}

/**
 * The options field (`mode` without its type and options), then each way's fields in the order of the ways.
 * A field's own show conditions are kept; the mode's show conditions and "mode is this way" are added to them.
 */
export function inputModeProperties(mode: Omit<INodeProperties, 'type' | 'options'>, ways: InputWay[]): INodeProperties[] {
	const show = mode.displayOptions?.show ?? {};
	const choice: INodeProperties = {
		...mode,
		type: 'options',
		options: ways.map(({ name, value, description }) => ({ name, value, description })),
	};
	const fields = ways.flatMap((way) =>
		(way.fields ?? []).map(
			(field): INodeProperties => ({
				...field,
				displayOptions: { ...field.displayOptions, show: { ...show, ...field.displayOptions?.show, [mode.name]: [way.value] } },
			}),
		),
	);
	return [choice, ...fields];
}

/**
 * Keypads (inline keypads under a message and chat keypads replacing the phone keyboard): reading every
 * shape users write in n8n expressions, building one from the node's builder UI, and checking it before
 * anything is sent, with messages that point at the row and button.
 */
export type { BuilderRow } from './fromBuilderRows';
export { keypadFromBuilderRows } from './fromBuilderRows';
export type { ButtonSettingsFields } from './settings';
export { BUTTON_SETTINGS } from './settings';
export { parseKeypad } from './parse';
export { validateKeypad } from './validate';

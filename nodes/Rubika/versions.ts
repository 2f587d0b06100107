/**
 * The action node's versions. A new node gets the newest; a node keeps the version it was added with, so a
 * saved workflow goes on sending what it sent.
 *
 * - 1: the first.
 * - 1.1: keypad buttons get fields for their type's settings (a date picker's years, a text box's
 *   keyboard…), and the JSON for extra button fields only for the types that have settings. Version 1
 *   nodes keep the JSON on every button, and no settings fields.
 */
export const BUTTON_SETTINGS_VERSION = 1.1;

export const RUBIKA_NODE_VERSIONS = [1, BUTTON_SETTINGS_VERSION];

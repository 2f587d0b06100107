/**
 * The action node's versions. A new node gets the newest; a node keeps the version it was added with, so a
 * saved workflow goes on sending what it sent.
 *
 * - 1: the first.
 * - 1.1: keypad buttons get fields for their type's settings (a date picker's years, a text box's
 *   keyboard…), and the JSON for extra button fields only for the types that have settings (version 1
 *   keeps the JSON on every button and has no settings fields). Unpin All Messages sends a Message ID, as
 *   the one library that calls it does (version 1 sends one only when it is filled in).
 */
export const VERSION_1_1 = 1.1;

export const RUBIKA_NODE_VERSIONS = [1, VERSION_1_1];

/** displayOptions.show conditions for fields of version 1.1 on, and for fields version 1.1 replaced. */
export const SHOW_FROM_1_1 = { '@version': [{ _cnd: { gte: VERSION_1_1 } }] };
export const SHOW_BEFORE_1_1 = { '@version': [{ _cnd: { lt: VERSION_1_1 } }] };

/**
 * The sandbox chat page's entry point: plays the people of the sandbox against a bot. Reads the sandbox's state
 * through the admin API (`/_sandbox/state`, `/_sandbox/chats/:id/messages`), acts through its user actions
 * (`/_sandbox/actions/…`, the same actions tests use in-process) and follows changes live on
 * `/_sandbox/events` (Server-Sent Events, see ../events.ts). No framework and no build step: the DOM is
 * built with createElement/textContent; the only HTML strings come from renderText (render.js), which escapes.
 *
 * Each module wires its own controls when it loads; importing them here makes sure all are loaded before
 * the stream starts, which then loads the known.
 */
import './sidebar.js';
import './chatView.js';
import './messages.js';
import './keypads.js';
import './inputButtons.js';
import './composer.js';
import './commands.js';
import { connect } from './liveEvents.js';

connect();

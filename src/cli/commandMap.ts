/**
 * The explicit command map oclif loads (`oclif.commands.strategy = explicit`): no folder scan at start-up.
 * Command files are thin; everything heavy (host, actors, lmdb) is imported lazily inside `run()`.
 * `gui` joins here when the GUI server lands.
 */
import Ask from './commands/ask.js';
import Check from './commands/check.js';
import Gui from './commands/gui.js';
import Init from './commands/init.js';
import Serve from './commands/serve.js';

/** Command id → command class. */
export const COMMANDS = {
  ask: Ask,
  check: Check,
  gui: Gui,
  init: Init,
  serve: Serve,
};

/**
 * The explicit command map oclif loads (`oclif.commands.strategy = explicit`): no folder scan at start-up.
 * `ask`, `serve` and `gui` join here when the host lands.
 */
import Check from './commands/check.js';
import Gui from './commands/gui.js';

/** Command id → command class. */
export const COMMANDS = {
  check: Check,
  gui: Gui,
};

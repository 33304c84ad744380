/**
 * The flags of every design edit (`agents add|edit|remove|tie|untie`, `templates add|edit|remove`, `village set`):
 * the management flags plus `--base`, the revision a change is made from.
 */
import { Flags } from '@oclif/core';
import { manageFlags } from '../flags.js';

/** Refused while another process holds the village. */
export const DESIGN_HELD = 'Refused (exit 4) while serve or the GUI has the village open: make the change there, or stop it first.';

/** What a stale base does. */
export const DESIGN_BASE =
  'With --base REV (a revisions value of an earlier --json object) a change made since is refused with EDIT_CONFLICT (exit 1) and nothing is written.';

export const designFlags = {
  ...manageFlags,
  base: Flags.string({
    helpValue: '<revision>',
    description: "The revision the change is made from (workspace/world.json's in an earlier --json object's revisions); default: the one this command reads.",
  }),
};

/** The base option of parsed design flags. */
export function baseOption(flags: { base?: string | undefined }): { base?: string } {
  return flags.base === undefined ? {} : { base: flags.base };
}

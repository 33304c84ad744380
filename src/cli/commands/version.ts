/**
 * `fuseforks-cli version` — the same line as `--version` and `-v` (the build's version: tag and commit, SPEC §6.6),
 * for people who type it as a word.
 */
import { Command } from '@oclif/core';

/** The `version` command. */
export default class Version extends Command {
  static override summary = 'Print the version (the same as --version and -v).';
  static override examples = ['<%= config.bin %> version'];

  async run(): Promise<void> {
    // oclif's own --version line: `fuseforks-cli/<version> <platform>-<arch> node-<version>`.
    this.log(this.config.userAgent);
  }
}

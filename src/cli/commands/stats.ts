/**
 * `fuseforks-cli stats` — tokens, turns, latency and ≈ cost of one conversation or of all. Thin: parse, then the
 * lazily loaded runner in `../manage/stats.js`.
 */
import { Command, Flags } from '@oclif/core';
import { dataDirFlag, outputFlags } from '../flags.js';
import { CliOutput, noteLevelOf, processStreams } from '../output.js';

/** The `stats` command. */
export default class Stats extends Command {
  static override summary = 'Show what the village\'s conversations cost: turns, tokens, latency, per agent, ≈ $.';
  static override description =
    'Reads the session store (also while serve or the GUI has the village open: read-only, beside it). By default the ' +
    'latest conversation; --all for every one, --since to start at a date. A conversation without records says so.';
  static override examples = [
    '<%= config.bin %> stats -d ./data',
    '<%= config.bin %> stats -d ./data --all --since 2026-11-01',
    '<%= config.bin %> stats -d ./data --session 1796255040599-34984a9a --json',
  ];
  static override flags = {
    'data-dir': dataDirFlag,
    session: Flags.string({ helpValue: '<id>', description: 'One conversation (default: the latest).', exclusive: ['all', 'since'] }),
    all: Flags.boolean({ default: false, description: 'Every conversation.' }),
    since: Flags.string({ helpValue: '<YYYY-MM-DD>', description: 'Only usage from this local date on (implies --all).' }),
    json: Flags.boolean({ default: false, description: 'Print the report as one JSON object on stdout.' }),
    ...outputFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Stats);
    const { runStats } = await import('../manage/stats.js');
    process.exitCode = await runStats(
      {
        dataDir: flags['data-dir'],
        all: flags.all,
        json: flags.json,
        ...(flags.session === undefined ? {} : { session: flags.session }),
        ...(flags.since === undefined ? {} : { since: flags.since }),
      },
      new CliOutput('human', processStreams, noteLevelOf(flags)),
    );
  }
}

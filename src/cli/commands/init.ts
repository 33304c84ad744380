/**
 * `fuseforks-cli init --data-dir D` — create the bundled example village in D (never overwrites; exit 5 when a
 * village is already there). Thin: parse, then the lazily loaded `runInit`.
 */
import { Command } from '@oclif/core';
import { dataDirFlag, eventsFlags, outputFlags } from '../flags.js';
import { CliOutput, noteLevelOf, processStreams } from '../output.js';

/** The `init` command. */
export default class Init extends Command {
  static override summary = 'Create the example village (five agents, offline demo model) in a data dir.';
  static override description = 'Copies examples/village into --data-dir. Exit 0 when created, 5 when D/workspace/world.json already exists (nothing is overwritten).';
  static override examples = ['<%= config.bin %> init --data-dir ./demo'];
  static override flags = { 'data-dir': dataDirFlag, ...eventsFlags, ...outputFlags };

  async run(): Promise<void> {
    const { flags } = await this.parse(Init);
    const { runInit } = await import('../init/runInit.js');
    const { invocationOf } = await import('../init/invocation.js');
    const { realOf, realOnPath } = await import('../init/pathLookup.js');
    const invocation = invocationOf(process.argv[1] ?? 'bin/run.js', process.cwd(), (name) => realOnPath(name, process.env.PATH), realOf);
    process.exitCode = runInit({ dataDir: flags['data-dir'], invocation }, new CliOutput(flags.events === 'jsonl' ? 'jsonl' : 'human', processStreams, noteLevelOf(flags)));
  }
}

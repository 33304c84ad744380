/**
 * `fuseforks-cli seed --from BAKE --data-dir D [--update-design]` — the init step of a container: lay a bake into
 * D only when D holds no village yet; with --update-design replace its design and keep its run state.
 */
import { Command, Flags } from '@oclif/core';
import { dataDirFlag, eventsFlags } from '../flags.js';
import { CliOutput } from '../output.js';

/** The `seed` command. */
export default class Seed extends Command {
  static override summary = 'Seed a data dir from a bake when it holds no village yet (the container init step).';
  static override description =
    'Copies the bake\'s files into --data-dir only when <dir>/workspace/world.json is absent; otherwise changes nothing ' +
    '(exit 0). --update-design replaces the design files (keeping sessions, log, exports, the shelf and Memory.md the ' +
    'agents wrote to). Takes the village lock: exit 4 while serve or the GUI has the village open.';
  static override examples = [
    '<%= config.bin %> seed --from /opt/fuseforks/bake --data-dir /data',
    '<%= config.bin %> seed --from ./bake --data-dir /data --update-design',
  ];
  static override flags = {
    from: Flags.string({ required: true, helpValue: '<dir>', description: 'A folder made by `fuseforks-cli bake`.' }),
    'data-dir': dataDirFlag,
    'update-design': Flags.boolean({ default: false, description: 'Replace the design of an existing village, keeping its run state.' }),
    'replace-memory': Flags.boolean({ default: false, description: 'With --update-design: also replace Memory.md files the agents appended to.' }),
    ...eventsFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Seed);
    const { runSeed } = await import('../ship/runBake.js');
    process.exitCode = await runSeed(
      { from: flags.from, dataDir: flags['data-dir'], updateDesign: flags['update-design'], replaceMemory: flags['replace-memory'] },
      new CliOutput(flags.events === 'jsonl' ? 'jsonl' : 'human'),
    );
  }
}

/**
 * `fuseforks-cli bake --data-dir D --out DIR` — copy a village's design (never its run state, never the shelf
 * unless named) into a folder a container is seeded from. Thin: parse, then the lazily loaded `runBake`.
 */
import { Command, Flags } from '@oclif/core';
import { dataDirFlag, eventsFlags, villageFlags } from '../flags.js';
import { CliOutput } from '../output.js';

/** The `bake` command. */
export default class Bake extends Command {
  static override summary = 'Copy a village\'s design into a folder a container is seeded from (no sessions, no log, no shelf).';
  static override description =
    'Checks the copy as `check --for serve --secrets env` would in the container and refuses (exit 3, nothing written) ' +
    'when serve would. Prints the FUSEFORKS_SECRET_* variables and the stdio MCP commands the container needs. ' +
    'Exit 2 when --out is not empty.';
  static override examples = [
    '<%= config.bin %> bake --data-dir ./my-village --out ./bake',
    '<%= config.bin %> bake --data-dir ./my-village --out ./bake --with-shelf probe_approvals.json',
  ];
  static override flags = {
    'data-dir': dataDirFlag,
    out: Flags.string({ required: true, helpValue: '<dir>', description: 'New (or empty) folder for the bake.' }),
    start: Flags.string({ default: 'batch', helpValue: 'batch|a,b,c', description: 'The --start the container will use (the image uses batch).' }),
    'with-shelf': Flags.string({
      helpValue: '<files>',
      description: 'Shelf files to include on purpose, comma-separated: mcp_server.json, probe_approvals.json, jev.json, pricing.json.',
    }),
    'bypass-plan-review': villageFlags['bypass-plan-review'],
    'run-approval': villageFlags['run-approval'],
    json: Flags.boolean({ default: false, description: 'Print the bake manifest as one JSON line on stdout.' }),
    'require-evals': Flags.boolean({ default: false, description: 'Refuse (exit 10) unless the newest eval run of this design on this machine passed every case.' }),
    ...eventsFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Bake);
    const { runBake } = await import('../ship/runBake.js');
    process.exitCode = await runBake(
      {
        dataDir: flags['data-dir'],
        out: flags.out,
        start: flags.start,
        withShelf: flags['with-shelf'],
        bypassPlanReview: flags['bypass-plan-review'],
        runApproval: flags['run-approval'],
        json: flags.json,
        requireEvals: flags['require-evals'],
      },
      new CliOutput(flags.events === 'jsonl' ? 'jsonl' : 'human'),
    );
  }
}

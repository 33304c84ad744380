/**
 * `fuseforks-cli check --for ask|serve …` — can this village run headless with these arguments? Thin: parse,
 * then `runCheck` (lazy-loaded so `--help` stays cheap). Sets `process.exitCode`, never exits mid-flight.
 */
import { Command } from '@oclif/core';
import { checkFlags, eventsFlags, outputFlags, villageFlags } from '../flags.js';
import { CliOutput, noteLevelOf, processStreams } from '../output.js';

/** The `check` command. */
export default class Check extends Command {
  static override summary = 'Check whether a village can run without the GUI (no LLM call, no MCP connection, no write).';
  static override description =
    'Takes the same arguments as the command it checks. Prints two lines per finding and a count, or one JSON ' +
    'line with --json. Exit 0 when nothing rejects, 3 when something does, 2 for a bad argument, 5 when the ' +
    'village cannot be read.';
  static override examples = [
    '<%= config.bin %> check --for ask --data-dir ./data --start reception',
    '<%= config.bin %> check --for serve --data-dir /data --start batch --secrets env --json',
  ];
  // `--events jsonl` is accepted so `check` takes the same arguments as ask/serve; it makes stderr JSON lines.
  static override flags = { ...checkFlags, ...villageFlags, ...eventsFlags, ...outputFlags };

  async run(): Promise<void> {
    const { flags } = await this.parse(Check);
    const { runCheck } = await import('../check/runCheck.js');
    process.exitCode = await runCheck(
      {
        dataDir: flags['data-dir'],
        for: flags.for,
        start: flags.start,
        secrets: flags.secrets,
        bypassPlanReview: flags['bypass-plan-review'],
        runApproval: flags['run-approval'],
        json: flags.json,
      },
      new CliOutput(flags.events === 'jsonl' ? 'jsonl' : 'human', processStreams, noteLevelOf(flags)),
    );
  }
}

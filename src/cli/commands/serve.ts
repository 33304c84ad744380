/**
 * `fuseforks-cli serve …` — run the village headless until SIGINT/SIGTERM: schedules, the door, crash restarts
 * (SPEC §6.3). Thin: signal handlers first, parse, then the lazily loaded `runServe`.
 */
import { Command } from '@oclif/core';
import { eventsFlags, outputFlags, serveVillageFlags } from '../flags.js';
import { CliOutput, noteLevelOf, processStreams } from '../output.js';
import { processSignals } from '../signals.js';
import { readBuildVersion } from '../version.js';

/** The `serve` command. */
export default class Serve extends Command {
  static override summary = 'Run the village without the GUI until SIGINT or SIGTERM.';
  static override description =
    'Starts the start set, runs schedules and the door (when enabled on this shelf) and restarts crashed workers. ' +
    'The first SIGINT/SIGTERM closes cleanly (exit 0, grace 30 s); a second exits at once.';
  static override examples = ['<%= config.bin %> serve --data-dir /data --start batch --secrets env'];
  static override flags = { ...serveVillageFlags, ...eventsFlags, ...outputFlags };

  async run(): Promise<void> {
    // bin/run.js installed the handlers before the CLI loaded; this takes them over with any signal already counted.
    const signals = processSignals();
    const { flags } = await this.parse(Serve);
    const output = new CliOutput(flags.events === 'jsonl' ? 'jsonl' : 'human', processStreams, noteLevelOf(flags));
    const { runServe } = await import('../serve/runServe.js');
    process.exitCode = await runServe(
      {
        dataDir: flags['data-dir'],
        start: flags.start,
        secrets: flags.secrets,
        bypassPlanReview: flags['bypass-plan-review'],
        runApproval: flags['run-approval'],
        appVersion: readBuildVersion(),
      },
      output,
      signals,
    );
    signals.dispose();
  }
}

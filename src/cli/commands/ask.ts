/**
 * `fuseforks-cli ask … <text | ->` — one request to the village's reception; the answer on stdout, the outcome as
 * the exit code (SPEC §6.2, §6.4). Thin: signal handlers first, parse, then the lazily loaded `runAsk`.
 */
import { Args, Command } from '@oclif/core';
import { bootMark } from '../../core/bootTrace.js';
import { askFlags, eventsFlags, noteLevelOf, outputFlags, villageFlags } from '../flags.js';
import { CliOutput, processStreams } from '../output.js';
import { processSignals } from '../signals.js';
import { readBuildVersion } from '../version.js';

/** The `ask` command. */
export default class Ask extends Command {
  static override summary = 'Send one request to the village reception and print the answer.';
  static override description =
    'Starts the start set (plus the reception) in a new conversation, sends the text as an external client, prints ' +
    'the answer and exactly one newline on stdout (with --json one report object instead), and exits by outcome: ' +
    '0 answered, 6 no answer, 7 timed out, 8 interrupted, 9 budget exhausted (3 preflight rejected, 4 village held, ' +
    '5 boot failed). Without an answer, stdout stays empty and the notice and its reasons go to stderr.';
  static override examples = [
    '<%= config.bin %> ask --data-dir ./data --start batch "Summarise the open issues"',
    'echo "hello" | <%= config.bin %> ask --data-dir ./data --start reception --secrets env -',
    '<%= config.bin %> ask --data-dir ./data --start reception --quiet --json --timeout 120 "Status report"',
  ];
  static override args = { text: Args.string({ required: true, description: 'The request text, or - to read it from stdin.' }) };
  static override flags = { ...villageFlags, ...askFlags, ...eventsFlags, ...outputFlags };

  async run(): Promise<void> {
    // bin/run.js installed the handlers before the CLI loaded; this takes them over with any signal already counted.
    bootMark('ask command');
    const signals = processSignals();
    const { args, flags } = await this.parse(Ask);
    const output = new CliOutput(flags.events === 'jsonl' ? 'jsonl' : 'human', processStreams, noteLevelOf(flags));
    const text = args.text === '-' ? await readStdin() : args.text;
    bootMark('ask parsed');
    // The workers first: their bootstraps then overlap with loading and running the rest of the command.
    await (await import('../ask/earlyPrewarm.js')).prewarmForAsk(flags['data-dir'], flags.start);
    bootMark('early prewarm');
    const { runAsk } = await import('../ask/runAsk.js');
    process.exitCode = await runAsk(
      {
        dataDir: flags['data-dir'],
        start: flags.start,
        secrets: flags.secrets,
        bypassPlanReview: flags['bypass-plan-review'],
        runApproval: flags['run-approval'],
        text,
        ...(flags.client === undefined ? {} : { client: flags.client }),
        continueSession: flags['continue-session'],
        verbose: flags.verbose,
        json: flags.json,
        ...(flags.timeout === undefined ? {} : { timeoutSecs: flags.timeout }),
        appVersion: readBuildVersion(),
      },
      output,
      signals,
    );
    signals.dispose();
  }
}

/** The whole of stdin as UTF-8, without one trailing newline (what `echo` adds). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/**
 * `fuseforks-cli ask … <text | ->` — one request to the village's reception; the answer on stdout, the outcome as
 * the exit code (SPEC §6.2, §6.4). Thin: signal handlers first, parse, then the command's body (askCommand.ts). Plain
 * arguments never get here: `bin/run.js` runs them on ask's fast path (ask/askFromArgv.ts) without loading oclif.
 */
import { Args, Command } from '@oclif/core';
import { bootMark } from '../../core/bootTrace.js';
import { askFlags, eventsFlags, outputFlags, villageFlags } from '../flags.js';
import { processSignals } from '../signals.js';

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
    // The body loads only now: the other commands (and --version) never load ask's part of the CLI.
    const { executeAsk } = await import('../ask/askCommand.js');
    process.exitCode = await executeAsk(flags, args.text, signals);
    signals.dispose();
  }
}

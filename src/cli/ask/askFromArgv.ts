/**
 * `ask`'s fast path, the first thing `bin/run.js` tries for `fuseforks-cli ask …`: when askArgv.ts can read the
 * arguments it runs the command here, without loading oclif (the CLI bundle, its config and plugins) at all; when
 * it cannot (help, anything unusual or wrong), it returns false and the oclif CLI handles the arguments as usual.
 * Escaped errors map to a note and an exit code exactly as main.ts maps them.
 */
import { bootMark } from '../../core/bootTrace.js';
import { reportEscaped } from '../escapedError.js';
import { exitCodeOf, owedJsonLine } from '../jsonReply.js';
import { CliOutput, processStreams } from '../output.js';
import { processReply } from '../replyLedger.js';
import { processSignals } from '../signals.js';
import { parseAskArgv } from './askArgv.js';
import { executeAsk } from './askCommand.js';

/** `argv` without node and the script (`['ask', …]`). True when the command ran here (process.exitCode is set). */
export async function askFromArgv(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  if (argv[0] !== 'ask') return false;
  const args = parseAskArgv(argv.slice(1), env);
  if (args === null) return false;
  bootMark('ask command');
  const signals = processSignals();
  try {
    process.exitCode = await executeAsk(args.flags, args.text, signals);
  } catch (error) {
    process.exitCode = reportEscaped(error, new CliOutput(args.flags.events === 'jsonl' ? 'jsonl' : 'human'));
  }
  const owed = owedJsonLine(argv, exitCodeOf(process.exitCode), processReply);
  if (owed !== null) processStreams.stdout(`${owed}\n`);
  signals.dispose();
  return true;
}

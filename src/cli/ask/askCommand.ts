/**
 * What `ask` does once its arguments are read, by oclif (commands/ask.ts) or by the fast path (askFromArgv.ts):
 * the stderr renderer the flags ask for, the request text (stdin for `-`), the start set's workers spawned first
 * (their bootstraps overlap with loading the rest), then the lazily loaded `runAsk`. Returns the exit code.
 */
import { bootMark } from '../../core/bootTrace.js';
import type { AskFlagValues } from '../flagSpecs.js';
import { CliOutput, noteLevelOf, processStreams } from '../output.js';
import type { SignalWatch } from '../signals.js';
import { readBuildVersion } from '../version.js';
import { prewarmForAsk } from './earlyPrewarm.js';

export async function executeAsk(flags: AskFlagValues, textArg: string, signals: SignalWatch): Promise<number> {
  const level = noteLevelOf(flags);
  // ask's stderr is about the outcome: the diagnostic band (info lines) only with --verbose, or as JSON lines.
  const minLevel = flags.events === 'jsonl' || flags.verbose || level !== 'info' ? level : 'warn';
  const output = new CliOutput(flags.events === 'jsonl' ? 'jsonl' : 'human', processStreams, minLevel);
  const text = textArg === '-' ? await readStdin() : textArg;
  bootMark('ask parsed');
  await prewarmForAsk(flags['data-dir'], flags.start);
  bootMark('early prewarm');
  const { runAsk } = await import('./runAsk.js');
  return runAsk(
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
}

/** The whole of stdin as UTF-8, without one trailing newline (what `echo` adds). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/**
 * `fuseforks-cli ask` as a testable function (SPEC §6.2): preflight → boot (no door, no schedules) → start the
 * start set → one external request → the answer on stdout plus exactly one newline → close (which waits for the
 * turn record) → the exit code of the outcome (SPEC §6.4). Signals: during boot → 8 having sent nothing; the first
 * after sending → interrupt_all and keep waiting (→ 8); the second → exit at once with 8.
 */
import { isFuseforksError } from '../../core/errors.js';
import { EXIT, exitForOutcome, type ExitCode } from '../exitCodes.js';
import { preflightGate, type HeadlessFlags } from '../headless/preflightGate.js';
import { closeAndReport, openHost } from '../headless/openHost.js';
import type { CliOutput } from '../output.js';
import { exitNow, type SignalWatch } from '../signals.js';

/** Client name used when `--client` is absent. */
export const DEFAULT_CLIENT = 'fuseforks-cli';

/** Parsed arguments of `ask`. */
export interface AskOptions extends HeadlessFlags {
  /** The request text (already read from stdin for `-`). */
  text: string;
  client?: string;
  continueSession: boolean;
  verbose: boolean;
  appVersion: string;
}

function bootInterrupted(output: CliOutput): ExitCode {
  output.note({ level: 'warn', code: 'INTERRUPTED', message: 'Interrupted while starting; nothing was sent.' });
  return EXIT.interrupted;
}

/** Runs `ask`; returns the exit code. Only the answer is written to stdout. */
export async function runAsk(options: AskOptions, output: CliOutput, signals: SignalWatch): Promise<ExitCode> {
  const gate = await preflightGate('ask', options, output, options.verbose);
  if (!gate.ok) return gate.exit;
  if (signals.count > 0) return bootInterrupted(output);
  // A second signal while booting or waiting is "exit now" (the OS releases the lock when the process ends).
  signals.onSignal((count) => {
    if (count >= 2) exitNow(EXIT.interrupted);
  });
  const opened = await openHost(
    options.dataDir,
    {
      appVersion: options.appVersion,
      secrets: options.secrets,
      runSchedules: false,
      openDoor: false,
      runApproval: options.runApproval,
      bypassPlanReview: options.bypassPlanReview,
      session: options.continueSession ? 'latest' : 'new',
      ...(options.env === undefined ? {} : { env: options.env }),
    },
    output,
  );
  if (!opened.ok) return opened.exit;
  const host = opened.host;
  try {
    await host.startSet(gate.start, signals.signal);
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix ? { fix: error.fix } : {}) });
    await closeAndReport(host, output);
    return EXIT.coreError;
  }
  if (signals.count > 0) {
    await closeAndReport(host, output);
    return bootInterrupted(output);
  }
  signals.onSignal((count) => {
    if (count === 1) void host.interruptAll();
  });
  let outcome;
  try {
    outcome = await host.askExternal(options.client ?? DEFAULT_CLIENT, options.text);
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix ? { fix: error.fix } : {}) });
    await closeAndReport(host, output);
    return EXIT.coreError;
  }
  output.stdout(outcome.answer);
  const late = await closeAndReport(host, output);
  const code = exitForOutcome(outcome.state);
  // Past the grace some worker may still be alive and hold the event loop open.
  if (late) exitNow(code);
  return code;
}

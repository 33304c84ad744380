/**
 * `fuseforks-cli ask` as a testable function: preflight → boot (no door, no schedules) → start the start set → one
 * external request → close (which waits for the turn record) → the exit code of the outcome. stdout only ever
 * holds an answer (plus one newline), or with `--json` exactly one report object; an unanswered request's notice
 * and the reasons of the turns that failed go to stderr; `--events jsonl` ends with an `outcome` line.
 * Signals: during boot → 8 having sent nothing; the first after sending → interrupt_all and keep waiting (→ 8);
 * the second → exit at once with 8.
 */
import { jsonText } from '../jsonFormat.js';
import type { ErrorPayload } from '../../core/errors.js';
import { bootMark } from '../../core/bootTrace.js';
import { isFuseforksError } from '../../core/errors.js';
import type { HostApi } from '../../host/hostApi.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import { preflightGate, type HeadlessFlags } from '../headless/preflightGate.js';
import { closeAndReport, openHost } from '../headless/openHost.js';
import type { CliOutput } from '../output.js';
import { exitNow, type SignalWatch } from '../signals.js';
import { ASK_STDOUT_MAX_BYTES, capAnswer } from './answerCap.js';
import { topUpForAsk } from './earlyPrewarm.js';
import { deliveredReport, failureNotes, outcomeNote, undeliveredReport, type AskReport } from './askReport.js';

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
  /** Print one JSON report on stdout instead of the answer. */
  json?: boolean;
  /** Longest wait for the answer (seconds); default the village's askTimeoutSecs. */
  timeoutSecs?: number;
}

/** Writes the end of an ask: the answer or the JSON report on stdout, the `outcome` line under jsonl. */
function finish(full: AskReport, options: AskOptions, output: CliOutput): ExitCode {
  // The answer on stdout (and in the JSON report and the outcome line) is capped; the session keeps all of it.
  const printed = full.answer === null ? null : capAnswer(full.answer);
  const report = printed === null || !printed.cut ? full : { ...full, answer: printed.text };
  if (printed?.cut) {
    output.note({
      level: 'warn',
      code: 'ANSWER_TRUNCATED',
      message: `The answer is ${printed.bytes} bytes; stdout has its first ${ASK_STDOUT_MAX_BYTES}. The whole answer is saved in the conversation ${full.sessionId ?? '(not saved: the session store is unavailable)'}.`,
      fix: 'Export the conversation to read the rest (GUI: conversations, export).',
    });
  }
  if (options.json === true) output.stdout(jsonText(report));
  else if (report.answer !== null) output.stdout(report.answer);
  output.event({ type: 'outcome', ...report });
  return report.exitCode;
}

function bootInterrupted(options: AskOptions, output: CliOutput): ExitCode {
  output.note({ level: 'warn', code: 'INTERRUPTED', message: 'Interrupted while starting; nothing was sent.' });
  return finish(undeliveredReport(EXIT.interrupted), options, output);
}

/** Runs `ask`; returns the exit code. */
export async function runAsk(options: AskOptions, output: CliOutput, signals: SignalWatch): Promise<ExitCode> {
  bootMark('ask loaded');
  process.once('exit', () => bootMark('exit'));
  const gate = await preflightGate('ask', options, output, options.verbose);
  bootMark('preflight done');
  if (!gate.ok) return finish(undeliveredReport(gate.exit), options, output);
  if (signals.count > 0) return bootInterrupted(options, output);
  // The start set's workers boot on the other core while this thread loads the host and opens the village.
  topUpForAsk(options.dataDir, gate.start.length);
  bootMark('workers spawned');
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
      loadReceptionEngineAtStart: true,
      runApproval: options.runApproval,
      bypassPlanReview: options.bypassPlanReview,
      session: options.continueSession ? 'latest' : 'new',
      ...(options.env === undefined ? {} : { env: options.env }),
    },
    output,
    ['LOCK_HELD'],
  );
  if (!opened.ok) return finish(opened.error.code === 'LOCK_HELD' ? await viaDoor(opened.error, options, output, signals) : undeliveredReport(opened.exit), options, output);
  const host = opened.host;
  bootMark('host open');
  // Why turns failed under this request (agentFailed carries the error's code, message and fix).
  const failures: ErrorPayload[] = [];
  host.events.subscribe((event) => {
    if (event.type === 'agentFailed') failures.push(event.error);
    // The answer still comes (exit 0), but cut short: said on the quiet default stderr, not only in the diagnostics.
    if (event.type === 'toolLimitReached') {
      output.note({
        level: 'warn',
        code: 'TOOL_LIMIT',
        message: `${event.agentId} reached its tool limit (${event.maxIterations} rounds) and answered with what it had.`,
        fix: `If it needs more rounds, raise "maxToolIterations" of agent ${event.agentId} in workspace/world.json (at most 255).`,
      });
    }
  });
  const report = await deliver(host, gate.start, options, output, signals, failures);
  bootMark('answered');
  const late = await closeAndReport(host, output);
  bootMark('closed');
  const code = finish(report, options, output);
  bootMark('printed');
  // Past the grace some worker may still be alive and hold the event loop open.
  if (late) exitNow(code);
  return code;
}

/** The village is held by another process: through its MCP door when that is open, else exit 4 saying how to fix it. */
async function viaDoor(held: ErrorPayload, options: AskOptions, output: CliOutput, signals: SignalWatch): Promise<AskReport> {
  const { askThroughDoor } = await import('./askThroughDoor.js');
  const report = await askThroughDoor(
    {
      dataDir: options.dataDir,
      text: options.text,
      client: options.client ?? DEFAULT_CLIENT,
      signal: signals.signal,
      ...(options.timeoutSecs === undefined ? {} : { timeoutSecs: options.timeoutSecs }),
    },
    output,
  );
  if (report !== null) return report;
  output.note({
    level: 'error',
    code: held.code,
    message: `${held.message} Its MCP door is off or not listening, so ask cannot go through it either.`,
    fix: 'Stop the other process, or switch its door on (fuseforks-cli door enable --data-dir …, then restart serve) so ask goes through it.',
  });
  return undeliveredReport(EXIT.villageHeld);
}

/** Starts the start set and sends the request; the report of how it went (notes already written). */
async function deliver(
  host: HostApi,
  start: readonly string[],
  options: AskOptions,
  output: CliOutput,
  signals: SignalWatch,
  failures: readonly ErrorPayload[],
): Promise<AskReport> {
  try {
    await host.startSet(start, signals.signal);
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix ? { fix: error.fix } : {}) });
    return undeliveredReport(EXIT.coreError);
  }
  bootMark('start set ready');
  if (signals.count > 0) {
    output.note({ level: 'warn', code: 'INTERRUPTED', message: 'Interrupted while starting; nothing was sent.' });
    return undeliveredReport(EXIT.interrupted);
  }
  signals.onSignal((count) => {
    if (count === 1) void host.interruptAll();
  });
  try {
    const timeout = options.timeoutSecs === undefined ? {} : { timeoutMs: options.timeoutSecs * 1000 };
    const outcome = await host.askExternal(options.client ?? DEFAULT_CLIENT, options.text, timeout);
    const report = deliveredReport(outcome, host.sessionId());
    if (report.exitCode !== EXIT.ok) {
      for (const note of failureNotes(failures)) output.note(note);
      const notice = outcomeNote(outcome);
      if (notice !== null) output.note(notice);
    }
    return report;
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix ? { fix: error.fix } : {}) });
    return undeliveredReport(EXIT.coreError);
  }
}

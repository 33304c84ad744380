/**
 * `fuseforks-cli eval` as a testable function: preflight (as `ask` checks) → boot (no door, no schedules) → the
 * host's eval run → close → stdout (table + summary, or one JSON object), the JUnit file, the exit code. Signals:
 * the first interrupts the turn in flight and starts no further repeat (→ 8 with what ran reported); the second
 * exits at once with 8.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isFuseforksError } from '../../core/errors.js';
import { junitXml } from '../../core/evals/junitReport.js';
import { runPassed } from '../../core/evals/caseResult.js';
import type { EvalRunRecord } from '../../host/hostApi.js';
import { EXIT, exitForArgumentError, type ExitCode } from '../exitCodes.js';
import { jsonText } from '../jsonFormat.js';
import { preflightGate, type HeadlessFlags } from '../headless/preflightGate.js';
import { closeAndReport, openHost } from '../headless/openHost.js';
import type { CliOutput } from '../output.js';
import { exitNow, type SignalWatch } from '../signals.js';
import { readBuildVersion } from '../version.js';
import { evalText } from './evalText.js';

/** Parsed arguments of `eval`. */
export interface EvalOptions extends HeadlessFlags {
  caseIds: readonly string[];
  repeat?: number;
  budget?: number;
  json: boolean;
  junit?: string;
}

/** The exit code of a finished run: 8 interrupted, 0 every case passed (and no unusable file), else 10. */
export function exitForEvalRun(record: Pick<EvalRunRecord, 'interrupted' | 'summary' | 'problems'>): ExitCode {
  if (record.interrupted) return EXIT.interrupted;
  return runPassed(record.summary) && record.problems.length === 0 ? EXIT.ok : EXIT.evalsFailed;
}

/** Runs `eval`; returns the exit code. */
export async function runEval(options: EvalOptions, output: CliOutput, signals: SignalWatch): Promise<ExitCode> {
  const gate = await preflightGate('ask', options, output, false);
  if (!gate.ok) return gate.exit;
  if (signals.count > 0) return EXIT.interrupted;
  signals.onSignal((count) => {
    if (count >= 2) exitNow(EXIT.interrupted);
  });
  const opened = await openHost(
    options.dataDir,
    {
      appVersion: readBuildVersion(),
      secrets: options.secrets,
      runSchedules: false,
      openDoor: false,
      runApproval: options.runApproval,
      bypassPlanReview: options.bypassPlanReview,
      session: 'new',
      ...(options.env === undefined ? {} : { env: options.env }),
    },
    output,
  );
  if (!opened.ok) return opened.exit;
  const host = opened.host;
  let record: (EvalRunRecord & { file: string }) | null = null;
  let code: ExitCode;
  try {
    record = await host.evals.run({
      start: options.start,
      caseIds: options.caseIds,
      signal: signals.signal,
      ...(options.repeat === undefined ? {} : { repeat: options.repeat }),
      ...(options.budget === undefined ? {} : { budget: options.budget }),
      onRepeat: (caseId, r) => output.note({ level: 'info', code: 'EVAL_REPEAT', message: `${caseId} repeat ${r.repeat}: ${r.pass ? 'pass' : 'fail'} (${r.outcome}, ${r.effectiveTokens} tokens, ${(r.durationMs / 1000).toFixed(1)} s)` }),
    });
    code = exitForEvalRun(record);
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix ? { fix: error.fix } : {}) });
    code = error.code === 'EVAL_CASE_NOT_FOUND' || error.code === 'EVAL_CASE_INVALID' ? exitForArgumentError() : EXIT.coreError;
  }
  const late = await closeAndReport(host, output);
  if (record !== null) {
    const { file, ...run } = record;
    if (options.junit !== undefined) {
      const target = resolve(options.junit);
      writeFileSync(target, junitXml(run.cases, run.summary, run.finishedAt));
      output.note({ level: 'info', code: 'EVAL_JUNIT', message: `JUnit XML written to ${target}` });
    }
    output.note({ level: 'info', code: 'EVAL_SAVED', message: `results kept in ${file}` });
    output.stdout(options.json ? jsonText(run) : evalText(run));
  }
  if (late) exitNow(code);
  return code;
}

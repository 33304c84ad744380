/**
 * `--json` means one object on stdout for every exit code (README "Scripting with --json"): every object carries
 * `format` (the version of these shapes, docs/schemas/), and a run that ends without having printed one — an
 * argument error, a refused change, an escaped error — prints the error object, modelled on oclif's
 * `{"error":{…}}`: `{"format":1,"error":{code,message,fix?,fault?,exitCode}}` (ask: its report with that error).
 * The decisions are pure; what the process's own streams saw is replyLedger.ts.
 */
import { undeliveredReport } from './ask/askReport.js';
import type { ExitCode } from './exitCodes.js';
import { jsonText } from './jsonFormat.js';
import { noteFault } from './output.js';
import type { RecordedError, ReplyLedger } from './replyLedger.js';

/** What a failed run reports under `--json` when it printed nothing else. */
export interface ErrorBody {
  code: string;
  message: string;
  fix?: string;
  fault?: string;
  exitCode: number;
}

/** True when argv asks for `--json` (words after `--` are ask's request text, never flags). */
export function wantsJson(argv: readonly string[]): boolean {
  for (const word of argv) {
    if (word === '--') return false;
    if (word === '--json') return true;
  }
  return false;
}

/** The error body of a failure: the last error note, or a plain one naming the exit code when there was none. */
export function errorBody(note: RecordedError | undefined, exitCode: number): ErrorBody {
  if (note === undefined) return { code: 'FAILED', message: `The command failed with exit code ${exitCode}; see stderr.`, exitCode };
  const body: ErrorBody = { code: note.code, message: note.message, exitCode };
  if (note.fix !== undefined && note.fix !== '') body.fix = note.fix;
  const fault = noteFault(note.code);
  if (fault !== undefined) body.fault = fault;
  return body;
}

/**
 * The stdout line a run still owes when it ends: null unless `--json` was asked for, the run failed and nothing
 * was printed on stdout. `ask`'s line is its report (nothing delivered) with the error; others print the error.
 */
export function owedJsonLine(argv: readonly string[], exitCode: number, ledger: ReplyLedger): string | null {
  if (!wantsJson(argv) || exitCode === 0 || ledger.stdoutWritten) return null;
  const error = errorBody(ledger.lastError, exitCode);
  if (argv[0] === 'ask') return jsonText({ ...undeliveredReport(exitCode as ExitCode), error });
  return jsonText({ error });
}

/** The process's exit code as a number (`process.exitCode` may be unset or a string). */
export function exitCodeOf(value: string | number | null | undefined): number {
  const code = Number(value ?? 0);
  return Number.isInteger(code) ? code : 1;
}

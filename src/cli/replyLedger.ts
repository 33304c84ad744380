/**
 * What this process's own stdout and error notes saw (output.ts records it): the one piece of state behind the
 * `--json` promise, read once when the run ends (jsonReply.ts `owedJsonLine`). No imports: output.ts loads it.
 */

/** An error note as recorded (the fields of output.ts `CliNote` that the error object carries). */
export interface RecordedError {
  level: 'error' | 'warn' | 'info';
  code: string;
  message: string;
  fix?: string;
}

/** Whether stdout was written, and the last error note. */
export interface ReplyLedger {
  stdoutWritten: boolean;
  lastError: RecordedError | undefined;
}

/** The ledger of this process. */
export const processReply: ReplyLedger = { stdoutWritten: false, lastError: undefined };
